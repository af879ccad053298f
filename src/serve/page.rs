//! The game page: HTML, CSS and JavaScript built into the binary, so the server needs no files
//! and no network.

use axum::http::{StatusCode, Uri, header};
use axum::response::IntoResponse;

use super::error::ApiError;

/// The page's three files.
const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// What every page file is sent with: its type, and no caching, so a new server's page is
/// never mixed with an old one's script.
fn file(kind: &'static str, body: &'static str) -> impl IntoResponse {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// `GET /`.
pub async fn index() -> impl IntoResponse {
    file("text/html; charset=utf-8", INDEX)
}

/// `GET /app.js`.
pub async fn script() -> impl IntoResponse {
    file("text/javascript; charset=utf-8", SCRIPT)
}

/// `GET /style.css`.
pub async fn style() -> impl IntoResponse {
    file("text/css; charset=utf-8", STYLE)
}

/// Any other path: a 404 with the API's error object.
pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(format!(
        "no page {}: the page is at /, the API under /api/",
        uri.path()
    ))
}
