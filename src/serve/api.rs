//! The JSON API under `/api`: the same reports `kotra-ai ... --json`
//! prints, from the same facade.
//!
//! - `GET /api/health`
//! - `GET /api/analyze?position=ID[&dice=31][&ply=2]`: with dice (or dice in
//!   the ID) the ranked moves, without the cube decision;
//! - `GET /api/evaluate?position=ID`: the static probabilities (of a
//!   finished game, which it shows, its result and `finished`);
//! - `POST /api/review[?ply=2]` with a `.mat` or `.sgf` as the body: the
//!   review's JSON.

use super::{AppState, Cost, checked_ply, job};
use crate::analysis::{EXPLAINED, Equity, ReviewError, ReviewSettings, explain_top};
use crate::backgammon::{CubeOwner, Dice, GameResult, Setup};
use crate::notation::{self, gnubg_id, xgid};
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

use super::ApiError;

pub async fn health() -> Json<Value> {
    Json(json!({ "status": "ok", "version": env!("CARGO_PKG_VERSION") }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeQuery {
    position: String,
    dice: Option<String>,
    ply: Option<u8>,
}

/// The query's fields, or a 400 naming what is wrong with it.
pub(super) fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(q)| q)
        .map_err(|e| ApiError::bad(e.body_text()))
}

/// The setup an ID spells, in play. A `+` typed into an address bar
/// arrives as a space (form encoding), and no ID has a space inside, so a
/// space inside is read as the `+` of gnubg's base64.
pub(super) fn setup(position: &str) -> Result<Setup, ApiError> {
    parsed(position, notation::parse_setup)
}

/// The setup an ID spells, to show: a finished game is accepted.
fn setup_to_show(position: &str) -> Result<Setup, ApiError> {
    parsed(position, notation::parse_setup_to_show)
}

fn parsed(
    position: &str,
    parse: fn(&str) -> Result<Setup, notation::SetupError>,
) -> Result<Setup, ApiError> {
    if position.len() > 200 {
        return Err(ApiError::bad("the position is longer than any ID"));
    }
    parse(&position.trim().replace(' ', "+"))
        .map_err(|e| ApiError::bad(format!("bad position: {e}")))
}

fn ply(ply: Option<u8>) -> Result<u8, ApiError> {
    checked_ply(ply.map_or(crate::analysis::DEFAULT_PLY.into(), i64::from))
}

/// The IDs of a setup, so a client can show and link them; its board
/// from the side on roll (gnubg's layout: index i is the side's own point
/// i + 1, index 24 its bar), so a page can draw it; and the cube, score
/// and who is on roll (player 0 or 1 of the match), so it draws them too.
fn ids(setup: &Setup) -> Value {
    let (mover, opponent) = setup.position.to_sides();
    let info = &setup.info;
    let owner = match info.cube_owner {
        CubeOwner::Centered => "centred",
        CubeOwner::Player(p) if p == info.on_roll => "mover",
        CubeOwner::Player(_) => "opponent",
    };
    let me = usize::from(info.on_roll);
    json!({
        "gnubg": gnubg_id::encode(setup),
        "xgid": xgid::encode(setup),
        "board": { "mover": mover, "opponent": opponent },
        "on_roll": info.on_roll,
        "cube": { "value": info.cube_value, "owner": owner, "offered": info.doubled },
        "match": {
            "length": info.match_length,
            "score": [info.score[me], info.score[1 - me]],
            "crawford": info.crawford,
        },
    })
}

pub async fn analyze(
    State(state): State<Arc<AppState>>,
    q: Result<Query<AnalyzeQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let q = query(q)?;
    let mut setup = setup(&q.position)?;
    let ply = ply(q.ply)?;
    let dice = match &q.dice {
        Some(d) => Some(
            d.parse::<Dice>()
                .map_err(|e| ApiError::bad(format!("bad dice: {e}")))?,
        ),
        None => setup.info.rolled(),
    };
    job(&state, Cost::of_ply(ply), move |analyzer, _| {
        let Some(dice) = dice else {
            let mut report = analyzer.cube_decision(&setup, ply);
            analyzer.explain_cube(&setup, &mut report);
            return Ok(json!({ "ids": ids(&setup), "cube_decision": report }));
        };
        setup.info.set_rolled(dice);
        let mut report = analyzer.rank_moves(&setup, dice, ply, Equity::Cubeful);
        explain_top(&mut report, EXPLAINED);
        Ok(json!({ "ids": ids(&setup), "dice": dice.to_string(), "ply": ply, "moves": report.moves }))
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvaluateQuery {
    position: String,
}

pub async fn evaluate(
    State(state): State<Arc<AppState>>,
    q: Result<Query<EvaluateQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let setup = setup_to_show(&query(q)?.position)?;
    job(&state, Cost::Quick, move |analyzer, _| {
        let p = analyzer.evaluate(&setup);
        let finished = GameResult::of_finished(&setup.position).map(|(mover, result)| {
            json!({
                "winner": if mover { "on roll" } else { "not on roll" },
                "points": result.points(),
            })
        });
        Ok(json!({
            "ids": ids(&setup),
            "probs": p.0,
            "cubeless_equity": p.equity(),
            "finished": finished,
        }))
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewQuery {
    ply: Option<u8>,
}

pub async fn review(
    State(state): State<Arc<AppState>>,
    q: Result<Query<ReviewQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let ply = ply(query(q)?.ply)?;
    // The body's own refusals (413 past the limit) keep their status,
    // with a JSON body like every other error.
    let body = body.map_err(|e| ApiError {
        status: e.status(),
        message: e.body_text(),
    })?;
    let text = notation::match_text(&body).map_err(ApiError::bad)?;
    let record =
        notation::parse_match(text).map_err(|e| ApiError::bad(format!("bad match file: {e}")))?;
    job(&state, Cost::Deep, move |analyzer, abandoned| {
        let review = analyzer
            .review(&record, &ReviewSettings::at(ply), abandoned)
            .map_err(|e| match e {
                ReviewError::Match(e) => ApiError::bad(format!("bad match file: {e}")),
                // Nobody reads this: the deadline's 503 has gone out.
                ReviewError::Cancelled => ApiError::internal("the review was cancelled"),
            })?;
        serde_json::to_value(&review).map_err(ApiError::internal)
    })
    .await
    .map(Json)
}
