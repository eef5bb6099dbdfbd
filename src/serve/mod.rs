//! `kotra-ai serve`: the engine over HTTP, for people (a page in the
//! browser) and for programs (a JSON API, and wildbg's `GET /move` and
//! `GET /eval` so bots written for wildbg work unchanged). Every answer
//! goes through the analysis facade, like the command line's.
//!
//! Safety by construction: loopback unless told otherwise; bodies capped
//! (a match upload at the match reader's own limit, 413 beyond); analysis
//! runs on the blocking pool behind a bounded queue (503 when full, so a
//! flood cannot starve the machine) and a deadline; the page's files are
//! compiled in, so no request reaches the file system.

mod api;
mod error;
mod page;
mod wildbg;

pub use error::ApiError;

use crate::analysis::Analyzer;
use crate::eval::Evaluator;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServeSettings {
    pub addr: SocketAddr,
    /// Analyses running at once (each uses every core through rayon).
    pub workers: usize,
    /// Analyses waiting or running before new ones get 503.
    pub queue: usize,
    /// Longest an analysis may take before the answer is 503.
    pub deadline: Duration,
}

impl Default for ServeSettings {
    fn default() -> ServeSettings {
        ServeSettings {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            workers: 2,
            queue: 64,
            deadline: Duration::from_secs(60),
        }
    }
}

/// What every handler shares.
pub struct AppState {
    analyzer: Analyzer<'static>,
    queue: Arc<Semaphore>,
    workers: Arc<Semaphore>,
    deadline: Duration,
}

impl AppState {
    /// The evaluator lives as long as the process: the server never
    /// drops it, and every analysis borrows it.
    pub fn new(eval: Evaluator, settings: &ServeSettings) -> Arc<AppState> {
        let eval: &'static Evaluator = Box::leak(Box::new(eval));
        Arc::new(AppState {
            analyzer: Analyzer::new(eval),
            queue: Arc::new(Semaphore::new(settings.queue.max(1))),
            workers: Arc::new(Semaphore::new(settings.workers.max(1))),
            deadline: settings.deadline,
        })
    }
}

/// Runs `work` on the blocking pool once a worker is free, refusing at
/// once when the queue is full and answering 503 past the deadline.
pub(crate) async fn job<T, F>(state: &Arc<AppState>, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&Analyzer<'static>) -> Result<T, ApiError> + Send + 'static,
{
    let place = state
        .queue
        .clone()
        .try_acquire_owned()
        .map_err(|_| ApiError::busy())?;
    let state2 = state.clone();
    let run = async move {
        let worker = state2
            .workers
            .clone()
            .acquire_owned()
            .await
            .map_err(ApiError::internal)?;
        let state3 = state2.clone();
        tokio::task::spawn_blocking(move || {
            let _held = (place, worker);
            work(&state3.analyzer)
        })
        .await
        .map_err(|e| ApiError::internal(format!("the analysis failed: {e}")))?
    };
    match tokio::time::timeout(state.deadline, run).await {
        Ok(answer) => answer,
        Err(_) => Err(ApiError::too_slow(state.deadline.as_secs_f64())),
    }
}

/// Every route of the server.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/api/health", get(api::health))
        .route("/api/analyze", get(api::analyze))
        .route("/api/evaluate", get(api::evaluate))
        .route(
            "/api/review",
            post(api::review).layer(DefaultBodyLimit::max(
                crate::notation::MAX_MATCH_BYTES as usize,
            )),
        )
        .route("/move", get(wildbg::best_moves))
        .route("/eval", get(wildbg::eval))
        .fallback(page::not_found)
        .layer(DefaultBodyLimit::max(64 << 10))
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
        axum::serve(listener, router(state))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
}
