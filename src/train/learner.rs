//! Gradient steps with burn: each network of the model has a trainable twin
//! (autodiff on the flex CPU backend) and an Adam optimizer. After a round
//! of steps the weights are copied back into the fast inference layout.

use crate::eval::encoding::encode;
use crate::eval::game_net::GameNet;
use crate::eval::network::{MidLayer, Mlp, OUTPUTS};
use crate::eval::{Model, NetKind};
use crate::train::config::LearnerKind;
use crate::train::dense_adam::{DenseAdam, Moments};
use crate::train::selfplay::Sample;
use burn::module::{Module, Param};
use burn::nn::Linear;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::store::ModuleRecord;
use burn::tensor::activation::sigmoid;
use burn::tensor::{Bytes, Device, Tensor, TensorData};
use ndarray::{Array2, ArrayView1};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

/// The burn twin of [`Mlp`]: same layers, same sigmoid units.
#[derive(Module, Debug)]
pub struct TrainableMlp {
    hidden: Linear,
    mid: Option<Linear>,
    output: Linear,
}

fn linear(weights: Vec<f32>, bias: Vec<f32>, d_in: usize, d_out: usize, device: &Device) -> Linear {
    Linear {
        weight: Param::from_data(TensorData::new(weights, [d_in, d_out]), device),
        bias: Some(Param::from_data(TensorData::new(bias, [d_out]), device)),
    }
}

fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data()
        .try_to_vec::<f32>()
        .expect("parameters are f32")
}

/// Our output layers are `[outputs][last]`; burn wants `[last][outputs]`.
fn transposed(w: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut t = vec![0f32; w.len()];
    for r in 0..rows {
        for c in 0..cols {
            t[c * rows + r] = w[r * cols + c];
        }
    }
    t
}

/// A layer's weights (`[d_in][d_out]`, burn's layout and our input-major
/// one), its bias and its size.
fn parts(l: &Linear) -> (Vec<f32>, Vec<f32>, usize, usize) {
    let [d_in, d_out] = l.weight.val().dims();
    let bias = values(l.bias.as_ref().expect("bias").val());
    (values(l.weight.val()), bias, d_in, d_out)
}

impl TrainableMlp {
    pub fn from_mlp(m: &Mlp, device: &Device) -> TrainableMlp {
        let last = m.last_hidden();
        TrainableMlp {
            hidden: linear(m.w1.clone(), m.b1.clone(), m.inputs, m.hidden, device),
            mid: m
                .mid
                .as_ref()
                .map(|mid| linear(mid.w.clone(), mid.b.clone(), m.hidden, mid.units, device)),
            output: linear(
                transposed(&m.w2, OUTPUTS, last),
                m.b2.to_vec(),
                last,
                OUTPUTS,
                device,
            ),
        }
    }

    pub fn to_mlp(&self) -> Mlp {
        let (w1, b1, inputs, hidden) = parts(&self.hidden);
        let mid = self.mid.as_ref().map(|l| {
            let (w, b, _, units) = parts(l);
            MidLayer { units, w, b }
        });
        let (w2t, b2v, last, outputs) = parts(&self.output);
        let mut b2 = [0f32; OUTPUTS];
        b2.copy_from_slice(&b2v);
        Mlp {
            inputs,
            hidden,
            w1,
            b1,
            mid,
            w2: transposed(&w2t, last, outputs),
            b2,
        }
    }

    /// The twin of another game's one-layer network.
    pub fn from_net(m: &GameNet, device: &Device) -> TrainableMlp {
        TrainableMlp {
            hidden: linear(m.w1.clone(), m.b1.clone(), m.inputs, m.hidden, device),
            mid: None,
            output: linear(
                transposed(&m.w2, m.outputs, m.hidden),
                m.b2.clone(),
                m.hidden,
                m.outputs,
                device,
            ),
        }
    }

    pub fn to_net(&self) -> GameNet {
        let (w1, b1, inputs, hidden) = parts(&self.hidden);
        let (w2t, b2, _, outputs) = parts(&self.output);
        GameNet {
            inputs,
            hidden,
            outputs,
            w1,
            b1,
            w2: transposed(&w2t, hidden, outputs),
            b2,
        }
    }

