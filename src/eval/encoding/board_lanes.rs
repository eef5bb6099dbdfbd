//! The per-side encoding's board arithmetic in AVX2 lanes: the point
//! units, the checker-weighted sums and the features' division into
//! floats.
//!
//! Written as scalar loops over the 26 slots, these were most of a contact
//! encoding: the compiler unrolled the sums into hundreds of scalar
//! multiply-adds and spilled their partial results. Here the board is one
//! 32-byte vector of checker counts, each sum a byte dot product
//! (`pmaddubsw`) with a table of slot weights, and the units and features
//! eight floats to an instruction. Every value is the one the portable
//! pass computes: the sums are exact integers, the units are the same
//! small integers and halves, and a vector division rounds as a scalar
//! one does.

use super::{SLOT_TABLES, Sums};
use std::arch::x86_64::*;

/// The mover's checkers per slot of `p` (slots 0..26, the opponent's
/// negative counts as 0), bytes 26..32 zero.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn mover_counts(p: &[i8; 26]) -> __m256i {
    // SAFETY: both loads stay inside the 26-byte array (0..16 and 10..26).
    let (lo, hi) = unsafe {
        (
            _mm_loadu_si128(p.as_ptr().cast()),
            _mm_loadu_si128(p.as_ptr().add(10).cast()),
        )
    };
    // Slots 16..26 moved to the front of the high half, zeros after them.
    let board = _mm256_set_m128i(_mm_srli_si128::<6>(hi), lo);
    _mm256_max_epi8(board, _mm256_setzero_si256())
}

/// Loads a table of 32 byte weights.
#[target_feature(enable = "avx2")]
#[inline]
fn weights(t: &[i8; 32]) -> __m256i {
    // SAFETY: the array holds the 32 bytes read.
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}

/// The eight 32-bit totals of eight vectors of 32-bit lanes, in order.
#[target_feature(enable = "avx2")]
#[inline]
fn totals(v: [__m256i; 8]) -> [i32; 8] {
    let a01 = _mm256_hadd_epi32(v[0], v[1]);
    let a23 = _mm256_hadd_epi32(v[2], v[3]);
    let a45 = _mm256_hadd_epi32(v[4], v[5]);
    let a67 = _mm256_hadd_epi32(v[6], v[7]);
    // Each 128-bit half: the four totals of its half of the lanes.
    let b0 = _mm256_hadd_epi32(a01, a23);
    let b4 = _mm256_hadd_epi32(a45, a67);
    let low = _mm256_permute2x128_si256::<0x20>(b0, b4);
    let high = _mm256_permute2x128_si256::<0x31>(b0, b4);
    let mut out = [0i32; 8];
    // SAFETY: `out` holds the eight lanes stored.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_add_epi32(low, high)) };
    out
}

/// [`Sums::of`] from the counts `n` ([`mover_counts`]): each sum a byte
/// dot product with its slot weights, widened pairwise into 32-bit lanes.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn sums(n: __m256i, opp_rear: u32) -> Sums {
    let t = &SLOT_TABLES;
    let ones = _mm256_set1_epi16(1);
    // Products of at most 15 checkers by a weight of at most 36, two to a
    // 16-bit lane: far inside its range.
    let dot =
        |counts: __m256i, w: __m256i| _mm256_madd_epi16(_mm256_maddubs_epi16(counts, w), ones);
    let point = weights(&t.point);
    // Each slot's distance past the opponent's rearmost checker, 0 behind
    // it (a rearmost slot of 32, none left, leaves every slot at 0).
    let past_rear = _mm256_subs_epu8(point, _mm256_set1_epi8(opp_rear.min(32) as i8));
    // 1 on the slots holding two or more.
    let held = _mm256_and_si256(
        _mm256_cmpgt_epi8(n, _mm256_set1_epi8(1)),
        _mm256_set1_epi8(1),
    );
    let s = totals([
        dot(n, point),
        dot(n, weights(&t.back)),
        dot(n, weights(&t.outfield)),
        dot(n, past_rear),
        dot(n, weights(&t.timing)),
        dot(n, weights(&t.outside)),
        dot(n, weights(&t.crossovers)),
        dot(held, weights(&t.held_timing)),
    ]);
    Sums {
        pips: s[0],
        back: s[1],
        outfield: s[2],
        break_contact: s[3],
        timing: s[4] - s[7],
        outside: s[5],
        crossovers: s[6],
    }
}

