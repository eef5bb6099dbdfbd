//! A board network's point inputs, summed as one 16-bit integer row per
//! point and checker count.
//!
//! The encoding gives each side's point four inputs (at least one, two,
//! three checkers, and half the checkers past three), so a point with
//! checkers on it adds up to four first-layer rows, each widened from
//! binary16 and multiplied in. But those four inputs are a function of
//! the one count, so their rows can be added once, when the network is
//! built, into a row for each count: an evaluation then adds one row per
//! occupied point, about half as many rows, and as integers (no widening,
//! no multiply, sixteen units an instruction).
//!
//! The integer sums wrap, so they are exact whatever order the rows are
//! added in: the memo's pass (old row out, new row in, for the points a
//! candidate changed) gives the same bits as a fresh pass. Wrapping is
//! safe because the scale is chosen, when the network is built, so that
//! no board's point sums can leave the i16 range: a side has fifteen
//! checkers, so a unit's sum is bounded by the best placing of them over
//! its rows ([`largest_sum`], a knapsack; the fifteen largest rows a side
//! bound it about four times as loosely, costing two bits). What is lost
//! is each combined weight's rounding to a multiple of `2^-s`, fixed when
//! the network is built.

#[cfg(target_arch = "x86_64")]
use super::dot::{scale_add_avx2, scale_add_avx512};
use super::line_aligned::LineAligned;
use crate::eval::network::{MAX_HIDDEN, Mlp};

/// Points per side, and the inputs each point has.
const POINTS: usize = 24;
const UNITS_PER_POINT: usize = 4;
/// Rows per point: counts 0 (all zeros, so a memo's "old row" can be
/// the empty point) to 15.
const COUNTS: usize = 16;
/// The points of both sides.
pub(super) const SLOTS: usize = 2 * POINTS;
/// The point inputs of each side: the first inputs of its half.
pub(super) const POINT_INPUTS: usize = POINTS * UNITS_PER_POINT;
/// Below this many bits of fraction the rounding would move a sum by
/// more than binary16's rounding of the separate rows did; such a network
/// keeps those rows.
const MIN_BITS: i32 = 8;

/// Units a block of the vector pass sums, in eight registers: hidden
/// sizes must be a multiple (other networks keep their float rows).
const UNITS_PER_BLOCK: usize = 128;

/// Checker counts of the 48 points, side 0's first: what the encoding
/// writes for a network that takes counts.
pub(super) type Counts = crate::eval::encoding::PointCounts;
const _: () = assert!(std::mem::size_of::<Counts>() == SLOTS);

pub(super) struct PointRows {
    hidden: usize,
    /// First input of side 1's half.
    side_inputs: usize,
    /// `[slot][count][hidden]`, in units of `unit`.
    rows: LineAligned<i16>,
    /// `2^-s`: a sum's value per unit.
    pub(super) unit: f32,
}

impl PointRows {
    /// The rows of `m`, whose inputs are two halves each starting with
    /// the encoding's 24 × 4 point inputs; `None` where its weights are
    /// too large for `MIN_BITS` of fraction.
    pub(super) fn new(m: &Mlp) -> Option<PointRows> {
        let (h, side_inputs) = (m.hidden, m.inputs / 2);
        if !m.inputs.is_multiple_of(2)
            || side_inputs < POINT_INPUTS
            || h == 0
            || h > MAX_HIDDEN
            || !h.is_multiple_of(UNITS_PER_BLOCK)
        {
            return None;
        }
        let mut combined = vec![0f64; SLOTS * COUNTS * h];
        for slot in 0..SLOTS {
            let first = first_input(slot, side_inputs);
            for count in 1..COUNTS {
                let units = point_units(count);
                let row = &mut combined[(slot * COUNTS + count) * h..][..h];
                for (u, &x) in units.iter().enumerate().filter(|(_, x)| **x != 0.0) {
                    let weights = &m.w1[(first + u) * h..][..h];
                    for (c, &w) in row.iter_mut().zip(weights) {
                        *c += f64::from(x) * f64::from(w);
                    }
                }
            }
        }
        let bound = (0..h)
            .map(|j| largest_sum(|slot, count| combined[(slot * COUNTS + count) * h + j]))
            .fold(0f64, f64::max);
        if !bound.is_finite() {
            return None;
        }
        let s = (MIN_BITS..=14)
            .rev()
            .find(|&s| (bound + 1.0) * 2f64.powi(s) <= f64::from(i16::MAX))?;
        let scale = 2f64.powi(s);
        let rows: Vec<i16> = combined
            .iter()
            .map(|&c| (c * scale).round() as i16)
            .collect();
        Some(PointRows {
            hidden: h,
            side_inputs,
            rows: LineAligned::copied(&rows),
            unit: (1.0 / scale) as f32,
        })
    }

