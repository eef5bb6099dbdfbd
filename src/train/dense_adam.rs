//! Adam on an [`Mlp`] with hand-written gradients, data-parallel on rayon.
//!
//! burn's step runs a minibatch as one graph on one core, so while the
//! self-play that feeds it scales with the cores, the learning does not,
//! and it bounds what a bigger machine buys. Here a minibatch is cut into
//! slices of [`SLICE`] samples; each slice's gradient is summed on
//! whichever thread takes it, and the slices' gradients are then added in
//! slice order while Adam updates the parameters, the parameter vector
//! split across the threads. The slices and the order of every sum are
//! fixed by the batch alone, so a run gives the same weights on any
//! number of threads. The sums skip the encoding's zero inputs, which a
//! dense graph cannot.
//!
//! The loss, the gradient and the update are burn's: the mean over
//! samples and outputs of the squared error of sigmoid outputs, and Adam
//! with burn's defaults (a test checks three steps against burn's); only
//! the sigmoid is the evaluator's polynomial, the one play uses.

use crate::eval::encoding::encode;
use crate::eval::network::{MidLayer, Mlp, OUTPUTS};
use crate::eval::{NetKind, Probs};
use crate::train::selfplay::Sample;
use rayon::prelude::*;

/// Samples whose gradient one task sums: small enough that a minibatch of
/// 128 keeps eight threads busy, large enough that a task outweighs its
/// gradient buffer's share of the reduction.
pub const SLICE: usize = 16;
/// Parameters one task of the update covers.
const UPDATE_BLOCK: usize = 4096;

const BETA_1: f32 = 0.9;
const BETA_2: f32 = 0.999;
const EPSILON: f32 = 1e-5;

/// Where each layer's parameters sit in the flat parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    inputs: usize,
    hidden: usize,
    /// Units of the second hidden layer (0: none).
    mid: usize,
    b1: usize,
    mid_w: usize,
    mid_b: usize,
    w2: usize,
    b2: usize,
    len: usize,
}

impl Layout {
    fn of(inputs: usize, hidden: usize, mid: usize) -> Layout {
        let b1 = inputs * hidden;
        let mid_w = b1 + hidden;
        let mid_b = mid_w + hidden * mid;
        let w2 = mid_b + mid;
        let last = if mid > 0 { mid } else { hidden };
        let b2 = w2 + OUTPUTS * last;
        Layout {
            inputs,
            hidden,
            mid,
            b1,
            mid_w,
            mid_b,
            w2,
            b2,
            len: b2 + OUTPUTS,
        }
    }

    fn last(&self) -> usize {
        if self.mid > 0 { self.mid } else { self.hidden }
    }
}

/// The moments and step count of Adam, for checkpoints.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Moments {
    pub steps: u64,
    pub first: Vec<f32>,
    pub second: Vec<f32>,
}

/// One network being trained: its parameters, flat, and Adam's moments.
pub struct DenseAdam {
    layout: Layout,
    params: Vec<f32>,
    moments: Moments,
    /// One gradient buffer per slice of the largest minibatch so far,
    /// kept between steps.
    slices: Vec<SliceGradient>,
}

impl DenseAdam {
    pub fn new(net: &Mlp) -> DenseAdam {
        let layout = Layout::of(
            net.inputs,
            net.hidden,
            net.mid.as_ref().map_or(0, |m| m.units),
        );
        let mut params = Vec::with_capacity(layout.len);
        params.extend_from_slice(&net.w1);
        params.extend_from_slice(&net.b1);
        if let Some(mid) = &net.mid {
            params.extend_from_slice(&mid.w);
            params.extend_from_slice(&mid.b);
        }
        params.extend_from_slice(&net.w2);
        params.extend_from_slice(&net.b2);
        debug_assert_eq!(params.len(), layout.len);
        DenseAdam {
            layout,
            moments: Moments {
                steps: 0,
                first: vec![0.0; layout.len],
                second: vec![0.0; layout.len],
            },
            params,
            slices: Vec::new(),
        }
    }

    /// `net` with a checkpoint's moments.
    pub fn restored(net: &Mlp, moments: Moments) -> Result<DenseAdam, String> {
        let mut learner = DenseAdam::new(net);
        if moments.first.len() != learner.layout.len || moments.second.len() != learner.layout.len {
            return Err(format!(
                "optimizer state has {} moments, the network {} parameters",
                moments.first.len(),
                learner.layout.len
            ));
        }
        learner.moments = moments;
        Ok(learner)
    }

