//! A roll's candidates through one memo: each adds only the rows of the
//! inputs that changed since the previous candidate.

use super::*;

impl FastNet {
    /// The five output probabilities for `input`, starting from the
    /// first-layer sums `memo` kept of the last input it saw through this
    /// network: only the inputs that changed are added (their change times
    /// their row), where they are fewer than the non-zero inputs. A roll's
    /// candidates differ in a few points of the mover's and in some
    /// features, so most of the first layer's rows are skipped; GNU
    /// Backgammon evaluates its candidates the same way. The result differs
    /// from [`Self::forward`]'s by rounding only, and depends on what the
    /// memo saw before: callers start a fresh memo for each list they walk
    /// in order, so answers stay the same on any thread count. A board
    /// network ([`Self::for_board`]) keeps its sums there in integers, and
    /// answers exactly as [`Self::forward`] does.
    #[inline]
    pub fn forward_with_memo(&self, input: &[f32], memo: &mut FirstLayerMemo) -> [f32; OUTPUTS] {
        match self.pass {
            // SAFETY: `Pass::detect` found the features each pass is built for.
            #[cfg(target_arch = "x86_64")]
            Pass::Avx512 => unsafe { self.forward_memo_avx512(input, memo) },
            #[cfg(target_arch = "x86_64")]
            Pass::Avx2 => unsafe { self.forward_memo_avx2(input, memo) },
            _ => {
                let _ = memo;
                self.forward_portable(input)
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx2,fma,f16c")]
    pub(super) unsafe fn forward_memo_avx512(
        &self,
        input: &[f32],
        memo: &mut FirstLayerMemo,
    ) -> [f32; OUTPUTS] {
        // SAFETY: this function's features include the gather's and the
        // accumulation's.
        self.memo_pass::<true>(
            input,
            memo,
            |nz| unsafe { nz.gather_avx512(input) },
            |nz, base, out| unsafe { self.accumulate_avx512(nz, base, out) },
        )
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma,f16c,popcnt")]
    pub(super) unsafe fn forward_memo_avx2(
        &self,
        input: &[f32],
        memo: &mut FirstLayerMemo,
    ) -> [f32; OUTPUTS] {
        // SAFETY: as in the AVX-512 pass.
        self.memo_pass::<false>(
            input,
            memo,
            |nz| unsafe { nz.gather_avx2(input) },
            |nz, base, out| unsafe { self.accumulate_avx2(nz, base, out) },
        )
    }

    /// One pass through `memo`: the changes since its last input added to
    /// its sums, or where that is no cheaper, every non-zero input
    /// (`gather`) added to the biases; `accumulate` sums rows from a base
    /// into an output of `self.hidden` sums. Inlined into each vector pass.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn memo_pass<const AVX512: bool>(
        &self,
        input: &[f32],
        memo: &mut FirstLayerMemo,
        gather: impl FnOnce(&mut NonZero),
        accumulate: impl FnOnce(&NonZero, *const f32, *mut f32),
    ) -> [f32; OUTPUTS] {
        if let Some(board) = &self.board {
            // SAFETY: both vector passes run on CPUs with AVX2 and FMA.
            return unsafe {
                self.board_pass::<AVX512>(board, input, board.points.counts_avx2(input), Some(memo))
            };
        }
        let mut nz = NonZero::new();
        // SAFETY: both vector passes run on CPUs with AVX2.
        let base = match unsafe { memo.changes_avx2(self, input, &mut nz) } {
            true => memo.sums.as_ptr(),
            false => {
                gather(&mut nz);
                self.b1.as_ptr()
            }
        };
        // memo.sums holds MAX_HIDDEN >= self.hidden sums, and an
        // accumulation reads each block of them before writing it.
        accumulate(&nz, base, memo.sums.as_mut_ptr());
        self.finish_from_memo::<AVX512>(input, memo)
    }

    /// Records `input` as the memo's last, then finishes from its sums.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn finish_from_memo<const AVX512: bool>(
        &self,
        input: &[f32],
        memo: &mut FirstLayerMemo,
    ) -> [f32; OUTPUTS] {
        memo.owner = self.id;
        memo.input[..input.len()].copy_from_slice(input);
        let sums = &memo.sums[..self.hidden];
        self.finish_after::<AVX512>(|hidden| {
            for (h, &s) in hidden.iter_mut().zip(sums) {
                *h = MaybeUninit::new(s);
            }
        })
    }

    /// The first layer's sums by `accumulate`, which writes every one of
    /// the first `self.hidden` of them, then their sigmoids and the upper
    /// layers with fused multiply-adds, the second layer in integers by the
    /// pass of the caller's width (`AVX512`, else AVX2);
    /// inlined into each vector pass so that it is vectorised at that
    /// pass's width.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn finish_after<const AVX512: bool>(
        &self,
        accumulate: impl FnOnce(&mut [MaybeUninit<f32>; MAX_HIDDEN]),
    ) -> [f32; OUTPUTS] {
        let mut hidden = [MaybeUninit::uninit(); MAX_HIDDEN];
        accumulate(&mut hidden);
        // SAFETY: the accumulation wrote the first `self.hidden` sums.
        let hidden =
            unsafe { std::slice::from_raw_parts_mut(hidden.as_mut_ptr() as *mut f32, self.hidden) };
        for a in hidden.iter_mut() {
            *a = sigmoid_with::<true>(*a);
        }
        let mut scratch = [MaybeUninit::uninit(); MAX_HIDDEN];
        // SAFETY: this is inlined only into the vector passes, each on a
        // CPU with the features of the layer pass its AVX512 names
        // (`Pass::detect` checks AVX-512BW with AVX-512F).
        let upper = match &self.mid {
            None => hidden,
            Some(SecondLayer::Integers(q)) if AVX512 => unsafe {
                q.forward_wide(hidden, &mut scratch)
            },
            Some(SecondLayer::Integers(q)) => unsafe { q.forward_avx2(hidden, &mut scratch) },
            Some(SecondLayer::Floats(mid)) => {
                mid_layer::<true, 32>(&mid.w, &mid.b, hidden, &mut scratch)
            }
        };
        // SAFETY: both vector passes run on CPUs with AVX2 and FMA.
        unsafe { self.output_lanes(upper) }
    }
}

/// The inputs and first-layer sums (before the sigmoid) of the last
/// evaluation through [`FastNet::forward_with_memo`], and which network
/// made them.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub struct FirstLayerMemo {
    /// The network's id; 0 before the first evaluation.
    pub(super) owner: usize,
    pub(super) input: [f32; MAX_INPUTS],
    pub(super) sums: [f32; MAX_HIDDEN],
    /// A board network's sums instead: integers, exact whatever order
    /// the changes come in.
    pub(super) board: BoardMemo,
}

