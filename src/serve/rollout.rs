//! Rollouts as jobs: a rollout takes seconds to hours, so it is started,
//! watched and cancelled rather than awaited.
//!
//! - `POST /api/rollout?position=ID[&dice=31][&trials=1296][&ply=0]
//!   [&filter=3:0.06][&truncate=N][&cubeful=true][&seed=1][&candidates=8]`:
//!   202 and the
//!   job's id (with dice the best candidates of the roll, without the
//!   position and its cube decision);
//! - `GET /api/rollout/{id}`: its state, trials done and planned, and the
//!   result once there;
//! - `GET /api/rollout/{id}/events`: the same as server-sent events, a
//!   `progress` event a quarter-second until the last, `done`,
//!   `cancelled` or `failed`;
//! - `DELETE /api/rollout/{id}` (or `POST /api/rollout/{id}/cancel`):
//!   no more trials start; the job ends `cancelled`.
//!
//! At most `workers` rollouts run at once (503 beyond), each on every core;
//! the last [`MAX_JOBS`] jobs are kept for their results.

use super::held::{Held, lock};
use super::listener::Client;
use super::{ApiError, AppState};
use crate::analysis::{AnalysisError, CheckedRollout, RolloutRequest, TrialProgress};
use crate::backgammon::Dice;
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use serde::Deserialize;
use serde_json::{Value, json};
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Jobs kept (running or finished); a new one past this drops the oldest.
pub const MAX_JOBS: usize = 100;

/// How a job ended.
#[derive(Clone, Debug)]
enum Ending {
    Done(Value),
    Cancelled,
    Failed(String),
}

/// One rollout: its progress, read by the watchers while the trials run,
/// and its ending.
#[derive(Default)]
pub struct RolloutJob {
    planned: AtomicU64,
    done: AtomicU64,
    cancel: AtomicBool,
    ending: Mutex<Option<Ending>>,
}

impl TrialProgress for RolloutJob {
    fn planned(&self, trials: u64) {
        self.planned.store(trials, Ordering::Relaxed);
    }
    fn done(&self, trials: u64) {
        self.done.fetch_add(trials, Ordering::Relaxed);
    }
    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

impl RolloutJob {
    fn status(&self, id: &str) -> Value {
        let ending = lock(&self.ending).clone();
        let (state, result, error) = match ending {
            None => ("running", Value::Null, Value::Null),
            Some(Ending::Done(v)) => ("done", v, Value::Null),
            Some(Ending::Cancelled) => ("cancelled", Value::Null, Value::Null),
            Some(Ending::Failed(e)) => ("failed", Value::Null, Value::String(e)),
        };
        json!({
            "id": id,
            "state": state,
            "trials_done": self.done.load(Ordering::Relaxed),
            "trials_planned": self.planned.load(Ordering::Relaxed),
            "result": result,
            "error": error,
        })
    }

    fn finished(&self) -> bool {
        lock(&self.ending).is_some()
    }
}

/// The jobs the server keeps, and the permits of those running.
pub struct RolloutJobs {
    held: Held<RolloutJob>,
    running: Arc<Semaphore>,
}

impl RolloutJobs {
    pub fn new(workers: usize) -> RolloutJobs {
        RolloutJobs {
            held: Held::new("/api/rollout", "rollouts", MAX_JOBS),
            running: Arc::new(Semaphore::new(workers.max(1))),
        }
    }

    fn insert(&self, client: IpAddr, job: Arc<RolloutJob>) -> String {
        let (id, dropped) = self.held.insert(client, job);
        // A job dropped while it runs is cancelled with it.
        for old in dropped {
            old.cancel.store(true, Ordering::Relaxed);
        }
        id
    }

