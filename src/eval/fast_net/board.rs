//! A backgammon model's networks: the point counts and the dense
//! features summed in 16-bit integers (`point_rows`, `feature_rows`).

use super::memo::BoardMemo;
use super::*;

impl FastNet {
    /// Whether this is a board network ([`Self::for_board`]), whose
    /// first layer reads its point inputs as checker counts: then
    /// [`Self::forward_counted`] is its pass.
    pub fn takes_counts(&self) -> bool {
        self.board.is_some()
    }

    /// [`Self::forward`] of a board network, or with a memo
    /// [`Self::forward_with_memo`], given the point counts: `input`'s
    /// point units are not read, so an encoding that writes the counts
    /// ([`super::encoding::encode_counted`]) need not write them.
    ///
    /// # Panics
    /// Where the network is not a board network ([`Self::takes_counts`]).
    #[inline]
    pub fn forward_counted(
        &self,
        input: &[f32],
        counts: &PointCounts,
        memo: Option<&mut FirstLayerMemo>,
    ) -> [f32; OUTPUTS] {
        let board = self
            .board
            .as_ref()
            .expect("forward_counted is the pass of board networks only");
        match self.pass {
            // SAFETY: `Pass::detect` found the features each pass is built for.
            #[cfg(target_arch = "x86_64")]
            Pass::Avx512 => unsafe { self.counted_avx512(board, input, counts, memo) },
            #[cfg(target_arch = "x86_64")]
            Pass::Avx2 => unsafe { self.counted_avx2(board, input, counts, memo) },
            _ => {
                let _ = (board, memo);
                self.portable_pass(input, Some(counts))
            }
        }
    }

    /// A board network's pass: its first layer's sums
    /// ([`Self::board_sums`]), then the upper layers. Inlined into each
    /// vector pass.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn board_pass<const AVX512: bool>(
        &self,
        board: &BoardRows,
        input: &[f32],
        counts: Counts,
        memo: Option<&mut FirstLayerMemo>,
    ) -> [f32; OUTPUTS] {
        // SAFETY: the caller's CPU has AVX2 and FMA.
        self.finish_after::<AVX512>(|hidden| unsafe {
            self.board_sums::<AVX512>(board, input, counts, memo, hidden)
        })
    }

    /// A board network's first-layer sums into the first `self.hidden`
    /// of `hidden`: the biases, the dense inputs' sums and the point rows
    /// (all of them, or with a memo only the changed pairs' and points',
    /// the memo's sums, inputs and counts then moving on to this input's).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn board_sums<const AVX512: bool>(
        &self,
        board: &BoardRows,
        input: &[f32],
        counts: Counts,
        memo: Option<&mut FirstLayerMemo>,
        hidden: &mut [MaybeUninit<f32>; MAX_HIDDEN],
    ) {
        let (points, features) = (&board.points, &board.features);
        for (h, &b) in hidden.iter_mut().zip(&self.b1) {
            *h = MaybeUninit::new(b);
        }
        let out = hidden.as_mut_ptr() as *mut f32;
        // SAFETY: the vector passes run on CPUs with AVX2 and FMA (the
        // AVX-512 pass with AVX-512F and BW too), and
        // out holds the self.hidden sums just written.
        unsafe {
            let quantized = features.quantize_avx2(input);
            match memo {
                Some(memo) => {
                    if memo.owner != self.id {
                        memo.owner = self.id;
                        memo.board = BoardMemo::empty();
                    }
                    let b = &mut memo.board;
                    let (sums, point_sums) =
                        (b.feature_sums.as_mut_ptr(), b.point_sums.as_mut_ptr());
                    features.sums_widest::<AVX512, false>(&b.quantized, &quantized, sums, out);
                    points.rows_widest::<AVX512, false>(&b.counts, &counts, point_sums, out);
                    (b.counts, b.quantized) = (counts, quantized);
                }
                None => {
                    let (none, no_point_sums) = (std::ptr::null_mut(), std::ptr::null_mut());
                    features.sums_widest::<AVX512, true>(&[0; MAX_OTHERS], &quantized, none, out);
                    points.rows_widest::<AVX512, true>(&[0; SLOTS], &counts, no_point_sums, out);
                }
            }
        }
    }

    /// [`Self::forward_counted`] of up to [`MAX_BATCH`] inputs, one after
    /// another through `memo`, into `out`: each first layer as alone, then
    /// the second layers of all of them together, loading each of its
    /// weights once ([`QuantizedMid`]'s batched sums). Every answer is the
    /// single pass's, bit for bit: that layer sums in integers.
    ///
    /// # Panics
    /// Where the network is not a board network, or the lengths of
    /// `inputs`, `counts` and `out` differ or are not in 1..=`MAX_BATCH`.
    pub fn forward_counted_batch(
        &self,
        inputs: &[&[f32]],
        counts: &[PointCounts],
        memo: &mut FirstLayerMemo,
        out: &mut [[f32; OUTPUTS]],
    ) {
        let n = inputs.len();
        assert!((1..=MAX_BATCH).contains(&n) && counts.len() == n && out.len() == n);
        match self.pass {
            // SAFETY: `Pass::detect` found the features each pass is built for.
            #[cfg(target_arch = "x86_64")]
            Pass::Avx512 => unsafe { self.counted_batch_avx512(inputs, counts, memo, out) },
            #[cfg(target_arch = "x86_64")]
            Pass::Avx2 => unsafe { self.counted_batch_avx2(inputs, counts, memo, out) },
            _ => {
                for ((o, input), c) in out.iter_mut().zip(inputs).zip(counts) {
                    *o = self.forward_counted(input, c, Some(memo));
                }
            }
        }
    }

    /// [`Self::forward_counted_batch`]'s vector pass. Inlined into each
    /// width's.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn board_batch<const AVX512: bool>(
        &self,
        inputs: &[&[f32]],
        counts: &[PointCounts],
        memo: &mut FirstLayerMemo,
        out: &mut [[f32; OUTPUTS]],
    ) {
        let board = self
            .board
            .as_ref()
            .expect("forward_counted_batch is the pass of board networks only");
        let Some(SecondLayer::Integers(q)) = &self.mid else {
            for ((o, input), c) in out.iter_mut().zip(inputs).zip(counts) {
                // SAFETY: the caller's CPU has this width's features.
                *o = unsafe { self.board_pass::<AVX512>(board, input, *c, Some(memo)) };
            }
            return;
        };
        let mut hidden = [[MaybeUninit::<f32>::uninit(); MAX_HIDDEN]; MAX_BATCH];
        for ((h, input), c) in hidden.iter_mut().zip(inputs).zip(counts) {
            // SAFETY: the caller's CPU has AVX2 and FMA.
            unsafe { self.board_sums::<AVX512>(board, input, *c, Some(&mut *memo), h) };
            for a in &mut h[..self.hidden] {
                // SAFETY: the sums wrote the first `self.hidden`.
                let x = unsafe { a.assume_init() };
                *a = MaybeUninit::new(sigmoid_with::<true>(x));
            }
        }
        let n = inputs.len();
        // Fewer inputs than the batch: the last one fills the rest.
        let lowers: [&[f32]; MAX_BATCH] = std::array::from_fn(|b| {
            let h = &hidden[b.min(n - 1)][..self.hidden];
            // SAFETY: the loop above wrote and squashed these units.
            unsafe { std::slice::from_raw_parts(h.as_ptr() as *const f32, h.len()) }
        });
        let mut sums = [[MaybeUninit::<i32>::uninit(); MAX_HIDDEN]; MAX_BATCH];
        // SAFETY: the caller's CPU has this width's features.
        unsafe {
            if AVX512 {
                q.batch_sums_wide(lowers, &mut sums);
            } else {
                q.batch_sums_avx2(lowers, &mut sums);
            }
        }
        for (o, s) in out.iter_mut().zip(&sums) {
            // SAFETY: the batched sums wrote the first `units` of each.
            let s = unsafe { std::slice::from_raw_parts(s.as_ptr() as *const i32, q.units()) };
            let mut scratch = [MaybeUninit::uninit(); MAX_HIDDEN];
            let upper = q.finish::<true>(s, &mut scratch);
            // SAFETY: the caller's CPU has AVX2 and FMA.
            *o = unsafe { self.output_lanes(upper) };
        }
    }
}

