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

#[cfg(target_arch = "x86_64")]
use super::dot::*;
use super::line_aligned::LineAligned;
use crate::eval::network::{MAX_HIDDEN, Mlp};

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
/// This layer's inputs as integers, in pairs, the slots past them zero.
pub(super) type Quantized = [i16; MAX_OTHERS];

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

    /// This layer's inputs of `input` as its integers, in order and in
    /// pairs (a last odd one beside a zero), eight at a time in AVX2 lanes
    /// and rounded as [`Self::quantized`] rounds them; the slots past them
    /// zero.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn quantize_avx2(&self, input: &[f32]) -> Quantized {
        use std::arch::x86_64::*;
        let mut q = [0i16; MAX_OTHERS];
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
        q
    }

    /// Each pair's difference of `now` from `before`, and bit masks of
    /// the pairs that changed and of those whose difference left the i16
    /// range (the wrapping and saturating differences part).
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn changes_avx2(
        before: &Quantized,
        now: &Quantized,
    ) -> ([i32; MAX_OTHERS / 2], u32, u32) {
        use std::arch::x86_64::*;
        let mut diff = [0i32; MAX_OTHERS / 2];
        let (mut changed, mut wide) = (0u32, 0u32);
        for k in 0..MAX_OTHERS / 16 {
            // SAFETY: 16k + 16 <= MAX_OTHERS: inside both arrays; the
            // store fills diff[8k..8k + 8].
            unsafe {
                let b = _mm256_loadu_si256(before.as_ptr().add(16 * k) as *const __m256i);
                let a = _mm256_loadu_si256(now.as_ptr().add(16 * k) as *const __m256i);
                let d = _mm256_sub_epi16(a, b);
                let same = _mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b));
                let fits = _mm256_castsi256_ps(_mm256_cmpeq_epi32(d, _mm256_subs_epi16(a, b)));
                changed |= (!_mm256_movemask_ps(same) as u32 & 0xff) << (8 * k);
                wide |= (!_mm256_movemask_ps(fits) as u32 & 0xff) << (8 * k);
                _mm256_storeu_si256(diff.as_mut_ptr().add(8 * k) as *mut __m256i, d);
            }
        }
        (diff, changed, wide)
    }

    /// Whether the AVX-512 pass can take this layer: its blocks are
    /// twice the AVX2 pass's.
    fn takes_avx512(&self) -> bool {
        self.hidden.is_multiple_of(2 * UNITS_PER_BLOCK)
    }

    /// The widest of the passes below that takes this layer: the AVX-512
    /// one where `AVX512` and the hidden size allows, else the AVX2 one.
    ///
    /// # Safety
    /// As the passes', the CPU having AVX-512 F and BW where `AVX512`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn sums_widest<const AVX512: bool, const FRESH: bool>(
        &self,
        before: &Quantized,
        now: &Quantized,
        sums: *mut i32,
        out: *mut f32,
    ) {
        // SAFETY: as the caller promises.
        unsafe {
            if AVX512 && self.takes_avx512() {
                self.sums_avx512::<FRESH>(before, now, sums, out)
            } else {
                self.sums_avx2::<FRESH>(before, now, sums, out)
            }
        }
    }
}

/// [`FeatureRows`]' vector passes per width: adds to `sums` (where not
/// `FRESH`: then the sums start at zero, `before` counts as all zero and
/// `sums` is not touched) the sums of `now`'s inputs less those of
/// `before`'s, wrapping, then `out[j] += sums[j] · unit`, a block of
/// `$regs` registers of units at a time.
///
/// A changed pair adds one `pmaddwd` of its difference where both
/// members' differences fit an i16 (nearly always), else one of the new
/// pair and one of the old one negated (every quantised input is within
/// ±32767, so its negation fits). Every product and pairwise sum is exact
/// in an i32, and the wrapping adds are exact modulo 2^32 where the sums
/// themselves fit (as `new` chose the scale to make sure): the sums come
/// out with the same bits in whatever order they were changed, and at
/// either width.
macro_rules! feature_sums {
    ($name:ident, $features:literal, $lanes:literal, $reg:ty, $zero:ident, $set1:ident,
     $dot:ident, $load:ident, $store:ident, $unit:ident) => {
        impl FeatureRows {
            /// # Safety
            /// The CPU has the features named; `out` holds `hidden` floats
            /// and, where not `FRESH`, `sums` holds `hidden` integers;
            /// `hidden` is a multiple of the block.
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = $features)]
            #[inline]
            pub(super) unsafe fn $name<const FRESH: bool>(
                &self,
                before: &Quantized,
                now: &Quantized,
                sums: *mut i32,
                out: *mut f32,
            ) {
                use std::arch::x86_64::*;
                const LANES: usize = $lanes;
                const BLOCK: usize = 8 * LANES;
                let h = self.hidden;
                assert!(self.w.len() == 2 * self.pairs * h && self.pairs <= MAX_OTHERS / 2);
                assert!(h.is_multiple_of(BLOCK));
                let word = |q: &Quantized, m: usize| pair_word(q[2 * m], q[2 * m + 1]);
                let (diff, changed, wide) = if FRESH {
                    ([0; MAX_OTHERS / 2], 0, 0)
                } else {
                    // SAFETY: every width's features include AVX2.
                    unsafe { Self::changes_avx2(before, now) }
                };
                let w = self.w.as_ptr();
                for block in (0..h).step_by(BLOCK) {
                    let mut acc = [$zero(); 8];
                    // acc += the pair's weights for this block times `pair`.
                    let add = |acc: &mut [$reg; 8], m: usize, pair: i32| {
                        let x = $set1(pair);
                        for (k, a) in acc.iter_mut().enumerate() {
                            // SAFETY: m < pairs, so (m·h + block + LANES·k
                            // + LANES)·2 <= 2·pairs·h: inside w.
                            let wk = unsafe {
                                $load(w.add((m * h + block + LANES * k) * 2) as *const $reg)
                            };
                            *a = $dot(*a, x, wk);
                        }
                    };
                    if FRESH {
                        for m in 0..self.pairs {
                            add(&mut acc, m, word(now, m));
                        }
                    } else {
                        for (k, a) in acc.iter_mut().enumerate() {
                            // SAFETY: block + BLOCK <= h, inside sums.
                            *a = unsafe { $load(sums.add(block + LANES * k) as *const $reg) };
                        }
                        let mut bits = changed;
                        while bits != 0 {
                            let m = bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            if wide & 1 << m == 0 {
                                add(&mut acc, m, diff[m]);
                            } else {
                                let old = (before[2 * m], before[2 * m + 1]);
                                add(&mut acc, m, word(now, m));
                                add(
                                    &mut acc,
                                    m,
                                    pair_word(old.0.saturating_neg(), old.1.saturating_neg()),
                                );
                            }
                        }
                    }
                    for (k, a) in acc.iter().enumerate() {
                        // SAFETY: block + LANES·(k + 1) <= h: inside sums
                        // and out.
                        unsafe {
                            if !FRESH {
                                $store(sums.add(block + LANES * k) as *mut $reg, *a);
                            }
                            $unit(out.add(block + LANES * k), *a, self.unit);
                        }
                    }
                }
            }
        }
    };
}

