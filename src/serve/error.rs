//! What the server answers when it cannot answer: a status and a JSON
//! body `{"error": "one line"}`, never a dropped connection.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    /// The request is wrong: a malformed ID, dice, move or file.
    pub fn bad(message: impl std::fmt::Display) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.to_string(),
        }
    }

    /// The queue for expensive work is full: try again later.
    pub fn busy() -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: "the analysis queue is full; try again in a moment".into(),
        }
    }

    /// The work took longer than the server's deadline.
    pub fn too_slow(seconds: f64) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!("the analysis took longer than the deadline ({seconds} s)"),
        }
    }

    pub fn not_found(path: &str) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: format!("no such page or endpoint: {path}"),
        }
    }

    /// What the id named was dropped to make room; `why` says so.
    pub fn gone(why: impl std::fmt::Display) -> ApiError {
        ApiError {
            status: StatusCode::GONE,
            message: why.to_string(),
        }
    }

    pub fn internal(message: impl std::fmt::Display) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.to_string(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}
