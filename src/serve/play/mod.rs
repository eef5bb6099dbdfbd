//! Playing against kotra-ai over HTTP: a money session or an n-point
//! match, held by the server ([`session::Session`]), the rules kept by the
//! engine's referee so the page never decides what is legal.
//!
//! - `POST /api/play[?length=0][&ply=1][&seed=S]`: a new session (length
//!   0 is money; the opening roll decides who starts, and if kotra-ai
//!   does, it has moved already);
//! - `GET /api/play/{id}`: where it stands, from your side, with the legal
//!   moves and every order of their checker steps (for a board that moves
//!   checker by checker);
//! - `POST /api/play/{id}/roll`, `/move?move=8/5 6/5`, `/double`, `/take`,
//!   `/pass`, `/resign?as=single|gammon|backgammon`, `/next` (the next
//!   game): your actions; kotra-ai answers at once;
//! - `GET /api/play/{id}/record.mat` and `record.sgf`: the session so far.
//!
//! At most [`store::MAX_GAMES`] sessions are held, a tenth of them for one
//! client; the oldest goes first, and its id then answers 410.

mod session;
pub(super) mod store;

use super::held::lock;
use super::listener::Client;
use super::{ApiError, AppState, Cost, checked_ply, job};
use crate::backgammon::{CubeOwner, Phase, step_orders};
use crate::notation::{gnubg_id, move_text, sgf, xgid};
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{ConnectInfo, Path, Query, State};
use serde::Deserialize;
use serde_json::{Value, json};
use session::{ENGINE, PlayError, Session, YOU};
use std::sync::{Arc, Mutex};

/// The longest match a session may be.
pub const MAX_MATCH_LENGTH: u32 = 64;

impl From<PlayError> for ApiError {
    fn from(e: PlayError) -> ApiError {
        ApiError::bad(e)
    }
}

