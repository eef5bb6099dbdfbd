//! A board network's inputs after the points' (each side's bar, borne-off
//! checkers and features), summed densely in 16-bit integers.
//!
//! Those inputs are few (19 a side in the contact encoding) and nearly all
//! non-zero in every position, so gathering the non-zero ones saves
//! little, and as binary16 rows each costs a widening and a multiply-add
//! per eight units. Here inputs and weights are both 16-bit integers, in
//! adjacent pairs, and one `pmaddwd` makes sixteen products straight from
//! a load and adds them pairwise into eight exact 32-bit sums, as the
//! second layer does ([`super::quantized_mid`]).
//!
//! The scales are powers of two chosen when the network is built: each
//! weight a multiple of `2^-w`, with `w` as large as keeps every weight in
//! an i16 and every unit's sum in an i32 whatever the inputs; each input
//! a multiple of `2^-INPUT_BITS`, clamped to what an i16 holds (far above
//! any the encoding writes).

use super::line_aligned::LineAligned;
use super::network::{MAX_HIDDEN, Mlp};

/// An input's fraction bits: inputs up to 16 in magnitude.
const INPUT_BITS: i32 = 11;
/// Below this many bits of fraction a weight's rounding would move the
/// sums more than binary16's did; such a network keeps its float rows.
const MIN_WEIGHT_BITS: i32 = 8;
/// Units a block of the vector pass sums, in eight registers: hidden
/// sizes must be a multiple (other networks keep their float rows).
const UNITS_PER_BLOCK: usize = 64;
/// The most inputs this layer takes (both sides' non-point inputs).
pub(super) const MAX_OTHERS: usize = 64;

pub(super) struct FeatureRows {
    hidden: usize,
    /// The inputs summed here, in order: each range `[from, to)`.
    ranges: [(usize, usize); 2],
    /// Their count, rounded up to pairs.
    pairs: usize,
    /// Pair-major: for each pair `m` and unit `j`, the weights of inputs
    /// `2m` and `2m + 1` side by side.
    w: LineAligned<i16>,
    /// `2^INPUT_BITS`: an input's scale.
    input_scale: f32,
    /// `2^-(w + INPUT_BITS)`: a sum's value per unit.
    unit: f32,
}

impl FeatureRows {
    /// The rows of `m`'s inputs in `ranges`, or `None` where they are too
    /// many or their weights too large for `MIN_WEIGHT_BITS`.
    pub(super) fn new(m: &Mlp, ranges: [(usize, usize); 2]) -> Option<FeatureRows> {
        let h = m.hidden;
        let inputs: Vec<usize> = ranges.iter().flat_map(|&(a, b)| a..b).collect();
        if inputs.len() > MAX_OTHERS
            || inputs.iter().any(|&i| i >= m.inputs)
            || h == 0
            || h > MAX_HIDDEN
            || !h.is_multiple_of(UNITS_PER_BLOCK)
        {
            return None;
        }
        let pairs = inputs.len().div_ceil(2);
        let weight = |k: usize, j: usize| inputs.get(k).map_or(0.0, |&i| m.w1[i * h + j]);
        let largest = (0..2 * pairs)
            .flat_map(|k| (0..h).map(move |j| (k, j)))
            .map(|(k, j)| f64::from(weight(k, j)).abs())
            .fold(0f64, f64::max);
        let column = (0..h)
            .map(|j| {
                (0..2 * pairs)
                    .map(|k| f64::from(weight(k, j)).abs())
                    .sum::<f64>()
            })
            .fold(0f64, f64::max);
        if !column.is_finite() {
            return None;
        }
        // Every weight inside an i16, and every sum inside an i32 with
        // every input at the i16 limit (a rounding's worth of room).
        let bits = (MIN_WEIGHT_BITS..=14).rev().find(|&s| {
            let scale = 2f64.powi(s);
            (largest * scale).round() <= f64::from(i16::MAX)
                && (column * scale + 2.0 * pairs as f64) * 32768.0 <= f64::from(i32::MAX)
        })?;
        let scale = 2f64.powi(bits);
        let mut w = vec![0i16; 2 * pairs * h];
        for m in 0..pairs {
            for j in 0..h {
                for member in 0..2 {
                    w[(m * h + j) * 2 + member] =
                        (f64::from(weight(2 * m + member, j)) * scale).round() as i16;
                }
            }
        }
        Some(FeatureRows {
            hidden: h,
            ranges,
            pairs,
            w: LineAligned::copied(&w),
            input_scale: 2f32.powi(INPUT_BITS),
            unit: 2f32.powi(-(bits + INPUT_BITS)),
        })
    }

