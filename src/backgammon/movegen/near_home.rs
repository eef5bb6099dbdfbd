//! Non-doubles with at most one checker outside the home board (the bar
//! counts) and at most one on the bar: races into the bear-off and the
//! bear-off itself, where a step may bear a checker off and which steps
//! are legal depends on the order they are played in.
//!
//! The sequences are those of the reference algorithm (§14), in its order,
//! so the list is the one [`super::legal_moves_reference`] makes; what is
//! fast is how: sources are bit masks, boards are [`Wide`] sums, and a
//! result is found among those already recorded by a hash of its steps in
//! a small open-addressed table instead of a scan of the list.

use super::super::play::Play;
use super::super::position::{BAR, OPP_BAR, Position};
use super::sources::{DieSteps, OUTSIDE_HOME, after_step, can_hit, pop_highest};
use super::wide::{Appender, Masks, Wide};
use super::{BOTH_DICE, HIGH_DIE_ONLY, LOW_DIE_ONLY, MoveList};

/// The legal moves of the mixed roll `hi`-`lo`, written into `out`.
// Inlined into the two compilations `super::compiled_twice` makes of it.
#[inline(always)]
pub(super) fn mixed_near_home(position: &Position, hi: usize, lo: usize, out: &mut MoveList) {
    let base = Wide::of(position);
    let masks = base.masks();
    if can_hit(masks.occupied, masks.blots) {
        sequences::<true, false>(&base, &masks, hi, lo, out)
    } else if masks.occupied & OUTSIDE_HOME == 0 {
        sequences::<false, true>(&base, &masks, hi, lo, out)
    } else {
        sequences::<false, false>(&base, &masks, hi, lo, out)
    }
}

/// The points a step of `steps` may start from: with every checker home
/// (`HOME`), [`DieSteps::sources_home`], free of the bar's and the
/// outfield's tests; else [`DieSteps::sources`].
#[inline(always)]
fn step_sources<const HOME: bool>(steps: &DieSteps, occupied: u32) -> u32 {
    if HOME {
        steps.sources_home(occupied, BAR)
    } else {
        steps.sources(occupied, BAR)
    }
}

/// [`mixed_near_home`] for a board whose blots the turn can hit
/// (`HITS`) or cannot: in races it cannot, and every step skips the test.
/// `HOME`: every checker is home (the bear-off of a race).
#[inline(always)]
fn sequences<const HITS: bool, const HOME: bool>(
    base: &Wide,
    masks: &Masks,
    hi: usize,
    lo: usize,
    out: &mut MoveList,
) {
    let (occupied, open) = (masks.occupied, masks.open);
    // One point held, by one checker: read off the masks, where counting
    // the board's checkers would take a vector sum.
    let last_checker =
        masks.occupied.is_power_of_two() && base.get(masks.occupied.trailing_zeros() as usize) == 1;
    let mut seen = Seen::new();
    let mut out = Appender::new(out);
    let mut high_first = HighFirst::<HOME>::new();
    for (pass, (first, second, alone)) in [(hi, lo, HIGH_DIE_ONLY), (lo, hi, LOW_DIE_ONLY)]
        .into_iter()
        .enumerate()
    {
        let (first, second) = (DieSteps::new(open, first), DieSteps::new(open, second));
        let mut sources = step_sources::<HOME>(&first, occupied);
        while sources != 0 {
            let from = pop_highest(&mut sources);
            let to = first.target(from);
            let hit = HITS && masks.blots & (1 << to) != 0;
            let board = base.stepped(first.die, from, to, hit);
            let hash = step_hash(from, to, hit);
            let played = Play::packed_step(0, from, to);
            if to == 0 && last_checker {
                seen.record(&mut out, &board, hash, played, BOTH_DICE);
                continue;
            }
            let occupied = after_step(occupied, from, base.get(from), to);
            let blots = masks.blots & !(1 << to);
            let mut then = step_sources::<HOME>(&second, occupied);
            if then == 0 {
                seen.record(&mut out, &board, hash, played, alone);
            }
            if pass == 1 {
                // Except a high step from where this low step landed: that
                // may be the same checker going on, which no pair matches.
                then &= !(high_first.before(from) & !(1 << to));
            }
            let first_from = from;
            while then != 0 {
                let from = pop_highest(&mut then);
                high_first.mark(pass, from, first_from);
                let to = second.target(from);
                let both = played | Play::packed_step(1, from, to);
                let hit = HITS && blots & (1 << to) != 0;
                let hash = hash.wrapping_add(step_hash(from, to, hit));
                let end = board.stepped(second.die, from, to, hit);
                seen.record(&mut out, &end, hash, both, BOTH_DICE);
            }
        }
    }
    out.finish();
}

