//! Legal turns: every distinct position the mover can reach with a roll.
//!
//! (Over 600 lines on purpose: the fast generator's three paths and the
//! reference algorithm they are tested against belong together, and
//! splitting the hot path across files would hide how they share the
//! move list.)
//!
//! The rules (§7–9 and the reference algorithm §14 of backgammon.md) are
//! implemented twice on purpose:
//! - [`legal_moves`] is the fast generator used everywhere. Non-doubles with
//!   no checker on the bar and at least two checkers outside the home board
//!   (most contact positions) are enumerated structurally: pairs of
//!   independent single moves plus one-checker chains, with the few ways two
//!   sequences can reach the same position ruled out by construction, so no
//!   hashing or searching the list is needed. Doubles use a depth-first
//!   search over non-increasing source points, which reaches every multiset
//!   of steps exactly once. Everything else falls back to the reference path.
//! - [`legal_moves_reference`] follows §14 literally (both dice orders, full
//!   sequences, then the duties of §7.4) and deduplicates by comparison. Tests
//!   check that the two agree on many random positions.
//!
//! Results are written into a caller-owned [`MoveList`], so generating moves
//! allocates nothing once the list exists.

use super::dice::Dice;
use super::play::{Play, Step};
use super::position::{BAR, OPP_BAR, Position, Side};

