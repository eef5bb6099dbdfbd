//! The evaluator's copy of a network, laid out for speed: the first
//! layer's weights in half precision, the second layer's in 16-bit
//! integers.
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
mod board;
#[cfg(test)]
mod board_tests;
mod dot;
mod f16;
mod feature_rows;
mod line_aligned;
mod memo;
mod point_rows;
mod quantized_mid;
mod sparse;
#[cfg(test)]
mod tests;

use super::network::{
    MAX_HIDDEN, MidLayer, Mlp, OUTPUTS, hidden_layer, mid_layer, output_layer, sigmoid,
    sigmoid_with, upper_layers,
};
pub use f16::{f16_bits, f16_value};
use feature_rows::{FeatureRows, MAX_OTHERS, Quantized};
use line_aligned::LineAligned;
pub use memo::FirstLayerMemo;
use point_rows::{Counts, PointRows, SLOTS};
pub use quantized_mid::MAX_BATCH;
use quantized_mid::QuantizedMid;
use sparse::NonZero;

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
    /// Which network this is, for a [`FirstLayerMemo`] to know whose sums
    /// it holds: unique for the process's life, where an address could be
    /// a dropped network's.
    id: usize,
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
        static NEXT_ID: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(1);
        FastNet {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
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
        // All eight lanes through the sigmoid, the three past the outputs
        // idle: a fixed eight is one vector's work, five are five scalar
        // chains.
        let mut bias = [0f32; 8];
        bias[..OUTPUTS].copy_from_slice(&self.b2);
        for (s, b) in lanes.iter_mut().zip(bias) {
            *s = sigmoid_with::<true>(*s + b);
        }
        let mut out = [0f32; OUTPUTS];
        out.copy_from_slice(&lanes[..OUTPUTS]);
        out
    }
}