/// The mover's checkers on the board and its bar: the sum of `n`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn on_board(n: __m256i) -> u32 {
    let s = _mm256_sad_epu8(n, _mm256_setzero_si256());
    let s = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
    (_mm_cvtsi128_si32(s) + _mm_extract_epi32::<2>(s)) as u32
}

/// The four units of each of points 1..=24 (≥1, ≥2, ≥3, (n−3)/2 checkers)
/// into `out[..96]`, two points to a vector: each point's count spread
/// over its four lanes, less 0, 1, 2, 3, floored at 0, the first three
/// capped at 1 and the fourth halved.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn point_units(n: __m256i, out: &mut [f32; 96]) {
    let capped = _mm256_min_epu8(n, _mm256_set1_epi8(15));
    let mut bytes = [0u8; 32];
    // SAFETY: `bytes` holds the 32 bytes stored.
    unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().cast(), capped) };
    let below = _mm256_setr_ps(0.0, 1.0, 2.0, 3.0, 0.0, 1.0, 2.0, 3.0);
    let (zero, one, half) = (
        _mm256_setzero_ps(),
        _mm256_set1_ps(1.0),
        _mm256_set1_ps(0.5),
    );
    let spread = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    for (eight, chunk) in out.chunks_exact_mut(32).enumerate() {
        // Points 8·eight + 1 ..= 8·eight + 8, one per lane.
        // SAFETY: bytes 1 + 8·eight .. + 8 lie inside `bytes` (eight < 3).
        let counts = unsafe {
            _mm256_cvtepu8_epi32(_mm_loadl_epi64(bytes.as_ptr().add(1 + 8 * eight).cast()))
        };
        for (pair, lanes) in chunk.chunks_exact_mut(8).enumerate() {
            let two = _mm256_permutevar8x32_epi32(
                counts,
                _mm256_add_epi32(spread, _mm256_set1_epi32(2 * pair as i32)),
            );
            let over = _mm256_max_ps(_mm256_sub_ps(_mm256_cvtepi32_ps(two), below), zero);
            let units =
                _mm256_blend_ps::<0b1000_1000>(_mm256_min_ps(over, one), _mm256_mul_ps(over, half));
            // SAFETY: `lanes` holds the eight floats stored.
            unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), units) };
        }
    }
}

/// The checker counts of points 1..=24, capped at 15 as the point units
/// are, into `out`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn point_counts(n: __m256i, out: &mut [u8; 24]) {
    let mut bytes = [0u8; 32];
    // SAFETY: `bytes` holds the 32 bytes stored.
    unsafe {
        _mm256_storeu_si256(
            bytes.as_mut_ptr().cast(),
            _mm256_min_epu8(n, _mm256_set1_epi8(15)),
        )
    };
    out.copy_from_slice(&bytes[1..25]);
}

/// `counts[k] / divisors[k]` for the first `out.len()` features (at
/// most 24), eight divisions to an instruction, each stored straight into
/// `out` under a mask: a copy from a full buffer is a library call.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn divided(counts: &[i32; 24], divisors: &[f32; 24], out: &mut [f32]) {
    assert!(out.len() <= 24);
    let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for k in (0..out.len()).step_by(8) {
        let here = _mm256_cmpgt_epi32(_mm256_set1_epi32((out.len() - k) as i32), lane);
        // SAFETY: k + 8 <= 24 for the two arrays read, and the mask
        // stores only lanes k + i < out.len().
        unsafe {
            let c = _mm256_cvtepi32_ps(_mm256_loadu_si256(counts.as_ptr().add(k).cast()));
            let d = _mm256_loadu_ps(divisors.as_ptr().add(k));
            _mm256_maskstore_ps(out.as_mut_ptr().add(k), here, _mm256_div_ps(c, d));
        }
    }
}