/// One legal way to play a roll and the position it leads to (still from the
/// mover's view; call [`Position::swap`] to hand the turn over).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    /// Mover's checkers outside the home board (points 7..=24 and the bar).
    #[inline]
    fn outside_home(&self) -> u32 {
        self.pips[7..=25].iter().map(|&v| v.max(0) as u32).sum()
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
    out.clear();
    let (hi, lo) = (dice.high() as usize, dice.low() as usize);
    if hi == lo {
        doubles(position, hi, out);
    } else if position.pips[BAR] >= 2 {
        enter_two_or_more(position, hi, lo, out);
    } else {
        // The structural path covers every position where no step can
        // bear off: most of contact play.
        if position.outside_home() >= 2 {
            mixed_without_bear_off(position, hi, lo, out);
        } else {
            mixed_reference(position, hi, lo, out);
        }
    }
    out.finish(position);
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

/// Non-doubles with at most one checker on the bar and at least two checkers
/// outside the home board (the bar counts), so no step of the turn can bear
/// off. A checker on the bar is just a source on point 25 that every play
/// must include. When no play uses both dice it lists the single steps the
/// rules then demand (none: the turn is forfeited).
///
/// A two-step play either moves two checkers independently (a "pair": `a`
/// from `i`, `b` from `j`, both legal in the starting position) or moves one
/// checker twice (a "chain" through an intermediate point). Two sequences
/// reach the same position only when one checker's route passes through a
/// point without hitting there; then:
/// - a chain through a point the mover already holds is also a pair
///   (`a` from `k`, `b` from `k - a`); if both intermediate points are held,
///   the pair starting with `b` is skipped;
/// - a chain through an empty point gives the same position as any other
///   non-hitting route of that checker, so it is kept only if no such route
///   was recorded;
/// - chains that hit on the intermediate point are always distinct.
#[inline(never)] // see `mixed_reference`
fn mixed_without_bear_off(position: &Position, a: usize, b: usize, out: &mut MoveList) {
    let p = &position.pips;
    // Occupied points, then the sources of each die among them; appends
    // are branch-free because which points are held is unpredictable.
    let mut occupied = [0u8; 16];
    let mut n_occ = 0;
    for (i, &v) in p.iter().enumerate().skip(1) {
        occupied[n_occ] = i as u8;
        n_occ += usize::from(v > 0);
    }
    let on_bar = p[BAR] > 0;
    let mut src_a = [0u8; 16];
    let mut src_b = [0u8; 16];
    let (mut na, mut nb) = (0, 0);
    for &i in &occupied[..n_occ] {
        let i = i as usize;
        src_a[na] = i as u8;
        na += usize::from((i > a) & (p[i.saturating_sub(a)] >= -1));
        src_b[nb] = i as u8;
        nb += usize::from((i > b) & (p[i.saturating_sub(b)] >= -1));
    }
    out.items.reserve(na * nb + 2 * BAR);
    // Each single step as a board delta, so a pair is the start plus two
    // deltas: whole-board vector adds instead of byte-by-byte updates.
    let base = Wide::of(position);
    // Only the first `nb` are ever read; zeroing the whole array cost more
    // than the adds save.
    let mut delta_b = [std::mem::MaybeUninit::<Wide>::uninit(); 16];
    for (k, &j) in src_b[..nb].iter().enumerate() {
        delta_b[k].write(Wide::step(p, j as usize, j as usize - b));
    }
    // SAFETY: entries 0..nb were written just above.
    let delta_b: &[Wide] =
        unsafe { std::slice::from_raw_parts(delta_b.as_ptr().cast::<Wide>(), nb) };
    // Candidates are written unconditionally and kept or not by advancing
    // the length: which sources pair up is data the branch predictor
    // cannot guess (about 15 mispredictions per call before).
    let mut appender = Appender::new(out);
    for &i in &src_a[..na] {
        let i = i as usize;
        let with_a = base.plus(&Wide::step(p, i, i - a));
        for (kb, &j) in src_b[..nb].iter().enumerate() {
            let j = j as usize;
            // The checker from j goes to j - b = i and on with a: the same
            // as a from j then b from j - a, recorded when j - a is held.
            let skip = (i == j) & (p[i] < 2)
                | on_bar & (i != BAR) & (j != BAR)
                | (j - b == i) & (p[j.saturating_sub(a)] > 0);
            let (sa, sb) = (step(i, i - a), step(j, j - b));
            // List a bar entry first: plays are given in a playable order.
            let play = if j == BAR {
                Play::two(sb, sa)
            } else {
                Play::two(sa, sb)
            };
            appender.push_if(&with_a.plus(&delta_b[kb]), play, !skip);
            if (i - a == j - b) & (p[i - a] == -1) & !skip {
                // Both landed on the blot: only the first hit it.
                let last = appender.last_mut();
                last.pips[i - a] -= 1;
                last.pips[OPP_BAR] += 1;
            }
        }
    }
    for &k in &occupied[..n_occ] {
        let k = k as usize;
        let dest = k.saturating_sub(a + b);
        if (k <= a + b) | on_bar & (k != BAR) | (p[dest] < -1) {
            continue;
        }
        let (mid_a, mid_b) = (k - a, k - b);
        let mut quiet_done = (p[mid_a] > 0) | (p[mid_b] > 0);
        for mid in [mid_a, mid_b] {
            let v = p[mid];
            let keep = (v == -1) | (v == 0) & !quiet_done;
            quiet_done |= keep & (v == 0);
            let board = base
                .plus(&Wide::step(p, k, mid))
                .plus(&Wide::step(p, mid, dest));
            appender.push_if(&board, Play::two(step(k, mid), step(mid, dest)), keep);
        }
    }
    appender.finish();
    if out.items.is_empty() {
        // No play uses both dice: every single step of the higher die if
        // there is one, else of the lower (§7.4). Each step gives its own
        // position, and none bears off.
        for (d, sources, level) in [
            (a, &src_a[..na], HIGH_DIE_ONLY),
            (b, &src_b[..nb], LOW_DIE_ONLY),
        ] {
            let mut appender = Appender::new(out);
            for &i in sources {
                let i = i as usize;
                let single = Play::from_steps(&[step(i, i - d)]);
                appender.push_if(
                    &base.plus(&Wide::step(p, i, i - d)),
                    single,
                    !on_bar | (i == BAR),
                );
            }
            appender.finish();
            if !out.items.is_empty() {
                out.level = level;
                return;
            }
        }
        return;
    }
    out.level = BOTH_DICE;
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

/// A board as two overlapping 16-byte halves (slots 0..16 and 10..26), so
/// that adding boards is two vector adds and storing one is two vector
/// stores straight into the move list; the six shared slots always agree.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Wide {
    lo: [i8; 16],
    hi: [i8; 16],
}

const HI: usize = 10;

impl Wide {
    const ZERO: Wide = Wide {
        lo: [0; 16],
        hi: [0; 16],
    };

    #[inline(always)]
    fn of(position: &Position) -> Wide {
        let mut w = Wide::ZERO;
        w.lo.copy_from_slice(&position.pips[..16]);
        w.hi.copy_from_slice(&position.pips[HI..]);
        w
    }

    /// Adds `v` to slot `k` (table building only).
    const fn add(&mut self, k: usize, v: i8) {
        if k < 16 {
            self.lo[k] += v;
        }
        if k >= HI {
            self.hi[k - HI] += v;
        }
    }

    /// What moving a checker `from` → `to` on the board `p` changes, summed
    /// from constant tables: building it with byte writes and then reading
    /// it whole would stall store forwarding.
    #[inline(always)]
    fn step(p: &[i8; 26], from: usize, to: usize) -> Wide {
        let land = &STEP_TABLES.land[usize::from(p[to] == -1)][to];
        STEP_TABLES.leave[from].plus(land)
    }

    #[inline(always)]
    fn plus(&self, other: &Wide) -> Wide {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{__m128i, _mm_add_epi8};
            // SAFETY: SSE2 is part of x86-64; `Wide` is two 16-byte halves,
            // 16-aligned, exactly the layout of two `__m128i`.
            unsafe {
                let x: [__m128i; 2] = std::mem::transmute(*self);
                let y: [__m128i; 2] = std::mem::transmute(*other);
                std::mem::transmute([_mm_add_epi8(x[0], y[0]), _mm_add_epi8(x[1], y[1])])
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut w = Wide::ZERO;
            for k in 0..16 {
                w.lo[k] = self.lo[k].wrapping_add(other.lo[k]);
                w.hi[k] = self.hi[k].wrapping_add(other.hi[k]);
            }
            w
        }
    }
}

/// One-slot deltas: a checker leaving a slot, landing on one, or landing
/// and sending the opponent's blot to its bar.
struct StepTables {
    leave: [Wide; 26],
    /// `[hit][slot]`.
    land: [[Wide; 26]; 2],
}

static STEP_TABLES: StepTables = {
    let mut t = StepTables {
        leave: [Wide::ZERO; 26],
        land: [[Wide::ZERO; 26]; 2],
    };
    let mut k = 0;
    while k < 26 {
        t.leave[k].add(k, -1);
        t.land[0][k].add(k, 1);
        t.land[1][k].add(k, 2);
        t.land[1][k].add(OPP_BAR, -1);
        k += 1;
    }
    t
};

/// Appends candidates into room reserved in a [`MoveList`], keeping the
/// length in a register until [`Appender::finish`].
struct Appender<'a> {
    list: &'a mut MoveList,
    len: usize,
}

