//! Two contact features that count rolls: how many of the 36 let the
//! opponent hit a blot, and how many let the rearmost checker escape.
//!
//! Each is a test per roll, and looping over the 21 rolls one at a time
//! was most of a contact position's encoding. Where the CPU has AVX2 the
//! rolls are tested side by side instead: one 32-bit lane per roll, the
//! dice as per-lane shift counts, so the 15 mixed rolls take two vectors
//! and the 6 doubles one. The lanes compute exactly what the scalar tests
//! compute (the same masks, shifted the same way), so the counts, and
//! every network input built from them, are the same on every CPU.

use super::{Masks, POINTS};

/// Rolls out of 36 on which the opponent hits at least one blot. `AVX2`:
/// the caller is compiled for, and runs on, a CPU with AVX2.
#[inline(always)]
pub(super) fn hit_rolls<const AVX2: bool>(m: &Masks) -> u32 {
    if m.blots == 0 {
        return 0;
    }
    #[cfg(target_arch = "x86_64")]
    if AVX2 && m.opp_on_bar == 0 {
        // SAFETY: AVX2 callers run only where `encode` detected it.
        return unsafe { lanes::hits_from_board(m) };
    }
    let mut n = 0;
    for a in 1..=6u32 {
        for b in a..=6u32 {
            if can_hit(m, a, b) {
                n += if a == b { 1 } else { 2 };
            }
        }
    }
    n
}

/// Whether the opponent, rolling `a`-`b`, can hit any blot in `m`. The
/// opponent moves upwards in this numbering; its bar is point 0, so its
/// checkers on the bar must enter first. Counts a hit on any checker play
/// that lands on a blot, ignoring the duty to use both dice.
fn can_hit(m: &Masks, a: u32, b: u32) -> bool {
    let open = POINTS & !m.made;
    let board_from = m.opp_from & !1;
    if a == b {
        let steps = 4u32;
        let entering = m.opp_on_bar as u32;
        if entering > 0 && (open >> a) & 1 == 0 {
            return false;
        }
        let (mut cur, left) = if entering > 0 {
            let left = steps.saturating_sub(entering);
            let cur = 1u32 << a;
            if cur & m.blots != 0 {
                return true;
            }
            (if left > 0 { cur | board_from } else { 0 }, left)
        } else {
            (board_from, steps)
        };
        for _ in 0..left {
            cur = (cur << a) & open;
            if cur & m.blots != 0 {
                return true;
            }
        }
        return false;
    }
    match m.opp_on_bar {
        0 => {
            let one = ((board_from << a) | (board_from << b)) & m.blots;
            let two =
                ((((board_from << a) & open) << b) | (((board_from << b) & open) << a)) & m.blots;
            one | two != 0
        }
        1 => [(a, b), (b, a)].into_iter().any(|(enter, then)| {
            let landed = (1u32 << enter) & open;
            landed != 0 && (landed & m.blots != 0 || ((landed | board_from) << then) & m.blots != 0)
        }),
        _ => ((1u32 << a) | (1u32 << b)) & open & m.blots != 0,
    }
}

/// Rolls (of 36) on which the checker on `from` (25 = the bar) can land
/// past the opponent's made points among the 12 in front of it: how free
/// the rearmost checker is, and from the opponent's block, how well the
/// mover contains the opponent's. A checker with nothing in front escapes
/// on every roll.
///
/// `blocks` are the opponent's made points [`super::in_front`] of `from`,
/// which the caller has already counted. `AVX2` as for [`hit_rolls`].
#[inline(always)]
pub(super) fn escape_rolls<const AVX2: bool>(m: &Masks, from: u32, blocks: u32) -> u32 {
    if blocks == 0 {
        return 36;
    }
    let open = POINTS & !m.opp_made;
    let past = open & ((1u32 << blocks.trailing_zeros()) - 1);
    // Bit k of these: whether the point k pips ahead is open / past the
    // blockade (the masks mirrored around `from`).
    let ahead = |x: u32| x.reverse_bits() >> (31 - from);
    let (open, past) = (ahead(open), ahead(past));
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: as in `hit_rolls`.
        return unsafe { lanes::escapes(open, past) };
    }
    let bit = |x: u32, k: u32| (x >> k) & 1;
    let mut n = 0;
    for a in 1..=6 {
        for b in a + 1..=6 {
            let via = bit(open, a) | bit(open, b);
            n += 2 * (bit(past, a) | bit(past, b) | via & bit(past, a + b));
        }
        let (o1, o2, o3) = (bit(open, a), bit(open, 2 * a), bit(open, 3 * a));
        n += bit(past, a)
            | o1 & bit(past, 2 * a)
            | o1 & o2 & bit(past, 3 * a)
            | o1 & o2 & o3 & bit(past, 4 * a);
    }
    n
}