feature_sums!(
    sums_avx2,
    "avx2,fma",
    8,
    __m256i,
    _mm256_setzero_si256,
    _mm256_set1_epi32,
    dot_avx2,
    _mm256_loadu_si256,
    _mm256_storeu_si256,
    scale_add_avx2
);
feature_sums!(
    sums_avx512,
    "avx512f,avx512bw,avx2,fma",
    16,
    __m512i,
    _mm512_setzero_si512,
    _mm512_set1_epi32,
    dot_avx512,
    _mm512_loadu_si512,
    _mm512_storeu_si512,
    scale_add_avx512
);

/// Two i16 as the one i32 `pmaddwd` reads them from: `lo` in the low half.
fn pair_word(lo: i16, hi: i16) -> i32 {
    (u32::from(lo as u16) | u32::from(hi as u16) << 16) as i32
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// Inputs from −15 to 15 (far past what the encoding writes), so
    /// that some pairs' differences leave the i16 range and take the
    /// two-product path: the walked sums still have the fresh sums' bits.
    #[test]
    fn changes_walked_in_any_order_give_the_fresh_sums() {
        if !std::is_x86_feature_detected!("avx2") || !std::is_x86_feature_detected!("fma") {
            return;
        }
        let m = Mlp::random(250, 128, 7);
        let rows = FeatureRows::new(&m, [(96, 125), (221, 250)]).expect("small weights fit");
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let avx512 = std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && rows.takes_avx512();
        let (mut before, mut sums) = ([0i16; MAX_OTHERS], [0i32; MAX_HIDDEN]);
        let mut wide_sums = [0i32; MAX_HIDDEN];
        let (mut wide, mut narrow) = (0, 0);
        let mut input = vec![0f32; m.inputs];
        for step in 0..300 {
            // A few inputs change a step, now and then by a lot.
            for _ in 0..1 + next() % 6 {
                let i = [96 + next() % 29, 221 + next() % 29][(next() % 2) as usize] as usize;
                input[i] = match step % 5 {
                    0 => [-15.0, 15.0][(next() % 2) as usize],
                    _ => (next() % 3001) as f32 / 1000.0 - 1.5,
                };
            }
            // SAFETY: the CPU has AVX2 and FMA; out and sums hold 128.
            let (walked, fresh, now) = unsafe {
                let now = rows.quantize_avx2(&input);
                let (mut walked, mut fresh) = ([0f32; 128], [0f32; 128]);
                rows.sums_avx2::<false>(&before, &now, sums.as_mut_ptr(), walked.as_mut_ptr());
                rows.sums_avx2::<true>(
                    &[0; MAX_OTHERS],
                    &now,
                    std::ptr::null_mut(),
                    fresh.as_mut_ptr(),
                );
                (walked, fresh, now)
            };
            assert_eq!(walked, fresh, "step {step}");
            if avx512 {
                // SAFETY: the CPU has AVX-512F and BW; out and sums hold 128.
                let (walked_wide, fresh_wide) = unsafe {
                    let (mut walked, mut fresh) = ([0f32; 128], [0f32; 128]);
                    let sums = wide_sums.as_mut_ptr();
                    rows.sums_avx512::<false>(&before, &now, sums, walked.as_mut_ptr());
                    let zero = &[0; MAX_OTHERS];
                    rows.sums_avx512::<true>(zero, &now, std::ptr::null_mut(), fresh.as_mut_ptr());
                    (walked, fresh)
                };
                assert_eq!(
                    (walked_wide, fresh_wide),
                    (fresh, fresh),
                    "step {step}, AVX-512"
                );
            }
            let mut portable = [0f32; 128];
            rows.add_to(&input, &mut portable);
            assert_eq!(portable, fresh, "step {step}");
            for k in 0..MAX_OTHERS {
                let d = i32::from(now[k]) - i32::from(before[k]);
                if d != 0 {
                    *(if i16::try_from(d).is_ok() {
                        &mut narrow
                    } else {
                        &mut wide
                    }) += 1;
                }
            }
            before = now;
        }
        assert!(wide > 10 && narrow > 100, "wide {wide}, narrow {narrow}");
    }
}
