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
use super::wide::{Appender, Wide};

/// The legal moves of the double `die`-`die`, written into `out`.
// Inlined into the two compilations `super::compiled_twice` makes of it.
#[inline(always)]
pub(super) fn doubles(position: &Position, die: usize, out: &mut MoveList) {
    let board = Wide::of(position);
    let masks = board.masks();
    let steps = DieSteps::new(masks.open, die);
    let turn = Turn {
        board,
        occupied: masks.occupied,
        blots: masks.blots,
        top: BAR,
        played: 0,
    };
    let mut appender = Appender::new(out);
    <Inner<Inner<Inner<Last>>>>::search(&steps, &turn, &mut appender);
    appender.finish();
}

/// A turn part played: the board, the mover's points (which also tell
/// whether bearing off has begun), the opponent's blots not yet hit, the
/// highest point the next step may start from, and the steps so far
/// (packed as [`Play::packed`] takes them).
struct Turn {
    board: Wide,
    occupied: u32,
    blots: u32,
    top: usize,
    played: u64,
}

/// One step of the four, as a type: the search is the same loop at every
/// level, and nesting the levels as types lets the compiler write it out
/// as four nested loops with no calls or depth tests.
trait Level {
    /// Steps played before this one.
    const DEPTH: u8;

    /// Every way to go on from `turn`.
    fn search(steps: &DieSteps, turn: &Turn, out: &mut Appender);
}

/// A step with more to follow.
struct Inner<Next>(std::marker::PhantomData<Next>);

/// The fourth step.
struct Last;

/// When no step can be played at `depth`, the turn ends there; with every
/// checker off the game is won, which counts as using every die. True when
/// it ended.
#[inline(always)]
fn ended(sources: u32, depth: u8, turn: &Turn, out: &mut Appender) -> bool {
    if sources != 0 {
        return false;
    }
    let level = if turn.occupied == 0 { 4 } else { depth };
    out.push_at(&turn.board, Play::packed(turn.played, depth), level);
    true
}

impl<Next: Level> Level for Inner<Next> {
    const DEPTH: u8 = Next::DEPTH - 1;

    #[inline(always)]
    fn search(steps: &DieSteps, turn: &Turn, out: &mut Appender) {
        let mut sources = steps.sources(turn.occupied, turn.top);
        if ended(sources, Self::DEPTH, turn, out) {
            return;
        }
        while sources != 0 {
            let from = pop_highest(&mut sources);
            let to = steps.target(from);
            let hit = turn.blots & (1 << to) != 0;
            let next = Turn {
                board: turn.board.stepped(steps.die, from, to, hit),
                occupied: after_step(turn.occupied, from, turn.board.get(from), to),
                blots: turn.blots & !(1 << to),
                top: from,
                played: turn.played | Play::packed_step(Self::DEPTH, from, to),
            };
            Next::search(steps, &next, out);
        }
    }
}

impl Level for Last {
    const DEPTH: u8 = 3;

    #[inline(always)]
    fn search(steps: &DieSteps, turn: &Turn, out: &mut Appender) {
        let mut sources = steps.sources(turn.occupied, turn.top);
        if ended(sources, Self::DEPTH, turn, out) {
            return;
        }
        if out.raised_to(4) {
            while sources != 0 {
                let from = pop_highest(&mut sources);
                let to = steps.target(from);
                let played = turn.played | Play::packed_step(3, from, to);
                let hit = turn.blots & (1 << to) != 0;
                out.push_packed_if(
                    &turn.board.stepped(steps.die, from, to, hit),
                    played,
                    4,
                    true,
                );
            }
        }
    }
}