    /// The twin's weights and `optim`'s moments as checkpoint bytes.
    pub fn state(&self, optim: &ModuleOptimizer) -> LearnerState {
        LearnerState {
            module: self
                .clone()
                .into_record()
                .into_bytes()
                .expect("a record serialises")
                .to_vec(),
            optimizer: optim
                .into_bytes()
                .expect("optimizer state serialises")
                .to_vec(),
        }
    }

    /// This twin with a checkpoint's weights loaded, and the checkpoint's
    /// optimizer.
    pub fn restored(self, state: &LearnerState) -> Result<(TrainableMlp, ModuleOptimizer), String> {
        let record = ModuleRecord::from_bytes(Bytes::from_bytes_vec(state.module.clone()))
            .map_err(|e| format!("network state: {e:?}"))?;
        let optim = AdamConfig::new()
            .init()
            .from_bytes(Bytes::from_bytes_vec(state.optimizer.clone()))
            .map_err(|e| format!("optimizer state: {e:?}"))?;
        Ok((self.load_record(record), optim))
    }

    /// One Adam step on the mean squared error of a batch (inputs `x` and
    /// targets `t`, one example a row); returns the loss before the step.
    pub fn adam_step(
        self,
        optim: &mut ModuleOptimizer,
        x: Array2<f32>,
        t: Array2<f32>,
        lr: f64,
        device: &Device,
    ) -> (TrainableMlp, f32) {
        let x = Tensor::<2>::from_data(tensor_data(x), device);
        let t = Tensor::<2>::from_data(tensor_data(t), device);
        let loss = (self.forward(x) - t).powf_scalar(2.0).mean();
        let value = loss.clone().into_scalar::<f32>();
        let grads = GradientsParams::from_grads(loss.backward(), &self);
        (optim.step(lr, self, grads), value)
    }

    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let h = sigmoid(self.hidden.forward(x));
        let h = match &self.mid {
            Some(mid) => sigmoid(mid.forward(h)),
            None => h,
        };
        sigmoid(self.output.forward(h))
    }
}

/// One network being trained, by burn or by [`DenseAdam`].
pub struct NetLearner {
    kind: NetKind,
    /// Inputs held at zero (feature ablations).
    dropped: Vec<usize>,
    engine: Engine,
}

enum Engine {
    Burn(Box<BurnTwin>),
    Dense(DenseAdam),
}

/// The burn twin and its optimizer.
struct BurnTwin {
    net: TrainableMlp,
    optim: ModuleOptimizer,
    device: Device,
}

/// How a step's samples are learnt: Adam passes in minibatches.
#[derive(Clone, Copy, Debug)]
pub struct AdamPass {
    pub batch: usize,
    pub epochs: usize,
    pub lr: f64,
}

fn from_bytes<T: serde::de::DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T, String> {
    bincode::serde::decode_from_slice(bytes, bincode::config::standard())
        .map(|(value, _)| value)
        .map_err(|e| format!("{what}: {e}"))
}

fn to_bytes<T: serde::Serialize>(value: &T) -> Vec<u8> {
    bincode::serde::encode_to_vec(value, bincode::config::standard())
        .expect("weights and moments serialise")
}

/// Serialised learner state, for checkpoints.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LearnerState {
    pub module: Vec<u8>,
    pub optimizer: Vec<u8>,
}

impl NetLearner {
    pub fn new(kind: NetKind, weights: &Mlp, learner: LearnerKind) -> NetLearner {
        let engine = match learner {
            LearnerKind::Burn => {
                let device = Device::flex().autodiff();
                Engine::Burn(Box::new(BurnTwin {
                    net: TrainableMlp::from_mlp(weights, &device),
                    optim: AdamConfig::new().init(),
                    device,
                }))
            }
            LearnerKind::Parallel => Engine::Dense(DenseAdam::new(weights)),
        };
        NetLearner {
            kind,
            dropped: Vec::new(),
            engine,
        }
    }

