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

    /// A board network's pass: the biases, the dense inputs' sums and
    /// the point rows (all of them, or with a memo only the changed pairs'
    /// and points', the memo's sums, inputs and counts then moving on to
    /// this input's), then the upper layers. Inlined into each vector pass.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn board_pass<const AVX512: bool>(
        &self,
        board: &BoardRows,
        input: &[f32],
        counts: Counts,
        memo: Option<&mut FirstLayerMemo>,
    ) -> [f32; OUTPUTS] {
        let (points, features) = (&board.points, &board.features);
        self.finish_after::<AVX512>(|hidden| {
            for (h, &b) in hidden.iter_mut().zip(&self.b1) {
                *h = MaybeUninit::new(b);
            }
            let out = hidden.as_mut_ptr() as *mut f32;
            // SAFETY: the vector passes run on CPUs with AVX2 and FMA, and
            // out holds the self.hidden sums just written.
            unsafe {
                let quantized = features.quantize_avx2(input);
                match memo {
                    Some(memo) => {
                        let owner = self as *const FastNet as usize;
                        if memo.owner != owner {
                            memo.owner = owner;
                            memo.board = BoardMemo::empty();
                        }
                        let b = &mut memo.board;
                        features.sums_avx2::<false>(
                            &b.quantized,
                            &quantized,
                            b.feature_sums.as_mut_ptr(),
                            out,
                        );
                        points.rows_avx2::<false>(
                            &b.counts,
                            &counts,
                            b.point_sums.as_mut_ptr(),
                            out,
                        );
                        (b.counts, b.quantized) = (counts, quantized);
                    }
                    None => {
                        features.sums_avx2::<true>(
                            &[0; MAX_OTHERS],
                            &quantized,
                            std::ptr::null_mut(),
                            out,
                        );
                        points.rows_avx2::<true>(&[0; SLOTS], &counts, std::ptr::null_mut(), out);
                    }
                }
            }
        })
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

counted_pass!(counted_avx512, "avx512f,avx2,fma,f16c", true);
counted_pass!(counted_avx2, "avx2,fma,f16c,popcnt", false);
