//! The evaluator's second hidden layer in 16-bit integers.
//!
//! Every weight of that layer is used once per evaluation, so the layer is
//! bound by how fast its weights reach the multiply-adds. As binary16 each
//! vector of weights cost a conversion to f32 before its multiply-add, and
//! as f32 the layer no longer fit beside the first layer's rows in the
//! level-1 cache. As 16-bit integers, weights and activations both, one
//! `pmaddwd` makes sixteen products straight from a load and adds them
//! pairwise into eight 32-bit sums, with the layer as small as in binary16.
//!
//! The arithmetic is exact: integer sums do not round, so the portable pass
//! and the AVX2 and AVX-512 passes give the same bits whatever the order of
//! the sums, and the scales are powers of two, so turning a sum back into
//! a float rounds the same way everywhere. What is lost is fixed when
//! the network is built: each weight rounded to a multiple of `2^-s` and each
//! activation (a sigmoid, in 0..=1) to a multiple of `2^-a`, with `s + a`
//! as large as the 32-bit sums allow for this network's largest column.

#[cfg(target_arch = "x86_64")]
use super::dot::*;
use super::line_aligned::LineAligned;
use crate::eval::network::{MAX_HIDDEN, MidLayer};
use std::mem::MaybeUninit;

/// How many inputs [`QuantizedMid`]'s batched passes take at once: a
/// roll's replies come in a handful, and four inputs' accumulators fill
/// the AVX-512 registers beside the weights.
pub const MAX_BATCH: usize = 4;

/// The most bits an activation is given: it must fit an i16 at 1.0.
const MAX_ACTIVATION_BITS: u32 = 14;
/// Below this many bits of fraction a weight's rounding would move the
/// sums far more than binary16's did; such a network keeps the float
/// layer.
const MIN_WEIGHT_BITS: u32 = 8;

pub(super) struct QuantizedMid {
    units: usize,
    lower: usize,
    /// Pair-major: for each pair `m` of lower units and each unit `j`, the
    /// weights from lower units `2m` and `2m + 1` side by side, which is
    /// the order `pmaddwd` multiplies a broadcast pair of activations in.
    w: LineAligned<i16>,
    bias: Vec<f32>,
    /// `2^a`: an activation's scale.
    activation_scale: f32,
    /// `2^-(s + a)`: a sum's value per unit.
    sum_unit: f32,
    /// Whether the CPU has AVX-512 VNNI, for the batched sums.
    vnni: bool,
}

impl QuantizedMid {
    /// The layer over `lower` units below it, or `None` where its weights
    /// are too large to keep `MIN_WEIGHT_BITS` of fraction, or the lower
    /// units are odd.
    pub(super) fn new(mid: &MidLayer, lower: usize) -> Option<QuantizedMid> {
        let units = mid.units;
        if !lower.is_multiple_of(2) || units == 0 || mid.w.len() != lower * units {
            return None;
        }
        let largest = mid.w.iter().fold(0f32, |m, w| m.max(w.abs()));
        if !largest.is_finite() {
            return None;
        }
        // The weight bits: as many as keep every weight inside an i16,
        // then fewer while the activations would get fewer than they.
        let mut s = (0..30)
            .rev()
            .find(|&s| largest * 2f32.powi(s) <= f32::from(i16::MAX))? as u32;
        loop {
            if s < MIN_WEIGHT_BITS {
                return None;
            }
            let w = Self::rounded(mid, lower, s);
            // The activation bits: as many as keep every column's largest
            // possible sum (every activation 1.0, every weight counted at
            // its size) inside an i32.
            let column: i64 = (0..units)
                .map(|j| {
                    (0..lower)
                        .map(|k| i64::from(w[Self::slot(units, k, j)]).abs())
                        .sum::<i64>()
                })
                .max()
                .unwrap_or(0);
            let a = (0..=MAX_ACTIVATION_BITS)
                .rev()
                .find(|&a| column << a <= i64::from(i32::MAX));
            if let Some(a) = a.filter(|&a| a >= s.min(MAX_ACTIVATION_BITS)) {
                return Some(QuantizedMid {
                    units,
                    lower,
                    w: LineAligned::copied(&w),
                    bias: mid.b.clone(),
                    activation_scale: 2f32.powi(a as i32),
                    sum_unit: 2f32.powi(-((s + a) as i32)),
                    vnni: has_vnni(),
                });
            }
            s -= 1;
        }
    }

