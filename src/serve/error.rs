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

/// Every error the server sends is JSON: the answers axum and its
/// extractors make themselves (405 with an empty body, a path that does
/// not decode as plain text) are rewritten as `{"error": ...}`, with their
/// text or the status's reason, and their headers kept.
pub async fn json_errors(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let method = request.method().clone();
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 64 << 10)
        .await
        .ok()
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .filter(|t| !t.is_empty());
    let message = match (text, status) {
        (Some(text), _) => text,
        (None, StatusCode::METHOD_NOT_ALLOWED) => {
            format!("{method} is not allowed here (the allow header lists what is)")
        }
        (None, status) => status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase(),
    };
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    parts.headers.remove(axum::http::header::CONTENT_TYPE);
    let json = Json(serde_json::json!({ "error": message })).into_response();
    let (json_parts, body) = json.into_parts();
    parts.headers.extend(json_parts.headers);
    Response::from_parts(parts, body)
}
