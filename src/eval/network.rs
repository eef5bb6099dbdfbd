//! The backgammon networks' weights: a perceptron with one or two hidden
//! layers of sigmoid units, evaluated straight from f32 slices. This full-precision
//! pass is the reference; the evaluator runs a half-precision copy
//! ([`super::fast_net::FastNet`]).
//!
//! The first layer is stored input-major (`w1[i * hidden + h]`) so that an
//! input that is zero — most of the per-point units — costs nothing, and
//! each non-zero input adds one contiguous row, which the compiler
//! vectorises. The output layer is stored output-major and summed in eight
//! lanes for the same reason. No allocation: scratch lives on the stack.

use serde::{Deserialize, Serialize};
use std::mem::MaybeUninit;

/// Outputs of every network: the five cumulative probabilities.
pub const OUTPUTS: usize = 5;
/// Largest hidden layer the stack scratch holds.
pub const MAX_HIDDEN: usize = 512;
/// Hidden sizes are multiples of this (the lane width of the output sums).
pub const HIDDEN_MULTIPLE: usize = 8;

/// Weights of one network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mlp {
    pub inputs: usize,
    pub hidden: usize,
    /// `[inputs][hidden]`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// A second hidden layer between the first and the outputs, if any.
    pub mid: Option<MidLayer>,
    /// `[OUTPUTS][last]`, `last` being the units of the last hidden layer.
    pub w2: Vec<f32>,
    pub b2: [f32; OUTPUTS],
}

/// A dense second hidden layer. A network distilled from search targets
/// fits them markedly better with it than with one wider layer: the
/// difference between a position's static and searched values is an
/// interaction of features (a blot and the shots at it, a prime and what
/// is behind it) that one layer of sums must spell out unit by unit
/// (same 2.2M positions, 8 epochs: held-out error 1.12e-4 with 256-64,
/// 1.22e-4 with 256 alone).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MidLayer {
    pub units: usize,
    /// `[hidden][units]`, input-major like the first layer.
    pub w: Vec<f32>,
    pub b: Vec<f32>,
}

/// Why weights cannot be used as a network.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum ShapeError {
    #[error("network expects {expected} inputs, the model has {found}")]
    Inputs { expected: usize, found: usize },
    #[error("hidden layer of {0} units (must be 8..=512, a multiple of 8)")]
    Hidden(usize),
    #[error("weight arrays do not match the layer sizes")]
    Arrays,
    #[error("weights contain NaN or infinity")]
    NotFinite,
}

/// Small seeded random weights of a one-hidden-layer network, `(w1, b1,
/// w2)` in the layouts of [`Mlp`] (uniform in ±1/√inputs for the first
/// layer, ±1/√hidden for the second; biases 0). Both games' networks
/// start from it, so the same seed gives the same start.
pub(super) fn random_weights(
    inputs: usize,
    hidden: usize,
    outputs: usize,
    seed: u64,
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    use rand::{RngExt, SeedableRng, rngs::SmallRng};
    let mut rng = SmallRng::seed_from_u64(seed);
    let a1 = 1.0 / (inputs as f32).sqrt();
    let a2 = 1.0 / (hidden as f32).sqrt();
    let w1 = (0..inputs * hidden)
        .map(|_| rng.random_range(-a1..a1))
        .collect();
    let w2 = (0..outputs * hidden)
        .map(|_| rng.random_range(-a2..a2))
        .collect();
    (w1, vec![0.0; hidden], w2)
}

impl Mlp {
    /// Small random weights (uniform in ±1/√inputs for the first layer,
    /// ±1/√hidden for the second) from a seeded generator.
    pub fn random(inputs: usize, hidden: usize, seed: u64) -> Mlp {
        let (w1, b1, w2) = random_weights(inputs, hidden, OUTPUTS, seed);
        Mlp {
            inputs,
            hidden,
            w1,
            b1,
            mid: None,
            w2,
            b2: [0.0; OUTPUTS],
        }
    }

