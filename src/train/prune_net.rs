//! Distils the search's pre-selection network ([`crate::eval::prune_net`])
//! from a model's 0-ply values.
//!
//! Each sampled position (from the campaign database: the decisions the
//! search finds hard) gets one random roll; every legal move is scored by
//! the model's 0-ply equity for the mover. The network learns those scores
//! centred on the roll's mean: only the order within a roll matters to a
//! pre-selection, and without the mean it need not learn how good the
//! position is. Positions without contact are left out: PubEval keeps
//! ranking races, where the bear-off databases answer most evaluations.
//!
//! Training is plain Adam on one roll at a time, in floats; the search
//! uses the integer copy ([`crate::eval::prune_net::PruneNet`]).

use crate::backgammon::{Dice, MoveList, Position, legal_moves};
use crate::eval::prune_net::{FEATURES, HIDDEN, PruneWeights, features};
use crate::eval::{Evaluator, pubeval};
use rayon::prelude::*;

/// One roll's candidates: their inputs, the teacher's equities and
/// PubEval's scores.
pub struct RollMoves {
    inputs: Vec<Vec<usize>>,
    equities: Vec<f32>,
    pubeval: Vec<f32>,
}

/// A deterministic generator for the rolls and the order of training,
/// from the run's seed (xorshift: the run must not depend on a crate's
/// stream changing between versions).
struct Xorshift(u64);