    /// How many units the layer has.
    pub(super) fn units(&self) -> usize {
        self.units
    }

    /// Where weight (lower `k`, unit `j`) sits in the pair-major layout.
    #[inline(always)]
    fn slot(units: usize, k: usize, j: usize) -> usize {
        ((k / 2) * units + j) * 2 + k % 2
    }

    /// The weights times `2^s`, rounded to the nearest integer.
    fn rounded(mid: &MidLayer, lower: usize, s: u32) -> Vec<i16> {
        let units = mid.units;
        let scale = 2f32.powi(s as i32);
        let mut w = vec![0i16; lower * units];
        for k in 0..lower {
            for j in 0..units {
                let v = (mid.w[k * units + j] * scale).round_ties_even();
                w[Self::slot(units, k, j)] = v.clamp(-32767.0, 32767.0) as i16;
            }
        }
        w
    }

    /// Lower units `2m` (low half) and `2m + 1` (high half) as pair `m`
    /// of the broadcast activations the passes multiply.
    #[inline(always)]
    fn pair(&self, xs: &[f32]) -> u32 {
        let q = |x: f32| (x * self.activation_scale).round_ties_even() as i32 as u16 as u32;
        q(xs[0]) | (q(xs[1]) << 16)
    }

    /// The activations as broadcastable pairs ([`Self::pair`]), sixteen
    /// at a time with AVX2, into `store`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn pairs_avx2<'p>(
        &self,
        lower: &[f32],
        store: &'p mut [MaybeUninit<u32>; MAX_HIDDEN / 2],
    ) -> &'p [u32] {
        use std::arch::x86_64::*;
        assert!(lower.len() == self.lower && lower.len() <= MAX_HIDDEN);
        let pairs = store.as_mut_ptr() as *mut u32;
        // Sixteen activations at a time: converted with the rounding
        // `pair` uses (to nearest, ties to even), packed to 16 bits, and
        // the pack's lane order put back.
        let mut k = 0;
        // SAFETY: k + 16 <= lower.len(), and the 8 pairs stored at k / 2
        // lie inside store's MAX_HIDDEN / 2.
        unsafe {
            let scale = _mm256_set1_ps(self.activation_scale);
            while k + 16 <= lower.len() {
                let x = |at: usize| {
                    _mm256_cvtps_epi32(_mm256_mul_ps(
                        _mm256_loadu_ps(lower.as_ptr().add(at)),
                        scale,
                    ))
                };
                let packed = _mm256_packs_epi32(x(k), x(k + 8));
                _mm256_storeu_si256(
                    pairs.add(k / 2) as *mut __m256i,
                    _mm256_permute4x64_epi64::<0b11_01_10_00>(packed),
                );
                k += 16;
            }
        }
        for (m, xs) in lower.chunks_exact(2).enumerate().skip(k / 2) {
            store[m].write(self.pair(xs));
        }
        // SAFETY: the loops wrote the first lower.len() / 2 pairs.
        unsafe { std::slice::from_raw_parts(pairs as *const u32, lower.len() / 2) }
    }

    /// The batched sums at AVX-512's width, each pair's multiply and add
    /// one instruction where the CPU has VNNI.
    ///
    /// # Safety
    /// The CPU has AVX-512F and BW, AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) unsafe fn batch_sums_wide(
        &self,
        lowers: [&[f32]; MAX_BATCH],
        sums: &mut [[MaybeUninit<i32>; MAX_HIDDEN]; MAX_BATCH],
    ) {
        // SAFETY: the caller's CPU has the features, VNNI where detected.
        unsafe {
            if self.vnni {
                self.batch_sums_vnni(lowers, sums)
            } else {
                self.batch_sums_avx512(lowers, sums)
            }
        }
    }

    /// The layer at AVX-512's width, by VNNI where the CPU has it.
    ///
    /// # Safety
    /// The CPU has AVX-512F and BW, AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) unsafe fn forward_wide<'s>(
        &self,
        lower: &[f32],
        scratch: &'s mut [MaybeUninit<f32>; MAX_HIDDEN],
    ) -> &'s mut [f32] {
        // SAFETY: the caller's CPU has the features, VNNI where detected.
        unsafe {
            if self.vnni {
                self.forward_vnni(lower, scratch)
            } else {
                self.forward_avx512(lower, scratch)
            }
        }
    }

    /// The sums made floats, biased and squashed into `scratch`.
    #[inline(always)]
    pub(super) fn finish<'s, const FUSED: bool>(
        &self,
        sums: &[i32],
        scratch: &'s mut [MaybeUninit<f32>; MAX_HIDDEN],
    ) -> &'s mut [f32] {
        for ((o, &s), &b) in scratch.iter_mut().zip(sums).zip(&self.bias) {
            // The scale is a power of two: the product is exact, so the
            // only rounding is the conversion's and the bias's, fused or not.
            o.write(crate::eval::network::sigmoid_with::<FUSED>(
                s as f32 * self.sum_unit + b,
            ));
        }
        // SAFETY: the loop wrote the first `units` slots.
        unsafe { std::slice::from_raw_parts_mut(scratch.as_mut_ptr() as *mut f32, self.units) }
    }

    /// The layer without vector instructions: the reference whose sums the
    /// vector passes equal bit for bit (their sigmoids fuse their
    /// multiply-adds, as every vector pass's do).
    pub(super) fn forward_portable<'s>(
        &self,
        lower: &[f32],
        scratch: &'s mut [MaybeUninit<f32>; MAX_HIDDEN],
    ) -> &'s mut [f32] {
        let mut sums = [0i32; MAX_HIDDEN];
        self.sums_portable(lower, &mut sums);
        self.finish::<false>(&sums[..self.units], scratch)
    }

    /// The layer's integer sums, added into the first `units` of `sums`.
    fn sums_portable(&self, lower: &[f32], sums: &mut [i32; MAX_HIDDEN]) {
        assert_eq!(lower.len(), self.lower);
        for (m, p) in lower.chunks_exact(2).map(|xs| self.pair(xs)).enumerate() {
            let (x0, x1) = (
                i32::from(p as u16 as i16),
                i32::from((p >> 16) as u16 as i16),
            );
            let row = &self.w[m * self.units * 2..(m + 1) * self.units * 2];
            for (s, w) in sums.iter_mut().zip(row.chunks_exact(2)) {
                *s += x0 * i32::from(w[0]) + x1 * i32::from(w[1]);
            }
        }
    }
}