    /// Small random weights for a network with a second hidden layer of
    /// `mid` units (0: none).
    pub fn random_deep(inputs: usize, hidden: usize, mid: usize, seed: u64) -> Mlp {
        if mid == 0 {
            return Mlp::random(inputs, hidden, seed);
        }
        let first = Mlp::random(inputs, hidden, seed);
        let upper = Mlp::random(hidden, mid, seed ^ 0x5bd1_e995);
        Mlp {
            mid: Some(MidLayer {
                units: mid,
                w: upper.w1,
                b: upper.b1,
            }),
            w2: upper.w2,
            b2: upper.b2,
            ..first
        }
    }

    /// The same function with `hidden` first-layer units (at least as many
    /// as it has): the new units get small random input weights and zero
    /// weights into the layer above, so every output is unchanged and
    /// training can give them a use. A wider network is then grown from
    /// a trained one instead of learning everything again.
    pub fn widened(&self, hidden: usize, seed: u64) -> Mlp {
        use rand::{RngExt, SeedableRng, rngs::SmallRng};
        assert!(hidden >= self.hidden, "a network is only widened");
        let mut rng = SmallRng::seed_from_u64(seed);
        let a1 = 1.0 / (self.inputs as f32).sqrt();
        let mut w1 = Vec::with_capacity(self.inputs * hidden);
        for row in self.w1.chunks_exact(self.hidden) {
            w1.extend_from_slice(row);
            w1.extend((self.hidden..hidden).map(|_| rng.random_range(-a1..a1)));
        }
        let mut b1 = self.b1.clone();
        b1.resize(hidden, 0.0);
        // The layer above reads unit h in row h (input-major): zero rows.
        let (mid, w2) = match &self.mid {
            Some(m) => {
                let mut w = m.w.clone();
                w.resize(hidden * m.units, 0.0);
                let mid = MidLayer {
                    units: m.units,
                    w,
                    b: m.b.clone(),
                };
                (Some(mid), self.w2.clone())
            }
            // The outputs read the units output-major (`w2[o * hidden + h]`).
            None => {
                let mut w2 = Vec::with_capacity(hidden * OUTPUTS);
                for row in self.w2.chunks_exact(self.hidden) {
                    w2.extend_from_slice(row);
                    w2.resize(w2.len() + hidden - self.hidden, 0.0);
                }
                (None, w2)
            }
        };
        Mlp {
            inputs: self.inputs,
            hidden,
            w1,
            b1,
            mid,
            w2,
            b2: self.b2,
        }
    }

    /// Layer sizes, inputs to outputs: "230-256-64-5".
    pub fn shape(&self) -> String {
        let mid = self
            .mid
            .as_ref()
            .map_or(String::new(), |m| format!("-{}", m.units));
        format!("{}-{}{mid}-{OUTPUTS}", self.inputs, self.hidden)
    }

    /// Units of the layer the outputs read.
    pub fn last_hidden(&self) -> usize {
        self.mid.as_ref().map_or(self.hidden, |m| m.units)
    }

    /// Checks sizes and values before the network is trusted.
    pub fn validate(&self, inputs: usize) -> Result<(), ShapeError> {
        if self.inputs != inputs {
            return Err(ShapeError::Inputs {
                expected: inputs,
                found: self.inputs,
            });
        }
        let size_ok = |n: usize| n > 0 && n <= MAX_HIDDEN && n.is_multiple_of(HIDDEN_MULTIPLE);
        if !size_ok(self.hidden) {
            return Err(ShapeError::Hidden(self.hidden));
        }
        if let Some(mid) = &self.mid {
            if !size_ok(mid.units) {
                return Err(ShapeError::Hidden(mid.units));
            }
            if mid.w.len() != self.hidden * mid.units || mid.b.len() != mid.units {
                return Err(ShapeError::Arrays);
            }
            if !all_finite(&[&mid.w, &mid.b]) {
                return Err(ShapeError::NotFinite);
            }
        }
        if self.w1.len() != self.inputs * self.hidden
            || self.b1.len() != self.hidden
            || self.w2.len() != OUTPUTS * self.last_hidden()
        {
            return Err(ShapeError::Arrays);
        }
        if !all_finite(&[&self.w1, &self.b1, &self.w2, &self.b2]) {
            return Err(ShapeError::NotFinite);
        }
        Ok(())
    }