    /// The inputs after each side's point inputs: `[from, to)` twice.
    pub(super) fn other_inputs(&self) -> [(usize, usize); 2] {
        let s = self.side_inputs;
        [(POINT_INPUTS, s), (s + POINT_INPUTS, 2 * s)]
    }

    /// The counts of an encoded input: a point's inputs are 1, 1, 1 and
    /// (n − 3)/2 for n checkers past three, so n is the first three plus
    /// twice the fourth, exactly, in floats.
    pub(super) fn counts(&self, input: &[f32]) -> Counts {
        let mut counts = [0u8; SLOTS];
        for (slot, c) in counts.iter_mut().enumerate() {
            let first = first_input(slot, self.side_inputs);
            let u = &input[first..first + UNITS_PER_POINT];
            *c = (u[0] + u[1] + u[2] + 2.0 * u[3]) as u8;
        }
        counts
    }

    /// [`Self::counts`] in AVX2 lanes, eight points a step.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn counts_avx2(&self, input: &[f32]) -> Counts {
        use std::arch::x86_64::*;
        assert!(input.len() >= self.side_inputs + POINT_INPUTS);
        let mut counts = [0u8; SLOTS];
        let weights = _mm256_setr_ps(1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 2.0);
        // `hadd` works within 128-bit halves: its result holds points
        // 0, 2, 4, 6 in the low half and 1, 3, 5, 7 in the high one.
        let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        for side in 0..2 {
            for group in 0..POINTS / 8 {
                let at = side * self.side_inputs + group * 8 * UNITS_PER_POINT;
                // SAFETY: at + 32 <= side start + 96 <= input.len().
                let v = |k: usize| unsafe {
                    _mm256_mul_ps(_mm256_loadu_ps(input.as_ptr().add(at + 8 * k)), weights)
                };
                let pairs = _mm256_hadd_ps(_mm256_hadd_ps(v(0), v(1)), _mm256_hadd_ps(v(2), v(3)));
                let n = _mm256_permutevar8x32_epi32(_mm256_cvttps_epi32(pairs), order);
                let mut words = [0i32; 8];
                // SAFETY: `words` holds the eight stored.
                unsafe { _mm256_storeu_si256(words.as_mut_ptr() as *mut __m256i, n) };
                let first = side * POINTS + group * 8;
                for (c, &w) in counts[first..first + 8].iter_mut().zip(&words) {
                    *c = w as u8;
                }
            }
        }
        counts
    }

    /// Adds to `sums` (in units) each slot's row for its count in `now`
    /// less its row for its count in `before`, wrapping.
    pub(super) fn update(&self, before: &Counts, now: &Counts, sums: &mut [i16]) {
        let h = self.hidden;
        for slot in 0..SLOTS {
            let (b, n) = (usize::from(before[slot]), usize::from(now[slot]));
            if b == n {
                continue;
            }
            let new = &self.rows[(slot * COUNTS + n) * h..][..h];
            let old = &self.rows[(slot * COUNTS + b) * h..][..h];
            for ((s, &w), &o) in sums.iter_mut().zip(new).zip(old) {
                *s = s.wrapping_add(w).wrapping_sub(o);
            }
        }
    }

    /// A bit for each slot whose count differs between `before` and
    /// `now`.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn changed_avx2(before: &Counts, now: &Counts) -> u64 {
        use std::arch::x86_64::*;
        // Slots 32..48 are compared as 16..48: the overlap agrees.
        let equal = |a: &Counts, b: &Counts, k: usize| {
            // SAFETY: k + 32 <= SLOTS: the loads stay inside both arrays.
            unsafe {
                let a = _mm256_loadu_si256(a.as_ptr().add(k) as *const __m256i);
                let b = _mm256_loadu_si256(b.as_ptr().add(k) as *const __m256i);
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(a, b)) as u32 as u64
            }
        };
        let same = equal(before, now, 0) | equal(before, now, SLOTS - 32) << (SLOTS - 32);
        !same & ((1u64 << SLOTS) - 1)
    }

    /// Whether the AVX-512 pass can take these rows: its blocks are
    /// twice the AVX2 pass's.
    fn takes_avx512(&self) -> bool {
        self.hidden.is_multiple_of(2 * UNITS_PER_BLOCK)
    }

    /// The widest of the passes below that takes these rows: the AVX-512
    /// one where `AVX512` and the hidden size allows, else the AVX2 one.
    ///
    /// # Safety
    /// As the passes', the CPU having AVX-512 F and BW where `AVX512`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn rows_widest<const AVX512: bool, const FRESH: bool>(
        &self,
        before: &Counts,
        now: &Counts,
        sums: *mut i16,
        out: *mut f32,
    ) {
        // SAFETY: as the caller promises.
        unsafe {
            if AVX512 && self.takes_avx512() {
                self.rows_avx512::<FRESH>(before, now, sums, out)
            } else {
                self.rows_avx2::<FRESH>(before, now, sums, out)
            }
        }
    }

    /// `out[j] += sums[j] · unit` for the first `hidden` units.
    pub(super) fn add_to(&self, sums: &[i16], out: &mut [f32]) {
        for (o, &s) in out[..self.hidden].iter_mut().zip(sums) {
            *o += f32::from(s) * self.unit;
        }
    }
}