    pub fn moments(&self) -> &Moments {
        &self.moments
    }

    pub fn weights(&self) -> Mlp {
        let l = &self.layout;
        let p = &self.params;
        let mut b2 = [0f32; OUTPUTS];
        b2.copy_from_slice(&p[l.b2..l.len]);
        Mlp {
            inputs: l.inputs,
            hidden: l.hidden,
            w1: p[..l.b1].to_vec(),
            b1: p[l.b1..l.mid_w].to_vec(),
            mid: (l.mid > 0).then(|| MidLayer {
                units: l.mid,
                w: p[l.mid_w..l.mid_b].to_vec(),
                b: p[l.mid_b..l.w2].to_vec(),
            }),
            w2: p[l.w2..l.b2].to_vec(),
            b2,
        }
    }

    /// One Adam step on the mean squared error of `batch` (encoded for
    /// `kind`, `dropped` inputs held at zero); returns the loss before it.
    pub fn step(&mut self, batch: &[&Sample], kind: NetKind, dropped: &[usize], lr: f64) -> f32 {
        let slices = batch.len().div_ceil(SLICE);
        let len = self.layout.len;
        if self.slices.len() < slices {
            let inputs = self.layout.inputs;
            self.slices.resize_with(slices, || SliceGradient {
                grad: vec![0.0; len],
                touched: vec![false; inputs],
            });
        }
        let scale = 2.0 / (batch.len() * OUTPUTS) as f32;
        let layout = self.layout;
        let params = &self.params;
        let losses: Vec<f64> = self.slices[..slices]
            .par_iter_mut()
            .zip(batch.par_chunks(SLICE))
            .map(|(slice, samples)| {
                let task = SliceTask {
                    layout: &layout,
                    params,
                    kind,
                    dropped,
                    scale,
                };
                wide!(task.run(samples, slice))
            })
            .collect();
        self.moments.steps += 1;
        let t = self.moments.steps.min(i32::MAX as u64) as i32;
        let correction2 = (1.0 - BETA_2.powi(t)).sqrt();
        let factor = correction2 / (1.0 - BETA_1.powi(t));
        let eps = EPSILON * correction2;
        let lr = lr as f32;
        let grads = &self.slices[..slices];
        self.params
            .par_chunks_mut(UPDATE_BLOCK)
            .zip(self.moments.first.par_chunks_mut(UPDATE_BLOCK))
            .zip(self.moments.second.par_chunks_mut(UPDATE_BLOCK))
            .enumerate()
            .for_each(|(block, ((p, m), v))| {
                let update = BlockUpdate {
                    layout: &layout,
                    grads,
                    start: block * UPDATE_BLOCK,
                    lr,
                    factor,
                    eps,
                };
                wide!(update.run(p, m, v))
            });
        (losses.iter().sum::<f64>() / (batch.len() * OUTPUTS) as f64) as f32
    }
}

/// Runs `$task.run(..)` compiled for AVX2 where the CPU has it: the same
/// operations in registers twice as wide, so the same bits as the portable
/// build (no fused multiply-adds, which would round otherwise).
macro_rules! wide {
    ($task:ident . run ( $($arg:expr),* )) => {{
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2, checked just now.
                unsafe { $task.run_avx2($($arg),*) }
            } else {
                $task.run($($arg),*)
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            $task.run($($arg),*)
        }
    }};
}
use wide;

/// What one slice's task needs besides its samples and buffer.
struct SliceTask<'a> {
    layout: &'a Layout,
    params: &'a [f32],
    kind: NetKind,
    dropped: &'a [usize],
    scale: f32,
}

impl SliceTask<'_> {
    /// Sums the gradient of `samples` into `slice` (cleared first);
    /// returns their summed squared error.
    #[inline(always)]
    fn run(&self, samples: &[&Sample], slice: &mut SliceGradient) -> f64 {
        slice.clear(self.layout);
        let mut work = Work::new(self.layout);
        // A plain loop: an iterator's fold is a function of its own, which
        // the AVX2 twin would call instead of compiling into itself.
        let mut error = 0f64;
        for s in samples {
            error += work.add_gradient(
                self.layout,
                self.params,
                s,
                self.kind,
                self.dropped,
                self.scale,
                slice,
            );
        }
        error
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn run_avx2(&self, samples: &[&Sample], slice: &mut SliceGradient) -> f64 {
        self.run(samples, slice)
    }
}