    /// A learner restored from a checkpoint, optimizer moments included.
    pub fn restore(
        kind: NetKind,
        weights: &Mlp,
        state: &LearnerState,
        learner: LearnerKind,
    ) -> Result<NetLearner, String> {
        let mut restored = NetLearner::new(kind, weights, learner);
        restored.engine = match restored.engine {
            Engine::Burn(twin) => {
                let BurnTwin { net, device, .. } = *twin;
                let (net, optim) = net.restored(state)?;
                Engine::Burn(Box::new(BurnTwin { net, optim, device }))
            }
            Engine::Dense(_) => {
                let net: Mlp = from_bytes(&state.module, "network state")?;
                let moments: Moments = from_bytes(&state.optimizer, "optimizer state")?;
                net.validate(weights.inputs)
                    .map_err(|e| format!("network state: {e}"))?;
                Engine::Dense(DenseAdam::restored(&net, moments)?)
            }
        };
        Ok(restored)
    }

    pub fn state(&self) -> LearnerState {
        match &self.engine {
            Engine::Burn(twin) => twin.net.state(&twin.optim),
            Engine::Dense(dense) => LearnerState {
                module: to_bytes(&dense.weights()),
                optimizer: to_bytes(dense.moments()),
            },
        }
    }

    /// The trained weights, with the rows of dropped inputs zeroed.
    pub fn weights(&self) -> Mlp {
        let mut m = match &self.engine {
            Engine::Burn(twin) => twin.net.to_mlp(),
            Engine::Dense(dense) => dense.weights(),
        };
        for &i in &self.dropped {
            m.w1[i * m.hidden..(i + 1) * m.hidden].fill(0.0);
        }
        m
    }

    /// Holds `inputs` at zero from now on.
    pub fn drop_inputs(&mut self, inputs: Vec<usize>) {
        self.dropped = inputs;
    }

    /// Minibatch Adam steps on the mean squared error over `samples` of this
    /// learner's kind; returns the mean loss.
    pub fn train(&mut self, samples: &[Sample], pass: AdamPass, seed: u64) -> Option<f64> {
        let AdamPass { batch, epochs, lr } = pass;
        let mut mine: Vec<&Sample> = samples.iter().filter(|s| s.kind == self.kind).collect();
        if mine.is_empty() {
            return None;
        }
        let mut rng = SmallRng::seed_from_u64(seed);
        let (mut loss_sum, mut batches) = (0f64, 0usize);
        for _ in 0..epochs {
            mine.shuffle(&mut rng);
            for chunk in mine.chunks(batch) {
                let loss = match &mut self.engine {
                    Engine::Burn(twin) => {
                        let BurnTwin { net, optim, device } = twin.as_mut();
                        let (x, t) = encoded_batch(chunk, self.kind, &self.dropped);
                        let (next, loss) = net.clone().adam_step(optim, x, t, lr, device);
                        *net = next;
                        loss
                    }
                    Engine::Dense(dense) => dense.step(chunk, self.kind, &self.dropped, lr),
                };
                loss_sum += loss as f64;
                batches += 1;
            }
        }
        Some(loss_sum / batches as f64)
    }
}

/// A batch of backgammon samples as the learner's matrices: each
/// position's inputs for `kind` (the `dropped` inputs zeroed) and its five
/// targets, one sample a row.
pub fn encoded_batch(
    samples: &[&Sample],
    kind: NetKind,
    dropped: &[usize],
) -> (Array2<f32>, Array2<f32>) {
    let mut x = Array2::zeros((samples.len(), kind.inputs()));
    let mut t = Array2::zeros((samples.len(), OUTPUTS));
    for ((s, mut row), mut target) in samples.iter().zip(x.rows_mut()).zip(t.rows_mut()) {
        let row = row.as_slice_mut().expect("a fresh matrix is row-major");
        encode(&s.position, kind, row);
        for &i in dropped {
            row[i] = 0.0;
        }
        target.assign(&ArrayView1::from(&s.target.0));
    }
    (x, t)
}