    /// The five output probabilities for `input` (length `self.inputs`),
    /// in full precision: the reference the evaluator's
    /// [`super::fast_net::FastNet`] is checked against.
    pub fn forward(&self, input: &[f32]) -> [f32; OUTPUTS] {
        let mut scratch = [0f32; MAX_HIDDEN];
        let hidden = &mut scratch[..self.hidden];
        hidden_layer(&self.w1, &self.b1, input, hidden);
        upper_layers::<false, 32>(self.mid.as_ref(), &self.w2, &self.b2, hidden)
    }
}

/// The second hidden layer, if any, and the outputs, from the first
/// layer's sigmoid units: shared by the reference pass and every pass of
/// the fast copy, inlined into each so it is vectorised at its width.
/// `FUSED`: see [`madd`]; `BLOCK`: see [`mid_layer`].
#[inline(always)]
pub fn upper_layers<const FUSED: bool, const BLOCK: usize>(
    mid: Option<&MidLayer>,
    w2: &[f32],
    b2: &[f32; OUTPUTS],
    hidden: &[f32],
) -> [f32; OUTPUTS] {
    match mid {
        None => output_layer::<FUSED>(w2, b2, hidden),
        Some(mid) => {
            let mut scratch = [MaybeUninit::uninit(); MAX_HIDDEN];
            let upper = mid_layer::<FUSED, BLOCK>(&mid.w, &mid.b, hidden, &mut scratch);
            output_layer::<FUSED>(w2, b2, upper)
        }
    }
}

/// Sigmoid units of a dense input-major layer (`w[i * units + u]`) over
/// `lower`, written into the first `units` slots of `scratch` and returned
/// as a slice: every slot is written once, so the scratch is never
/// cleared (clearing it was a memset call on every evaluation). Summed a
/// block of units at a time in four partial sums, each over every fourth
/// lower unit: a block's sums stay in registers and four independent
/// chains hide the latency of each multiply-add. A plain row-by-row pass
/// through memory waited on its own stores: 256 × 64 units cost 1.1 µs
/// that way, 0.75 µs so (16k multiply-adds, about what the first layer's
/// seventy rows of 256 cost). `BLOCK` units make four sums of
/// `BLOCK / lanes` registers each (at 32 units, two of AVX2's sums
/// spilled to the stack on every step). This pass serves the reference
/// network, and the evaluator where its 16-bit integer layer
/// (`quantized_mid`) cannot hold the weights.
#[inline(always)]
pub fn mid_layer<'s, const FUSED: bool, const BLOCK: usize>(
    w: &[f32],
    b: &[f32],
    lower: &[f32],
    scratch: &'s mut [MaybeUninit<f32>; MAX_HIDDEN],
) -> &'s mut [f32] {
    let units = b.len();
    assert!(w.len() == lower.len() * units && units <= MAX_HIDDEN && lower.len().is_multiple_of(4));
    let upper = &mut scratch[..units];
    let mut start = 0;
    while start < units {
        if units - start >= BLOCK {
            mid_block::<BLOCK, FUSED>(w, b, start, lower, &mut upper[start..start + BLOCK]);
            start += BLOCK;
        } else {
            // Units are a multiple of eight (`Mlp::validate`).
            mid_block::<8, FUSED>(w, b, start, lower, &mut upper[start..start + 8]);
            start += 8;
        }
    }
    // SAFETY: the blocks wrote every slot of `upper`: they tile 0..units,
    // a multiple of eight.
    unsafe { std::slice::from_raw_parts_mut(upper.as_mut_ptr() as *mut f32, units) }
}

