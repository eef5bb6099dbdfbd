//! wildbg's HTTP API, so the bots that already call wildbg (on
//! bgammon.org, FIBS) can call kotra-ai unchanged: `GET /move` with
//! `die1`, `die2` and `p0`..`p25`, `GET /eval` with `p0`..`p25`. A point
//! `pN` holds the player's checkers (positive) or the opponent's
//! (negative) on the player's point N; `p25` is the player's bar, `p0` the
//! opponent's (negative). Money play, the cube centred. An optional `ply`
//! (default 2) sets the depth, which wildbg does not have.

use super::{ApiError, AppState, Cost, checked_ply, job};
use crate::analysis::{DEFAULT_PLY, Equity};
use crate::backgammon::{Dice, MatchInfo, Position, Setup};
use crate::cube::TakeAnswer;
use crate::quoted::Quoted;
use axum::Json;
use axum::extract::{RawQuery, State};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// The query's `key=value` pairs; wildbg's parameters are plain numbers,
/// so no percent-decoding is needed, and anything else is refused.
fn pairs(raw: Option<&str>) -> Result<HashMap<&str, i64>, ApiError> {
    let mut out = HashMap::new();
    for pair in raw.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| ApiError::bad(format!("{} is not key=value", Quoted(pair))))?;
        let n = v.parse::<i64>().map_err(|_| {
            ApiError::bad(format!("{}={}: not a whole number", Quoted(k), Quoted(v)))
        })?;
        out.insert(k, n);
    }
    Ok(out)
}

/// The position of `p0`..`p25`, with the player on roll.
fn setup(q: &HashMap<&str, i64>) -> Result<Setup, ApiError> {
    if let Some(k) = q
        .keys()
        .find(|k| !matches!(**k, "die1" | "die2" | "ply") && point_index(k).is_none())
    {
        return Err(ApiError::bad(format!("unknown parameter {}", Quoted(k))));
    }
    let mut me = [0u8; 25];
    let mut opp = [0u8; 25];
    for point in 0..=25usize {
        let n = *q.get(format!("p{point}").as_str()).unwrap_or(&0);
        if !(-15..=15).contains(&n) {
            return Err(ApiError::bad(format!("p{point}={n}: at most 15 checkers")));
        }
        match (point, n) {
            (_, 0) => {}
            (0, n) if n < 0 => opp[24] = (-n) as u8,
            (25, n) if n > 0 => me[24] = n as u8,
            (0 | 25, _) => {
                return Err(ApiError::bad(format!(
                    "p{point}={n}: p0 is the opponent's bar (negative), p25 the player's (positive)"
                )));
            }
            (p, n) if n > 0 => me[p - 1] = n as u8,
            (p, n) => opp[24 - p] = (-n) as u8,
        }
    }
    let position = Position::from_sides(&me, &opp).map_err(ApiError::bad)?;
    let setup = Setup {
        position,
        info: MatchInfo::default(),
    };
    setup
        .check_in_play()
        .map_err(|e| ApiError::bad(format!("not a game in play: {e}")))?;
    Ok(setup)
}

fn point_index(key: &str) -> Option<usize> {
    key.strip_prefix('p')?
        .parse::<usize>()
        .ok()
        .filter(|&n| n <= 25)
}

fn ply(q: &HashMap<&str, i64>) -> Result<u8, ApiError> {
    checked_ply(q.get("ply").copied().unwrap_or(DEFAULT_PLY as i64))
}

/// wildbg's five numbers: each includes the ones after it on its side.
fn probabilities(p: [f32; 5]) -> Value {
    json!({ "win": p[0], "winG": p[1], "winBg": p[2], "loseG": p[3], "loseBg": p[4] })
}

/// A request's parameters, the position they spell and the depth.
fn read(raw: Option<&str>) -> Result<(HashMap<&str, i64>, Setup, u8), ApiError> {
    let q = pairs(raw)?;
    let setup = setup(&q)?;
    let ply = ply(&q)?;
    Ok((q, setup, ply))
}

pub async fn best_moves(
    State(state): State<Arc<AppState>>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let (q, setup, ply) = read(raw.as_deref())?;
    let die = |k: &str| {
        q.get(k)
            .copied()
            .ok_or_else(|| ApiError::bad(format!("{k} is missing")))
    };
    let (d1, d2) = (die("die1")?, die("die2")?);
    let dice = u8::try_from(d1)
        .ok()
        .zip(u8::try_from(d2).ok())
        .and_then(|(a, b)| Dice::new(a, b))
        .ok_or_else(|| ApiError::bad(format!("dice {d1} and {d2}: each 1 to 6")))?;
    job(&state, Cost::of_ply(ply), move |analyzer, _| {
        let report = analyzer.rank_moves(&setup, dice, ply, Equity::Cubeful);
        let moves: Vec<Value> = if report.moves.is_empty() {
            // No legal move: one move without steps, as wildbg answers.
            let p = analyzer.evaluate(&Setup {
                position: setup.position.swap(),
                ..setup
            });
            vec![json!({ "play": [], "probabilities": probabilities(p.flip().0) })]
        } else {
            report
                .moves
                .iter()
                .map(|m| {
                    let play: Vec<Value> = m
                        .steps
                        .iter()
                        .map(|&(from, to)| json!({ "from": from, "to": to }))
                        .collect();
                    json!({ "play": play, "probabilities": probabilities(m.probs) })
                })
                .collect()
        };
        Ok(json!({ "moves": moves }))
    })
    .await
    .map(Json)
}

pub async fn eval(
    State(state): State<Arc<AppState>>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let (_, setup, ply) = read(raw.as_deref())?;
    job(&state, Cost::of_ply(ply), move |analyzer, _| {
        let report = analyzer.cube_decision(&setup, ply);
        let d = report.decision;
        let double = d.should_double();
        let accept = d.take != TakeAnswer::Pass;
        Ok(json!({
            "cube": { "double": double, "accept": accept },
            "probabilities": probabilities(report.probs),
        }))
    })
    .await
    .map(Json)
}