/// [`PointRows::update`] per vector width, on `sums` (where not `FRESH`:
/// then the sums start at zero and `before` counts as all empty, and
/// `sums` is not touched), then `out[j] += sums[j] · unit`. Each block of
/// eight registers of units stays in registers across the slots; the
/// wrapping adds give the same bits at either width.
macro_rules! point_sums {
    ($name:ident, $features:literal, $lanes:literal, $reg:ty, $zero:ident, $load:ident,
     $store:ident, $add:ident, $sub:ident, $unit:ident) => {
        impl PointRows {
            /// # Safety
            /// The CPU has the features named; `out` holds `hidden` floats
            /// and, where not `FRESH`, `sums` holds `hidden` integers;
            /// `hidden` is a multiple of the block.
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = $features)]
            #[inline]
            pub(super) unsafe fn $name<const FRESH: bool>(
                &self,
                before: &Counts,
                now: &Counts,
                sums: *mut i16,
                out: *mut f32,
            ) {
                use std::arch::x86_64::*;
                const LANES: usize = $lanes;
                const BLOCK: usize = 8 * LANES;
                let h = self.hidden;
                assert!(self.rows.len() == SLOTS * COUNTS * h && h.is_multiple_of(BLOCK));
                // SAFETY: every width's features include AVX2.
                let changed = unsafe { Self::changed_avx2(before, now) };
                let rows = self.rows.as_ptr();
                for block in (0..h).step_by(BLOCK) {
                    let mut acc = [$zero(); 8];
                    if !FRESH {
                        for (k, a) in acc.iter_mut().enumerate() {
                            // SAFETY: block + BLOCK <= h, inside sums.
                            *a = unsafe { $load(sums.add(block + LANES * k) as *const $reg) };
                        }
                    }
                    let mut bits = changed;
                    while bits != 0 {
                        let slot = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let new = (slot * COUNTS + usize::from(now[slot])) * h + block;
                        let old = (slot * COUNTS + usize::from(before[slot])) * h + block;
                        // SAFETY: both rows lie inside `rows` (a count is
                        // at most fifteen, a side's checkers), and the
                        // loads stay inside this block of them.
                        unsafe {
                            for (k, a) in acc.iter_mut().enumerate() {
                                let w = $load(rows.add(new + LANES * k) as *const $reg);
                                *a = $add(*a, w);
                                if !FRESH {
                                    let o = $load(rows.add(old + LANES * k) as *const $reg);
                                    *a = $sub(*a, o);
                                }
                            }
                        }
                    }
                    // SAFETY: block + BLOCK <= h, inside sums and out.
                    unsafe {
                        for (k, a) in acc.iter().enumerate() {
                            let at = block + LANES * k;
                            if !FRESH {
                                $store(sums.add(at) as *mut $reg, *a);
                            }
                            $unit(out.add(at), *a, self.unit);
                        }
                    }
                }
            }
        }
    };
}

/// `out[..16] += a · unit`, each lane's i16 sum as a float: widened to
/// i32 a half at a time for [`scale_add_avx2`].
///
/// # Safety
/// The CPU has AVX2 and FMA; `out` holds sixteen floats.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn unit_avx2(out: *mut f32, a: std::arch::x86_64::__m256i, unit: f32) {
    use std::arch::x86_64::*;
    let halves = [_mm256_castsi256_si128(a), _mm256_extracti128_si256::<1>(a)];
    for (half, &x) in halves.iter().enumerate() {
        // SAFETY: as the caller promises; each half's eight floats lie
        // inside `out`.
        unsafe { scale_add_avx2(out.add(8 * half), _mm256_cvtepi16_epi32(x), unit) };
    }
}

/// `out[..32] += a · unit`: the same per lane as [`unit_avx2`].
///
/// # Safety
/// The CPU has AVX-512F and BW; `out` holds 32 floats.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn unit_avx512(out: *mut f32, a: std::arch::x86_64::__m512i, unit: f32) {
    use std::arch::x86_64::*;
    let halves = [_mm512_castsi512_si256(a), _mm512_extracti64x4_epi64::<1>(a)];
    for (half, &x) in halves.iter().enumerate() {
        // SAFETY: as the caller promises; each half's sixteen floats lie
        // inside `out`.
        unsafe { scale_add_avx512(out.add(16 * half), _mm512_cvtepi16_epi32(x), unit) };
    }
}

