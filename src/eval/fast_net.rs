//! The evaluator's copy of a network, laid out for speed: the first
//! layer's weights in half precision, the second layer's in 16-bit
//! integers.
//!
//! (Over 600 lines on purpose: the AVX2 path and the portable path it is
//! checked against compute the same sums and are kept side by side.)
//!
//! A contact evaluation adds one first-layer row per non-zero input, about
//! seventy rows of 256 weights, and at 4 bytes a weight those rows do not
//! fit in the level-1 cache: the sums wait on memory, not on arithmetic.
//! At 2 bytes a weight (IEEE binary16, widened by the F16C instruction on
//! load) the same rows stream twice as fast. Rounding a weight to 11
//! significant bits moves an output by about 1e-4, far below what
//! separates moves; training keeps the full f32 weights in [`Mlp`]. The
//! second layer, dense and read whole on every evaluation, is as small in
//! 16-bit integers and needs no conversion on load
//! (`quantized_mid`).
//!
//! A roll's candidates, evaluated one after another, can go through a
//! [`FirstLayerMemo`]: each then adds only the rows of the inputs that
//! changed since the previous candidate.
//!
//! A backgammon model's networks ([`FastNet::for_board`]) take neither
//! route for their first layer. Their inputs are the encoding's, so a
//! point's four inputs are one checker count and its rows can be added
//! into one row per count (`point_rows`); the evaluator hands
//! them the counts themselves ([`FastNet::forward_counted`]), so the
//! encoding need not write the units. The inputs after the
//! points are few and almost all non-zero, so they are summed densely
//! (`feature_rows`). Both are in 16-bit integers: a row costs
//! one add or multiply-add per sixteen units, with no widening. Their
//! memo keeps integer sums, so a candidate redoes only the points and
//! input pairs that changed and still gets a fresh pass's bits.

use std::mem::MaybeUninit;

use super::encoding::PointCounts;
use super::feature_rows::{FeatureRows, MAX_OTHERS, Quantized};
use super::line_aligned::LineAligned;
use super::network::{
    MAX_HIDDEN, MidLayer, Mlp, OUTPUTS, hidden_layer, mid_layer, output_layer, sigmoid,
    sigmoid_with, upper_layers,
};
use super::point_rows::{Counts, PointRows, SLOTS};
use super::quantized_mid::QuantizedMid;

/// The most inputs the vector paths gather.
const MAX_INPUTS: usize = 512;

/// Which pass this CPU runs, detected once when the network is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// AVX-512F and BW, for hidden sizes that are multiples of 16.
    Avx512,
    /// AVX2 with FMA and F16C, and POPCNT for the counts of gathered inputs.
    Avx2,
    Portable,
}

impl Pass {
    fn detect(hidden: usize, last: usize, inputs: usize) -> Pass {
        #[cfg(target_arch = "x86_64")]
        if inputs <= MAX_INPUTS {
            let avx2 = std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("fma")
                && std::is_x86_feature_detected!("f16c")
                && std::is_x86_feature_detected!("popcnt");
            if avx2
                && hidden.is_multiple_of(16)
                && last.is_multiple_of(16)
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
            {
                return Pass::Avx512;
            }
            if avx2 {
                return Pass::Avx2;
            }
        }
        let _ = (hidden, last, inputs);
        Pass::Portable
    }
}

pub struct FastNet {
    pass: Pass,
    inputs: usize,
    hidden: usize,
    /// `[inputs][hidden]`, binary16 bits.
    w1_half: LineAligned<u16>,
    /// The same weights widened back to f32, for CPUs without AVX2/F16C,
    /// so both paths compute with the same values.
    w1_rounded: Vec<f32>,
    b1: Vec<f32>,
    /// A board network's first layer in integers ([`FastNet::for_board`]):
    /// where present, no pass reads the rows above, and they are empty.
    board: Option<BoardRows>,
    /// The second hidden layer, if the network has one.
    mid: Option<SecondLayer>,
    w2: Vec<f32>,
    b2: [f32; OUTPUTS],
    /// The output layer unit-major for the vector passes: for each unit
    /// below it, its weights to the five outputs in lanes 0..5 of eight
    /// ([`FastNet::output_lanes`]).
    w2_lanes: LineAligned<[f32; 8]>,
}

