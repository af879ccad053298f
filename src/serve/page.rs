//! The pages: HTML, CSS, JavaScript modules and the icon built into the binary, so the server
//! needs no files and no network.

use axum::extract::Path;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// The icon, also at the address browsers ask for when a page names none.
const ICON: &str = include_str!("page/favicon.svg");

/// Every file under `/` but the pages themselves: its name, type and text.
const FILES: [(&str, &str, &str); 12] = [
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("page/style.css"),
    ),
    ("app.js", JS, include_str!("page/app.js")),
    ("common.js", JS, include_str!("page/common.js")),
    ("board.js", JS, include_str!("page/board.js")),
    ("analysis.js", JS, include_str!("page/analysis.js")),
    ("chart.js", JS, include_str!("page/chart.js")),
    ("plan.js", JS, include_str!("page/plan.js")),
    ("rooms.js", JS, include_str!("page/rooms.js")),
    ("quarto.js", JS, include_str!("page/quarto.js")),
    ("pieces.js", JS, include_str!("page/pieces.js")),
    ("favicon.svg", SVG, ICON),
    ("favicon.ico", SVG, ICON),
];

/// What every page file is sent with: its type, and no caching, so a new server's page is
/// never mixed with an old one's script.
fn sent(kind: &'static str, body: &'static str) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET /`: the Connect-k page.
pub(crate) async fn index() -> Response {
    sent(HTML, include_str!("page/index.html"))
}

/// `GET /quarto`: the Quarto page.
pub(crate) async fn quarto() -> Response {
    sent(HTML, include_str!("page/quarto.html"))
}

/// `GET /{file}`: a script, the style sheet or the icon.
pub(crate) async fn file(Path(name): Path<String>, uri: Uri) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some(&(_, kind, body)) => sent(kind, body),
        None => not_found(uri).await.into_response(),
    }
}

/// Any other path: a 404 with the API's error object.
pub(crate) async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(format!(
        "no page {}: the pages are / and /quarto, the API under /api/",
        uri.path()
    ))
}