/// Adam on one block of parameters from the slices' gradients.
struct BlockUpdate<'a> {
    layout: &'a Layout,
    grads: &'a [SliceGradient],
    /// The block's first parameter.
    start: usize,
    lr: f32,
    factor: f32,
    eps: f32,
}

impl BlockUpdate<'_> {
    #[inline(always)]
    fn run(&self, p: &mut [f32], m: &mut [f32], v: &mut [f32]) {
        let (layout, start) = (self.layout, self.start);
        let (lr, factor, eps) = (self.lr, self.factor, self.eps);
        let mut sum = [0f32; UPDATE_BLOCK];
        let g = &mut sum[..p.len()];
        // Row by row of the first layer, each slice that touched the
        // row, in slice order; then every slice for the rest.
        let mut at = start;
        while at < start + p.len() {
            let (row, end) = if at < layout.b1 {
                let row = at / layout.hidden;
                (Some(row), ((row + 1) * layout.hidden).min(start + p.len()))
            } else {
                (None, start + p.len())
            };
            let part = &mut g[at - start..end - start];
            for slice in self.grads {
                if row.is_some_and(|r| !slice.touched[r]) {
                    continue;
                }
                for (a, b) in part.iter_mut().zip(&slice.grad[at..end]) {
                    *a += b;
                }
            }
            at = end;
        }
        for (((p, m), v), &g) in p.iter_mut().zip(m).zip(v).zip(g.iter()) {
            *m = BETA_1 * *m + (1.0 - BETA_1) * g;
            *v = BETA_2 * *v + (1.0 - BETA_2) * g * g;
            *p -= lr * (*m * factor / (v.sqrt() + eps));
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn run_avx2(&self, p: &mut [f32], m: &mut [f32], v: &mut [f32]) {
        self.run(p, m, v)
    }
}

/// A slice's summed gradient, and which first-layer rows (inputs) it
/// touched: a slice of sixteen positions reaches only some of the
/// encoding's inputs, and zeroing and summing just those rows saves most
/// of the traffic through the gradient buffers.
struct SliceGradient {
    grad: Vec<f32>,
    touched: Vec<bool>,
}

impl SliceGradient {
    /// Zeroes what the last step wrote.
    #[inline(always)]
    fn clear(&mut self, l: &Layout) {
        let h = l.hidden;
        for (i, touched) in self.touched.iter_mut().enumerate() {
            if *touched {
                self.grad[i * h..(i + 1) * h].fill(0.0);
                *touched = false;
            }
        }
        self.grad[l.b1..].fill(0.0);
    }
}

/// One task's activations and deltas, reused sample after sample.
struct Work {
    x: Vec<f32>,
    nonzero: Vec<usize>,
    h1: Vec<f32>,
    h2: Vec<f32>,
    d1: Vec<f32>,
    d2: Vec<f32>,
}

/// `Σ a[i] b[i]` in eight interleaved partial sums, which the compiler
/// keeps in one vector register (a single running sum cannot be
/// vectorised: its order of additions is fixed).
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    const LANES: usize = 8;
    let mut sums = [0f32; LANES];
    let (a_lanes, b_lanes) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: f32 = a_lanes
        .remainder()
        .iter()
        .zip(b_lanes.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a_lanes.zip(b_lanes) {
        for l in 0..LANES {
            sums[l] += x[l] * y[l];
        }
    }
    sums.iter().sum::<f32>() + tail
}

/// The evaluator's sigmoid: a polynomial that vectorises over a layer
/// (libm's `exp` does not), within 1e-7 of the exact one.
use crate::eval::network::sigmoid;

impl Work {
    fn new(l: &Layout) -> Work {
        Work {
            x: vec![0.0; l.inputs],
            nonzero: Vec::with_capacity(l.inputs),
            h1: vec![0.0; l.hidden],
            h2: vec![0.0; l.mid],
            d1: vec![0.0; l.hidden],
            d2: vec![0.0; l.mid],
        }
    }

    /// Adds sample `s`'s gradient (the loss's, times `scale`) to `grad`;
    /// returns its summed squared error.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn add_gradient(
        &mut self,
        l: &Layout,
        p: &[f32],
        s: &Sample,
        kind: NetKind,
        dropped: &[usize],
        scale: f32,
        slice: &mut SliceGradient,
    ) -> f64 {
        let h = l.hidden;
        let grad = &mut slice.grad;
        encode(&s.position, kind, &mut self.x);
        for &i in dropped {
            self.x[i] = 0.0;
        }
        self.nonzero.clear();
        self.nonzero
            .extend((0..l.inputs).filter(|&i| self.x[i] != 0.0));
        // Forward.
        self.h1.copy_from_slice(&p[l.b1..l.b1 + h]);
        for &i in &self.nonzero {
            let xi = self.x[i];
            for (a, w) in self.h1.iter_mut().zip(&p[i * h..(i + 1) * h]) {
                *a += xi * w;
            }
        }
        for a in &mut self.h1 {
            *a = sigmoid(*a);
        }
        if l.mid > 0 {
            self.h2.copy_from_slice(&p[l.mid_b..l.w2]);
            for (j, &a) in self.h1.iter().enumerate() {
                let row = &p[l.mid_w + j * l.mid..l.mid_w + (j + 1) * l.mid];
                for (b, w) in self.h2.iter_mut().zip(row) {
                    *b += a * w;
                }
            }
            for b in &mut self.h2 {
                *b = sigmoid(*b);
            }
        }
        let last_len = l.last();
        let last: &[f32] = if l.mid > 0 { &self.h2 } else { &self.h1 };
        let mut delta_out = [0f32; OUTPUTS];
        let mut error = 0f64;
        let Probs(target) = s.target;
        for o in 0..OUTPUTS {
            let row = &p[l.w2 + o * last_len..l.w2 + (o + 1) * last_len];
            let z = p[l.b2 + o] + dot(row, last);
            let y = sigmoid(z);
            let diff = y - target[o];
            error += (diff * diff) as f64;
            delta_out[o] = scale * diff * y * (1.0 - y);
        }
        // Backward: the output layer, and the delta at the last hidden layer.
        let d_last: &mut [f32] = if l.mid > 0 {
            &mut self.d2
        } else {
            &mut self.d1
        };
        d_last.fill(0.0);
        for (o, &d) in delta_out.iter().enumerate() {
            grad[l.b2 + o] += d;
            let at = l.w2 + o * last_len;
            for ((g, w), (a, dl)) in grad[at..at + last_len]
                .iter_mut()
                .zip(&p[at..at + last_len])
                .zip(last.iter().zip(d_last.iter_mut()))
            {
                *g += d * a;
                *dl += d * w;
            }
        }
        for (dl, a) in d_last.iter_mut().zip(last) {
            *dl *= a * (1.0 - a);
        }
        if l.mid > 0 {
            for (g, d) in grad[l.mid_b..l.w2].iter_mut().zip(&self.d2) {
                *g += d;
            }
            for j in 0..h {
                let at = l.mid_w + j * l.mid;
                let a = self.h1[j];
                for (g, d) in grad[at..at + l.mid].iter_mut().zip(&self.d2) {
                    *g += a * d;
                }
                self.d1[j] = dot(&p[at..at + l.mid], &self.d2) * a * (1.0 - a);
            }
        }
        for (g, d) in grad[l.b1..l.b1 + h].iter_mut().zip(&self.d1) {
            *g += d;
        }
        for &i in &self.nonzero {
            let xi = self.x[i];
            slice.touched[i] = true;
            for (g, d) in grad[i * h..(i + 1) * h].iter_mut().zip(&self.d1) {
                *g += xi * d;
            }
        }
        error
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::learner::{TrainableMlp, encoded_batch};
    use burn::optim::AdamConfig;
    use burn::tensor::Device;

    /// `n` contact positions of self-play games with their TD targets.
    fn samples(n: usize) -> Vec<Sample> {
        use crate::train::selfplay::{MovePolicy, TargetSearch, play_games};
        let eval = crate::eval::Evaluator::new(crate::eval::Model::random(16, 8, 3));
        let all = play_games(
            &eval,
            8,
            9,
            0.7,
            MovePolicy::greedy(),
            TargetSearch::plain(0),
        );
        let contact: Vec<Sample> = all
            .into_iter()
            .filter(|s| s.kind == NetKind::Contact)
            .take(n)
            .collect();
        assert_eq!(contact.len(), n);
        contact
    }

    fn burn_steps(net: &Mlp, batch: &[&Sample], lr: f64, steps: usize) -> (Mlp, Vec<f32>) {
        let device = Device::flex().autodiff();
        let mut twin = TrainableMlp::from_mlp(net, &device);
        let mut optim = AdamConfig::new().init();
        let mut losses = Vec::new();
        for _ in 0..steps {
            let (x, t) = encoded_batch(batch, NetKind::Contact, &[]);
            let (next, loss) = twin.adam_step(&mut optim, x, t, lr, &device);
            twin = next;
            losses.push(loss);
        }
        (twin.to_mlp(), losses)
    }

    fn max_difference(a: &Mlp, b: &Mlp) -> f32 {
        let flat = |m: &Mlp| DenseAdam::new(m).params;
        flat(a)
            .iter()
            .zip(flat(b))
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f32::max)
    }

    #[test]
    fn steps_equal_burns_with_one_and_two_hidden_layers() {
        let inputs = NetKind::Contact.inputs();
        let data = samples(40);
        let batch: Vec<&Sample> = data.iter().collect();
        for net in [
            Mlp::random(inputs, 16, 21),
            Mlp::random_deep(inputs, 16, 8, 22),
        ] {
            let (theirs, their_losses) = burn_steps(&net, &batch, 1e-2, 3);
            let mut ours = DenseAdam::new(&net);
            assert_eq!(ours.weights(), net, "weights survive the round trip");
            let our_losses: Vec<f32> = (0..3)
                .map(|_| ours.step(&batch, NetKind::Contact, &[], 1e-2))
                .collect();
            for (a, b) in our_losses.iter().zip(&their_losses) {
                assert!(
                    (a - b).abs() < 1e-6 * b.max(1.0),
                    "{our_losses:?} {their_losses:?}"
                );
            }
            assert!(their_losses[2] < their_losses[0]);
            let diff = max_difference(&ours.weights(), &theirs);
            assert!(diff < 2e-5, "weights differ by {diff}");
            assert!(
                max_difference(&net, &theirs) > 1e-3,
                "the steps moved the weights"
            );
        }
    }

    #[test]
    fn the_same_weights_on_any_number_of_threads() {
        let inputs = NetKind::Contact.inputs();
        let data = samples(100);
        let batch: Vec<&Sample> = data.iter().collect();
        let net = Mlp::random_deep(inputs, 16, 8, 23);
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut learner = DenseAdam::new(&net);
                for _ in 0..3 {
                    learner.step(&batch, NetKind::Contact, &[], 1e-2);
                }
                learner.weights()
            })
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(5));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_twins_give_the_portable_bits() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let inputs = NetKind::Contact.inputs();
        let data = samples(SLICE);
        let batch: Vec<&Sample> = data.iter().collect();
        let learner = DenseAdam::new(&Mlp::random_deep(inputs, 16, 8, 24));
        let layout = learner.layout;
        let task = SliceTask {
            layout: &layout,
            params: &learner.params,
            kind: NetKind::Contact,
            dropped: &[],
            scale: 0.01,
        };
        let fresh = || SliceGradient {
            grad: vec![0.0; layout.len],
            touched: vec![false; layout.inputs],
        };
        let (mut portable, mut wide) = (fresh(), fresh());
        let error = task.run(&batch, &mut portable);
        // SAFETY: the CPU has AVX2, checked above.
        let wide_error = unsafe { task.run_avx2(&batch, &mut wide) };
        assert_eq!(error.to_bits(), wide_error.to_bits());
        assert!(
            portable
                .grad
                .iter()
                .zip(&wide.grad)
                .all(|(a, b)| a.to_bits() == b.to_bits())
        );
        assert!(portable.grad.iter().any(|&g| g != 0.0));
        let grads = [portable];
        let update = BlockUpdate {
            layout: &layout,
            grads: &grads,
            start: 0,
            lr: 0.01,
            factor: 3.0,
            eps: 1e-5,
        };
        let block = UPDATE_BLOCK.min(layout.len);
        let run = |avx2: bool| {
            let mut p = learner.params[..block].to_vec();
            let (mut m, mut v) = (vec![0.1; block], vec![0.2; block]);
            if avx2 {
                // SAFETY: as above.
                unsafe { update.run_avx2(&mut p, &mut m, &mut v) }
            } else {
                update.run(&mut p, &mut m, &mut v)
            }
            p.iter()
                .chain(&m)
                .chain(&v)
                .map(|x| x.to_bits())
                .collect::<Vec<u32>>()
        };
        assert_eq!(run(false), run(true));
    }
}
