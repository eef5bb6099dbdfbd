//! Why a cube action follows: the doubler's chances and gammon rates, the
//! take point the cube model puts on them, and how many of the next
//! exchange's sequences would lose the market (the taker would pass
//! after them), from a walk over both sides' rolls with each side's best
//! move at 0-ply.

use crate::backgammon::{Dice, MoveList, Position, legal_moves};
use crate::cube::{CubeAction, CubeDecision, CubeState, TakeAnswer, static_cube_decision};
use crate::eval::{Evaluator, Probs};
use crate::search::best_index;
use serde::Serialize;

/// The sequences of one exchange: the doubler's 36 rolls, then the
/// taker's 36.
pub const SEQUENCES: u16 = 36 * 36;

/// The facts behind a cube decision, from the doubler's view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CubeExplanation {
    /// The doubler's chance to win, and the shares of its wins and of its
    /// losses that are gammons (backgammons included), to six decimals.
    pub wins: f64,
    pub gammon_share: f64,
    pub gammon_losses_share: f64,
    /// The taker's chance to win, and the least it may have to take by
    /// the cube model with these gammon rates (`None` where the model's
    /// answer does not turn on the chances, as in exactly solved endings).
    pub taker_chances: f64,
    pub take_point: Option<f64>,
    /// Of the next exchange's 1,296 sequences, those after which the taker
    /// would pass (the doubler's win counted among them); `None` when the
    /// cube is not the doubler's to turn.
    pub market_losers: Option<u16>,
    pub sentence: String,
}

/// `part` as a share of `whole` (0 of nothing).
fn share(part: f32, whole: f32) -> f32 {
    if whole > 1e-6 { part / whole } else { 0.0 }
}

/// `v` to six decimals, as an `f64` every JSON writer prints alike.
pub(super) fn round6(v: f32) -> f64 {
    (f64::from(v) * 1e6).round() / 1e6
}