/// A board network's first layer: its points a row per checker count,
/// its other inputs dense, both in 16-bit integers, added to the biases.
struct BoardRows {
    points: PointRows,
    features: FeatureRows,
}

/// The second hidden layer as the passes compute it: in 16-bit integers
/// where the weights allow it (`QuantizedMid::new`), else in f32 from
/// weights rounded to binary16 as the first layer's are.
enum SecondLayer {
    Integers(QuantizedMid),
    Floats(MidLayer),
}

impl From<&Mlp> for FastNet {
    fn from(m: &Mlp) -> FastNet {
        let w1_half: Vec<u16> = m.w1.iter().map(|&w| f16_bits(w)).collect();
        let pass = Pass::detect(m.hidden, m.last_hidden(), m.inputs);
        FastNet {
            pass,
            inputs: m.inputs,
            hidden: m.hidden,
            w1_rounded: w1_half.iter().map(|&h| f16_value(h)).collect(),
            w1_half: LineAligned::copied(&w1_half),
            b1: m.b1.clone(),
            board: None,
            mid: m
                .mid
                .as_ref()
                .map(|mid| match QuantizedMid::new(mid, m.hidden) {
                    Some(q) => SecondLayer::Integers(q),
                    None => SecondLayer::Floats(MidLayer {
                        w: mid.w.iter().map(|&w| f16_value(f16_bits(w))).collect(),
                        ..mid.clone()
                    }),
                }),
            w2: m.w2.clone(),
            b2: m.b2,
            w2_lanes: (0..m.last_hidden())
                .map(|j| {
                    let mut lanes = [0f32; 8];
                    for (o, lane) in lanes.iter_mut().take(OUTPUTS).enumerate() {
                        *lane = m.w2[o * m.last_hidden() + j];
                    }
                    lanes
                })
                .collect(),
        }
    }
}

impl FastNet {
    /// The network of a backgammon model, whose inputs are the encoding's
    /// (each side's half starting with its points' four inputs a point):
    /// its first layer in integers (`PointRows`, `FeatureRows`) where
    /// its weights allow, else as [`FastNet::from`] builds it. Its inputs
    /// must then be the encoding's, whose point inputs say a count.
    pub fn for_board(m: &Mlp) -> FastNet {
        let board = PointRows::new(m).and_then(|points| {
            Some(BoardRows {
                features: FeatureRows::new(m, points.other_inputs())?,
                points,
            })
        });
        match board {
            Some(board) => FastNet {
                board: Some(board),
                w1_half: LineAligned::copied(&[]),
                w1_rounded: Vec::new(),
                ..FastNet::from(m)
            },
            None => FastNet::from(m),
        }
    }

    /// The five output probabilities for `input` (length `inputs`).
    #[inline]
    pub fn forward(&self, input: &[f32]) -> [f32; OUTPUTS] {
        match self.pass {
            // SAFETY: `Pass::detect` found the features each pass is built for.
            #[cfg(target_arch = "x86_64")]
            Pass::Avx512 => unsafe { self.forward_avx512(input) },
            #[cfg(target_arch = "x86_64")]
            Pass::Avx2 => unsafe { self.forward_avx2(input) },
            _ => self.forward_portable(input),
        }
    }

    fn forward_portable(&self, input: &[f32]) -> [f32; OUTPUTS] {
        self.portable_pass(input, None)
    }