/// A row-major matrix as burn's tensor data, without copying.
fn tensor_data(m: Array2<f32>) -> TensorData {
    let shape = [m.nrows(), m.ncols()];
    let m = if m.is_standard_layout() {
        m
    } else {
        m.as_standard_layout().into_owned()
    };
    let (values, offset) = m.into_raw_vec_and_offset();
    debug_assert_eq!(offset.unwrap_or(0), 0);
    TensorData::new(values, shape)
}

/// One learner per network of the model.
pub struct Learners {
    pub contact: NetLearner,
    pub race: NetLearner,
    pub crashed: Option<NetLearner>,
}

/// Each learner's mean loss over a step (none where it had no samples).
#[derive(Clone, Copy, Debug, Default)]
pub struct StepLoss {
    pub contact: Option<f64>,
    pub race: Option<f64>,
    pub crashed: Option<f64>,
}

impl StepLoss {
    /// This step's losses, each falling back to `earlier`'s where this
    /// step had no samples for that network.
    pub fn or(self, earlier: StepLoss) -> StepLoss {
        StepLoss {
            contact: self.contact.or(earlier.contact),
            race: self.race.or(earlier.race),
            crashed: self.crashed.or(earlier.crashed),
        }
    }
}

impl Learners {
    pub fn new(model: &Model, learner: LearnerKind) -> Learners {
        Learners {
            contact: NetLearner::new(NetKind::Contact, &model.contact, learner),
            race: NetLearner::new(NetKind::Race, &model.race, learner),
            crashed: model
                .crashed
                .as_ref()
                .map(|m| NetLearner::new(NetKind::Crashed, m, learner)),
        }
    }

    /// The learners as a checkpoint left them.
    pub fn restore(
        model: &Model,
        contact: &LearnerState,
        race: &LearnerState,
        crashed: Option<&LearnerState>,
        learner: LearnerKind,
    ) -> Result<Learners, String> {
        let crashed = match (&model.crashed, crashed) {
            (Some(m), Some(state)) => {
                Some(NetLearner::restore(NetKind::Crashed, m, state, learner)?)
            }
            (None, None) => None,
            _ => return Err("checkpoint's crashed network and its learner disagree".into()),
        };
        Ok(Learners {
            contact: NetLearner::restore(NetKind::Contact, &model.contact, contact, learner)?,
            race: NetLearner::restore(NetKind::Race, &model.race, race, learner)?,
            crashed,
        })
    }

    /// Applies a config's feature ablation to the networks with contact
    /// inputs.
    pub fn drop_features(&mut self, features: &[usize]) {
        let inputs: Vec<usize> = features
            .iter()
            .flat_map(|&k| crate::eval::encoding::contact_feature_inputs(k))
            .collect();
        if let Some(crashed) = &mut self.crashed {
            crashed.drop_inputs(inputs.clone());
        }
        self.contact.drop_inputs(inputs);
    }

    /// Every learner's pass over the samples of its network.
    ///
    /// The networks are independent, so they learn at once: a thread
    /// that would wait at one network's end of a minibatch takes up
    /// another's work (the results are those of one after the other).
    pub fn train(&mut self, samples: &[Sample], pass: AdamPass, seed: u64) -> StepLoss {
        let (contact, (race, crashed)) = rayon::join(
            || self.contact.train(samples, pass, seed ^ 1),
            || {
                rayon::join(
                    || self.race.train(samples, pass, seed ^ 2),
                    || {
                        self.crashed
                            .as_mut()
                            .and_then(|l| l.train(samples, pass, seed ^ 3))
                    },
                )
            },
        );
        StepLoss {
            contact,
            race,
            crashed,
        }
    }

