//! The API's errors: one line of text in `{"error": "..."}`, with the status that fits.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::pool::PoolError;

/// Why a request got no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// The request itself is wrong (400): a bad board, move string, player or parameter.
    #[error("{0}")]
    BadRequest(String),
    /// No such room or page (404).
    #[error("{0}")]
    NotFound(String),
    /// A move or action the game does not allow now (409): out of turn, not seated, over.
    #[error("{0}")]
    Refused(String),
    /// The server is full (503): the solving queue or the room list.
    #[error("{0}")]
    Busy(String),
    /// A bug on the server's side (500); never caused by input.
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    /// A bad request carrying `error`'s one-line message.
    pub fn bad(error: impl std::fmt::Display) -> ApiError {
        ApiError::BadRequest(error.to_string())
    }

    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Refused(_) => StatusCode::CONFLICT,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<PoolError> for ApiError {
    fn from(error: PoolError) -> ApiError {
        match error {
            PoolError::Busy { .. } => ApiError::Busy(error.to_string()),
            PoolError::Failed => ApiError::Internal(error.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.to_string() });
        (self.status(), Json(body)).into_response()
    }
}