/// One vector pass per width: blocks of `$regs` registers of units (64
/// units either way, the shipped networks' layer), each summed over every
/// pair of lower units by `$dot` (a `pmaddwd` and an add, or VNNI's
/// `vpdpwssd`) into 32-bit lanes, so the sums never leave registers; then
/// one register at a time. The even and the odd pairs go to separate
/// accumulators, added at the end: `vpdpwssd` waits for its accumulator,
/// and one chain per register would leave the multiply-adds idle.
macro_rules! quantized_pass {
    ($name:ident, $sums:ident, $features:literal, $lanes:literal, $regs:literal, $reg:ty,
     $zero:ident, $set1:ident, $dot:ident, $add:ident, $load:ident, $store:ident) => {
        impl QuantizedMid {
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = $features)]
            #[inline]
            pub(super) unsafe fn $name<'s>(
                &self,
                lower: &[f32],
                scratch: &'s mut [MaybeUninit<f32>; MAX_HIDDEN],
            ) -> &'s mut [f32] {
                let mut sums = [MaybeUninit::<i32>::uninit(); MAX_HIDDEN];
                // SAFETY: the caller's CPU has this pass's features.
                let sums = unsafe { self.$sums(lower, &mut sums) };
                self.finish::<true>(sums, scratch)
            }

            /// The layer's integer sums, before the bias.
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn $sums<'s>(
                &self,
                lower: &[f32],
                sums: &'s mut [MaybeUninit<i32>; MAX_HIDDEN],
            ) -> &'s [i32] {
                use std::arch::x86_64::*;
                const LANES: usize = $lanes;
                const REGS: usize = $regs;
                let units = self.units;
                assert!(units.is_multiple_of(LANES) && units <= MAX_HIDDEN);
                assert!(lower.len() == self.lower && lower.len() <= MAX_HIDDEN);
                let mut pair_store = [MaybeUninit::<u32>::uninit(); MAX_HIDDEN / 2];
                // SAFETY: the caller's CPU has AVX2 (both widths' features).
                let pairs = unsafe { self.pairs_avx2(lower, &mut pair_store) };
                let (w, out) = (self.w.as_ptr(), sums.as_mut_ptr() as *mut i32);
                // SAFETY (the loads and stores below): start + LANES · (r + 1)
                // <= units, so every register's 2 · LANES weights at
                // (m · units + start + r · LANES) · 2 lie inside w (pairs ·
                // units · 2 long), and out holds MAX_HIDDEN >= units sums.
                unsafe {
                    let row = |m: usize, start: usize, r: usize| {
                        $load(w.add((m * units + start + r * LANES) * 2) as *const $reg)
                    };
                    let mut start = 0;
                    while start + REGS * LANES <= units {
                        let mut even = [$zero(); REGS];
                        let mut odd = [$zero(); REGS];
                        let mut twos = pairs.chunks_exact(2);
                        for (t, two) in twos.by_ref().enumerate() {
                            let (x0, x1) = ($set1(two[0] as i32), $set1(two[1] as i32));
                            for r in 0..REGS {
                                even[r] = $dot(even[r], x0, row(2 * t, start, r));
                                odd[r] = $dot(odd[r], x1, row(2 * t + 1, start, r));
                            }
                        }
                        if let [p] = twos.remainder() {
                            let x = $set1(*p as i32);
                            for (r, e) in even.iter_mut().enumerate() {
                                *e = $dot(*e, x, row(pairs.len() - 1, start, r));
                            }
                        }
                        for (r, (e, o)) in even.iter().zip(&odd).enumerate() {
                            $store(out.add(start + r * LANES) as *mut $reg, $add(*e, *o));
                        }
                        start += REGS * LANES;
                    }
                    while start < units {
                        let mut acc = $zero();
                        for (m, &p) in pairs.iter().enumerate() {
                            acc = $dot(acc, $set1(p as i32), row(m, start, 0));
                        }
                        $store(out.add(start) as *mut $reg, acc);
                        start += LANES;
                    }
                }
                // SAFETY: the blocks wrote every one of the first `units`.
                unsafe { std::slice::from_raw_parts(out as *const i32, units) }
            }
        }
    };
}