    /// One input as this layer's integer: rounded to the nearest (ties to
    /// even, as the vector conversion does), clamped to the i16 range.
    fn quantized(&self, x: f32) -> i16 {
        (x * self.input_scale)
            .clamp(-32767.0, 32767.0)
            .round_ties_even() as i16
    }

    /// `out[j] += Σ input · weight` over this layer's inputs, for the
    /// first `hidden` units.
    pub(super) fn add_to(&self, input: &[f32], out: &mut [f32]) {
        let mut q = [0i16; MAX_OTHERS];
        let inputs = self.ranges.iter().flat_map(|&(a, b)| &input[a..b]);
        for (slot, &x) in q.iter_mut().zip(inputs) {
            *slot = self.quantized(x);
        }
        let h = self.hidden;
        for (j, o) in out[..h].iter_mut().enumerate() {
            let sum: i32 = (0..2 * self.pairs)
                .map(|k| i32::from(q[k]) * i32::from(self.w[((k / 2) * h + j) * 2 + k % 2]))
                .sum();
            *o += sum as f32 * self.unit;
        }
    }

    /// [`Self::add_to`] in AVX2 lanes: the inputs converted eight at a
    /// time, then each block of 64 units summed in eight registers over
    /// the pairs.
    ///
    /// # Safety
    /// The CPU has AVX2 and FMA; `out` holds `hidden` floats.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    pub(super) unsafe fn add_to_avx2(&self, input: &[f32], out: *mut f32) {
        use std::arch::x86_64::*;
        let h = self.hidden;
        assert!(self.w.len() == 2 * self.pairs * h && self.pairs <= MAX_OTHERS / 2);
        // Eight past the last for a full store, the pad input zero.
        let mut q = [0i16; MAX_OTHERS + 8];
        let scale = _mm256_set1_ps(self.input_scale);
        let limit = _mm256_set1_ps(32767.0);
        let mut filled = 0;
        for &(from, to) in &self.ranges {
            assert!(from <= to && to <= input.len() && filled + (to - from) <= MAX_OTHERS);
            let mut at = from;
            while at < to {
                // The last step of a range overlaps the one before it
                // (same values to the same slots) where the range is
                // long enough, else it runs one input at a time.
                if at + 8 > to {
                    if to - from < 8 {
                        for i in at..to {
                            q[filled + i - from] = self.quantized(input[i]);
                        }
                        break;
                    }
                    at = to - 8;
                }
                // SAFETY: at + 8 <= to <= input.len(); the store writes
                // eight slots from filled + at - from <= MAX_OTHERS.
                unsafe {
                    let x = _mm256_mul_ps(_mm256_loadu_ps(input.as_ptr().add(at)), scale);
                    let x = _mm256_max_ps(
                        _mm256_min_ps(x, limit),
                        _mm256_sub_ps(_mm256_setzero_ps(), limit),
                    );
                    let words = _mm256_cvtps_epi32(x);
                    let packed = _mm256_packs_epi32(words, words);
                    let eight = _mm256_castsi256_si128(_mm256_permute4x64_epi64::<0b1000>(packed));
                    _mm_storeu_si128(
                        q.as_mut_ptr().add(filled + at - from) as *mut __m128i,
                        eight,
                    );
                }
                at += 8;
            }
            filled += to - from;
        }
        q[filled] = 0;
        let unit = _mm256_set1_ps(self.unit);
        let w = self.w.as_ptr();
        for block in (0..h).step_by(UNITS_PER_BLOCK) {
            let mut acc = [_mm256_setzero_si256(); 8];
            for m in 0..self.pairs {
                // SAFETY: 2m + 1 < MAX_OTHERS + 8 inside q.
                let x = _mm256_set1_epi32(unsafe {
                    (q.as_ptr().add(2 * m) as *const i32).read_unaligned()
                });
                for (k, a) in acc.iter_mut().enumerate() {
                    // SAFETY: (m·h + block + 8k + 8)·2 <= 2·pairs·h: inside w.
                    let wk = unsafe {
                        _mm256_loadu_si256(w.add((m * h + block + 8 * k) * 2) as *const __m256i)
                    };
                    *a = _mm256_add_epi32(*a, _mm256_madd_epi16(x, wk));
                }
            }
            for (k, a) in acc.iter().enumerate() {
                // SAFETY: block + 8k + 8 <= h: inside out.
                unsafe {
                    let o = out.add(block + 8 * k);
                    _mm256_storeu_ps(
                        o,
                        _mm256_fmadd_ps(_mm256_cvtepi32_ps(*a), unit, _mm256_loadu_ps(o)),
                    );
                }
            }
        }
    }
}
