//! Legal turns: every distinct position the mover can reach with a roll.
//!
//! The rules (§7–9 and the reference algorithm §14 of backgammon.md) are
//! implemented twice on purpose:
//! - [`legal_moves`] is the fast generator used everywhere, one path per
//!   kind of turn, each in its own file:
//!   - `pairs`: non-doubles with at most one checker on the bar and at least
//!     two checkers outside the home board (most contact positions), where
//!     no step can bear off. Pairs of independent single moves plus
//!     one-checker chains, with the few ways two sequences can reach the
//!     same position ruled out by construction, so no hashing or searching
//!     the list is needed.
//!   - `doubles`: a depth-first search over non-increasing source points,
//!     which reaches every multiset of steps exactly once.
//!   - `near_home`: the other non-doubles (races into the bear-off and the
//!     bear-off), the reference sequences with bit-mask sources and a hash
//!     table in place of the list scan.
//!   - two or more checkers on the bar: at most one result, here.
//!
//!   They share `wide` (a board as two 16-byte vectors and the step deltas
//!   added to it) and `sources` (where a die's steps may start, as a mask).
//! - [`legal_moves_reference`] follows §14 literally (both dice orders, full
//!   sequences, then the duties of §7.4) and deduplicates by comparison. Tests
//!   check that the two agree on many random positions.
//!
//! Results are written into a caller-owned [`MoveList`], so generating moves
//! allocates nothing once the list exists.

mod doubles;
mod near_home;
mod pairs;
mod sources;
mod wide;

use super::dice::Dice;
use super::play::{Play, Step};
use super::position::{BAR, OPP_BAR, Position, Side};
use doubles::doubles;
use near_home::mixed_near_home;
use pairs::mixed_without_bear_off;
use wide::step;

/// One legal way to play a roll and the position it leads to (still from the
/// mover's view; call [`Position::swap`] to hand the turn over).
///
/// The 26 board bytes and the 4 play bytes fill one aligned 32-byte slot,
/// which the generators write with whole aligned stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Candidate {
    pub position: Position,
    pub play: Play,
}

/// Reusable storage for the legal moves of one roll.
///
/// A roll with no legal move yields exactly one candidate: the unchanged
/// position with an empty play (the turn is forfeited), so callers never
/// have to special-case an empty list.
#[derive(Clone, Debug)]
pub struct MoveList {
    items: Vec<Candidate>,
    /// How good the recorded sequences are under §7.4: number of dice used,
    /// and for a single die, whether it was the higher one.
    level: u8,
}

/// Enough for the positions seen in play; the list grows if ever needed.
const INITIAL_CAPACITY: usize = 4096;

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            items: Vec::with_capacity(INITIAL_CAPACITY),
            level: 0,
        }
    }

    pub fn as_slice(&self) -> &[Candidate] {
        &self.items
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Candidate> {
        self.items.iter()
    }

    /// True when the roll could not be played at all.
    pub fn is_forfeit(&self) -> bool {
        self.items.len() == 1 && self.items[0].play.is_empty()
    }

    #[inline]
    fn clear(&mut self) {
        self.items.clear();
        self.level = 0;
    }

    #[inline]
    fn push(&mut self, position: Position, play: Play) {
        self.items.push(Candidate { position, play });
    }

    /// Records a sequence at `level`, keeping only the best level seen and
    /// each resulting position once.
    fn record(&mut self, position: Position, play: Play, level: u8) {
        if level < self.level {
            return;
        }
        if level > self.level {
            self.items.clear();
            self.level = level;
        }
        if !self.items.iter().any(|c| c.position == position) {
            self.push(position, play);
        }
    }

    fn finish(&mut self, start: &Position) {
        if self.items.is_empty() {
            self.push(*start, Play::default());
        }
    }
}