/// The batched sums ([`QuantizedMid`]'s `batch_sums_*`) per width: blocks
/// of `$regs` registers of units for each of the `MAX_BATCH` inputs, every
/// vector of weights multiplied into all of their accumulators; `$dot`
/// adds a `pmaddwd` of activations and weights to an accumulator (one
/// `vpdpwssd` where the CPU has AVX-512 VNNI).
macro_rules! quantized_batch {
    ($batch:ident, $features:literal, $lanes:literal, $regs:literal, $reg:ty,
     $zero:ident, $set1:ident, $dot:ident, $load:ident, $store:ident) => {
        impl QuantizedMid {
            /// The integer sums of `MAX_BATCH` inputs at once, before the
            /// bias, into the first `units` of each of `sums`: each vector
            /// of weights is loaded once for all of them, where a pass per
            /// input streams the whole layer through the level-1 cache
            /// each time. Integer sums are exact, so each input's sums are
            /// its single pass's.
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = $features)]
            #[inline]
            pub(super) unsafe fn $batch(
                &self,
                lowers: [&[f32]; MAX_BATCH],
                sums: &mut [[MaybeUninit<i32>; MAX_HIDDEN]; MAX_BATCH],
            ) {
                use std::arch::x86_64::*;
                const LANES: usize = $lanes;
                const REGS: usize = $regs;
                let units = self.units;
                assert!(units.is_multiple_of(LANES) && units <= MAX_HIDDEN);
                let mut stores = [[MaybeUninit::<u32>::uninit(); MAX_HIDDEN / 2]; MAX_BATCH];
                let mut pairs: [&[u32]; MAX_BATCH] = [&[]; MAX_BATCH];
                for ((p, store), lower) in pairs.iter_mut().zip(stores.iter_mut()).zip(lowers) {
                    // SAFETY: the caller's CPU has AVX2 (both widths' features).
                    *p = unsafe { self.pairs_avx2(lower, store) };
                }
                let n = self.lower / 2;
                let w = self.w.as_ptr();
                // SAFETY (the loads and stores below): as in the single
                // pass, every register's weights lie inside w, and each of
                // `sums` holds MAX_HIDDEN >= units sums.
                unsafe {
                    let row = |m: usize, start: usize, r: usize| {
                        $load(w.add((m * units + start + r * LANES) * 2) as *const $reg)
                    };
                    let mut start = 0;
                    while start + REGS * LANES <= units {
                        let mut acc = [[$zero(); REGS]; MAX_BATCH];
                        for m in 0..n {
                            let x: [$reg; MAX_BATCH] =
                                std::array::from_fn(|b| $set1(pairs[b][m] as i32));
                            for r in 0..REGS {
                                let weights = row(m, start, r);
                                for (a, &x) in acc.iter_mut().zip(&x) {
                                    a[r] = $dot(a[r], x, weights);
                                }
                            }
                        }
                        for (a, s) in acc.iter().zip(sums.iter_mut()) {
                            for (r, a) in a.iter().enumerate() {
                                $store(s.as_mut_ptr().add(start + r * LANES) as *mut $reg, *a);
                            }
                        }
                        start += REGS * LANES;
                    }
                    while start < units {
                        let mut acc = [$zero(); MAX_BATCH];
                        for m in 0..n {
                            let weights = row(m, start, 0);
                            for (b, a) in acc.iter_mut().enumerate() {
                                *a = $dot(*a, $set1(pairs[b][m] as i32), weights);
                            }
                        }
                        for (a, s) in acc.iter().zip(sums.iter_mut()) {
                            $store(s.as_mut_ptr().add(start) as *mut $reg, *a);
                        }
                        start += LANES;
                    }
                }
            }
        }
    };
}