impl<'a> Appender<'a> {
    /// The caller must have reserved room for every candidate it appends.
    fn new(list: &'a mut MoveList) -> Appender<'a> {
        let len = list.items.len();
        Appender { list, len }
    }

    /// Writes a candidate after the last one and keeps it if `keep`.
    #[inline(always)]
    fn push_if(&mut self, board: &Wide, play: Play, keep: bool) {
        assert!(self.len < self.list.items.capacity());
        // SAFETY: in bounds (checked above); the position's 26 bytes are
        // written by the two stores (slots 0..16 and 10..26) and the play
        // by the last, so the candidate is fully initialised before
        // `finish` makes it part of the vector.
        unsafe {
            let slot = self.list.items.as_mut_ptr().add(self.len);
            let pips = std::ptr::addr_of_mut!((*slot).position.pips).cast::<i8>();
            #[cfg(target_arch = "x86_64")]
            {
                use std::arch::x86_64::{__m128i, _mm_storeu_si128};
                let halves: [__m128i; 2] = std::mem::transmute(*board);
                _mm_storeu_si128(pips.cast(), halves[0]);
                _mm_storeu_si128(pips.add(HI).cast(), halves[1]);
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                pips.cast::<[i8; 16]>().write_unaligned(board.lo);
                pips.add(HI).cast::<[i8; 16]>().write_unaligned(board.hi);
            }
            std::ptr::addr_of_mut!((*slot).play).write(play);
        }
        self.len += usize::from(keep);
    }

    /// The last candidate appended, to patch in place.
    fn last_mut(&mut self) -> &mut Position {
        // SAFETY: `len - 1` was fully written by `push`.
        unsafe { &mut (*self.list.items.as_mut_ptr().add(self.len - 1)).position }
    }

    fn finish(self) {
        // SAFETY: every slot below `len` was written by `push`.
        unsafe { self.list.items.set_len(self.len) }
    }
}

#[inline(always)]
fn step(from: usize, to: usize) -> Step {
    Step {
        from: from as u8,
        to: to as u8,
    }
}

/// Doubles: depth-first over non-increasing source points. Moving a lower
/// checker never makes a higher checker's step legal (it cannot open a
/// point, bring the higher checker home, or change which point is highest),
/// so every multiset of steps can be played high-to-low, and each multiset
/// gives a different position: no deduplication is needed.
fn doubles(position: &Position, die: usize, out: &mut MoveList) {
    let outside = position.outside_home();
    let on_board = u32::from(position.on_board(Side::Mover));
    let mut play = Play::default();
    doubles_from(position, die, BAR, outside, on_board, &mut play, out);
}

fn doubles_from(
    position: &Position,
    die: usize,
    top: usize,
    outside: u32,
    on_board: u32,
    play: &mut Play,
    out: &mut MoveList,
) {
    let depth = play.steps().len() as u8;
    if depth == 4 {
        out.record_unique(*position, *play, 4);
        return;
    }
    let p = &position.pips;
    let mut moved = false;
    if p[BAR] > 0 {
        let to = BAR - die;
        if p[to] >= -1 {
            let mut q = *position;
            q.apply_step(BAR, to);
            play.push(step(BAR, to));
            let still_out = outside - u32::from(to <= 6);
            doubles_from(&q, die, BAR, still_out, on_board, play, out);
            play.pop();
            moved = true;
        }
    } else {
        for from in (1..=top.min(24)).rev() {
            if p[from] <= 0 {
                continue;
            }
            let Some(to) = position.single_step(from, die, outside) else {
                continue;
            };
            let mut q = *position;
            q.apply_step(from, to);
            play.push(step(from, to));
            if to == 0 && on_board == 1 {
                out.record_unique(q, *play, 4);
            } else {
                let still_out = outside - u32::from(from > 6 && to <= 6);
                doubles_from(
                    &q,
                    die,
                    from,
                    still_out,
                    on_board - u32::from(to == 0),
                    play,
                    out,
                );
            }
            play.pop();
            moved = true;
        }
    }
    if !moved {
        out.record_unique(*position, *play, depth);
    }
}

impl MoveList {
    /// Like [`MoveList::record`] for generators that never produce the same
    /// position twice.
    #[inline]
    fn record_unique(&mut self, position: Position, play: Play, level: u8) {
        if level < self.level {
            return;
        }
        if level > self.level {
            self.items.clear();
            self.level = level;
        }
        self.push(position, play);
    }
}