thread_local! {
    /// Lists free for [`with_legal_moves`], one per level of nesting in use.
    static SCRATCH: std::cell::RefCell<Vec<MoveList>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` on the legal moves of `dice` in `position`, using a list kept
/// per thread, for callers that cannot hold a [`MoveList`] of their own.
/// `f` may call it again (a move chooser that searches replies): each
/// level takes its own list, allocated once per thread and level.
pub fn with_legal_moves<R>(position: &Position, dice: Dice, f: impl FnOnce(&MoveList) -> R) -> R {
    let mut list = SCRATCH
        .with(|free| free.borrow_mut().pop())
        .unwrap_or_default();
    legal_moves(position, dice, &mut list);
    let result = f(&list);
    SCRATCH.with(|free| free.borrow_mut().push(list));
    result
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Candidate;
    type IntoIter = std::slice::Iter<'a, Candidate>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl Position {
    /// Moves one of the mover's checkers `from` → `to` (0 = off), hitting a
    /// lone opposing checker on `to`. The caller guarantees legality.
    #[inline(always)]
    pub(crate) fn apply_step(&mut self, from: usize, to: usize) {
        self.pips[from] -= 1;
        if to > 0 {
            if self.pips[to] == -1 {
                self.pips[to] = 0;
                self.pips[OPP_BAR] -= 1;
            }
            self.pips[to] += 1;
        }
    }

    /// [`Position::apply_step`] for a step that lands on the board, without
    /// branches: whether it hits is data the branch predictor cannot guess.
    #[inline(always)]
    fn apply_step_on_board(&mut self, from: usize, to: usize) {
        let hit = i8::from(self.pips[to] == -1);
        self.pips[from] -= 1;
        self.pips[to] += 1 + hit;
        self.pips[OPP_BAR] -= hit;
    }

    /// Mover's checkers outside the home board (points 7..=24 and the bar),
    /// counted by [`wide::Wide::outside_home`]'s vector sum: every mixed
    /// roll and every double asks.
    #[inline]
    fn outside_home(&self) -> u32 {
        wide::Wide::of(self).outside_home()
    }

    /// Where a single checker from `from` lands with `die`, if that step is
    /// legal on its own (§14, "a single move").
    #[inline]
    fn single_step(&self, from: usize, die: usize, outside: u32) -> Option<usize> {
        if from > die {
            let to = from - die;
            return (self.pips[to] >= -1).then_some(to);
        }
        if outside > 0 {
            return None;
        }
        if from == die || self.pips[from + 1..=6].iter().all(|&v| v <= 0) {
            Some(0)
        } else {
            None
        }
    }

    /// The sources from which `die` can be played now: only the bar while a
    /// checker is on it.
    pub(super) fn single_moves(&self, die: usize, buf: &mut [Step; 16]) -> usize {
        self.single_moves_with(die, self.outside_home(), buf)
    }

    /// [`Position::single_moves`] for a caller that knows how many
    /// checkers are outside the home board.
    #[inline]
    fn single_moves_with(&self, die: usize, outside: u32, buf: &mut [Step; 16]) -> usize {
        if self.pips[BAR] > 0 {
            let to = BAR - die;
            if self.pips[to] >= -1 {
                buf[0] = Step {
                    from: BAR as u8,
                    to: to as u8,
                };
                return 1;
            }
            return 0;
        }
        let mut n = 0;
        for from in (1..=24).rev() {
            if self.pips[from] > 0
                && let Some(to) = self.single_step(from, die, outside)
            {
                buf[n] = step(from, to);
                n += 1;
            }
        }
        n
    }

    /// Applies a whole play (steps assumed legal in order).
    pub fn apply_play(&self, play: &Play) -> Position {
        let mut p = *self;
        for s in play.steps() {
            p.apply_step(s.from as usize, s.to as usize);
        }
        p
    }
}

/// All legal moves of `dice` in `position`, written into `out`.
pub fn legal_moves(position: &Position, dice: Dice, out: &mut MoveList) {
    legal_moves_compiled(has_bit_instructions(), position, dice, out)
}

/// [`legal_moves`] by the generators' compilation for CPUs with
/// [`has_bit_instructions`] (`bits`), else by the baseline's.
#[inline(always)]
fn legal_moves_compiled(bits: bool, position: &Position, dice: Dice, out: &mut MoveList) {
    out.clear();
    let (hi, lo) = (dice.high() as usize, dice.low() as usize);
    if hi == lo {
        compiled::doubles(bits, position, hi, out);
    } else if position.pips[BAR] >= 2 {
        enter_two_or_more(position, hi, lo, out);
    } else {
        // The structural path covers every position where no step can
        // bear off: most of contact play.
        if position.outside_home() >= 2 {
            compiled::mixed_without_bear_off(bits, position, hi, lo, out);
        } else {
            compiled::mixed_near_home(bits, position, hi, lo, out);
        }
    }
    out.finish(position);
}

/// Whether this CPU has the instructions the generators' second
/// compilation uses: single-instruction bit scans and counts (`lzcnt`,
/// `tzcnt`, `popcnt`), shifts by a register that leave the flags alone
/// (BMI2), and three-operand vector instructions (AVX2). x86-64's baseline
/// has none of them, and the generators are mostly bit masks and byte
/// vectors.
#[inline]
fn has_bit_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Each generator compiled twice, for x86-64's baseline and for CPUs with
/// [`has_bit_instructions`], and called by whichever this CPU runs. Each
/// stays out of line: inlining both mixed paths into `legal_moves` cost
/// 5-15% on the benchmark set (measured).
mod compiled {
    use super::super::position::Position;
    use super::MoveList;

    macro_rules! compiled_twice {
        ($name:ident, $path:path, ($($arg:ident: $ty:ty),*)) => {
            #[inline(always)]
            pub(super) fn $name(bits: bool, $($arg: $ty),*) {
                #[inline(never)]
                fn portable($($arg: $ty),*) {
                    $path($($arg),*)
                }
                #[cfg(target_arch = "x86_64")]
                #[inline(never)]
                #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
                unsafe fn with_bits($($arg: $ty),*) {
                    $path($($arg),*)
                }
                #[cfg(target_arch = "x86_64")]
                if bits {
                    // SAFETY: the caller checked `has_bit_instructions`.
                    return unsafe { with_bits($($arg),*) };
                }
                let _ = bits;
                portable($($arg),*)
            }
        };
    }

    compiled_twice!(doubles, super::doubles, (position: &Position, die: usize, out: &mut MoveList));
    compiled_twice!(
        mixed_without_bear_off,
        super::mixed_without_bear_off,
        (position: &Position, hi: usize, lo: usize, out: &mut MoveList)
    );
    compiled_twice!(
        mixed_near_home,
        super::mixed_near_home,
        (position: &Position, hi: usize, lo: usize, out: &mut MoveList)
    );
}

/// The literal §14 algorithm, for tests and as the slow path.
pub fn legal_moves_reference(position: &Position, dice: Dice, out: &mut MoveList) {
    out.clear();
    let (hi, lo) = (dice.high() as usize, dice.low() as usize);
    if hi == lo {
        doubles_reference(position, hi, 0, Play::default(), out);
    } else {
        mixed_reference(position, hi, lo, out);
    }
    out.finish(position);
}

/// Levels for [`MoveList::record`]: both dice beat the higher die alone,
/// which beats the lower die alone. A game-ending play counts as using
/// every die (§7.4 rule 6).
const BOTH_DICE: u8 = 3;
const HIGH_DIE_ONLY: u8 = 2;
const LOW_DIE_ONLY: u8 = 1;

// Out of line on purpose: it keeps `legal_moves` small; inlining both
// mixed paths cost 5-15% on the benchmark set (measured).
#[inline(never)]
fn mixed_reference(position: &Position, hi: usize, lo: usize, out: &mut MoveList) {
    let mut first = [Step::default(); 16];
    let mut second = [Step::default(); 16];
    let outside = position.outside_home();
    let last_checker = position.on_board(Side::Mover) == 1;
    for (d1, d2, alone) in [(hi, lo, HIGH_DIE_ONLY), (lo, hi, LOW_DIE_ONLY)] {
        let n1 = position.single_moves_with(d1, outside, &mut first);
        for s1 in &first[..n1] {
            let (from, to) = (s1.from as usize, s1.to as usize);
            let mut p1 = *position;
            p1.apply_step(from, to);
            let mut play = Play::default();
            play.push(*s1);
            if to == 0 && last_checker {
                out.record(p1, play, BOTH_DICE);
                continue;
            }
            let still_out = outside - u32::from(from > 6 && to <= 6);
            let n2 = p1.single_moves_with(d2, still_out, &mut second);
            if n2 == 0 {
                out.record(p1, play, alone);
            }
            for s2 in &second[..n2] {
                let mut p2 = p1;
                p2.apply_step(s2.from as usize, s2.to as usize);
                let mut play2 = play;
                play2.push(*s2);
                out.record(p2, play2, BOTH_DICE);
            }
        }
    }
}

/// Doubles by plain exhaustive search (every order), deduplicated.
fn doubles_reference(position: &Position, die: usize, depth: u8, play: Play, out: &mut MoveList) {
    if depth == 4 || (depth > 0 && position.on_board(Side::Mover) == 0) {
        out.record(*position, play, 4);
        return;
    }
    let mut buf = [Step::default(); 16];
    let n = position.single_moves(die, &mut buf);
    if n == 0 {
        out.record(*position, play, depth);
        return;
    }
    for s in &buf[..n] {
        let mut p = *position;
        p.apply_step(s.from as usize, s.to as usize);
        let mut next = play;
        next.push(*s);
        doubles_reference(&p, die, depth + 1, next, out);
    }
}

/// Non-doubles with two or more checkers on the bar: each die that can
/// enter must, and nothing else moves (§8). At most one result.
fn enter_two_or_more(position: &Position, hi: usize, lo: usize, out: &mut MoveList) {
    let open = |d: usize| position.pips[BAR - d] >= -1;
    let mut q = *position;
    let mut play = Play::default();
    for d in [hi, lo] {
        if open(d) {
            q.apply_step_on_board(BAR, BAR - d);
            play.push(step(BAR, BAR - d));
        }
    }
    if !play.is_empty() {
        out.push(q, play);
    }
}

#[cfg(test)]
mod tests;
