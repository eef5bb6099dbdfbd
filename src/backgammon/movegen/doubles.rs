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
use super::sources::{BAR_BIT, DieSteps, can_hit, pop_highest, pop_lowest};
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
    // A step bears off only once every checker is home, and each step
    // brings at most one home: with four or more outside, the four steps
    // end before any can bear off.
    let outside = position.outside_home();
    let on_board = masks.occupied & BAR_BIT == 0 && outside >= 4;
    type Search = Inner<Inner<Third>>;
    match (on_board, can_hit(masks.occupied, masks.blots)) {
        (true, true) => Search::search::<OnBoard, true>(&steps, &turn, &mut appender),
        (true, false) => Search::search::<OnBoard, false>(&steps, &turn, &mut appender),
        (false, true) => Search::search::<Anywhere, true>(&steps, &turn, &mut appender),
        (false, false) if outside == 0 => {
            Search::search::<Home, false>(&steps, &turn, &mut appender)
        }
        (false, false) => Search::search::<Anywhere, false>(&steps, &turn, &mut appender),
    }
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
    played: u32,
}

/// Where the turn's steps may start and end: anywhere the rules allow,
/// only within the home board and off it, or (for the search to skip the
/// bar's and the bear-off's tests at every node) only from one point of
/// the board to another.
trait Reach {
    /// The points a step may start from, none above `top`.
    fn sources(steps: &DieSteps, occupied: u32, top: usize) -> u32;
    /// Where a step from `from` lands (0 = borne off).
    #[inline(always)]
    fn target(steps: &DieSteps, from: usize) -> usize {
        steps.target(from)
    }
    /// Whether the mover has borne off his last checker.
    #[inline(always)]
    fn all_off(occupied: u32) -> bool {
        occupied == 0
    }
    /// Whether a step's sources are the mover's points among
    /// [`DieSteps::on_board`]: then the sources after a step follow from
    /// those before it and the board's single checkers, and [`Third`]
    /// finds the last two steps together.
    const FIXED_SOURCES: bool = false;
}

/// Any turn: the bar, the board and bearing off.
struct Anywhere;

impl Reach for Anywhere {
    #[inline(always)]
    fn sources(steps: &DieSteps, occupied: u32, top: usize) -> u32 {
        steps.sources(occupied, top)
    }
}

/// A turn with no checker on the bar and none that can bear off.
struct OnBoard;

impl Reach for OnBoard {
    #[inline(always)]
    fn sources(steps: &DieSteps, occupied: u32, top: usize) -> u32 {
        steps.sources_on_board(occupied, top)
    }
    #[inline(always)]
    fn target(steps: &DieSteps, from: usize) -> usize {
        from - steps.die
    }
    #[inline(always)]
    fn all_off(_: u32) -> bool {
        false
    }
    const FIXED_SOURCES: bool = true;
}

/// A turn that starts with every checker home: the bear-off.
struct Home;

impl Reach for Home {
    #[inline(always)]
    fn sources(steps: &DieSteps, occupied: u32, top: usize) -> u32 {
        steps.sources_home(occupied, top)
    }
}

/// One step of the four, as a type: the search is the same loop at every
/// level, and nesting the levels as types lets the compiler write it out
/// as four nested loops with no calls or depth tests.
trait Level {
    /// Steps played before this one.
    const DEPTH: u8;

    /// Every way to go on from `turn`.
    fn search<R: Reach, const HITS: bool>(steps: &DieSteps, turn: &Turn, out: &mut Appender);
}

/// A step with more to follow.
struct Inner<Next>(std::marker::PhantomData<Next>);

/// The fourth step.
struct Last;

/// When no step can be played at `depth`, the turn ends there; with every
/// checker off the game is won, which counts as using every die. True when
/// it ended.
#[inline(always)]
fn ended<R: Reach>(sources: u32, depth: u8, turn: &Turn, out: &mut Appender) -> bool {
    if sources != 0 {
        return false;
    }
    let level = if R::all_off(turn.occupied) { 4 } else { depth };
    out.push_at(&turn.board, turn.played, level);
    true
}

impl<Next: Level> Level for Inner<Next> {
    const DEPTH: u8 = Next::DEPTH - 1;