impl Xorshift {
    fn new(seed: u64) -> Xorshift {
        Xorshift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// `n` positions drawn from `pool` with replacement, by `seed`.
pub fn sample_positions(pool: &[Position], n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Xorshift(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
    (0..n).map(|_| pool[rng.below(pool.len())]).collect()
}

/// The rolls of `positions` (contact only, three moves or more), each
/// with the die values `seed` gives it, scored by `eval` on rayon's
/// threads.
pub fn roll_moves(eval: &Evaluator, positions: &[Position], seed: u64) -> Vec<RollMoves> {
    positions
        .par_iter()
        .enumerate()
        .filter_map(|(i, pos)| {
            if pos.is_game_over() || !pos.has_contact() {
                return None;
            }
            let mut rng = Xorshift::new(seed ^ (i as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
            let mut die = || (rng.next() % 6) as u8 + 1;
            let dice = Dice::new(die(), die()).expect("dice 1 to 6");
            let mut list = MoveList::new();
            legal_moves(pos, dice, &mut list);
            if list.len() < 3 {
                return None;
            }
            let mut roll = RollMoves {
                inputs: Vec::with_capacity(list.len()),
                equities: Vec::with_capacity(list.len()),
                pubeval: Vec::with_capacity(list.len()),
            };
            for c in list.as_slice() {
                let mut on = Vec::new();
                features(&c.position, &mut on);
                roll.inputs.push(on);
                roll.equities.push(eval.after_move(&c.position).equity());
                roll.pubeval.push(pubeval::score(&c.position, false));
            }
            Some(roll)
        })
        .collect()
}

/// How often, and by how much, a pre-selection of `keep` moves misses
/// the teacher's best.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeafError {
    pub keep: usize,
    /// The rolls with more than `keep` moves.
    pub rolls: usize,
    /// Equity lost per roll, in millipoints.
    pub mp: f64,
    /// The share of rolls whose best was not kept.
    pub missed: f64,
}

/// The leaf errors of a scorer over `rolls` at each of `keeps`.
pub fn leaf_errors(
    rolls: &[RollMoves],
    keeps: &[usize],
    score: impl Fn(&RollMoves, usize) -> f32,
) -> Vec<LeafError> {
    keeps
        .iter()
        .map(|&keep| {
            let (mut lost, mut missed, mut n) = (0f64, 0usize, 0usize);
            for roll in rolls.iter().filter(|r| r.equities.len() > keep) {
                let scores: Vec<f32> = (0..roll.equities.len()).map(|i| score(roll, i)).collect();
                let mut order: Vec<usize> = (0..scores.len()).collect();
                // Best first; ties in list order, as the search breaks them.
                order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
                let best = roll.equities.iter().copied().fold(f32::MIN, f32::max);
                let kept = order[..keep]
                    .iter()
                    .map(|&i| roll.equities[i])
                    .fold(f32::MIN, f32::max);
                lost += f64::from(best - kept);
                missed += usize::from(kept < best);
                n += 1;
            }
            let n_f = n.max(1) as f64;
            LeafError {
                keep,
                rolls: n,
                mp: 1000.0 * lost / n_f,
                missed: missed as f64 / n_f,
            }
        })
        .collect()
}

/// PubEval's leaf errors, the baseline.
pub fn pubeval_errors(rolls: &[RollMoves], keeps: &[usize]) -> Vec<LeafError> {
    leaf_errors(rolls, keeps, |r, i| r.pubeval[i])
}

/// The float network being trained, with its Adam moments.
struct Learner {
    weights: PruneWeights,
    m: Vec<f32>,
    v: Vec<f32>,
    grad: Vec<f32>,
    steps: i32,
}

impl Learner {
    fn new(teacher: &str, rng: &mut Xorshift) -> Learner {
        let mut init = |n: usize| (0..n).map(|_| (rng.unit() - 0.5) * 0.2).collect::<Vec<_>>();
        let weights = PruneWeights {
            teacher: teacher.to_owned(),
            w1: init(FEATURES * HIDDEN),
            b1: vec![0.0; HIDDEN],
            w2: init(HIDDEN),
        };
        let n = FEATURES * HIDDEN + 2 * HIDDEN;
        Learner {
            weights,
            m: vec![0.0; n],
            v: vec![0.0; n],
            grad: vec![0.0; n],
            steps: 0,
        }
    }

    fn hidden(&self, on: &[usize], out: &mut [f32]) {
        out.copy_from_slice(&self.weights.b1);
        for &i in on {
            let row = &self.weights.w1[i * HIDDEN..(i + 1) * HIDDEN];
            for (o, w) in out.iter_mut().zip(row) {
                *o += w;
            }
        }
        for o in out.iter_mut() {
            *o = o.max(0.0);
        }
    }

    /// One Adam step on one roll: the squared error of the centred
    /// outputs against the centred equities.
    fn step(&mut self, roll: &RollMoves, rate: f32) {
        let n = roll.inputs.len();
        let mut hidden = vec![0f32; n * HIDDEN];
        let mut outputs = vec![0f32; n];
        for k in 0..n {
            let h = &mut hidden[k * HIDDEN..(k + 1) * HIDDEN];
            self.hidden(&roll.inputs[k], h);
            outputs[k] = h.iter().zip(&self.weights.w2).map(|(a, w)| a * w).sum();
        }
        let mean_eq = roll.equities.iter().sum::<f32>() / n as f32;
        let mean_out = outputs.iter().sum::<f32>() / n as f32;
        self.grad.iter_mut().for_each(|g| *g = 0.0);
        let (g1, rest) = self.grad.split_at_mut(FEATURES * HIDDEN);
        let (gb, g2) = rest.split_at_mut(HIDDEN);
        for k in 0..n {
            let residual = (outputs[k] - mean_out) - (roll.equities[k] - mean_eq);
            let d = 2.0 * residual / n as f32;
            for j in 0..HIDDEN {
                let a = hidden[k * HIDDEN + j];
                g2[j] += d * a;
                if a > 0.0 {
                    let dh = d * self.weights.w2[j];
                    gb[j] += dh;
                    for &i in &roll.inputs[k] {
                        g1[i * HIDDEN + j] += dh;
                    }
                }
            }
        }
        self.steps += 1;
        let (beta1, beta2) = (0.9f32, 0.999f32);
        let c1 = 1.0 - beta1.powi(self.steps);
        let c2 = 1.0 - beta2.powi(self.steps);
        let w = &mut self.weights;
        let params =
            w.w1.iter_mut()
                .chain(w.b1.iter_mut())
                .chain(w.w2.iter_mut());
        for (((p, g), m), v) in params.zip(&self.grad).zip(&mut self.m).zip(&mut self.v) {
            *m = beta1 * *m + (1.0 - beta1) * g;
            *v = beta2 * *v + (1.0 - beta2) * g * g;
            *p -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

/// The run's settings.
#[derive(Clone, Copy, Debug)]
pub struct PruneTraining {
    pub epochs: usize,
    /// The first epoch's rate; each later one halves it.
    pub rate: f32,
    pub seed: u64,
}

impl Default for PruneTraining {
    fn default() -> Self {
        PruneTraining {
            epochs: 6,
            rate: 0.003,
            seed: 1,
        }
    }
}

/// Trains on `rolls`, calling `epoch_done` with each epoch's weights.
pub fn train(
    teacher: &str,
    rolls: &[RollMoves],
    settings: &PruneTraining,
    mut epoch_done: impl FnMut(usize, &PruneWeights),
) -> PruneWeights {
    let mut rng = Xorshift::new(settings.seed);
    let mut learner = Learner::new(teacher, &mut rng);
    let mut order: Vec<usize> = (0..rolls.len()).collect();
    for epoch in 0..settings.epochs {
        let rate = settings.rate * 0.5f32.powi(epoch as i32);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for &i in &order {
            learner.step(&rolls[i], rate);
        }
        epoch_done(epoch, &learner.weights);
    }
    learner.weights
}

/// The network's leaf errors with `weights` (the float pass).
pub fn net_errors(weights: &PruneWeights, rolls: &[RollMoves], keeps: &[usize]) -> Vec<LeafError> {
    leaf_errors(rolls, keeps, |r, i| weights.score_inputs(&r.inputs[i]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::shipped_model;

    /// A short run on a few hundred rolls already ranks better than
    /// chance: the network misses the best less often than keeping the
    /// first moves of the list would.
    #[test]
    fn a_short_run_learns_to_rank_a_rolls_moves() {
        let eval = Evaluator::new(shipped_model().unwrap());
        let mut rng = Xorshift::new(7);
        let mut positions = Vec::new();
        // Positions from random play, after the opening.
        let mut pos = Position::starting();
        let mut list = MoveList::new();
        while positions.len() < 600 {
            let dice = Dice::new((rng.next() % 6) as u8 + 1, (rng.next() % 6) as u8 + 1).unwrap();
            legal_moves(&pos, dice, &mut list);
            let next = list.as_slice()[rng.below(list.len())].position;
            pos = if next.is_game_over() {
                Position::starting()
            } else {
                next.swap()
            };
            positions.push(pos);
        }
        let rolls = roll_moves(&eval, &positions, 3);
        let (train_rolls, test_rolls) = rolls.split_at(rolls.len() * 4 / 5);
        let settings = PruneTraining {
            epochs: 3,
            ..PruneTraining::default()
        };
        let weights = train("test", train_rolls, &settings, |_, _| {});
        let net = net_errors(&weights, test_rolls, &[3])[0];
        let first = leaf_errors(test_rolls, &[3], |r, i| -(i as f32) + 0.0 * r.equities[i])[0];
        assert!(net.rolls > 50);
        assert!(net.missed < first.missed, "{net:?} against {first:?}");
    }
}
