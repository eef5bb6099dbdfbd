//! Non-doubles where no step can bear off: most of contact play.

use super::super::play::Play;
use super::super::position::{BAR, OPP_BAR, Position};
use super::sources::{BAR_BIT, pop_lowest};
use super::wide::{Appender, Wide};
use super::{BOTH_DICE, HIGH_DIE_ONLY, LOW_DIE_ONLY, MoveList};

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
// Inlined into the two compilations `super::compiled_twice` makes of it.
#[inline(always)]
pub(super) fn mixed_without_bear_off(position: &Position, a: usize, b: usize, out: &mut MoveList) {
    let p = &position.pips;
    let base = Wide::of(position);
    let masks = base.masks();
    let on_bar = p[BAR] > 0;
    // The points a die's step may start from: the mover's, above the die,
    // with an open point the die's length below.
    let sources = |d: usize| masks.occupied & (masks.open << d) & !((2u32 << d) - 1);
    let mut src_a = [0u8; 16];
    let mut src_b = [0u8; 16];
    let na = lowest_first(sources(a), &mut src_a);
    let nb = lowest_first(sources(b), &mut src_b);
    out.items.reserve(na * nb + 2 * BAR);
    // Each single step as a board delta, so a pair is the start plus two
    // deltas: whole-board vector adds instead of byte-by-byte updates.
    // Only the first `nb` are ever read; zeroing the whole array cost more
    // than the adds save.
    let mut delta_b = [std::mem::MaybeUninit::<Wide>::uninit(); 16];
    let mut step_b = [0u32; 16];
    for (k, &j) in src_b[..nb].iter().enumerate() {
        let j = j as usize;
        delta_b[k].write(Wide::step(p, b, j));
        step_b[k] = Play::packed_step(0, j, j - b);
    }
    // SAFETY: entries 0..nb were written just above.
    let delta_b: &[Wide] =
        unsafe { std::slice::from_raw_parts(delta_b.as_ptr().cast::<Wide>(), nb) };
    let nb_board = nb - usize::from(nb > 0 && usize::from(src_b[nb - 1]) == BAR);
    // Candidates are written unconditionally and kept or not by advancing
    // the length: which sources pair up is data the branch predictor
    // cannot guess (about 15 mispredictions per call before).
    let mut appender = Appender::new(out);
    for &i in &src_a[..na] {
        let i = i as usize;
        let with_a = base.plus(&Wide::step(p, a, i));
        let step_a = Play::packed_step(0, i, i - a);
        // The b sources this a step does not pair with, a bit a point:
        // its own point when it has a single checker; every point but the
        // bar while a checker waits there and this step is not its entry;
        // and i + b when that checker's route through i is a chain also
        // listed as a pair (a from i + b, then b from the held i + b - a).
        let held = |k: usize| masks.occupied >> k & 1;
        let skip = u32::from(p[i] < 2) << i
            | if on_bar & (i != BAR) { !BAR_BIT } else { 0 }
            | held(i + b - a) << (i + b);
        // Where a b step lands on the blot this a step hit.
        let hits_again = u32::from(p[i - a] == -1) << (i - a + b);
        // The b steps from the board; then a bar entry, if b has one (the
        // highest source, so the last), listed with its step first: plays
        // are given in a playable order.
        let board_b = src_b[..nb_board]
            .iter()
            .zip(&step_b[..nb_board])
            .zip(&delta_b[..nb_board]);
        for ((&j, &step), delta) in board_b {
            let j = j as usize;
            let keep = skip >> j & 1 == 0;
            let steps = step_a | step << Play::STEP_BITS;
            push_pair(
                &mut appender,
                &with_a.plus(delta),
                steps,
                keep,
                hits_again >> j & 1 != 0,
                i - a,
            );
        }
        if nb_board < nb {
            let keep = skip >> BAR & 1 == 0;
            let steps = step_b[nb_board] | step_a << Play::STEP_BITS;
            let board = with_a.plus(&delta_b[nb_board]);
            push_pair(
                &mut appender,
                &board,
                steps,
                keep,
                hits_again >> BAR & 1 != 0,
                i - a,
            );
        }
    }
    // One checker moving both dice: from above a + b to an open point,
    // only from the bar while a checker is there.
    let mut chains = sources(a + b);
    if on_bar {
        chains &= 1 << BAR;
    }
    while chains != 0 {
        let k = pop_lowest(&mut chains);
        let dest = k - (a + b);
        let hit_at_dest = p[dest] == -1;
        let (mid_a, mid_b) = (k - a, k - b);
        let mut quiet_done = (p[mid_a] > 0) | (p[mid_b] > 0);
        for (first, second) in [(a, b), (b, a)] {
            let mid = k - first;
            let v = p[mid];
            let keep = (v == -1) | (v == 0) & !quiet_done;
            quiet_done |= keep & (v == 0);
            let board =
                base.stepped(first, k, mid, v == -1)
                    .stepped(second, mid, dest, hit_at_dest);
            let steps = Play::packed_step(0, k, mid) | Play::packed_step(1, mid, dest);
            appender.push_packed_if(&board, steps, keep);
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
                appender.push_packed_if(
                    &base.plus(&Wide::step(p, d, i)),
                    Play::packed_step(0, i, i - d),
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

/// Writes a pair's candidate, kept if `keep`. When both steps landed on
/// a blot at `a_landed` (`hit_twice`), only the first hit it.
#[inline(always)]
fn push_pair(
    out: &mut Appender,
    board: &Wide,
    steps: u32,
    keep: bool,
    hit_twice: bool,
    a_landed: usize,
) {
    out.push_packed_if(board, steps, keep);
    if keep & hit_twice {
        let last = out.last_mut();
        last.pips[a_landed] -= 1;
        last.pips[OPP_BAR] += 1;
    }
}

/// The points of `mask`, lowest first, into `out`; returns how many.
#[inline(always)]
fn lowest_first(mut mask: u32, out: &mut [u8; 16]) -> usize {
    let n = mask.count_ones() as usize;
    for slot in out.iter_mut().take(n) {
        *slot = pop_lowest(&mut mask) as u8;
    }
    n
}