/// Where the session stands, from your side.
fn view(s: &Session, id: &str) -> Value {
    let state = &s.state;
    let mut legal = Vec::new();
    let mut orders = Vec::new();
    let (phase, dice) = match state.phase() {
        Phase::Opening => ("opening", None),
        Phase::ToRoll => ("to_roll", None),
        Phase::ToMove(d) => {
            if state.on_roll == YOU {
                let all = step_orders(&state.position, d);
                let mut ends: Vec<_> = all.iter().map(|(_, end)| *end).collect();
                ends.sort_unstable_by_key(|p| *p.raw());
                ends.dedup();
                for end in &ends {
                    let (play, _) = all.iter().find(|(_, e)| e == end).expect("its own end");
                    legal.push(move_text::format(&state.position, play));
                }
                for (play, end) in &all {
                    let i = ends
                        .binary_search_by_key(end.raw(), |p| *p.raw())
                        .expect("listed");
                    let steps: Vec<[u8; 2]> = play.steps().map(|s| [s.from, s.to]).collect();
                    orders.push(json!({ "move": i, "steps": steps }));
                }
            }
            ("to_move", Some(d.to_string()))
        }
        Phase::ToAnswer => ("to_answer", None),
        Phase::Over(_) if s.match_over() => ("match_over", None),
        Phase::Over(_) => ("game_over", None),
    };
    let owner = match state.cube.owner {
        CubeOwner::Centered => "centred",
        CubeOwner::Player(p) if p == YOU => "you",
        CubeOwner::Player(_) => "kotra-ai",
    };
    let name = |p: u8| if p == YOU { "you" } else { "kotra-ai" };
    let result = match state.phase() {
        Phase::Over(o) => json!({ "winner": name(o.winner), "points": o.points }),
        _ => Value::Null,
    };
    let may_double = state.on_roll == YOU
        && state.phase() == Phase::ToRoll
        && state.cube.can_double(YOU, false, state.crawford).is_ok();
    let setup = s.setup();
    let live = !s.game_over() && state.phase() != Phase::Opening;
    let score = s.score_u32();
    json!({
        "id": id,
        "ply": s.ply,
        "phase": phase,
        "turn": name(s.turn()),
        "dice": dice,
        "board": s.board(),
        "cube": { "value": state.cube.value, "owner": owner, "you_may_double": may_double },
        "legal_moves": legal,
        "step_orders": orders,
        "kotra_ai_did": s.engine_did,
        "kotra_ai_moves": s.engine_moves,
        "result": result,
        "match": {
            "length": s.score.length,
            "score": { "you": score[YOU as usize], "kotra-ai": score[ENGINE as usize] },
            "crawford": state.crawford,
            "winner": s.score.winner().map(name),
        },
        "game_record": s.current_game().map_or_else(Vec::new, |g| {
            g.actions
                .iter()
                .map(|(_, _, a)| json!({ "player": name(a.player()), "text": a.words() }))
                .collect()
        }),
        "gnubg_id": live.then(|| gnubg_id::encode(&setup)),
        "xgid": live.then(|| xgid::encode(&setup)),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewSession {
    ply: Option<u8>,
    length: Option<u32>,
    seed: Option<u64>,
}

pub async fn new_game(
    State(state): State<Arc<AppState>>,
    ConnectInfo(Client(client)): ConnectInfo<Client>,
    q: Result<Query<NewSession>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let q = super::api::query(q)?;
    let ply = checked_ply(q.ply.map_or(1, i64::from))?;
    let length = q.length.unwrap_or(0);
    if length > MAX_MATCH_LENGTH {
        return Err(ApiError::bad(format!(
            "length {length}: 0 (money) to {MAX_MATCH_LENGTH}"
        )));
    }
    let seed = q.seed.unwrap_or_else(rand::random);
    let st = state.clone();
    job(&state, Cost::of_ply(ply), move |analyzer, _| {
        let session = Session::new(length, ply, seed, analyzer);
        let (id, _) = st.games.insert(client.ip(), Arc::new(Mutex::new(session)));
        let session = st.games.get(&id)?;
        let view = view(&lock(&session), &id);
        Ok(view)
    })
    .await
    .map(Json)
}

pub async fn show(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let session = state.games.get(&id)?;
    let view = view(&lock(&session), &id);
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionQuery {
    #[serde(rename = "move")]
    text: Option<String>,
    #[serde(rename = "as")]
    resign_as: Option<String>,
}

const ACTIONS: [&str; 7] = ["roll", "move", "double", "take", "pass", "resign", "next"];

/// Your action `what`, then kotra-ai's.
pub async fn act(
    State(state): State<Arc<AppState>>,
    Path((id, what)): Path<(String, String)>,
    q: Result<Query<ActionQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let q = super::api::query(q)?;
    let session = state.games.get(&id)?;
    if !ACTIONS.contains(&what.as_str()) {
        return Err(ApiError::not_found(&format!("/api/play/{id}/{what}")));
    }
    let ply = lock(&session).ply;
    job(&state, Cost::of_ply(ply), move |analyzer, _| {
        let mut s = lock(&session);
        let arg = if what == "resign" {
            q.resign_as
        } else {
            q.text
        };
        s.act(&what, arg.as_deref(), analyzer)?;
        Ok(view(&s, &id))
    })
    .await
    .map(Json)
}

/// The session so far as `.mat` or `.sgf`.
pub async fn record(
    State(state): State<Arc<AppState>>,
    Path((id, file)): Path<(String, String)>,
) -> Result<String, ApiError> {
    let session = state.games.get(&id)?;
    let record = lock(&session).match_record();
    match file.as_str() {
        "record.mat" => Ok(crate::notation::mat::write(&record)),
        "record.sgf" => sgf::write(&record, &Default::default()).map_err(ApiError::internal),
        other => Err(ApiError::not_found(&format!("/api/play/{id}/{other}"))),
    }
}