fn has_vnni() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("avx512vnni")
        && std::is_x86_feature_detected!("avx512bw");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Both passes of one width, the single (`quantized_pass`, blocks of
/// `$regs` registers) and the batched (`quantized_batch`, `$batch_regs`
/// an input), from the one list of its instructions.
macro_rules! quantized_width {
    ($forward:ident, $sums:ident, $batch:ident, $features:literal, $lanes:literal,
     $regs:literal, $batch_regs:literal, $reg:ty, $zero:ident, $set1:ident, $dot:ident,
     $add:ident, $load:ident, $store:ident) => {
        quantized_pass!(
            $forward, $sums, $features, $lanes, $regs, $reg, $zero, $set1, $dot, $add, $load,
            $store
        );
        quantized_batch!(
            $batch,
            $features,
            $lanes,
            $batch_regs,
            $reg,
            $zero,
            $set1,
            $dot,
            $load,
            $store
        );
    };
}

quantized_width!(
    forward_avx2,
    sums_avx2,
    batch_sums_avx2,
    "avx2,fma",
    8,
    8,
    2,
    __m256i,
    _mm256_setzero_si256,
    _mm256_set1_epi32,
    dot_avx2,
    _mm256_add_epi32,
    _mm256_loadu_si256,
    _mm256_storeu_si256
);
quantized_width!(
    forward_avx512,
    sums_avx512,
    batch_sums_avx512,
    "avx512f,avx512bw,avx2,fma",
    16,
    4,
    4,
    __m512i,
    _mm512_setzero_si512,
    _mm512_set1_epi32,
    dot_avx512,
    _mm512_add_epi32,
    _mm512_loadu_si512,
    _mm512_storeu_si512
);
quantized_width!(
    forward_vnni,
    sums_vnni,
    batch_sums_vnni,
    "avx512f,avx512bw,avx512vnni,avx2,fma",
    16,
    4,
    4,
    __m512i,
    _mm512_setzero_si512,
    _mm512_set1_epi32,
    dot_vnni,
    _mm512_add_epi32,
    _mm512_loadu_si512,
    _mm512_storeu_si512
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::Mlp;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    fn activations(rng: &mut SmallRng, n: usize) -> Vec<f32> {
        // Sigmoids: mostly inside, some at the ends exactly.
        (0..n)
            .map(|_| match rng.random_range(0..10) {
                0 => 0.0,
                1 => 1.0,
                _ => rng.random::<f32>(),
            })
            .collect()
    }

    #[test]
    fn the_vector_passes_give_the_portable_sums() {
        let mut rng = SmallRng::seed_from_u64(5);
        // The shipped shape, a tail narrower than a block, lower units
        // that are not a multiple of the sixteen converted at a time, and
        // an odd number of pairs (the single pass's last pair alone).
        for (lower, units) in [(128, 64), (128, 24), (72, 32), (70, 48), (256, 128)] {
            let m = Mlp::random_deep(40, lower, units, lower as u64);
            let q = QuantizedMid::new(m.mid.as_ref().unwrap(), lower).expect("small weights");
            let mut batches = Vec::new();
            for _ in 0..200 {
                let x = activations(&mut rng, lower);
                let mut want = [0i32; MAX_HIDDEN];
                q.sums_portable(&x, &mut want);
                #[cfg(target_arch = "x86_64")]
                {
                    let mut got = [MaybeUninit::uninit(); MAX_HIDDEN];
                    if std::is_x86_feature_detected!("avx2") {
                        // SAFETY: AVX2 is present (FMA is not used by the sums).
                        let got = unsafe { q.sums_avx2(&x, &mut got) };
                        assert_eq!(got, &want[..units], "avx2, {lower}x{units}");
                    }
                    if units % 16 == 0
                        && std::is_x86_feature_detected!("avx512f")
                        && std::is_x86_feature_detected!("avx512bw")
                    {
                        // SAFETY: AVX-512F and BW are present.
                        let got = unsafe { q.sums_avx512(&x, &mut got) };
                        assert_eq!(got, &want[..units], "avx512, {lower}x{units}");
                        if has_vnni() {
                            let mut got = [MaybeUninit::uninit(); MAX_HIDDEN];
                            // SAFETY: and VNNI.
                            let got = unsafe { q.sums_vnni(&x, &mut got) };
                            assert_eq!(got, &want[..units], "vnni, {lower}x{units}");
                        }
                    }
                    batches.push((x, want));
                }
            }
            // Each batch's sums are its inputs' own, on every batched pass
            // the CPU has.
            #[cfg(target_arch = "x86_64")]
            for group in batches.chunks(MAX_BATCH).filter(|g| g.len() == MAX_BATCH) {
                let lowers: [&[f32]; MAX_BATCH] = std::array::from_fn(|b| group[b].0.as_slice());
                let check = |sums: &[[MaybeUninit<i32>; MAX_HIDDEN]; MAX_BATCH], pass: &str| {
                    for (s, (_, want)) in sums.iter().zip(group) {
                        // SAFETY: the batched sums wrote the first `units`.
                        let got: Vec<i32> = s[..units]
                            .iter()
                            .map(|v| unsafe { v.assume_init() })
                            .collect();
                        assert_eq!(got, &want[..units], "{pass}, {lower}x{units}");
                    }
                };
                let mut sums = [[MaybeUninit::uninit(); MAX_HIDDEN]; MAX_BATCH];
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: AVX2 is present (FMA is not used by the sums).
                    unsafe { q.batch_sums_avx2(lowers, &mut sums) };
                    check(&sums, "batched avx2");
                }
                if units % 16 == 0
                    && std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                {
                    // SAFETY: AVX-512F and BW are present.
                    unsafe { q.batch_sums_avx512(lowers, &mut sums) };
                    check(&sums, "batched avx512");
                    if has_vnni() {
                        // SAFETY: and VNNI.
                        unsafe { q.batch_sums_vnni(lowers, &mut sums) };
                        check(&sums, "batched vnni");
                    }
                }
            }
        }
    }

    #[test]
    fn the_integers_stay_near_the_float_layer() {
        let mut rng = SmallRng::seed_from_u64(6);
        let mid = crate::eval::shipped_model().unwrap().contact.mid.unwrap();
        let lower = mid.w.len() / mid.units;
        let q = QuantizedMid::new(&mid, lower).expect("the shipped layer");
        let mut worst = 0f32;
        for _ in 0..500 {
            let x = activations(&mut rng, lower);
            let mut got = [MaybeUninit::uninit(); MAX_HIDDEN];
            let got = q.forward_portable(&x, &mut got).to_vec();
            let mut want = [MaybeUninit::uninit(); MAX_HIDDEN];
            let want = crate::eval::network::mid_layer::<false, 32>(&mid.w, &mid.b, &x, &mut want);
            for (a, b) in got.iter().zip(want.iter()) {
                worst = worst.max((a - b).abs());
            }
        }
        // A unit's slope is at most 1/4, so this bounds the sums' error at
        // four times as much; the binary16 weights this layer had before
        // moved the units by about half the bound.
        assert!(worst < 1e-3, "worst unit off by {worst}");
        assert!(worst > 0.0, "the integers round somewhere");
    }

    #[test]
    fn the_largest_sums_fit_and_huge_weights_stay_float() {
        // Every weight of a column at the layer's largest size, every
        // activation 1.0: the sum the bits were chosen for.
        let (lower, units) = (128, 8);
        let mut mid = MidLayer {
            units,
            w: vec![0.01; lower * units],
            b: vec![0.0; units],
        };
        for k in 0..lower {
            mid.w[k * units] = 6.0;
        }
        let q = QuantizedMid::new(&mid, lower).unwrap();
        let mut sums = [0i32; MAX_HIDDEN];
        q.sums_portable(&vec![1.0; lower], &mut sums);
        let value = sums[0] as f64 * f64::from(q.sum_unit);
        assert!((value - 6.0 * lower as f64).abs() < 1e-3, "{value}");
        // Too large to keep eight bits of fraction in an i16: no integers.
        mid.w[0] = 300.0;
        assert!(QuantizedMid::new(&mid, lower).is_none());
        // Odd lower units do not pair.
        let odd = MidLayer {
            units,
            w: vec![0.1; 7 * units],
            b: vec![0.0; units],
        };
        assert!(QuantizedMid::new(&odd, 7).is_none());
    }
}
