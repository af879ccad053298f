//! The API's errors: one line of text in `{"error": "..."}`, with the status that fits.

use std::time::Duration;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::pool::PoolError;

/// Why a request got no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ApiError {
    /// The request itself is wrong (400): a bad board, move string, player or parameter.
    #[error("{0}")]
    BadRequest(String),
    /// No such room or page (404).
    #[error("{0}")]
    NotFound(String),
    /// A move or action the game does not allow now (409): out of turn, not seated, over.
    #[error("{0}")]
    Refused(String),
    /// The address (path and query) is longer than the API reads (414).
    #[error("{0}")]
    UriTooLong(String),
    /// The request's headers are larger than the API reads (431).
    #[error("{0}")]
    HeadersTooLarge(String),
    /// This client asked too often (429); it may ask again after `retry_after`.
    #[error("{message}")]
    TooMany {
        /// Why, in one line.
        message: String,
        /// When to ask again.
        retry_after: Duration,
    },
    /// The server is full (503): the solving queue or the room list; try again after
    /// `retry_after`.
    #[error("{message}")]
    Busy {
        /// Why, in one line.
        message: String,
        /// When to try again.
        retry_after: Duration,
    },
    /// A bug on the server's side (500); never caused by input.
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    /// A bad request carrying `error`'s one-line message.
    pub(crate) fn bad(error: impl std::fmt::Display) -> ApiError {
        ApiError::BadRequest(error.to_string())
    }

    /// The HTTP status of this error.
    pub(crate) fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Refused(_) => StatusCode::CONFLICT,
            ApiError::UriTooLong(_) => StatusCode::URI_TOO_LONG,
            ApiError::HeadersTooLarge(_) => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ApiError::TooMany { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<PoolError> for ApiError {
    fn from(error: PoolError) -> ApiError {
        match error {
            // A search takes about the budget: a place in the queue is free soon.
            PoolError::Busy { .. } => ApiError::Busy {
                message: error.to_string(),
                retry_after: Duration::from_secs(2),
            },
            PoolError::Failed => ApiError::Internal(error.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.to_string() });
        let mut response = (self.status(), Json(body)).into_response();
        if let ApiError::TooMany { retry_after, .. } | ApiError::Busy { retry_after, .. } = self {
            // Whole seconds, rounded up, as the header wants them.
            let seconds = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds.max(1)));
        }
        response
    }
}