point_sums!(
    rows_avx2,
    "avx2,fma",
    16,
    __m256i,
    _mm256_setzero_si256,
    _mm256_loadu_si256,
    _mm256_storeu_si256,
    _mm256_add_epi16,
    _mm256_sub_epi16,
    unit_avx2
);
point_sums!(
    rows_avx512,
    "avx512f,avx512bw,avx2,fma",
    32,
    __m512i,
    _mm512_setzero_si512,
    _mm512_loadu_si512,
    _mm512_storeu_si512,
    _mm512_add_epi16,
    _mm512_sub_epi16,
    unit_avx512
);

/// The largest magnitude a unit's point sum reaches on any board, given
/// its combined weight for each slot and count: the larger of its most
/// positive and most negative sums, each the best way to place fifteen
/// checkers a side (at most) on that side's points, by a knapsack over
/// the points.
fn largest_sum(weight: impl Fn(usize, usize) -> f64) -> f64 {
    let side_best = |side: usize, sign: f64| {
        // best[c]: the largest signed sum with c checkers on the points so far.
        let mut best = [0f64; COUNTS];
        for p in 0..POINTS {
            let slot = side * POINTS + p;
            let mut next = best;
            for (c, n) in next.iter_mut().enumerate() {
                for count in 1..=c {
                    *n = n.max(best[c - count] + sign * weight(slot, count));
                }
            }
            best = next;
        }
        best[COUNTS - 1]
    };
    let positive = side_best(0, 1.0) + side_best(1, 1.0);
    let negative = side_best(0, -1.0) + side_best(1, -1.0);
    positive.max(negative)
}

/// The first of a slot's four inputs, where each side's half of the
/// inputs is `side_inputs` long.
fn first_input(slot: usize, side_inputs: usize) -> usize {
    (slot / POINTS) * side_inputs + (slot % POINTS) * UNITS_PER_POINT
}

/// The four inputs of a point with `count` checkers.
fn point_units(count: usize) -> [f32; UNITS_PER_POINT] {
    let at_least = |k: usize| if count >= k { 1.0 } else { 0.0 };
    let rest = if count > 3 {
        (count as f32 - 3.0) / 2.0
    } else {
        0.0
    };
    [at_least(1), at_least(2), at_least(3), rest]
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// Random boards walked a few slots at a time: the AVX-512 pass's sums
    /// and outputs have the AVX2 pass's bits, walked or fresh, and the
    /// walked sums are the portable update's.
    #[test]
    fn both_widths_sum_a_walk_of_boards_alike() {
        let has = |f: &str| match f {
            "avx2" => std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma"),
            _ => {
                std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
            }
        };
        if !has("avx2") || !has("avx512") {
            return;
        }
        let model = crate::eval::shipped_model().unwrap();
        let rows = PointRows::new(&model.contact).expect("the shipped contact rows fit");
        assert!(rows.takes_avx512());
        let h = rows.hidden;
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut before: Counts = [0; SLOTS];
        let (mut narrow, mut wide) = ([0i16; MAX_HIDDEN], [0i16; MAX_HIDDEN]);
        let mut portable = vec![0i16; h];
        for step in 0..300 {
            let mut now = before;
            for _ in 0..1 + next() % 5 {
                now[(next() % SLOTS as u64) as usize] = (next() % COUNTS as u64) as u8;
            }
            let mut outs = [[0f32; MAX_HIDDEN]; 4];
            // SAFETY: the CPU has both widths' features; every buffer
            // holds MAX_HIDDEN >= h.
            unsafe {
                rows.rows_avx2::<false>(&before, &now, narrow.as_mut_ptr(), outs[0].as_mut_ptr());
                rows.rows_avx512::<false>(&before, &now, wide.as_mut_ptr(), outs[1].as_mut_ptr());
                let empty = &[0; SLOTS];
                let none = std::ptr::null_mut();
                rows.rows_avx2::<true>(empty, &now, none, outs[2].as_mut_ptr());
                rows.rows_avx512::<true>(empty, &now, none, outs[3].as_mut_ptr());
            }
            rows.update(&before, &now, &mut portable);
            assert_eq!(&narrow[..h], &portable[..], "step {step}");
            assert_eq!(&wide[..h], &portable[..], "step {step}");
            assert!(outs.iter().all(|o| o == &outs[0]), "step {step}");
            assert!(outs[0][..h].iter().any(|&x| x != 0.0));
            before = now;
        }
    }
}
