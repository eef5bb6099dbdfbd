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
    /// The mover's checkers on `board`, as [`Wide::masks`] gives them.
    #[inline(always)]
    fn occupied(board: &Wide) -> u32 {
        board.masks().occupied
    }
    /// Whether the mover has borne off his last checker.
    #[inline(always)]
    fn all_off(occupied: u32) -> bool {
        occupied == 0
    }
    /// The sources of the step after one from `from` to `to`, which left
    /// the mover's checkers as `occupied` (the step's own `sources` and
    /// the board's `singles` before it given too): [`Third`] finds them
    /// with mask operations, where a node of their own would read the
    /// stepped board.
    #[inline(always)]
    fn sources_after(
        steps: &DieSteps,
        _sources: u32,
        _singles: u32,
        occupied: u32,
        from: usize,
        _to: usize,
    ) -> u32 {
        Self::sources(steps, occupied, from)
    }
    /// Whether [`Third`] takes its sources lowest first, the cheaper
    /// order: a turn's candidates are the same set in any order, but the
    /// list's order breaks ties between equal choices later, so only the
    /// generator that has always done so does.
    const LOWEST_FIRST: bool = false;
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
    /// The step's sources from its own point down, less its point if it
    /// left the last checker there, and plus the point it landed on if a
    /// step may leave from there: the sources are the mover's points
    /// among [`DieSteps::on_board`].
    #[inline(always)]
    fn sources_after(
        steps: &DieSteps,
        sources: u32,
        singles: u32,
        _occupied: u32,
        from: usize,
        to: usize,
    ) -> u32 {
        sources & ((2u32 << from) - 1) & !(singles & 1 << from) | steps.on_board() & 1 << to
    }
    const LOWEST_FIRST: bool = true;
}

/// A turn that starts with every checker home: the bear-off.
struct Home;

impl Reach for Home {
    #[inline(always)]
    fn sources(steps: &DieSteps, occupied: u32, top: usize) -> u32 {
        steps.sources_home(occupied, top)
    }
    /// Every checker is home, in the board's lower half.
    #[inline(always)]
    fn occupied(board: &Wide) -> u32 {
        board.occupied_low()
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

/// Steps played before the fourth, which [`Third`] plays in its own loop.
const LAST_DEPTH: u8 = 3;

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
                occupied: R::occupied(&board),
                blots: turn.blots & !(1 << to),
                top: from,
                played: turn.played | Play::packed_step(Self::DEPTH, from, to),
            };
            Next::search::<R, HITS>(steps, &next, out);
        }
    }
}

/// The third step and the fourth in the same loop: the fourth step's
/// sources follow from the third's and the mover's checkers with a few
/// mask operations ([`Reach::sources_after`]), where a node of its own
/// would build them from the board.
struct Third;

impl Level for Third {
    const DEPTH: u8 = LAST_DEPTH - 1;

    #[inline(always)]
    fn search<R: Reach, const HITS: bool>(steps: &DieSteps, turn: &Turn, out: &mut Appender) {
        let sources = R::sources(steps, turn.occupied, turn.top);
        if ended::<R>(sources, Self::DEPTH, turn, out) {
            return;
        }
        let singles = turn.board.singles();
        // Each subtree stays below its own source, so any order of a
        // node's children gives the same set.
        let mut left = sources;
        loop {
            let from = if R::LOWEST_FIRST {
                pop_lowest(&mut left)
            } else {
                pop_highest(&mut left)
            };
            let to = R::target(steps, from);
            let hit = HITS && turn.blots & (1 << to) != 0;
            let board = turn.board.stepped(steps.die, from, to, hit);
            let played = turn.played | Play::packed_step(Self::DEPTH, from, to);
            // The mover's checkers after the step: less `from` if it left
            // the last there, plus `to` unless borne off.
            let occupied = turn.occupied & !(singles & 1 << from) | u32::from(to > 0) << to;
            let mut fourth = R::sources_after(steps, sources, singles, occupied, from, to);
            if fourth == 0 {
                let level = if R::all_off(occupied) { 4 } else { LAST_DEPTH };
                out.push_at(&board, played, level);
            } else if out.raised_to(4) {
                out.make_room_for_sources();
                let blots = turn.blots & !(1 << to);
                let board = board.with_play(played);
                loop {
                    last_step::<R, HITS>(steps, &board, blots, &mut fourth, out);
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

/// Writes the candidate of the fourth step from the lowest of the
/// non-empty `sources`, from `board` with `blots` left to hit and the
/// first three steps in its play's bytes ([`Wide::with_play`]), and
/// takes that source out.
#[inline(always)]
fn last_step<R: Reach, const HITS: bool>(
    steps: &DieSteps,
    board: &Wide,
    blots: u32,
    sources: &mut u32,
    out: &mut Appender,
) {
    let from = pop_lowest(sources);
    let hit = HITS && blots & (1 << R::target(steps, from)) != 0;
    let candidate = board.fourth_stepped(steps.die, from, hit);
    // SAFETY: the caller made room for one write a source (at most 25:
    // the bar and the points), and writes one a source.
    unsafe { out.push_whole_in_room(&candidate) };
}