    /// The portable pass; a board network's point counts as given, else
    /// read from `input`'s point units.
    fn portable_pass(&self, input: &[f32], counts: Option<&Counts>) -> [f32; OUTPUTS] {
        let mut scratch = [0f32; MAX_HIDDEN];
        let hidden = &mut scratch[..self.hidden];
        match &self.board {
            Some(board) => {
                hidden.copy_from_slice(&self.b1);
                board.features.add_to(input, hidden);
                let mut sums = [0i16; MAX_HIDDEN];
                let points = &board.points;
                let counts = counts.copied().unwrap_or_else(|| points.counts(input));
                points.update(&[0; SLOTS], &counts, &mut sums);
                points.add_to(&sums, hidden);
                for a in hidden.iter_mut() {
                    *a = sigmoid(*a);
                }
            }
            None => hidden_layer(&self.w1_rounded, &self.b1, input, hidden),
        }
        match &self.mid {
            Some(SecondLayer::Integers(q)) => {
                let mut scratch = [MaybeUninit::uninit(); MAX_HIDDEN];
                output_layer::<false>(&self.w2, &self.b2, q.forward_portable(hidden, &mut scratch))
            }
            Some(SecondLayer::Floats(mid)) => {
                upper_layers::<false, 32>(Some(mid), &self.w2, &self.b2, hidden)
            }
            None => output_layer::<false>(&self.w2, &self.b2, hidden),
        }
    }

