//! The half-precision first layer of a network that is not a board
//! network: the non-zero inputs gathered (eight or sixteen at a time by
//! the vector passes) and their rows accumulated in registers.

use super::*;

impl FastNet {
    /// The AVX-512 pass: the non-zero inputs gathered sixteen at a time
    /// by a compress, then 16-lane sums.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx2,fma,f16c")]
    pub(super) unsafe fn forward_avx512(&self, input: &[f32]) -> [f32; OUTPUTS] {
        if let Some(board) = &self.board {
            // SAFETY: this CPU has AVX2 and FMA with AVX-512F.
            return unsafe {
                self.board_pass::<true>(board, input, board.points.counts_avx2(input), None)
            };
        }
        let mut nz = NonZero::new();
        // SAFETY: this function's features include the gather's and the
        // accumulation's; hidden holds MAX_HIDDEN >= self.hidden sums.
        unsafe {
            nz.gather_avx512(input);
            self.finish_after::<true>(|hidden| {
                self.accumulate_avx512(&nz, self.b1.as_ptr(), hidden.as_mut_ptr() as *mut f32)
            })
        }
    }

    /// The AVX2 pass: the non-zero inputs gathered eight at a time by a
    /// permutation looked up from their mask (AVX2 has no compress), then
    /// eight-lane sums.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma,f16c,popcnt")]
    pub(super) unsafe fn forward_avx2(&self, input: &[f32]) -> [f32; OUTPUTS] {
        if let Some(board) = &self.board {
            // SAFETY: this CPU has AVX2 and FMA.
            return unsafe {
                self.board_pass::<false>(board, input, board.points.counts_avx2(input), None)
            };
        }
        let mut nz = NonZero::new();
        // SAFETY: as in the AVX-512 pass.
        unsafe {
            nz.gather_avx2(input);
            self.finish_after::<false>(|hidden| {
                self.accumulate_avx2(&nz, self.b1.as_ptr(), hidden.as_mut_ptr() as *mut f32)
            })
        }
    }
}

/// What [`NonZero::gather_avx2`] compares against.
#[cfg(target_arch = "x86_64")]
pub(super) static NO_INPUTS: [f32; MAX_INPUTS] = [0.0; MAX_INPUTS];