/// The rolls as AVX2 lanes: the mixed rolls `a`-`b` (a < b) in two
/// vectors, the sixteenth lane unused, and the doubles in lanes 0..6 of a
/// third. Unused lanes hold die 0 and are masked out of every count.
#[cfg(target_arch = "x86_64")]
mod lanes {
    use super::{Masks, POINTS};
    use std::arch::x86_64::*;

    /// Lanes of the first and second vector of mixed rolls that are rolls.
    const MIXED_LANES: [u32; 2] = [0xff, 0x7f];
    const DOUBLE_LANES: u32 = 0x3f;

    struct Dice {
        a: [__m256i; 2],
        b: [__m256i; 2],
        double: __m256i,
    }

    #[inline(always)]
    unsafe fn dice() -> Dice {
        // SAFETY: the caller's CPU has AVX2.
        unsafe {
            Dice {
                a: [
                    _mm256_setr_epi32(1, 1, 1, 1, 1, 2, 2, 2),
                    _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 5, 0),
                ],
                b: [
                    _mm256_setr_epi32(2, 3, 4, 5, 6, 3, 4, 5),
                    _mm256_setr_epi32(6, 4, 5, 6, 5, 6, 6, 0),
                ],
                double: _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 0, 0),
            }
        }
    }

    /// Bit per lane: whether the lane is non-zero.
    #[inline(always)]
    unsafe fn nonzero_lanes(x: __m256i) -> u32 {
        // SAFETY: the caller's CPU has AVX2.
        unsafe {
            let zero = _mm256_cmpeq_epi32(x, _mm256_setzero_si256());
            !(_mm256_movemask_ps(_mm256_castsi256_ps(zero)) as u32) & 0xff
        }
    }

    /// [`super::hit_rolls`] with no opponent checker on the bar: each lane
    /// shifts the opponent's checkers by its dice as `can_hit` does.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn hits_from_board(m: &Masks) -> u32 {
        let splat = |x: u32| _mm256_set1_epi32(x as i32);
        let (open, from, blots) = (
            splat(POINTS & !m.made),
            splat(m.opp_from & !1),
            splat(m.blots),
        );
        // SAFETY: this function's CPU has AVX2.
        let d = unsafe { dice() };
        let mut n = 0;
        for (k, lanes) in MIXED_LANES.into_iter().enumerate() {
            let (a, b) = (d.a[k], d.b[k]);
            let by_a = _mm256_sllv_epi32(from, a);
            let by_b = _mm256_sllv_epi32(from, b);
            let via_a = _mm256_sllv_epi32(_mm256_and_si256(by_a, open), b);
            let via_b = _mm256_sllv_epi32(_mm256_and_si256(by_b, open), a);
            let reached =
                _mm256_or_si256(_mm256_or_si256(by_a, by_b), _mm256_or_si256(via_a, via_b));
            // SAFETY: as above.
            let hit = unsafe { nonzero_lanes(_mm256_and_si256(reached, blots)) };
            n += 2 * (hit & lanes).count_ones();
        }
        let (mut cur, mut reached) = (from, _mm256_setzero_si256());
        for _ in 0..4 {
            cur = _mm256_and_si256(_mm256_sllv_epi32(cur, d.double), open);
            reached = _mm256_or_si256(reached, cur);
        }
        // SAFETY: as above.
        let hit = unsafe { nonzero_lanes(_mm256_and_si256(reached, blots)) };
        n + (hit & DOUBLE_LANES).count_ones()
    }

    /// [`super::escape_rolls`]'s count from the `open` and `past` masks
    /// seen from the checker (bit k: the point k pips ahead).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn escapes(open: u32, past: u32) -> u32 {
        let (open, past) = (
            _mm256_set1_epi32(open as i32),
            _mm256_set1_epi32(past as i32),
        );
        let one = _mm256_set1_epi32(1);
        let bit = |x: __m256i, k: __m256i| _mm256_and_si256(_mm256_srlv_epi32(x, k), one);
        let (and, or) = (_mm256_and_si256, _mm256_or_si256);
        // SAFETY: this function's CPU has AVX2.
        let d = unsafe { dice() };
        let mut n = 0;
        for (k, lanes) in MIXED_LANES.into_iter().enumerate() {
            let (a, b) = (d.a[k], d.b[k]);
            let via = or(bit(open, a), bit(open, b));
            let sum = _mm256_add_epi32(a, b);
            let escaped = or(or(bit(past, a), bit(past, b)), and(via, bit(past, sum)));
            // SAFETY: as above.
            n += 2 * (unsafe { nonzero_lanes(escaped) } & lanes).count_ones();
        }
        let a = d.double;
        let times = |k: i32| _mm256_mullo_epi32(a, _mm256_set1_epi32(k));
        let (a2, a3, a4) = (times(2), times(3), times(4));
        let o1 = bit(open, a);
        let o12 = and(o1, bit(open, a2));
        let o123 = and(o12, bit(open, a3));
        let escaped = or(
            or(bit(past, a), and(o1, bit(past, a2))),
            or(and(o12, bit(past, a3)), and(o123, bit(past, a4))),
        );
        // SAFETY: as above.
        n + (unsafe { nonzero_lanes(escaped) } & DOUBLE_LANES).count_ones()
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::{in_front, masks};
    use super::*;
    use crate::backgammon::Position;

    /// Random contact-like boards: both sides spread over the points, some
    /// checkers on either bar.
    pub(in crate::eval::encoding) fn boards(count: usize) -> Vec<Position> {
        use rand::rngs::SmallRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(5);
        let mut next = move |n: usize| rng.random_range(0..n);
        (0..count)
            .map(|_| {
                let mut mine = Vec::new();
                let mut theirs = Vec::new();
                let (mut left_mine, mut left_theirs) = (15u8, 15u8);
                let mut used = [false; 26];
                while left_mine > 0 {
                    let pt = 1 + next(25);
                    let n = (1 + next(3) as u8).min(left_mine);
                    if pt < 25 && used[pt] {
                        continue;
                    }
                    used[pt] = pt < 25;
                    mine.push((pt, n));
                    left_mine -= n;
                }
                while left_theirs > 0 {
                    let pt = 1 + next(25);
                    let n = (1 + next(3) as u8).min(left_theirs);
                    // The opponent's point `pt` is the mover's 25 − pt.
                    if pt < 25 && used[25 - pt] {
                        continue;
                    }
                    if pt < 25 {
                        used[25 - pt] = true;
                    }
                    theirs.push((pt, n));
                    left_theirs -= n;
                }
                Position::from_points(&merge(mine), &merge(theirs))
            })
            .collect()
    }

    /// Adds up checkers named on the same point (the bar, 25, repeats).
    fn merge(points: Vec<(usize, u8)>) -> Vec<(usize, u8)> {
        let mut n = [0u8; 26];
        for (pt, k) in points {
            n[pt] += k;
        }
        (1..26).filter(|&p| n[p] > 0).map(|p| (p, n[p])).collect()
    }

    #[test]
    fn the_lanes_count_what_the_scalar_loops_count() {
        #[cfg(target_arch = "x86_64")]
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let (mut with_shots, mut blocked) = (0, 0);
        for pos in boards(20_000) {
            for view in [pos, pos.swap()] {
                let m = masks(&view);
                let hits = hit_rolls::<false>(&m);
                assert_eq!(hit_rolls::<true>(&m), hits, "{view:?}");
                with_shots += usize::from(hits > 0 && hits < 36);
                for from in 1..=25 {
                    let blocks = m.opp_made & in_front(from);
                    let escapes = escape_rolls::<false>(&m, from, blocks);
                    assert_eq!(escape_rolls::<true>(&m, from, blocks), escapes);
                    blocked += usize::from(escapes < 36);
                }
            }
        }
        // The boards exercise both counts away from their extremes.
        assert!(
            with_shots > 10_000 && blocked > 100_000,
            "{with_shots} {blocked}"
        );
    }
}