/// For each point, the points the high die's first steps started from
/// when a low step from it followed: a low step from `j` then a high step
/// from `i` reaches the position that pair reached in the other order, so
/// the second pass need not build it to find it listed.
///
/// With every checker home (`HOME`) both steps start on points 1..=6, and
/// the record is bits `8 * from + first_from` of one word; else a mask a
/// point, where the second pass writes a half of its own that is never
/// read (no branch). Each instantiation reads one storage only, so the
/// other's clearing is dead and compiled away: the all-home turn does not
/// pay for the array.
struct HighFirst<const HOME: bool> {
    points: [u32; 2 * 26],
    home: u64,
}

impl<const HOME: bool> HighFirst<HOME> {
    #[inline(always)]
    fn new() -> Self {
        HighFirst {
            points: [0; 2 * 26],
            home: 0,
        }
    }

    /// Records that pass `pass` played a step from `from` after one from
    /// `first_from`.
    #[inline(always)]
    fn mark(&mut self, pass: usize, from: usize, first_from: usize) {
        if !HOME {
            self.points[pass * 26 + from] |= 1 << first_from;
        } else if pass == 0 {
            self.home |= 1 << (8 * from + first_from);
        }
    }

    /// The points the first pass's high steps started from before a low
    /// step from `from`.
    #[inline(always)]
    fn before(&self, from: usize) -> u32 {
        if HOME {
            (self.home >> (8 * from)) as u32 & 0xFF
        } else {
            self.points[from]
        }
    }
}

/// A hash of a step's change to the board, linear in the slots' values, so
/// that two sequences reaching the same position from the same start have
/// the same sum of step hashes.
#[inline(always)]
fn step_hash(from: usize, to: usize, hit: bool) -> u64 {
    HASHES.land[usize::from(hit)][to].wrapping_sub(HASHES.slot[from])
}

/// Random weights per slot, and what landing (and hitting) adds.
struct StepHashes {
    slot: [u64; 26],
    /// `[hit][slot]`; landing on slot 0 means bearing off and adds nothing.
    land: [[u64; 26]; 2],
}

static HASHES: StepHashes = {
    let mut t = StepHashes {
        slot: [0; 26],
        land: [[0; 26]; 2],
    };
    // splitmix64 from a fixed seed.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut k = 0;
    while k < 26 {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        t.slot[k] = z ^ (z >> 31);
        k += 1;
    }
    let mut k = 1;
    while k < 26 {
        t.land[0][k] = t.slot[k];
        t.land[1][k] = t.slot[k].wrapping_mul(2).wrapping_sub(t.slot[OPP_BAR]);
        k += 1;
    }
    t
};

/// Which results are in the list: slot = index + 1, 0 = free; and how
/// many there are.
struct Seen {
    slots: [u8; 256],
    kept: usize,
}

impl Seen {
    fn new() -> Seen {
        Seen {
            slots: [0; 256],
            kept: 0,
        }
    }

    /// [`MoveList::record`] for a play given as [`Play::packed`] takes it,
    /// finding an earlier equal result through the table.
    #[inline(always)]
    fn record(&mut self, out: &mut Appender, board: &Wide, hash: u64, steps: u32, level: u8) {
        if level < out.level() {
            return;
        }
        if level > out.level() {
            out.raised_to(level);
            if self.kept > 0 {
                self.slots = [0; 256];
                self.kept = 0;
            }
        }
        if self.kept >= usize::from(u8::MAX) {
            // More results than the table indexes: cannot happen with at
            // most seven source points a die, but stay correct regardless.
            if !(0..self.kept).any(|i| board.is(out.kept(i))) {
                out.push_packed_if(board, steps, true);
                self.kept += 1;
            }
            return;
        }
        let mut k = (hash >> 56) as usize;
        loop {
            let entry = self.slots[k];
            if entry == 0 {
                self.kept += 1;
                self.slots[k] = self.kept as u8;
                out.push_packed_if(board, steps, true);
                return;
            }
            if board.is(out.kept(usize::from(entry) - 1)) {
                return;
            }
            k = (k + 1) & 0xFF;
        }
    }
}
