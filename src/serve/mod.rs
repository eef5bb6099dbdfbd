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
mod held;
mod listener;
mod page;
mod play;
mod rollout;
mod server;
mod wildbg;

pub use error::ApiError;
pub use server::{router, run};

use crate::analysis::{Analyzer, TrialProgress};
use crate::eval::Evaluator;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::Semaphore;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServeSettings {
    pub addr: SocketAddr,
    /// Deep analyses (2-ply and deeper, reviews) running at once; each
    /// uses every core through rayon.
    pub workers: usize,
    /// Deep analyses waiting or running before new ones get 503 (quick
    /// ones have a queue four times as long).
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

/// A bounded queue and the workers behind it.
struct Lane {
    queue: Arc<Semaphore>,
    workers: Arc<Semaphore>,
}

impl Lane {
    fn new(queue: usize, workers: usize) -> Lane {
        Lane {
            queue: Arc::new(Semaphore::new(queue.max(1))),
            workers: Arc::new(Semaphore::new(workers.max(1))),
        }
    }
}

/// How much an answer costs: quick (a static evaluation, 0- and 1-ply, a
/// few milliseconds) or deep (2- and 3-ply searches, a match review). Each
/// has its own queue, so a flood of deep work never holds up the quick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    Quick,
    Deep,
}

impl Cost {
    pub fn of_ply(ply: u8) -> Cost {
        if ply <= 1 { Cost::Quick } else { Cost::Deep }
    }
}

/// What every handler shares.
pub struct AppState {
    analyzer: Analyzer<'static>,
    games: play::store::Games,
    rollouts: rollout::RolloutJobs,
    quick: Lane,
    deep: Lane,
    deadline: Duration,
}

impl AppState {
    /// The evaluator lives as long as the process: the server never
    /// drops it, and every analysis borrows it.
    pub fn new(eval: Evaluator, settings: &ServeSettings) -> Arc<AppState> {
        let eval: &'static Evaluator = Box::leak(Box::new(eval));
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Arc::new(AppState {
            analyzer: Analyzer::new(eval),
            games: play::store::games(),
            rollouts: rollout::RolloutJobs::new(settings.workers),
            quick: Lane::new(settings.queue * 4, cores * 2),
            deep: Lane::new(settings.queue, settings.workers),
            deadline: settings.deadline,
        })
    }
}

/// Set when a job's deadline has passed and no one waits for its answer:
/// long work (a review's decisions) looks at it and stops, so the worker
/// it holds is free for the next request at once.
#[derive(Clone, Default)]
pub(crate) struct Abandoned(Arc<AtomicBool>);

impl TrialProgress for Abandoned {
    fn done(&self, _: u64) {}
    fn cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Runs `work` on the blocking pool once a worker of its lane is free,
/// refusing at once when the lane's queue is full and answering 503 past
/// the deadline (and telling the work, through its [`Abandoned`], to
/// stop).
pub(crate) async fn job<T, F>(state: &Arc<AppState>, cost: Cost, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&Analyzer<'static>, &Abandoned) -> Result<T, ApiError> + Send + 'static,
{
    let lane = match cost {
        Cost::Quick => &state.quick,
        Cost::Deep => &state.deep,
    };
    let place = lane
        .queue
        .clone()
        .try_acquire_owned()
        .map_err(|_| ApiError::busy())?;
    let workers = lane.workers.clone();
    let state2 = state.clone();
    let abandoned = Abandoned::default();
    let flag = abandoned.clone();
    let run = async move {
        let worker = workers.acquire_owned().await.map_err(ApiError::internal)?;
        tokio::task::spawn_blocking(move || {
            let _held = (place, worker);
            work(&state2.analyzer, &flag)
        })
        .await
        .map_err(|e| ApiError::internal(format!("the analysis failed: {e}")))?
    };
    match tokio::time::timeout(state.deadline, run).await {
        Ok(answer) => answer,
        Err(_) => {
            abandoned.0.store(true, Ordering::Relaxed);
            Err(ApiError::too_slow(state.deadline.as_secs_f64()))
        }
    }
}

/// A requested depth, refused beyond what the command line allows.
pub(crate) fn checked_ply(ply: i64) -> Result<u8, ApiError> {
    crate::analysis::search_ply(ply).map_err(ApiError::bad)
}