    /// Writes the trained weights back into `model`.
    pub fn export(&self, model: &mut Model) {
        model.contact = self.contact.weights();
        model.race = self.race.weights();
        model.crashed = self.crashed.as_ref().map(NetLearner::weights);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::Position;
    use crate::eval::Probs;

    #[test]
    fn burn_twin_agrees_with_the_fast_path() {
        let model = Model::random(16, 8, 11);
        let inputs = NetKind::Contact.inputs();
        for net in [model.contact, Mlp::random_deep(inputs, 16, 8, 12)] {
            let learner = NetLearner::new(NetKind::Contact, &net, LearnerKind::Burn);
            assert_eq!(learner.weights(), net, "weights survive the round trip");
            let pos = Position::starting();
            let mut x = vec![0f32; inputs];
            encode(&pos, NetKind::Contact, &mut x);
            let device = Device::flex();
            let twin = TrainableMlp::from_mlp(&net, &device);
            let y = values(twin.forward(Tensor::<2>::from_data(
                TensorData::new(x.clone(), [1, x.len()]),
                &device,
            )));
            let fast = net.forward(&x);
            for (a, b) in y.iter().zip(fast) {
                assert!((a - b).abs() < 1e-5, "{y:?} vs {fast:?}");
            }
        }
    }

    const BOTH: [LearnerKind; 2] = [LearnerKind::Burn, LearnerKind::Parallel];

    fn pass(batch: usize, epochs: usize) -> AdamPass {
        AdamPass {
            batch,
            epochs,
            lr: 1e-2,
        }
    }

    #[test]
    fn dropped_inputs_never_reach_the_network() {
        for kind in BOTH {
            let model = Model::random(16, 8, 13);
            let mut learner = NetLearner::new(NetKind::Contact, &model.contact, kind);
            let dropped = crate::eval::encoding::contact_feature_inputs(1);
            learner.drop_inputs(dropped.to_vec());
            let samples = vec![
                Sample {
                    position: Position::starting(),
                    kind: NetKind::Contact,
                    target: Probs([0.9, 0.3, 0.05, 0.02, 0.0]),
                };
                32
            ];
            learner.train(&samples, pass(8, 2), 4).unwrap();
            let w = learner.weights();
            for i in dropped {
                assert!(
                    w.w1[i * w.hidden..(i + 1) * w.hidden]
                        .iter()
                        .all(|&v| v == 0.0)
                );
            }
            // So the feature's value does not matter to the exported network.
            let mut x = vec![0f32; NetKind::Contact.inputs()];
            encode(&Position::starting(), NetKind::Contact, &mut x);
            let with = w.forward(&x);
            x[dropped[0]] = 0.77;
            assert_eq!(w.forward(&x), with, "{kind:?}");
        }
    }

    #[test]
    fn steps_reduce_the_loss_and_a_restored_learner_goes_on_alike() {
        for kind in BOTH {
            let model = Model::random(16, 8, 12);
            let mut learner = NetLearner::new(NetKind::Contact, &model.contact, kind);
            let samples: Vec<Sample> = (0..64)
                .map(|i| Sample {
                    position: Position::starting(),
                    kind: NetKind::Contact,
                    target: Probs([0.9, 0.3, 0.05 * (i % 3) as f32, 0.02, 0.0]),
                })
                .collect();
            let first = learner.train(&samples, pass(16, 1), 1).unwrap();
            let (state, weights) = (learner.state(), learner.weights());
            let later = learner.train(&samples, pass(16, 3), 2).unwrap();
            assert!(later < first, "{kind:?}: loss {first} -> {later}");
            let mut restored =
                NetLearner::restore(NetKind::Contact, &weights, &state, kind).unwrap();
            assert_eq!(restored.train(&samples, pass(16, 3), 2), Some(later));
            assert_eq!(restored.weights(), learner.weights(), "{kind:?}");
        }
    }

    #[test]
    fn a_damaged_parallel_state_is_refused() {
        let model = Model::random(16, 8, 12);
        let learner = NetLearner::new(NetKind::Contact, &model.contact, LearnerKind::Parallel);
        let mut state = learner.state();
        state.optimizer.truncate(state.optimizer.len() / 2);
        let err = NetLearner::restore(
            NetKind::Contact,
            &model.contact,
            &state,
            LearnerKind::Parallel,
        )
        .err()
        .unwrap();
        assert!(err.starts_with("optimizer state"), "{err}");
    }
}