/// Units `start..start + B` of [`mid_layer`] (`b` holds every unit's
/// bias), each written to `out` once.
#[inline(always)]
fn mid_block<const B: usize, const FUSED: bool>(
    w: &[f32],
    b: &[f32],
    start: usize,
    lower: &[f32],
    out: &mut [MaybeUninit<f32>],
) {
    let units = b.len();
    let (mut a0, mut a1, mut a2, mut a3) = ([0f32; B], [0f32; B], [0f32; B], [0f32; B]);
    // Checked once here rather than per row: four range checks an
    // iteration were as many instructions as its multiply-adds.
    assert!(start + B <= units && w.len() == lower.len() * units);
    let base = w[start..].as_ptr();
    let row = |i: usize| -> &[f32; B] {
        // SAFETY: i < lower.len(), so i * units + start + B <= w.len().
        unsafe { &*(base.add(i * units) as *const [f32; B]) }
    };
    for (g, xs) in lower.chunks_exact(4).enumerate() {
        let (r0, r1, r2, r3) = (row(4 * g), row(4 * g + 1), row(4 * g + 2), row(4 * g + 3));
        for k in 0..B {
            a0[k] = madd::<FUSED>(xs[0], r0[k], a0[k]);
            a1[k] = madd::<FUSED>(xs[1], r1[k], a1[k]);
            a2[k] = madd::<FUSED>(xs[2], r2[k], a2[k]);
            a3[k] = madd::<FUSED>(xs[3], r3[k], a3[k]);
        }
    }
    let bias = &b[start..start + B];
    for (k, o) in out.iter_mut().enumerate() {
        let sum = (a0[k] + a1[k]) + (a2[k] + a3[k]);
        o.write(sigmoid_with::<FUSED>(sum + bias[k]));
    }
}

/// The sigmoid outputs of an output-major layer (`w2[o * hidden + h]`),
/// each summed in eight lanes so the compiler vectorises it.
#[inline(always)]
pub fn output_layer<const FUSED: bool>(
    w2: &[f32],
    b2: &[f32; OUTPUTS],
    hidden: &[f32],
) -> [f32; OUTPUTS] {
    let h = hidden.len();
    let mut out = [0f32; OUTPUTS];
    for (o, slot) in out.iter_mut().enumerate() {
        let w = &w2[o * h..(o + 1) * h];
        let mut lanes = [0f32; HIDDEN_MULTIPLE];
        for (hc, wc) in hidden
            .chunks_exact(HIDDEN_MULTIPLE)
            .zip(w.chunks_exact(HIDDEN_MULTIPLE))
        {
            for k in 0..HIDDEN_MULTIPLE {
                lanes[k] = madd::<FUSED>(hc[k], wc[k], lanes[k]);
            }
        }
        *slot = sigmoid_with::<FUSED>(lanes.iter().sum::<f32>() + b2[o]);
    }
    out
}

/// No NaN or infinity in any of the weight arrays.
pub fn all_finite(arrays: &[&[f32]]) -> bool {
    arrays.iter().all(|a| a.iter().all(|v| v.is_finite()))
}

/// Sigmoid hidden units of an input-major first layer (`w1[i * hidden + h]`),
/// skipping zero inputs; `hidden` holds `b1.len()` values.
#[inline]
pub fn hidden_layer(w1: &[f32], b1: &[f32], input: &[f32], hidden: &mut [f32]) {
    let h = b1.len();
    hidden.copy_from_slice(b1);
    for (i, &x) in input.iter().enumerate() {
        if x != 0.0 {
            let row = &w1[i * h..(i + 1) * h];
            for (a, &w) in hidden.iter_mut().zip(row) {
                *a += x * w;
            }
        }
    }
    for a in hidden.iter_mut() {
        *a = sigmoid(*a);
    }
}

/// Logistic function through a polynomial 2^x: relative error about 1e-7,
/// branch-free, and vectorisable, unlike the library `exp`.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    sigmoid_with::<false>(x)
}

/// [`sigmoid`] with its polynomial's steps fused or not ([`madd`]).
#[inline(always)]
pub fn sigmoid_with<const FUSED: bool>(x: f32) -> f32 {
    1.0 / (1.0 + exp_approx::<FUSED>(-x))
}

/// `a * b + c`, as one fused multiply-add where `FUSED`. Rust never fuses
/// them on its own, and `f32::mul_add` is a slow library call without the
/// FMA instruction, so only passes compiled for FMA ask for it: there it
/// halves the instructions of the second layer, output layer and sigmoids.
#[inline(always)]
pub fn madd<const FUSED: bool>(a: f32, b: f32, c: f32) -> f32 {
    if FUSED { a.mul_add(b, c) } else { a * b + c }
}

