//! Looking ahead: n-ply expectiminimax over the evaluator, plies counted as
//! GNU Backgammon counts them (0 = the static evaluation of the position
//! after the move; 1 = the average over the opponent's 21 rolls of the
//! position after its best 0-ply reply; and so on).
//!
//! Two forms: the plain, exhaustive cubeless one below (players in duels,
//! dev-set scoring), and [`Searcher`], cubeful with move filters and a
//! cache, behind analysis and the UBGI engine.

pub mod any_game;
mod cache;
mod engine;
mod filter;
mod nodes;
mod table;

pub use cache::EvalCache;
pub use engine::{
    CUBE_SCREEN_MARGIN, CubeAnalysis, DEFAULT_PRESELECTOR, DEFAULT_PRUNE, LongLists, PUBEVAL_PRUNE,
    Preselection, Preselector, RankedMove, SearchSettings, Searcher,
};
pub use filter::{FilterError, MoveFilter, OnePlyPass, OnePlyPassError};

use crate::backgammon::{Dice, MoveList, Position, legal_moves};
use crate::eval::{Evaluator, FirstLayerMemo, Probs};

/// Probabilities for the side that just moved into `after` (its own view),
/// looking `ply` plies ahead.
pub fn after_move(eval: &Evaluator, after: &Position, ply: u8) -> Probs {
    if ply == 0 || crate::backgammon::GameResult::of_mover_win(after).is_some() {
        return eval.after_move(after);
    }
    let opponent = after.swap();
    let mut total = Probs::default();
    let mut list = MoveList::new();
    for (dice, weight) in Dice::all_rolls() {
        legal_moves(&opponent, dice, &mut list);
        let reply = best_index(eval, &list, 0);
        let value = after_move(eval, &list.as_slice()[reply].position, ply - 1);
        total.add_scaled(&value, weight as f32 / 36.0);
    }
    total.flip()
}

/// The candidate of `list` with the highest equity at `ply`.
pub fn best_index(eval: &Evaluator, list: &MoveList, ply: u8) -> usize {
    let mut best = (0, f32::NEG_INFINITY);
    let mut memo = FirstLayerMemo::new();
    for (i, c) in list.iter().enumerate() {
        let e = match ply {
            0 => eval.after_candidate(&c.position, &mut memo),
            _ => after_move(eval, &c.position, ply),
        }
        .equity();
        if e > best.1 {
            best = (i, e);
        }
    }
    best.0
}