/// What a board network's first-layer sums were last brought to: the
/// points' counts and the other inputs quantised, and the two sums, in
/// [`PointRows`]' and [`FeatureRows`]' units.
pub(super) struct BoardMemo {
    pub(super) counts: Counts,
    pub(super) quantized: Quantized,
    pub(super) point_sums: [i16; MAX_HIDDEN],
    pub(super) feature_sums: [i32; MAX_HIDDEN],
}

impl BoardMemo {
    /// The sums of no inputs: every count and input zero.
    pub(super) fn empty() -> BoardMemo {
        BoardMemo {
            counts: [0; SLOTS],
            quantized: [0; MAX_OTHERS],
            point_sums: [0; MAX_HIDDEN],
            feature_sums: [0; MAX_HIDDEN],
        }
    }
}

impl FirstLayerMemo {
    pub fn new() -> FirstLayerMemo {
        FirstLayerMemo {
            owner: 0,
            input: [0.0; MAX_INPUTS],
            sums: [0.0; MAX_HIDDEN],
            board: BoardMemo::empty(),
        }
    }

    /// Gathers into `nz` the changes of `input` from the memo's last
    /// input. False, with `nz` to be gathered afresh, where the memo is of
    /// another network or the changes are not fewer than the non-zero
    /// inputs (a full pass is then no dearer).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    #[inline]
    pub(super) unsafe fn changes_avx2(
        &self,
        net: &FastNet,
        input: &[f32],
        nz: &mut NonZero,
    ) -> bool {
        if self.owner != net.id {
            return false;
        }
        // SAFETY: the caller's CPU has AVX2.
        let nonzero = unsafe { nz.gather_changes_avx2::<false>(input, &self.input) };
        nz.n < nonzero
    }
}

impl Default for FirstLayerMemo {
    fn default() -> Self {
        FirstLayerMemo::new()
    }
}
