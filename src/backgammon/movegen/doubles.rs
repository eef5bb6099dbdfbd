//! Doubles: every multiset of up to four steps of one die, each once.
//!
//! Depth first over non-increasing source points. Moving a lower checker
//! never makes a higher checker's step legal (it cannot open a point, bring
//! the higher checker home, or change which point is highest), so every
//! multiset of steps can be played high to low, and each multiset gives a
//! different position: no deduplication is needed.
//!
//! The search keeps the board as a [`Wide`] and the mover's points as a bit
//! mask, so a node's sources are a few mask operations and a leaf is one
//! vector add and store.

use super::super::play::Play;
use super::super::position::{BAR, Position};
use super::MoveList;
use super::sources::{DieSteps, after_step, pop_highest};
use super::wide::{Appender, Wide, step};

/// The legal moves of the double `die`-`die`, written into `out`.
pub(super) fn doubles(position: &Position, die: usize, out: &mut MoveList) {
    let board = Wide::of(position);
    let (occupied, open) = board.masks();
    let steps = DieSteps::new(open, die);
    let outside = position.outside_home();
    rest_of_turn(
        &steps,
        board,
        occupied,
        outside,
        BAR,
        &mut Play::default(),
        out,
    );
}

/// The rest of the turn from `board`, with sources at most `top`.
fn rest_of_turn(
    steps: &DieSteps,
    board: Wide,
    occupied: u32,
    outside: u32,
    top: usize,
    play: &mut Play,
    out: &mut MoveList,
) {
    let depth = play.steps().len() as u8;
    let mut sources = steps.sources(occupied, outside, top);
    if sources == 0 {
        // Nothing left to move; with every checker off the game is won,
        // which counts as using every die.
        let level = if occupied == 0 { 4 } else { depth };
        out.record_unique(board.position(), *play, level);
        return;
    }
    if depth == 3 {
        out.raise_level(4);
        out.items.reserve(sources.count_ones() as usize);
        let mut appender = Appender::new(out);
        while sources != 0 {
            let from = pop_highest(&mut sources);
            let to = steps.target(from);
            play.push(step(from, to));
            appender.push_if(&board.step_here(from, to), *play, true);
            play.pop();
        }
        appender.finish();
        return;
    }
    while sources != 0 {
        let from = pop_highest(&mut sources);
        let to = steps.target(from);
        let next = after_step(occupied, from, board.get(from), to);
        let still_out = outside - u32::from(from > 6 && to <= 6);
        play.push(step(from, to));
        rest_of_turn(
            steps,
            board.step_here(from, to),
            next,
            still_out,
            from,
            play,
            out,
        );
        play.pop();
    }
}