    #[inline(always)]
    fn search<R: Reach, const HITS: bool>(steps: &DieSteps, turn: &Turn, out: &mut Appender) {
        let mut sources = R::sources(steps, turn.occupied, turn.top);
        if ended::<R>(sources, Self::DEPTH, turn, out) {
            return;
        }
        while sources != 0 {
            let from = pop_highest(&mut sources);
            let to = R::target(steps, from);
            let hit = HITS && turn.blots & (1 << to) != 0;
            let board = turn.board.stepped(steps.die, from, to, hit);
            let next = Turn {
                board,
                occupied: board.masks().occupied,
                blots: turn.blots & !(1 << to),
                top: from,
                played: turn.played | Play::packed_step(Self::DEPTH, from, to),
            };
            Next::search::<R, HITS>(steps, &next, out);
        }
    }
}

/// The third step, and with [`Reach::FIXED_SOURCES`] the fourth in the
/// same loop: the fourth step's sources follow from the third's with a few
/// mask operations, where a node of its own would build them from the
/// board.
struct Third;

impl Level for Third {
    const DEPTH: u8 = 2;

    #[inline(always)]
    fn search<R: Reach, const HITS: bool>(steps: &DieSteps, turn: &Turn, out: &mut Appender) {
        if !R::FIXED_SOURCES {
            return Inner::<Last>::search::<R, HITS>(steps, turn, out);
        }
        let sources = R::sources(steps, turn.occupied, turn.top);
        if ended::<R>(sources, Self::DEPTH, turn, out) {
            return;
        }
        let singles = turn.board.singles();
        // Lowest first: each subtree stays below its own source, so any
        // order of a node's children gives the same set.
        let mut left = sources;
        loop {
            let from = pop_lowest(&mut left);
            let to = R::target(steps, from);
            let hit = HITS && turn.blots & (1 << to) != 0;
            let board = turn.board.stepped(steps.die, from, to, hit);
            let played = turn.played | Play::packed_step(Self::DEPTH, from, to);
            // This step's sources from its own point down, less its point
            // if it left the last checker there, and plus the point it
            // landed on if a step may leave from there.
            let mut fourth = sources & ((2u32 << from) - 1) & !(singles & 1 << from)
                | steps.on_board() & 1 << to;
            if fourth == 0 {
                out.push_at(&board, played, Last::DEPTH);
            } else if out.raised_to(4) {
                out.make_room_for_sources();
                let blots = turn.blots & !(1 << to);
                loop {
                    last_step::<R, HITS>(steps, &board, blots, played, &mut fourth, out);
                    if fourth == 0 {
                        break;
                    }
                }
            }
            if left == 0 {
                break;
            }
        }
    }
}

impl Level for Last {
    const DEPTH: u8 = 3;

    #[inline(always)]
    fn search<R: Reach, const HITS: bool>(steps: &DieSteps, turn: &Turn, out: &mut Appender) {
        let mut sources = R::sources(steps, turn.occupied, turn.top);
        if ended::<R>(sources, Self::DEPTH, turn, out) {
            return;
        }
        if out.raised_to(4) {
            out.make_room_for_sources();
            // Sources is not empty (the turn did not end): the loop tests
            // for more only after the first.
            loop {
                let (board, blots, played) = (&turn.board, turn.blots, turn.played);
                last_step::<R, HITS>(steps, board, blots, played, &mut sources, out);
                if sources == 0 {
                    break;
                }
            }
        }
    }
}

/// Writes the candidate of the fourth step from the lowest of the
/// non-empty `sources`, from `board` with `blots` left to hit and the
/// first three steps `played`, and takes that source out.
#[inline(always)]
fn last_step<R: Reach, const HITS: bool>(
    steps: &DieSteps,
    board: &Wide,
    blots: u32,
    played: u32,
    sources: &mut u32,
    out: &mut Appender,
) {
    let from = pop_lowest(sources);
    let to = R::target(steps, from);
    let played = played | Play::packed_step(Last::DEPTH, from, to);
    let hit = HITS && blots & (1 << to) != 0;
    let board = board.stepped(steps.die, from, to, hit);
    // SAFETY: the caller made room for one write a source (at most 25:
    // the bar and the points), and writes one a source.
    unsafe { out.push_packed_in_room_if(&board, played, true) };
}
