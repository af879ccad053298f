//! What every request passes through: limits on the address, the headers and the body; the
//! API's JSON body on every error, whoever produced it; the page's security headers; and one
//! access line per request in the log.

use std::net::SocketAddr;
use std::time::Instant;

use axum::body::{Body, to_bytes};
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// The longest address (path and query) the API reads; its longest real ones, a full 7x6 game
/// with every option, are under 200 bytes.
pub(crate) const MAX_URI_BYTES: usize = 4096;

/// The most header bytes (names and values) a request may carry.
pub(crate) const MAX_HEADER_BYTES: usize = 8192;

/// The most of an error body without a type that is read to turn it into a message.
const MAX_ERROR_TEXT: usize = 1024;

/// What the page may load and where it may be shown: its own files and connections only, and
/// in no other site's frame.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// The middleware: refuses requests past the limits, answers the rest through `next`, gives
/// every error a JSON body, adds the security headers and logs the request.
pub(crate) async fn guard(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let target = redacted(request.uri().path(), request.uri().query());
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0);
    let response = match refusal(&request) {
        // What is left of a refused request may be large or unread: close after answering.
        Some(error) => (
            [(header::CONNECTION, HeaderValue::from_static("close"))],
            error,
        )
            .into_response(),
        None => next.run(request).await,
    };
    let mut response = with_json_error(response, &method).await;
    add_security_headers(response.headers_mut());
    tracing::info!(
        target: "connectk::access",
        "{} {method} {target} {} {:.1} ms",
        peer.map_or_else(|| "-".to_string(), |p| p.to_string()),
        response.status().as_u16(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    response
}

/// Why `request` is refused before any handler sees it, if it is.
fn refusal(request: &Request) -> Option<ApiError> {
    let uri = request.uri();
    let uri_bytes = uri.path().len() + uri.query().map_or(0, |q| q.len() + 1);
    if uri_bytes > MAX_URI_BYTES {
        return Some(ApiError::UriTooLong(format!(
            "the address is {uri_bytes} bytes long: keep the path and query under {MAX_URI_BYTES}"
        )));
    }
    let header_bytes: usize = request
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    if header_bytes > MAX_HEADER_BYTES {
        return Some(ApiError::HeadersTooLarge(format!(
            "the request's headers hold {header_bytes} bytes: keep them under {MAX_HEADER_BYTES}"
        )));
    }
    has_body(request.headers()).then(|| {
        ApiError::BadRequest(
            "no endpoint takes a request body: put the parameters in the query string".into(),
        )
    })
}

/// Whether the headers announce a body: a length above zero, or a chunked one.
fn has_body(headers: &HeaderMap) -> bool {
    let length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim() != "0");
    length || headers.contains_key(header::TRANSFER_ENCODING)
}

/// The request's path and query for the log, with every seat token replaced by `***`: a token
/// proves a seat, and logs are read by others.
fn redacted(path: &str, query: Option<&str>) -> String {
    let Some(query) = query else {
        return path.to_string();
    };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some(("token", _)) => "token=***".to_string(),
            _ => pair.to_string(),
        })
        .collect();
    format!("{path}?{}", pairs.join("&"))
}

/// `response` itself when it is not an error or already JSON; else the same status and headers
/// with the API's `{"error": "..."}` body, whose message keeps the text of the original body
/// (axum's rejections explain themselves) or, without one, says what the status means.
async fn with_json_error(response: Response, method: &Method) -> Response {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = to_bytes(body, MAX_ERROR_TEXT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status_message(status, method, &parts.headers)
    } else {
        text
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    let body = serde_json::json!({ "error": message }).to_string();
    Response::from_parts(parts, Body::from(body))
}

/// A one-line message for an error status that came without one.
fn status_message(status: StatusCode, method: &Method, headers: &HeaderMap) -> String {
    match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            let allowed = headers
                .get(header::ALLOW)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("another method");
            format!("{method} is not allowed here: this address takes {allowed}")
        }
        other => format!(
            "the request was refused ({} {})",
            other.as_u16(),
            other.canonical_reason().unwrap_or("error")
        ),
    }
}

/// The headers that keep browsers from guessing types, loading other sites' code into the page
/// or showing the page inside another site.
fn add_security_headers(headers: &mut HeaderMap) {
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_kept_out_of_the_log() {
        assert_eq!(
            redacted("/api/rooms/ab/move", Some("token=secret&column=3")),
            "/api/rooms/ab/move?token=***&column=3"
        );
        assert_eq!(redacted("/", None), "/");
    }

    #[test]
    fn a_body_is_a_length_above_zero_or_chunks() {
        let mut headers = HeaderMap::new();
        assert!(!has_body(&headers));
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from_static("0"));
        assert!(!has_body(&headers));
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from_static("12"));
        assert!(has_body(&headers));
        let mut chunked = HeaderMap::new();
        chunked.insert(
            header::TRANSFER_ENCODING,
            HeaderValue::from_static("chunked"),
        );
        assert!(has_body(&chunked));
    }
}
