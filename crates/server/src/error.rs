//! The server's errors: what stops it from starting ([`Error`]), and what a request gets
//! back when it fails ([`ApiError`]: a status and a one-line JSON message).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// Why the server could not be set up.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The profiles or the extractor could not be loaded.
    #[error(transparent)]
    Chaff(#[from] chaff::Error),
    /// The inspector's pages could not be read.
    #[error("pages: {0}")]
    Pages(#[from] chaff::corpus::CorpusError),
    /// A setting is out of range.
    #[error("{0}")]
    Config(String),
}

/// The body of every error answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong, on one line.
    pub error: String,
}

/// A failed request: its status and message.
#[derive(Debug)]
pub struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub(crate) fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    pub(crate) fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    pub(crate) fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl From<chaff::Error> for ApiError {
    /// What the library refuses is the request's fault (a page it cannot parse, a method
    /// it does not know, pages too few to learn from).
    fn from(e: chaff::Error) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, one_line(&e.to_string()))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let busy = self.status == StatusCode::SERVICE_UNAVAILABLE;
        let mut r = (
            self.status,
            axum::Json(ErrorBody {
                error: one_line(&self.message),
            }),
        )
            .into_response();
        if busy {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        r
    }
}

/// A message on one line: line breaks become spaces.
pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
