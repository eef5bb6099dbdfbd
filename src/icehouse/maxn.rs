//! Four-player Icehouse Kotra: a leaf evaluation that gives every seat a
//! share of the win, the greedy player built on it, and a max-n search.
//!
//! **Max-n, not paranoid.** Each seat is assumed to play for its own share
//! (the component of the value vector that is its own), which is how the
//! heuristic seats really play; a paranoid search (everyone against the
//! searcher) would credit them with a coalition that no seat pursues.
//! The searched seat looks one full turn of the next seat ahead: for each
//! of its candidate turns (the best [`CANDIDATES`] by the leaf evaluation),
//! the next seat's reply to every roll is the one that maximises the next
//! seat's own share, and the searcher takes the roll-weighted mean of its
//! own share after that reply.

use super::board::Seat;
use super::game::greedy_score;
use super::position::Position;
use super::turns::{Turn, legal_turns};
use crate::game::best_by;

/// Candidate turns kept for the searcher's look-ahead.
pub const CANDIDATES: usize = 8;
/// Temperature of the shares: greedy-score points per factor e.
pub const TEMPERATURE: f32 = 6.0;

/// Every seat's share of the win (summing to one over the seats in play):
/// the result once the game is over, else a softmax of the greedy scores.
pub fn shares(pos: &Position) -> [f32; 4] {
    let mut out = [0f32; 4];
    if let Some(o) = pos.outcome() {
        for &s in pos.seats() {
            out[s.index()] = o.share(s);
        }
        return out;
    }
    let scores: Vec<f32> = pos.seats().iter().map(|&s| greedy_score(pos, s)).collect();
    let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for (&s, &v) in pos.seats().iter().zip(&scores) {
        let e = ((v - top) / TEMPERATURE).exp();
        out[s.index()] = e;
        total += e;
    }
    for v in &mut out {
        *v /= total;
    }
    out
}

/// The greedy four-seat player: the turn with the best own share.
pub fn greedy_choice(pos: &Position, turns: &[Turn]) -> usize {
    let me = pos.to_move.index();
    best_by(turns, |t| shares(&t.position)[me])
}

/// The max-n searcher's choice.
pub fn maxn_choice(pos: &Position, turns: &[Turn]) -> usize {
    if turns.len() == 1 {
        return 0;
    }
    let me = pos.to_move.index();
    let mut ranked: Vec<(usize, f32)> = turns
        .iter()
        .enumerate()
        .map(|(i, t)| (i, shares(&t.position)[me]))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked.truncate(CANDIDATES);
    ranked[best_by(&ranked, |&(i, _)| look_ahead(&turns[i].position, me))].0
}

/// The searcher's share after the next seat's best reply, averaged over
/// that seat's 16 rolls.
fn look_ahead(after: &Position, me: usize) -> f32 {
    if after.ended_by.is_some() {
        return shares(after)[me];
    }
    let next = after.passed();
    let them: Seat = next.to_move;
    let mut sum = 0.0;
    for d1 in 1..=4u8 {
        for d2 in 1..=4u8 {
            let replies = legal_turns(&next, d1, d2);
            let best = replies
                .iter()
                .map(|t| shares(&t.position))
                .max_by(|a, b| a[them.index()].total_cmp(&b[them.index()]))
                .expect("never empty");
            sum += best[me];
        }
    }
    sum / 16.0
}
