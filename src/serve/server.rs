//! The routes and the server loop: the one file that knows every
//! handler (apart from the state they share, in `mod.rs`, which calls
//! none of them).

use super::{AppState, ServeSettings, api, error, listener, page, play, rollout, wildbg};
use crate::eval::Evaluator;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use std::sync::Arc;

/// Every route of the server.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/api/health", get(api::health))
        .route("/api/docs", get(page::openapi))
        .route("/api/analyze", get(api::analyze))
        .route("/api/evaluate", get(api::evaluate))
        .route(
            "/api/review",
            post(api::review).layer(DefaultBodyLimit::max(
                crate::notation::MAX_MATCH_BYTES as usize,
            )),
        )
        .route("/api/play", post(play::new_game))
        .route("/api/play/{id}", get(play::show))
        .route("/api/play/{id}/{what}", post(play::act).get(play::record))
        .route("/api/rollout", post(rollout::start))
        .route(
            "/api/rollout/{id}",
            get(rollout::status).delete(rollout::cancel),
        )
        .route(
            "/api/rollout/{id}/{what}",
            get(rollout::events).post(rollout::cancel_by_post),
        )
        .route("/move", get(wildbg::best_moves))
        .route("/eval", get(wildbg::eval))
        .fallback(page::not_found)
        .layer(DefaultBodyLimit::max(64 << 10))
        .layer(axum::middleware::from_fn(error::json_errors))
        .with_state(state)
}

/// Serves until the process is stopped; says where it listens on stdout
/// first (with port 0 the system picks one).
pub fn run(eval: Evaluator, settings: ServeSettings) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(settings.addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", settings.addr))?;
        let addr = listener.local_addr()?;
        let state = AppState::new(eval, &settings);
        println!("kotra-ai serve: listening on http://{addr}");
        use std::io::Write as _;
        std::io::stdout().flush()?;
        axum::serve(
            listener::GuardedListener(listener),
            router(state).into_make_service_with_connect_info::<listener::Client>(),
        )
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
        Ok(())
    })
}