#[inline(always)]
fn exp_approx<const FUSED: bool>(x: f32) -> f32 {
    const LOG2_E: f32 = std::f32::consts::LOG2_E;
    const ROUND: f32 = 12_582_912.0; // 1.5 * 2^23: adding it rounds to an integer
    let t = x.clamp(-80.0, 80.0) * LOG2_E;
    let shifted = t + ROUND;
    let n = shifted - ROUND;
    let f = (t - n) * std::f32::consts::LN_2; // in [-ln2/2, ln2/2]
    // e^f by its Taylor series to the 6th power.
    let mut p = 1.0 / 720.0;
    for c in [1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0] {
        p = madd::<FUSED>(p, f, c);
    }
    // The integer n sits in the low bits of `shifted`'s significand; read
    // it from there rather than by `n as i32`, whose saturating conversion
    // does not vectorise.
    let n_int = shifted.to_bits() as i32 - ROUND.to_bits() as i32;
    let scale = f32::from_bits(((n_int + 127) as u32) << 23);
    p * scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_sigmoid_matches_the_exact_one() {
        let mut worst = 0f32;
        for i in -4000..=4000 {
            let x = i as f32 / 100.0;
            let exact = 1.0 / (1.0 + (-x as f64).exp());
            worst = worst.max((sigmoid(x) as f64 - exact).abs() as f32);
        }
        assert!(worst < 1e-6, "worst error {worst}");
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // index arithmetic mirrors the layout
    fn forward_matches_a_naive_dense_pass() {
        let net = Mlp::random(20, 16, 7);
        let input: Vec<f32> = (0..20)
            .map(|i| if i % 3 == 0 { 0.0 } else { i as f32 / 10.0 })
            .collect();
        let fast = net.forward(&input);
        for o in 0..OUTPUTS {
            let mut z = net.b2[o] as f64;
            for h in 0..16 {
                let mut a = net.b1[h] as f64;
                for i in 0..20 {
                    a += input[i] as f64 * net.w1[i * 16 + h] as f64;
                }
                z += net.w2[o * 16 + h] as f64 / (1.0 + (-a).exp());
            }
            let exact = 1.0 / (1.0 + (-z).exp());
            assert!((fast[o] as f64 - exact).abs() < 1e-5);
        }
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // index arithmetic mirrors the layout
    fn a_second_hidden_layer_matches_a_naive_dense_pass() {
        let net = Mlp::random_deep(12, 16, 8, 9);
        assert_eq!(net.validate(12), Ok(()));
        let input: Vec<f32> = (0..12).map(|i| (i % 4) as f32 / 3.0).collect();
        let mid = net.mid.as_ref().unwrap();
        let first: Vec<f64> = (0..16)
            .map(|h| {
                let a: f64 = net.b1[h] as f64
                    + (0..12)
                        .map(|i| input[i] as f64 * net.w1[i * 16 + h] as f64)
                        .sum::<f64>();
                1.0 / (1.0 + (-a).exp())
            })
            .collect();
        let second: Vec<f64> = (0..8)
            .map(|u| {
                let a: f64 = mid.b[u] as f64
                    + (0..16)
                        .map(|h| first[h] * mid.w[h * 8 + u] as f64)
                        .sum::<f64>();
                1.0 / (1.0 + (-a).exp())
            })
            .collect();
        let got = net.forward(&input);
        for o in 0..OUTPUTS {
            let z: f64 = net.b2[o] as f64
                + (0..8)
                    .map(|u| second[u] * net.w2[o * 8 + u] as f64)
                    .sum::<f64>();
            let exact = 1.0 / (1.0 + (-z).exp());
            assert!(
                (got[o] as f64 - exact).abs() < 1e-5,
                "{o}: {} vs {exact}",
                got[o]
            );
        }
        let mut broken = net.clone();
        broken.mid.as_mut().unwrap().w.pop();
        assert_eq!(broken.validate(12), Err(ShapeError::Arrays));
    }

    #[test]
    fn validate_rejects_wrong_shapes() {
        let mut net = Mlp::random(20, 16, 7);
        assert_eq!(
            net.validate(21),
            Err(ShapeError::Inputs {
                expected: 21,
                found: 20
            })
        );
        net.w2.pop();
        assert_eq!(net.validate(20), Err(ShapeError::Arrays));
        let mut net = Mlp::random(20, 16, 7);
        net.b1[3] = f32::NAN;
        assert_eq!(net.validate(20), Err(ShapeError::NotFinite));
    }
}
