//! The page, compiled into the binary: `serve` needs nothing beside it,
//! and no request path ever reaches the file system.

use super::ApiError;
use axum::http::Uri;
use axum::response::Html;

const INDEX: &str = include_str!("index.html");

pub async fn index() -> Html<&'static str> {
    Html(INDEX)
}

pub async fn not_found(uri: Uri) -> ApiError {
    let path: String = uri.path().chars().take(100).collect();
    ApiError::not_found(&path)
}
