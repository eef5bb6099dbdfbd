//! Evaluation speed: single network evaluations (encoding included) by
//! class, and whole 0-ply move choices (every legal move of a roll
//! generated and evaluated), over the same fixed positions as the
//! move-generation bench.

use crate::backgammon::{Dice, MoveList, Position, legal_moves};
use crate::eval::{Evaluator, FirstLayerMemo, NetKind};
use std::time::Instant;

/// Evaluations of `kind`'s network over `positions`; returns the sum of
/// equities so the work cannot be optimised away.
pub fn net_pass(eval: &Evaluator, kind: NetKind, positions: &[Position]) -> f32 {
    positions
        .iter()
        .map(|p| eval.net_probs(kind, p).equity())
        .sum()
}

/// A 0-ply move choice for every position and roll: returns how many
/// candidates were evaluated.
pub fn choice_pass(eval: &Evaluator, positions: &[Position], list: &mut MoveList) -> usize {
    let mut n = 0;
    for p in positions {
        for (dice, _) in Dice::all_rolls() {
            legal_moves(p, dice, list);
            let mut best = f32::NEG_INFINITY;
            let mut memo = FirstLayerMemo::new();
            for c in list.iter() {
                best = best.max(eval.after_candidate(&c.position, &mut memo).equity());
            }
            std::hint::black_box(best);
            n += list.len();
        }
    }
    n
}

/// One line of the report.
pub struct EvalMeasure {
    pub what: &'static str,
    pub per_second: f64,
    pub ns_each: f64,
}

/// Runs each measurement for about `seconds`.
pub fn measure(
    eval: &Evaluator,
    contact: &[Position],
    race: &[Position],
    seconds: f64,
) -> Vec<EvalMeasure> {
    let mut out = Vec::new();
    let timed = |f: &mut dyn FnMut() -> usize| {
        let start = Instant::now();
        let mut count = 0usize;
        while start.elapsed().as_secs_f64() < seconds {
            count += f();
        }
        count as f64 / start.elapsed().as_secs_f64()
    };
    for (what, kind, set) in [
        ("contact net evaluations", NetKind::Contact, contact),
        ("race net evaluations", NetKind::Race, race),
    ] {
        let rate = timed(&mut || {
            std::hint::black_box(net_pass(eval, kind, set));
            set.len()
        });
        out.push(EvalMeasure {
            what,
            per_second: rate,
            ns_each: 1e9 / rate,
        });
    }
    let mut list = MoveList::new();
    for (what, set) in [
        ("contact 0-ply move choices", contact),
        ("race 0-ply move choices", race),
    ] {
        // Every pass evaluates the same candidates: the evaluator's real
        // work, a roll's candidates one after another.
        let candidates = choice_pass(eval, set, &mut list) as f64 / (set.len() * 21) as f64;
        let rate = timed(&mut || {
            choice_pass(eval, set, &mut list);
            set.len() * 21
        });
        let per_candidate = "  their candidates evaluated";
        for (what, rate) in [(what, rate), (per_candidate, rate * candidates)] {
            out.push(EvalMeasure {
                what,
                per_second: rate,
                ns_each: 1e9 / rate,
            });
        }
    }
    out
}