    fn get(&self, id: &str) -> Result<Arc<RolloutJob>, ApiError> {
        self.held.get(id)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RolloutQuery {
    position: String,
    dice: Option<String>,
    trials: Option<u64>,
    ply: Option<i64>,
    /// A searching play's move filter, KEEP:WINDOW.
    filter: Option<String>,
    /// A 2-ply play's 1-ply pass, skip or KEEP:WINDOW.
    middle: Option<String>,
    truncate: Option<u32>,
    cubeful: Option<bool>,
    seed: Option<u64>,
    candidates: Option<u64>,
}

/// A query's optional text read as its value, a 400 naming what is wrong.
fn parsed<T: std::str::FromStr>(text: Option<&str>) -> Result<Option<T>, ApiError>
where
    T::Err: std::fmt::Display,
{
    text.map(str::parse).transpose().map_err(ApiError::bad)
}

pub async fn start(
    State(state): State<Arc<AppState>>,
    ConnectInfo(Client(client)): ConnectInfo<Client>,
    q: Result<Query<RolloutQuery>, QueryRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let q = super::api::query(q)?;
    let mut setup = super::api::setup(&q.position)?;
    let dice = match &q.dice {
        Some(d) => Some(
            d.parse::<Dice>()
                .map_err(|e| ApiError::bad(format!("bad dice: {e}")))?,
        ),
        None => setup.info.rolled(),
    };
    let asked = RolloutRequest::default();
    let CheckedRollout {
        settings,
        candidates,
    } = RolloutRequest {
        trials: q.trials.unwrap_or(asked.trials),
        ply: q.ply.unwrap_or(asked.ply),
        filter: parsed(q.filter.as_deref())?,
        middle: parsed(q.middle.as_deref())?,
        truncate: q.truncate,
        seed: q.seed.unwrap_or(asked.seed),
        candidates: q.candidates.unwrap_or(asked.candidates),
        variance_reduction: true,
    }
    .check()
    .map_err(ApiError::bad)?;
    let cubeful = q.cubeful.unwrap_or(false);
    let permit = state
        .rollouts
        .running
        .clone()
        .try_acquire_owned()
        .map_err(|_| ApiError::busy())?;
    let job = Arc::new(RolloutJob::default());
    let id = state.rollouts.insert(client.ip(), job.clone());
    let st = state.clone();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let analyzer = &st.analyzer;
        let ending = match dice {
            Some(dice) => {
                setup.info.set_rolled(dice);
                ended(
                    analyzer
                        .rollout_candidates(&setup, dice, candidates, &settings, cubeful, &*job),
                )
            }
            None => ended(analyzer.rollout_position(&setup, &settings, cubeful, &*job)),
        };
        *lock(&job.ending) = Some(ending);
    });
    Ok((StatusCode::ACCEPTED, Json(json!({ "id": id }))))
}

/// How a job's rollout ended, its result as JSON.
fn ended<T: serde::Serialize>(rolled: Result<T, AnalysisError>) -> Ending {
    match rolled.map(|r| serde_json::to_value(&r)) {
        Ok(Ok(v)) => Ending::Done(v),
        Ok(Err(e)) => Ending::Failed(e.to_string()),
        Err(AnalysisError::Cancelled) => Ending::Cancelled,
        Err(e) => Ending::Failed(e.to_string()),
    }
}

pub async fn status(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(state.rollouts.get(&id)?.status(&id)))
}

pub async fn cancel(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let job = state.rollouts.get(&id)?;
    job.cancel.store(true, Ordering::Relaxed);
    Ok(Json(job.status(&id)))
}

pub async fn cancel_by_post(
    state: State<Arc<AppState>>,
    Path((id, what)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    if what != "cancel" {
        return Err(ApiError::not_found(&format!("/api/rollout/{id}/{what}")));
    }
    cancel(state, Path(id)).await
}

/// The job's progress as server-sent events until it ends.
pub async fn events(
    State(state): State<Arc<AppState>>,
    Path((id, what)): Path<(String, String)>,
) -> Result<Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    if what != "events" {
        return Err(ApiError::not_found(&format!("/api/rollout/{id}/{what}")));
    }
    let job = state.rollouts.get(&id)?;
    let stream = futures_util::stream::unfold(Some(job), move |job| {
        let id = id.clone();
        async move {
            let job = job?;
            let first = job.done.load(Ordering::Relaxed) == 0 && !job.finished();
            if !first {
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            let status = job.status(&id);
            let name = status["state"].as_str().unwrap_or("failed").to_string();
            let (kind, next) = if name == "running" {
                ("progress".to_string(), Some(job))
            } else {
                (name, None)
            };
            let event = Event::default().event(kind).data(status.to_string());
            Some((Ok(event), next))
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