/// For each 8-bit mask, the lanes whose bit is set, in order, first: the
/// permutation that packs an AVX2 register's kept lanes to its front.
pub(super) const LEFT_PACK: [[i32; 8]; 256] = {
    let mut table = [[0i32; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut kept, mut lane) = (0, 0i32);
        while lane < 8 {
            if (mask >> lane) & 1 == 1 {
                table[mask][kept] = lane;
                kept += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

/// The non-zero inputs of one evaluation, as (index, value) lists, with
/// room for a full 16-lane store past the last one.
///
/// Left uninitialised until written: zeroing the 4 KB on every evaluation
/// cost a tenth of it. The counts come first: with them after the arrays,
/// LLVM stretched their zero stores into a memset over `value`.
#[repr(C)]
pub(super) struct NonZero {
    pub(super) n: usize,
    /// Length of the input they came from: every index is below it.
    pub(super) inputs: usize,
    pub(super) index: [MaybeUninit<i32>; MAX_INPUTS + 16],
    pub(super) value: [MaybeUninit<f32>; MAX_INPUTS + 16],
}

impl NonZero {
    #[inline(always)]
    pub(super) fn new() -> NonZero {
        NonZero {
            index: [MaybeUninit::uninit(); MAX_INPUTS + 16],
            value: [MaybeUninit::uninit(); MAX_INPUTS + 16],
            n: 0,
            inputs: 0,
        }
    }

    /// Appends the non-zero inputs from `start` on, branch-free: every
    /// input is written, and kept by advancing the count.
    #[inline(always)]
    pub(super) fn push_from(&mut self, input: &[f32], start: usize) {
        self.inputs = input.len();
        // The count lives in a register: kept in the struct, every input
        // waited on the store of the previous count (a third of a contact
        // evaluation on an AVX2 machine).
        let mut n = self.n;
        for (i, &x) in input.iter().enumerate().skip(start) {
            self.index[n] = MaybeUninit::new(i as i32);
            self.value[n] = MaybeUninit::new(x);
            n += (x != 0.0) as usize;
        }
        self.n = n;
    }

    /// Gathers the non-zero inputs sixteen at a time by a compress.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,popcnt")]
    #[inline]
    pub(super) unsafe fn gather_avx512(&mut self, input: &[f32]) {
        use std::arch::x86_64::*;
        assert!(input.len() <= MAX_INPUTS);
        let (mut start, mut n) = (0, 0);
        // SAFETY: loads read input[start..start + 16] inside input; stores
        // write 16 lanes at n <= start, inside the arrays' extra room.
        unsafe {
            let mut lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            while start + 16 <= input.len() {
                let x = _mm512_loadu_ps(input.as_ptr().add(start));
                let keep = _mm512_cmp_ps_mask::<_CMP_NEQ_OQ>(x, _mm512_setzero_ps());
                _mm512_storeu_ps(
                    self.value.as_mut_ptr().add(n) as *mut f32,
                    _mm512_maskz_compress_ps(keep, x),
                );
                _mm512_storeu_si512(
                    self.index.as_mut_ptr().add(n) as *mut __m512i,
                    _mm512_maskz_compress_epi32(keep, lanes),
                );
                n += keep.count_ones() as usize;
                lanes = _mm512_add_epi32(lanes, _mm512_set1_epi32(16));
                start += 16;
            }
        }
        // The count stays in a register through the loop: the stores
        // through raw pointers could alias `self.n`.
        self.n = n;
        self.push_from(input, start);
    }

    /// Gathers the non-zero inputs eight at a time by a permutation looked
    /// up from their mask (AVX2 has no compress).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    #[inline]
    pub(super) unsafe fn gather_avx2(&mut self, input: &[f32]) {
        // SAFETY: the caller's CPU has AVX2.
        unsafe { self.gather_changes_avx2::<true>(input, &NO_INPUTS) };
    }

    /// Gathers every input that differs from `before` as (index, input −
    /// before), eight at a time; returns how many inputs are non-zero.
    /// Against all zeros that is the non-zero inputs themselves: `PLAIN`
    /// says `before` is all zeros, and that pass skips the subtraction and
    /// the second count.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    #[inline]
    pub(super) unsafe fn gather_changes_avx2<const PLAIN: bool>(
        &mut self,
        input: &[f32],
        before: &[f32; MAX_INPUTS],
    ) -> usize {
        assert!(input.len() <= MAX_INPUTS);
        use std::arch::x86_64::*;
        let (mut start, mut n, mut nonzero) = (0, 0, 0);
        let first = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let mut lanes = first;
        // SAFETY (each step): at + 8 <= input.len() <= MAX_INPUTS, and
        // n <= at.
        while start + 8 <= input.len() {
            let (kept, set) =
                unsafe { self.eight_changes::<PLAIN>(input, before, start, 0, lanes, n) };
            (n, nonzero) = (n + kept, nonzero + set);
            lanes = _mm256_add_epi32(lanes, _mm256_set1_epi32(8));
            start += 8;
        }
        if start < input.len() && input.len() >= 8 {
            // The last eight inputs, overlapping the ones gathered: one
            // vector step instead of a scalar step per input left.
            let at = input.len() - 8;
            let lanes = _mm256_add_epi32(first, _mm256_set1_epi32(at as i32));
            let (kept, set) =
                unsafe { self.eight_changes::<PLAIN>(input, before, at, start - at, lanes, n) };
            (n, nonzero) = (n + kept, nonzero + set);
            start = input.len();
        }
        for (i, &x) in input.iter().enumerate().skip(start) {
            self.index[n] = MaybeUninit::new(i as i32);
            self.value[n] = MaybeUninit::new(x - before[i]);
            n += (x != before[i]) as usize;
            nonzero += (x != 0.0) as usize;
        }
        // The count stayed in a register through the loops: the stores
        // through raw pointers could alias `self.n`. Against `NO_INPUTS`
        // the compiler folds the subtraction and the second compare away,
        // so a plain pass gathers as it did before the memo.
        self.n = n;
        self.inputs = input.len();
        nonzero
    }

    /// One step of [`Self::gather_changes_avx2`]: the changes among the
    /// eight inputs from `at` on, less the first `done` of them (already
    /// gathered), packed to the front with their indices (`lanes`, `at`
    /// and on) and written from slot `n`; returns
    /// how many were written and how many of those eight inputs are
    /// non-zero. The caller keeps `at + 8 <= input.len()` and `n <= at`,
    /// so every store lands inside the arrays' extra room. Inlined into
    /// the gather, compiled for AVX2 there (the caller's CPU has it).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn eight_changes<const PLAIN: bool>(
        &mut self,
        input: &[f32],
        before: &[f32; MAX_INPUTS],
        at: usize,
        done: usize,
        lanes: std::arch::x86_64::__m256i,
        n: usize,
    ) -> (usize, usize) {
        use std::arch::x86_64::*;
        let fresh = 0xff << done;
        // SAFETY: as the caller keeps.
        unsafe {
            let x = _mm256_loadu_ps(input.as_ptr().add(at));
            let old = match PLAIN {
                true => _mm256_setzero_ps(),
                false => _mm256_loadu_ps(before.as_ptr().add(at)),
            };
            let changed = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_NEQ_OQ>(x, old)) as usize & fresh;
            let order = _mm256_loadu_si256(LEFT_PACK[changed].as_ptr() as *const __m256i);
            let change = match PLAIN {
                true => x,
                false => _mm256_sub_ps(x, old),
            };
            _mm256_storeu_ps(
                self.value.as_mut_ptr().add(n) as *mut f32,
                _mm256_permutevar8x32_ps(change, order),
            );
            _mm256_storeu_si256(
                self.index.as_mut_ptr().add(n) as *mut __m256i,
                _mm256_permutevar8x32_epi32(lanes, order),
            );
            let set = match PLAIN {
                true => changed,
                false => {
                    _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_NEQ_OQ>(x, _mm256_setzero_ps()))
                        as usize
                        & fresh
                }
            };
            (changed.count_ones() as usize, set.count_ones() as usize)
        }
    }

    /// The kept inputs' indices and values.
    #[inline(always)]
    pub(super) fn kept(&self) -> (&[i32], &[f32]) {
        // SAFETY: every slot below n was written (by push_from or a
        // vector pass's store) before n moved past it.
        unsafe {
            (
                std::slice::from_raw_parts(self.index.as_ptr() as *const i32, self.n),
                std::slice::from_raw_parts(self.value.as_ptr() as *const f32, self.n),
            )
        }
    }
}

/// One first-layer accumulation per vector width: each block of
/// `8 × LANES` hidden units is summed in eight registers over all the
/// non-zero inputs, so the accumulators never touch memory; a narrower
/// tail takes one register at a time.
macro_rules! accumulate {
    ($name:ident, $features:literal, $lanes:literal, $zero:ident, $load:ident,
     $set1:ident, $fmadd:ident, $store:ident, $half_load:ident, $half_reg:ty, $widen:ident) => {
        impl FastNet {
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = $features)]
            #[inline]
            pub(super) unsafe fn $name(&self, nz: &NonZero, base: *const f32, out: *mut f32) {
                let (index, value) = nz.kept();
                use std::arch::x86_64::*;
                const LANES: usize = $lanes;
                let h = self.hidden;
                assert!(
                    self.w1_half.len() == self.inputs * h
                        && h <= MAX_HIDDEN
                        && h.is_multiple_of(LANES)
                        && nz.inputs == self.inputs
                );
                let w = self.w1_half.as_ptr();
                let row_weights = |i: i32, block: usize, k: usize| {
                    // SAFETY: i < nz.inputs = inputs (every index NonZero
                    // holds came from its input), and block + LANES·(k + 1) <= h, so
                    // the weights lie inside w1_half.
                    unsafe {
                        let p = w.add(i as usize * h + block + LANES * k);
                        $widen($half_load(p as *const $half_reg))
                    }
                };
                let mut block = 0;
                // SAFETY (the loads and stores below): block + lane < h,
                // and the caller's base and out hold at least h values
                // (they may be the same: each block is read before it is
                // written).
                unsafe {
                    while block + 8 * LANES <= h {
                        let b = base.add(block);
                        let mut acc = [$zero(); 8];
                        for (k, a) in acc.iter_mut().enumerate() {
                            *a = $load(b.add(LANES * k));
                        }
                        for (&i, &v) in index.iter().zip(value) {
                            let x = $set1(v);
                            for (k, a) in acc.iter_mut().enumerate() {
                                *a = $fmadd(x, row_weights(i, block, k), *a);
                            }
                        }
                        for (k, a) in acc.iter().enumerate() {
                            $store(out.add(block + LANES * k), *a);
                        }
                        block += 8 * LANES;
                    }
                    while block < h {
                        let mut a = $load(base.add(block));
                        for (&i, &v) in index.iter().zip(value) {
                            a = $fmadd($set1(v), row_weights(i, block, 0), a);
                        }
                        $store(out.add(block), a);
                        block += LANES;
                    }
                }
            }
        }
    };
}

accumulate!(
    accumulate_avx2,
    "avx2,fma,f16c",
    8,
    _mm256_setzero_ps,
    _mm256_loadu_ps,
    _mm256_set1_ps,
    _mm256_fmadd_ps,
    _mm256_storeu_ps,
    _mm_loadu_si128,
    __m128i,
    _mm256_cvtph_ps
);
accumulate!(
    accumulate_avx512,
    "avx512f,avx512bw,avx2,fma,f16c",
    16,
    _mm512_setzero_ps,
    _mm512_loadu_ps,
    _mm512_set1_ps,
    _mm512_fmadd_ps,
    _mm512_storeu_ps,
    _mm256_loadu_si256,
    __m256i,
    _mm512_cvtph_ps
);