    /// The AVX-512 pass: the non-zero inputs gathered sixteen at a time
    /// by a compress, then 16-lane sums.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx2,fma,f16c")]
    unsafe fn forward_avx512(&self, input: &[f32]) -> [f32; OUTPUTS] {
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
    unsafe fn forward_avx2(&self, input: &[f32]) -> [f32; OUTPUTS] {
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
    #[target_feature(enable = "avx512f,avx2,fma,f16c")]
    unsafe fn forward_memo_avx512(
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
    unsafe fn forward_memo_avx2(&self, input: &[f32], memo: &mut FirstLayerMemo) -> [f32; OUTPUTS] {
        // SAFETY: as in the AVX-512 pass.
        self.memo_pass::<false>(
            input,
            memo,
            |nz| unsafe { nz.gather_avx2(input) },
            |nz, base, out| unsafe { self.accumulate_avx2(nz, base, out) },
        )
    }

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
    unsafe fn board_pass<const AVX512: bool>(
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

    /// One pass through `memo`: the changes since its last input added to
    /// its sums, or where that is no cheaper, every non-zero input
    /// (`gather`) added to the biases; `accumulate` sums rows from a base
    /// into an output of `self.hidden` sums. Inlined into each vector pass.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn memo_pass<const AVX512: bool>(
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
    fn finish_from_memo<const AVX512: bool>(
        &self,
        input: &[f32],
        memo: &mut FirstLayerMemo,
    ) -> [f32; OUTPUTS] {
        memo.owner = self as *const FastNet as usize;
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
    fn finish_after<const AVX512: bool>(
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
                q.forward_avx512(hidden, &mut scratch)
            },
            Some(SecondLayer::Integers(q)) => unsafe { q.forward_avx2(hidden, &mut scratch) },
            Some(SecondLayer::Floats(mid)) => {
                mid_layer::<true, 32>(&mid.w, &mid.b, hidden, &mut scratch)
            }
        };
        // SAFETY: both vector passes run on CPUs with AVX2 and FMA.
        unsafe { self.output_lanes(upper) }
    }

    /// [`output_layer`] fused, bit for bit, with the five outputs side by
    /// side in the lanes of one vector: register `k` sums every eighth
    /// unit from unit `k` on, as each output's lane `k` does there, and the
    /// eight are added in the same order. Five dot products one after
    /// another cost three times the instructions, each ending in its own
    /// horizontal sum and scalar sigmoid.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn output_lanes(&self, upper: &[f32]) -> [f32; OUTPUTS] {
        use std::arch::x86_64::*;
        assert!(upper.len() == self.w2_lanes.len());
        let mut acc = [_mm256_setzero_ps(); 8];
        for (units, rows) in upper.chunks_exact(8).zip(self.w2_lanes.chunks_exact(8)) {
            for (k, a) in acc.iter_mut().enumerate() {
                // SAFETY: each row holds the eight lanes read.
                let w = unsafe { _mm256_loadu_ps(rows[k].as_ptr()) };
                *a = _mm256_fmadd_ps(_mm256_set1_ps(units[k]), w, *a);
            }
        }
        let sum = acc[1..].iter().fold(acc[0], |s, &a| _mm256_add_ps(s, a));
        let mut lanes = [0f32; 8];
        // SAFETY: `lanes` holds the eight floats stored.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), sum) };
        let mut out = [0f32; OUTPUTS];
        for ((o, &s), &b) in out.iter_mut().zip(&lanes).zip(&self.b2) {
            *o = sigmoid_with::<true>(s + b);
        }
        out
    }
}

/// What [`NonZero::gather_avx2`] compares against.
#[cfg(target_arch = "x86_64")]
static NO_INPUTS: [f32; MAX_INPUTS] = [0.0; MAX_INPUTS];

/// The inputs and first-layer sums (before the sigmoid) of the last
/// evaluation through [`FastNet::forward_with_memo`], and which network
/// made them.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub struct FirstLayerMemo {
    /// The network's address; 0 before the first evaluation.
    owner: usize,
    input: [f32; MAX_INPUTS],
    sums: [f32; MAX_HIDDEN],
    /// A board network's sums instead: integers, exact whatever order
    /// the changes come in.
    board: BoardMemo,
}

/// What a board network's first-layer sums were last brought to: the
/// points' counts and the other inputs quantised, and the two sums, in
/// [`PointRows`]' and [`FeatureRows`]' units.
struct BoardMemo {
    counts: Counts,
    quantized: Quantized,
    point_sums: [i16; MAX_HIDDEN],
    feature_sums: [i32; MAX_HIDDEN],
}

impl BoardMemo {
    /// The sums of no inputs: every count and input zero.
    fn empty() -> BoardMemo {
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
    unsafe fn changes_avx2(&self, net: &FastNet, input: &[f32], nz: &mut NonZero) -> bool {
        if self.owner != net as *const FastNet as usize {
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

/// For each 8-bit mask, the lanes whose bit is set, in order, first: the
/// permutation that packs an AVX2 register's kept lanes to its front.
const LEFT_PACK: [[i32; 8]; 256] = {
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
struct NonZero {
    n: usize,
    /// Length of the input they came from: every index is below it.
    inputs: usize,
    index: [MaybeUninit<i32>; MAX_INPUTS + 16],
    value: [MaybeUninit<f32>; MAX_INPUTS + 16],
}

impl NonZero {
    #[inline(always)]
    fn new() -> NonZero {
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
    fn push_from(&mut self, input: &[f32], start: usize) {
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
    unsafe fn gather_avx512(&mut self, input: &[f32]) {
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
    unsafe fn gather_avx2(&mut self, input: &[f32]) {
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
    unsafe fn gather_changes_avx2<const PLAIN: bool>(
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
    unsafe fn eight_changes<const PLAIN: bool>(
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
    fn kept(&self) -> (&[i32], &[f32]) {
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

/// [`FastNet::forward_counted`]'s vector pass, compiled for one width's
/// features (the board pass is inlined into each).
macro_rules! counted_pass {
    ($name:ident, $features:literal, $avx512:literal) => {
        impl FastNet {
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = $features)]
            unsafe fn $name(
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
            unsafe fn $name(&self, nz: &NonZero, base: *const f32, out: *mut f32) {
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
    "avx512f,avx2,fma,f16c",
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

/// `x` rounded to the nearest binary16 (ties to even), as its bits.
/// Magnitudes beyond binary16's range saturate at its largest finite value:
/// a weight that large would be a broken network anyway.
pub fn f16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7bff;
    }
    let (kept, rest, shift) = if e <= 0 {
        // Subnormal in binary16 (or zero): value = m × 2^-24.
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        (m >> shift, m & ((1 << shift) - 1), shift)
    } else {
        (((e as u32) << 10) | (man >> 13), man & 0x1fff, 13)
    };
    let halfway = 1u32 << (shift - 1);
    let up = rest > halfway || (rest == halfway && kept & 1 == 1);
    // A carry out of the significand correctly bumps the exponent.
    let r = (kept + up as u32).min(0x7bff);
    sign | r as u16
}

/// The f32 value of binary16 bits (finite values).
pub fn f16_value(h: u16) -> f32 {
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    let magnitude = if exp == 0 {
        man as f32 * (1.0 / 16_777_216.0)
    } else {
        f32::from_bits(((exp + 112) << 23) | (man << 13))
    };
    if h & 0x8000 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_rounding_is_nearest_and_exact_where_it_can_be() {
        // Values binary16 holds exactly come back unchanged.
        for v in [
            0.0f32,
            1.0,
            -2.5,
            0.000_061_035_156,
            65504.0,
            5.960_464_5e-8,
        ] {
            assert_eq!(f16_value(f16_bits(v)), v, "{v}");
        }
        // Elsewhere the rounding error is at most half a unit in the last
        // place: at most 2^-11 relative for normal values.
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let v = f32::from_bits((s as u32) & 0x7fff_ffff) % 1000.0;
            if !v.is_finite() || v < 1e-4 {
                continue;
            }
            let r = f16_value(f16_bits(v));
            assert!((r - v).abs() <= v * (1.0 / 2048.0), "{v} -> {r}");
            assert_eq!(f16_value(f16_bits(-v)), -r);
        }
        assert_eq!(f16_value(f16_bits(1e9)), 65504.0);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn half_rounding_agrees_with_the_f16c_instruction() {
        if !std::is_x86_feature_detected!("f16c") {
            return;
        }
        use std::arch::x86_64::*;
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let v = f32::from_bits(s as u32);
            if !v.is_finite() || v.abs() > 65504.0 {
                continue;
            }
            // SAFETY: F16C is present (checked above).
            let hw = unsafe { _mm_extract_epi16(_mm_cvtps_ph(_mm_set1_ps(v), 0), 0) as u16 };
            assert_eq!(f16_bits(v), hw, "{v}");
        }
    }

    /// A fixed stream of random words from `seed`.
    fn xorshift(mut s: u64) -> impl FnMut() -> u64 {
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    /// A float in 0..1 from a word's top 24 bits.
    fn unit_float(s: u64) -> f32 {
        (s >> 40) as f32 / (1u64 << 24) as f32
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_output_lanes_are_the_fused_output_layer_bit_for_bit() {
        if !(std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")) {
            return;
        }
        for m in [Mlp::random(50, 64, 1), Mlp::random_deep(50, 128, 64, 2)] {
            let net = FastNet::from(&m);
            let mut word = xorshift(0x9e37_79b9_7f4a_7c15);
            for _ in 0..200 {
                let upper: Vec<f32> = (0..m.last_hidden()).map(|_| unit_float(word())).collect();
                let reference = output_layer::<true>(&m.w2, &m.b2, &upper);
                // SAFETY: the CPU has AVX2 and FMA, checked above.
                let lanes = unsafe { net.output_lanes(&upper) };
                assert_eq!(reference.map(f32::to_bits), lanes.map(f32::to_bits));
            }
        }
    }

    #[test]
    fn vector_and_portable_paths_agree() {
        let nets = [8, 72, 128, 256]
            .map(|hidden| Mlp::random(50, hidden, hidden as u64))
            .into_iter()
            .chain([
                Mlp::random_deep(50, 128, 32, 3),
                Mlp::random_deep(50, 128, 24, 7),
            ]);
        for m in nets {
            let (hidden, net) = (m.hidden, FastNet::from(&m));
            let input: Vec<f32> = (0..50)
                .map(|i| {
                    if i % 4 == 1 {
                        0.0
                    } else {
                        (i % 7) as f32 / 3.0
                    }
                })
                .collect();
            let portable = net.forward_portable(&input);
            let mut paths = vec![("dispatch", net.forward(&input))];
            // SAFETY (each call): the pass detected covers the features of
            // every pass below it.
            #[cfg(target_arch = "x86_64")]
            match net.pass {
                Pass::Avx512 => {
                    paths.push(("avx512", unsafe { net.forward_avx512(&input) }));
                    paths.push(("avx2", unsafe { net.forward_avx2(&input) }));
                }
                Pass::Avx2 => paths.push(("avx2", unsafe { net.forward_avx2(&input) })),
                Pass::Portable => {}
            }
            for (name, out) in paths {
                for o in 0..OUTPUTS {
                    assert!(
                        (portable[o] - out[o]).abs() < 1e-5,
                        "hidden {hidden}, {name}: {portable:?} vs {out:?}"
                    );
                }
            }
        }
    }

    /// `count` inputs of 230, each non-zero with chance 1/3, drawn from
    /// a fixed seed.
    fn sparse_inputs(count: usize) -> Vec<Vec<f32>> {
        let mut word = xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = move || {
            let s = word();
            if s.is_multiple_of(3) {
                unit_float(s)
            } else {
                0.0
            }
        };
        (0..count)
            .map(|_| (0..230).map(|_| next()).collect())
            .collect()
    }

    #[test]
    fn sparse_inputs_of_every_pattern_give_the_portable_answer() {
        let m = Mlp::random_deep(230, 128, 64, 9);
        let net = FastNet::from(&m);
        for input in sparse_inputs(200) {
            let (portable, fast) = (net.forward_portable(&input), net.forward(&input));
            for o in 0..OUTPUTS {
                assert!(
                    (portable[o] - fast[o]).abs() < 1e-5,
                    "{portable:?} vs {fast:?}"
                );
            }
        }
        for (mask, order) in LEFT_PACK.iter().enumerate() {
            let lanes: Vec<i32> = (0..8).filter(|l| mask >> l & 1 == 1).collect();
            assert_eq!(&order[..lanes.len()], &lanes[..], "mask {mask:08b}");
        }
    }

    #[test]
    fn a_memo_gives_the_full_pass_answer_along_a_walk() {
        let (a, b) = (
            FastNet::from(&Mlp::random_deep(230, 128, 64, 4)),
            FastNet::from(&Mlp::random_deep(230, 128, 64, 5)),
        );
        let mut memo = FirstLayerMemo::new();
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut input = vec![0f32; 230];
        for step in 0..400 {
            // Mostly a few inputs changed, now and then most of them, and
            // now and then the other network: every path of the memo.
            let changes = if step % 37 == 0 { 200 } else { 1 + step % 9 };
            for _ in 0..changes {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let i = (s % 230) as usize;
                input[i] = if s >> 60 < 6 {
                    0.0
                } else {
                    (s >> 40) as f32 / (1u64 << 24) as f32
                };
            }
            let net = if step % 50 < 45 { &a } else { &b };
            let (full, walked) = (
                net.forward(&input),
                net.forward_with_memo(&input, &mut memo),
            );
            for o in 0..OUTPUTS {
                assert!(
                    (full[o] - walked[o]).abs() < 1e-5,
                    "step {step}: {full:?} vs {walked:?}"
                );
            }
        }
    }

    #[test]
    fn a_layer_too_large_for_integers_runs_in_floats_on_every_pass() {
        let mut m = Mlp::random_deep(230, 128, 64, 12);
        m.mid.as_mut().unwrap().w[5] = 300.0;
        let net = FastNet::from(&m);
        assert!(matches!(net.mid, Some(SecondLayer::Floats(_))));
        for input in sparse_inputs(50) {
            let (portable, fast, reference) = (
                net.forward_portable(&input),
                net.forward(&input),
                m.forward(&input),
            );
            for o in 0..OUTPUTS {
                assert!(
                    (portable[o] - fast[o]).abs() < 1e-5,
                    "{portable:?} vs {fast:?}"
                );
                assert!(
                    (reference[o] - fast[o]).abs() < 1e-3,
                    "{reference:?} vs {fast:?}"
                );
            }
        }
    }

    #[test]
    fn half_weights_change_outputs_by_a_hair() {
        for m in [Mlp::random(230, 64, 5), Mlp::random_deep(230, 64, 16, 5)] {
            half_weights_change_outputs_of(&m);
        }
    }

    fn half_weights_change_outputs_of(m: &Mlp) {
        let fast = FastNet::from(m);
        let input: Vec<f32> = (0..230)
            .map(|i| {
                if i % 4 == 0 {
                    (i % 7) as f32 / 3.0
                } else {
                    0.0
                }
            })
            .collect();
        for (a, b) in fast.forward(&input).iter().zip(m.forward(&input)) {
            assert!((a - b).abs() < 1e-3, "{a} vs {b}");
        }
    }
}

/// Board networks: the first layer in integers, a row per checker count
/// for the points and dense pairs for the rest.
#[cfg(test)]
mod board_tests {
    use super::*;
    use crate::backgammon::{Dice, MoveList, Position, legal_moves};
    use crate::eval::encoding::{NetKind, encode};
    use crate::eval::shipped_model;

    /// The encoded inputs of every candidate along a seeded random game
    /// walk (each from the side to roll next), with the network kind
    /// each belongs to, one list per roll.
    fn walk(seed: u64, turns: usize) -> Vec<Vec<(NetKind, Vec<f32>)>> {
        let mut s = seed;
        let mut word = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let (mut pos, mut list, mut rolls) = (Position::starting(), MoveList::new(), Vec::new());
        for _ in 0..turns {
            let rolls_now: Vec<Dice> = Dice::all_rolls().map(|(d, _)| d).collect();
            let dice = rolls_now[(word() % rolls_now.len() as u64) as usize];
            legal_moves(&pos, dice, &mut list);
            let encoded = list
                .iter()
                .map(|c| c.position.swap())
                .filter(|p| !p.is_game_over())
                .map(|p| {
                    let kind = if p.has_contact() {
                        NetKind::Contact
                    } else {
                        NetKind::Race
                    };
                    let mut input = vec![0f32; kind.inputs()];
                    encode(&p, kind, &mut input);
                    (kind, input)
                })
                .collect();
            rolls.push(encoded);
            let next = list
                .iter()
                .nth((word() % list.len() as u64) as usize)
                .unwrap();
            pos = next.position.swap();
            if pos.is_game_over() {
                pos = Position::starting();
            }
        }
        rolls
    }

    /// How far the portable pass may differ from a vector one: the
    /// upper layers' fused and unfused float sums part by a few ulps of
    /// sums that reach about ±30 on the shipped networks.
    const PASSES_AGREE: f32 = 2e-4;

    fn close(a: [f32; OUTPUTS], b: [f32; OUTPUTS], tolerance: f32) -> bool {
        a.iter().zip(&b).all(|(x, y)| (x - y).abs() < tolerance)
    }

    #[test]
    fn a_row_per_count_gives_the_separate_rows_answer_on_every_pass() {
        let model = shipped_model().unwrap();
        let nets = [
            (
                FastNet::for_board(&model.contact),
                FastNet::from(&model.contact),
            ),
            (FastNet::for_board(&model.race), FastNet::from(&model.race)),
        ];
        assert!(nets.iter().all(|(board, _)| board.board.is_some()));
        let mut largest = 0f32;
        for (kind, input) in walk(0x2545_f491_4f6c_dd1d, 300).into_iter().flatten() {
            let (board, separate) = &nets[(kind == NetKind::Race) as usize];
            let points = &board.board.as_ref().unwrap().points;
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2.
                assert_eq!(unsafe { points.counts_avx2(&input) }, points.counts(&input));
            }
            let (fast, portable) = (board.forward(&input), board.forward_portable(&input));
            assert!(
                close(fast, portable, PASSES_AGREE),
                "{fast:?} vs {portable:?}"
            );
            let rows = separate.forward(&input);
            for (a, b) in fast.iter().zip(&rows) {
                largest = largest.max((a - b).abs());
            }
        }
        // The combined rows round once, to a multiple of 2^-s, where the
        // separate ones rounded each weight to binary16.
        assert!(largest < 2e-3, "largest change {largest}");
        assert!(
            largest > 0.0,
            "the combined rows changed nothing: not in use?"
        );
    }

    /// The shipped model's contact and race networks as board networks.
    fn shipped_board_nets() -> [FastNet; 2] {
        let model = shipped_model().unwrap();
        [
            FastNet::for_board(&model.contact),
            FastNet::for_board(&model.race),
        ]
    }

    /// The point and feature sums are exact integers whatever order the
    /// memo changed them in: the same bits as a pass without the memo.
    #[test]
    fn a_memo_walks_board_candidates_to_the_full_pass_answer() {
        let nets = shipped_board_nets();
        let mut checked = [0; 2];
        for (turn, roll) in walk(0x9e37_79b9_7f4a_7c15, 400).into_iter().enumerate() {
            // One memo a roll, as the search keeps, and now and then one
            // carried across rolls and networks: every path of the memo.
            let mut memo = FirstLayerMemo::new();
            let mut carried = FirstLayerMemo::new();
            for (kind, input) in roll {
                let net = &nets[(kind == NetKind::Race) as usize];
                let full = net.forward(&input);
                let walked = net.forward_with_memo(&input, &mut memo);
                assert_eq!(full, walked, "turn {turn}");
                if turn % 3 == 0 {
                    let walked = net.forward_with_memo(&input, &mut carried);
                    assert_eq!(full, walked, "turn {turn}");
                }
                checked[(kind == NetKind::Race) as usize] += 1;
            }
        }
        assert!(checked.iter().all(|&n| n > 100), "{checked:?}");
    }

    /// Given the counts, a board network's passes never read the point
    /// units (the counted encoding leaves them unwritten): with them NaN
    /// the answers keep the plain pass's bits, memo or not.
    #[test]
    fn counted_passes_never_read_the_point_units() {
        let nets = shipped_board_nets();
        assert!(nets.iter().all(FastNet::takes_counts));
        assert!(!FastNet::from(&shipped_model().unwrap().contact).takes_counts());
        let mut checked = 0;
        for roll in walk(0x51_7cc1_b727_220a, 300) {
            let mut memo = FirstLayerMemo::new();
            for (kind, input) in roll {
                let net = &nets[(kind == NetKind::Race) as usize];
                let counts = net.board.as_ref().unwrap().points.counts(&input);
                let mut blind = input.clone();
                let half = input.len() / 2;
                for unit in (0..96).chain(half..half + 96) {
                    blind[unit] = f32::NAN;
                }
                let full = net.forward(&input);
                assert_eq!(net.forward_counted(&blind, &counts, None), full);
                assert_eq!(net.forward_counted(&blind, &counts, Some(&mut memo)), full);
                let portable = net.portable_pass(&blind, Some(&counts));
                assert!(
                    close(portable, full, PASSES_AGREE),
                    "{portable:?} vs {full:?}"
                );
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn point_weights_too_large_for_integers_keep_the_separate_rows() {
        let model = shipped_model().unwrap();
        let mut m = model.contact.clone();
        // A weight of a point's third input: its rows for three or more
        // checkers, fifteen points of them, overflow sixteen bits at any
        // scale with eight bits of fraction.
        m.w1[2 * m.hidden + 7] = 200.0;
        let (board, separate) = (FastNet::for_board(&m), FastNet::from(&m));
        assert!(board.board.is_none());
        let inputs: Vec<Vec<f32>> = walk(7, 40)
            .into_iter()
            .flatten()
            .filter(|(kind, _)| *kind == NetKind::Contact)
            .map(|(_, input)| input)
            .collect();
        assert!(!inputs.is_empty());
        for input in &inputs {
            assert_eq!(board.forward(input), separate.forward(input));
        }
    }
}
