//! The page, compiled into the binary: `serve` needs nothing beside it,
//! and no request path ever reaches the file system.

use super::ApiError;
use axum::http::Uri;
use axum::response::Html;

const INDEX: &str = include_str!("index.html");

/// The API's description, written by hand beside the handlers (a test
/// checks it names every route).
pub const OPENAPI: &str = include_str!("openapi.json");

pub async fn index() -> Html<&'static str> {
    Html(INDEX)
}

pub async fn openapi() -> ([(axum::http::HeaderName, &'static str); 1], &'static str) {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        OPENAPI,
    )
}

pub async fn not_found(uri: Uri) -> ApiError {
    let path: String = uri.path().chars().take(100).collect();
    ApiError::not_found(&path)
}