/// [`FastNet::forward_counted`]'s vector pass, compiled for one width's
/// features (the board pass is inlined into each).
macro_rules! counted_pass {
    ($name:ident, $features:literal, $avx512:literal) => {
        impl FastNet {
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = $features)]
            pub(super) unsafe fn $name(
                &self,
                board: &BoardRows,
                input: &[f32],
                counts: &PointCounts,
                memo: Option<&mut FirstLayerMemo>,
            ) -> [f32; OUTPUTS] {
                // SAFETY: both widths' features include AVX2 and FMA.
                unsafe { self.board_pass::<$avx512>(board, input, *counts, memo) }
            }
        }
    };
}

counted_pass!(counted_avx512, "avx512f,avx512bw,avx2,fma,f16c", true);
counted_pass!(counted_avx2, "avx2,fma,f16c,popcnt", false);

/// [`FastNet::forward_counted_batch`]'s vector pass, compiled for one
/// width's features.
macro_rules! counted_batch_pass {
    ($name:ident, $features:literal, $avx512:literal) => {
        impl FastNet {
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = $features)]
            pub(super) unsafe fn $name(
                &self,
                inputs: &[&[f32]],
                counts: &[PointCounts],
                memo: &mut FirstLayerMemo,
                out: &mut [[f32; OUTPUTS]],
            ) {
                // SAFETY: both widths' features include AVX2 and FMA.
                unsafe { self.board_batch::<$avx512>(inputs, counts, memo, out) }
            }
        }
    };
}

counted_batch_pass!(counted_batch_avx512, "avx512f,avx512bw,avx2,fma,f16c", true);
counted_batch_pass!(counted_batch_avx2, "avx2,fma,f16c,popcnt", false);