/// Explains `decision`, taken on the probabilities `p` of the doubler in
/// `pos` (before its roll) with the cube `state`.
pub fn explain_cube(
    eval: &Evaluator,
    pos: &Position,
    p: &Probs,
    state: &CubeState,
    decision: &CubeDecision,
) -> CubeExplanation {
    let p = p.0;
    let gammon_share = share(p[1], p[0]);
    let gammon_losses_share = share(p[3], 1.0 - p[0]);
    let take_point = take_point(pos, &Probs(p), state);
    let market_losers = state
        .roller_may_double()
        .then(|| market_losers(eval, pos, state));
    let taker = 1.0 - p[0];
    let mut facts = vec![format!(
        "the doubler wins {:.1}% ({:.0}% of its wins gammons, {:.0}% of its losses)",
        100.0 * p[0],
        100.0 * gammon_share,
        100.0 * gammon_losses_share
    )];
    if let Some(tp) = take_point {
        facts.push(format!(
            "the taker has {:.1}% against a take point of {:.1}%",
            100.0 * taker,
            100.0 * tp
        ));
    }
    if let Some(n) = market_losers {
        facts.push(format!(
            "{n} of the next exchange's {SEQUENCES} sequences lose the market"
        ));
    }
    let why = match decision.action {
        CubeAction::NoDouble if !state.roller_may_double() => {
            "the cube is not the doubler's to turn".to_string()
        }
        CubeAction::NoDouble => format!(
            "no double: waiting is worth {:.3} more than double/take",
            decision.no_double - decision.double_take.min(decision.double_pass)
        ),
        CubeAction::DoubleTake => "double, take: the taker has enough to take".to_string(),
        CubeAction::DoublePass => "double, pass: the taker has too little to take".to_string(),
        CubeAction::TooGoodTake | CubeAction::TooGoodPass => format!(
            "too good to double: playing on for the gammons is worth {:.3} more than the pass",
            decision.no_double - decision.double_pass
        ),
    };
    let answer = match decision.take {
        TakeAnswer::Take => "take",
        TakeAnswer::Pass => "pass",
        TakeAnswer::Beaver => "beaver",
    };
    CubeExplanation {
        wins: round6(p[0]),
        gammon_share: round6(gammon_share),
        gammon_losses_share: round6(gammon_losses_share),
        taker_chances: round6(taker),
        take_point: take_point.map(round6),
        market_losers,
        sentence: format!(
            "{}; {why} (the answer: {answer}).",
            capitalised(&facts.join("; "))
        ),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The taker's chance at which the cube model turns from take to pass,
/// the gammon shares of `p` kept: bisection over the doubler's chance to
/// win.
pub fn take_point(pos: &Position, p: &Probs, state: &CubeState) -> Option<f32> {
    let p = p.0;
    let (g, b) = (share(p[1], p[0]), share(p[2], p[0]));
    let (gl, bl) = (share(p[3], 1.0 - p[0]), share(p[4], 1.0 - p[0]));
    let passes = |w: f32| {
        let probs = Probs([w, w * g, w * b, (1.0 - w) * gl, (1.0 - w) * bl]);
        static_cube_decision(pos, &probs, state).take == TakeAnswer::Pass
    };
    let (mut lo, mut hi) = (0.5f32, 0.999f32);
    if passes(lo) || !passes(hi) {
        return None;
    }
    for _ in 0..24 {
        let mid = 0.5 * (lo + hi);
        if passes(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(1.0 - hi)
}

/// The sequences (the doubler's roll and best move, then the taker's) of
/// the 1,296 after which the taker would pass a double; the doubler's 21
/// rolls are walked in parallel.
pub fn market_losers(eval: &Evaluator, pos: &Position, state: &CubeState) -> u16 {
    use rayon::prelude::*;
    let rolls: Vec<(Dice, u8)> = Dice::all_rolls().collect();
    rolls
        .par_iter()
        .map(|&(mine, w1)| {
            let mut list = MoveList::new();
            let after = best_after(eval, pos, mine, &mut list);
            if after.is_game_over() {
                // Only the side that moved can have finished: the doubler won.
                return 36 * u16::from(w1);
            }
            let taker = after.swap();
            let mut lost = 0;
            for (theirs, w2) in Dice::all_rolls() {
                let reply = best_after(eval, &taker, theirs, &mut list);
                if reply.is_game_over() {
                    continue;
                }
                let back = reply.swap();
                let d = static_cube_decision(&back, &eval.probs(&back), state);
                if d.take == TakeAnswer::Pass {
                    lost += u16::from(w1) * u16::from(w2);
                }
            }
            lost
        })
        .sum()
}

/// The position after the move of `dice` that the engine plays at 0-ply
/// ([`best_index`]), the mover's view.
fn best_after(eval: &Evaluator, pos: &Position, dice: Dice, list: &mut MoveList) -> Position {
    legal_moves(pos, dice, list);
    list.as_slice()[best_index(eval, list, 0)].position
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::shipped_model;

    #[test]
    fn the_take_point_is_where_the_cube_model_turns_to_pass() {
        let state = CubeState::money();
        let pos = Position::starting();
        // No gammons: the money take point with a live cube lies below
        // the dead cube's 25%.
        let p = Probs([0.7, 0.0, 0.0, 0.0, 0.0]);
        let tp = take_point(&pos, &p, &state).unwrap();
        assert!((0.15..0.25).contains(&tp), "{tp}");
        let decide = |w: f32| static_cube_decision(&pos, &Probs([w, 0.0, 0.0, 0.0, 0.0]), &state);
        assert_eq!(decide(1.0 - tp + 0.002).take, TakeAnswer::Pass);
        assert_eq!(decide(1.0 - tp - 0.002).take, TakeAnswer::Take);
        // The doubler's gammons raise what the taker needs.
        let gammony = Probs([0.7, 0.3, 0.0, 0.0, 0.0]);
        assert!(take_point(&pos, &gammony, &state).unwrap() > tp);
    }

    #[test]
    fn a_race_far_ahead_loses_its_market_and_the_opening_does_not() {
        let eval = Evaluator::new(shipped_model().unwrap());
        let state = CubeState::money();
        assert_eq!(market_losers(&eval, &Position::starting(), &state), 0);
        // A race of 90 pips against 98: a double, and a market that the
        // doubler's good rolls and the taker's bad ones lose.
        let ahead = Position::from_points(
            &[(6, 4), (5, 4), (4, 3), (8, 2), (9, 2)],
            &[(6, 4), (5, 3), (4, 3), (9, 3), (10, 2)],
        );
        assert_eq!(ahead.pip_counts(), (90, 98));
        let n = market_losers(&eval, &ahead, &state);
        assert!(n > 0 && n < SEQUENCES, "{n}");
        let p = eval.probs(&ahead);
        let d = static_cube_decision(&ahead, &p, &state);
        let e = explain_cube(&eval, &ahead, &p, &state, &d);
        assert_eq!(e.market_losers, Some(n));
        assert!(
            e.sentence
                .contains(&format!("{n} of the next exchange's 1296")),
            "{}",
            e.sentence
        );
    }
}
