//! Self-play training for the games behind [`Game`]: TD(λ) targets from
//! whole games played by the current network at 0-ply (games in parallel
//! with rayon, each from its own seeded dice), then minibatch Adam steps
//! on the burn twin of the network, round after round. After every round
//! the model and a checkpoint (optimizer moments included) are written
//! atomically, so a killed run loses at most the round in flight and
//! `--resume` carries on.

use crate::eval::game_net::{GameModel, GameNet};
use crate::framed_file::{FrameKind, frame, unframe};
use crate::game::{After, Game, MAX_TURNS};
use crate::players::any_game::{GamePlayer, duel_game};
use crate::search::any_game::{MAX_OUTPUTS, best_turn, outputs};
use crate::seed::splitmix;
use crate::train::lambda_returns::{Step, lambda_returns};
use crate::train::learner::{LearnerState, TrainableMlp};
use burn::optim::{AdamConfig, ModuleOptimizer};
use burn::tensor::Device;
use ndarray::Array2;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How a network is trained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameTrainConfig {
    pub hidden: usize,
    /// Total self-play games.
    pub games: u64,
    /// Games per round (one learning pass over their positions).
    pub round_games: usize,
    pub lambda: f32,
    pub lr: f64,
    pub batch: usize,
    /// Chance of a random turn in self-play (exploration).
    pub explore: f32,
    /// A random turn cuts the λ-return's trace (as backgammon's self-play
    /// always does); off in the shipped recipes, which were trained
    /// without it (Icelandic Kotra's did no better with it:
    /// training/notes/models-history.md).
    #[serde(default)]
    pub cut_trace: bool,
    pub seed: u64,
}

impl Default for GameTrainConfig {
    fn default() -> Self {
        GameTrainConfig {
            hidden: 64,
            games: 10_000,
            round_games: 100,
            lambda: 0.7,
            lr: 1e-3,
            batch: 128,
            explore: 0.02,
            cut_trace: false,
            seed: 1,
        }
    }
}

impl GameTrainConfig {
    /// Every field in its range, so a run fails at its start with one line
    /// rather than with a panic or a useless network hours later.
    pub fn validate(&self) -> Result<(), String> {
        if self.hidden == 0 || self.hidden > crate::eval::game_net::MAX_HIDDEN {
            return Err(format!(
                "hidden must be 1 to {}",
                crate::eval::game_net::MAX_HIDDEN
            ));
        }
        if self.games == 0 || self.round_games == 0 || self.batch == 0 {
            return Err("games, round_games and batch must be 1 or more".into());
        }
        let unit = |x: f32| (0.0..=1.0).contains(&x);
        if !(unit(self.lambda) && unit(self.explore)) {
            return Err("lambda and explore lie in [0, 1]".into());
        }
        let max = crate::train::config::MAX_LEARNING_RATE;
        if !(self.lr > 0.0 && self.lr <= max) {
            return Err(format!("lr lies in (0, {max}]"));
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum GameTrainError {
    #[error(transparent)]
    Model(#[from] crate::eval::game_net::GameModelError),
    #[error("checkpoint {path}: {reason}")]
    Checkpoint { path: PathBuf, reason: String },
}

const CHECKPOINT: FrameKind = FrameKind {
    name: "kotra-ai game checkpoint",
    magic: b"KOTRAGCK",
    // 2: the config gained `cut_trace`.
    version: 2,
};

#[derive(Serialize, Deserialize)]
struct Checkpoint {
    config: GameTrainConfig,
    model: GameModel,
    learner: LearnerState,
}

/// The checkpoint beside a model file.
pub fn checkpoint_path(model: &Path) -> PathBuf {
    let mut p = model.as_os_str().to_owned();
    p.push(".ckpt");
    PathBuf::from(p)
}

/// One position's inputs and TD(λ) target.
struct Sample {
    input: Vec<f32>,
    target: Vec<f32>,
}

/// Plays one self-play game and returns its positions with λ-return
/// targets ([`lambda_returns`]), each from the view of the side to move
/// there. A step's value is the network's outputs for the position its
/// move leaves, seen by the side to move next (the result, turned to that
/// view, when the move ends the game), and a return blends in that view
/// before turning back: the order the shipped networks were trained in.
/// With `cut_trace` a random turn (exploration) cuts the trace as in
/// backgammon's self-play, its step the best turn's; without it the
/// returns run on through the turn played.
fn self_play<G: Game>(game: &G, net: &GameNet, cfg: &GameTrainConfig, seed: u64) -> Vec<Sample> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let faces = game.die_faces();
    let roll = |rng: &mut SmallRng| (rng.random_range(1..=faces), rng.random_range(1..=faces));
    let mut state = game.start(&mut || roll(&mut rng));
    let (n_in, n_out) = (game.inputs(), game.outputs());
    let flip = |y: &[f32; MAX_OUTPUTS]| {
        let mut y = *y;
        game.flip(&mut y[..n_out]);
        y
    };
    // The outputs `turn` leads to, seen by the side to move next.
    let next_view = |state: &G::State, turn: &G::Turn| match game.after(state, turn) {
        After::Ended(end) => {
            let mut y = [0f32; MAX_OUTPUTS];
            game.target(&end, &mut y[..n_out]);
            (flip(&y), None)
        }
        After::Next(next) => (outputs(game, net, &next), Some(next)),
    };
    let mut inputs: Vec<Vec<f32>> = Vec::new();
    let mut steps: Vec<Step<[f32; MAX_OUTPUTS]>> = Vec::new();
    let mut ended = false;
    for _ in 0..MAX_TURNS {
        let mut x = vec![0f32; n_in];
        game.encode(&state, &mut x);
        inputs.push(x);
        let turns = game.turns(&state, roll(&mut rng));
        let best = best_turn(game, net, &state, &turns, 0);
        let played = if rng.random::<f32>() < cfg.explore {
            rng.random_range(0..turns.len())
        } else {
            best
        };
        let strayed = cfg.cut_trace && played != best;
        let (value, next) = next_view(&state, &turns[played]);
        let value = if strayed {
            next_view(&state, &turns[best]).0
        } else {
            value
        };
        steps.push(Step { value, strayed });
        match next {
            Some(next) => state = next,
            None => {
                ended = true;
                break;
            }
        }
    }
    if !ended {
        // A game cut off by the turn limit counts as drawn.
        let mut draw = [0f32; MAX_OUTPUTS];
        game.draw_target(&mut draw[..n_out]);
        steps.last_mut().expect("MAX_TURNS is positive").value = flip(&draw);
    }
    let lambda = cfg.lambda;
    let returns = lambda_returns(&steps, flip, |value, next| {
        let mut y = [0f32; MAX_OUTPUTS];
        for ((r, &p), &g) in y.iter_mut().zip(value).zip(next).take(n_out) {
            *r = (1.0 - lambda) * p + lambda * g;
        }
        flip(&y)
    });
    // Last position first: the order the round's shuffle was seeded on
    // when the shipped networks were trained.
    inputs
        .into_iter()
        .zip(returns)
        .rev()
        .map(|(input, y)| Sample {
            input,
            target: y[..n_out].to_vec(),
        })
        .collect()
}

/// A training run's state between rounds.
pub struct GameTrainer<'g, G: Game> {
    game: &'g G,
    pub config: GameTrainConfig,
    pub model: GameModel,
    net: Option<TrainableMlp>,
    optim: ModuleOptimizer,
    device: Device,
}

impl<'g, G: Game> GameTrainer<'g, G> {
    /// A fresh run from random weights.
    pub fn new(game: &'g G, config: GameTrainConfig) -> Self {
        let net = GameNet::random(game.inputs(), config.hidden, game.outputs(), config.seed);
        let device = Device::flex().autodiff();
        GameTrainer {
            game,
            model: GameModel {
                game: game.name().into(),
                description: String::new(),
                games_trained: 0,
                net: net.clone(),
            },
            net: Some(TrainableMlp::from_net(&net, &device)),
            optim: AdamConfig::new().init(),
            config,
            device,
        }
    }

    /// The run a checkpoint left; `games` replaces the configured total.
    pub fn resume(game: &'g G, path: &Path, games: Option<u64>) -> Result<Self, GameTrainError> {
        let bad = |reason: String| GameTrainError::Checkpoint {
            path: path.to_owned(),
            reason,
        };
        let bytes = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
        let payload = unframe(&CHECKPOINT, &bytes).map_err(|e| bad(e.to_string()))?;
        let ck: Checkpoint = crate::framed_file::decode_payload("checkpoint", payload)
            .map_err(|e| bad(e.to_string()))?;
        let model = GameModel::from_bytes(
            &ck.model.to_bytes(),
            game.name(),
            game.inputs(),
            game.outputs(),
        )?;
        let device = Device::flex().autodiff();
        let (net, optim) = TrainableMlp::from_net(&model.net, &device)
            .restored(&ck.learner)
            .map_err(bad)?;
        let mut config = ck.config;
        if let Some(g) = games {
            config.games = g;
        }
        Ok(GameTrainer {
            game,
            config,
            model,
            net: Some(net),
            optim,
            device,
        })
    }

    pub fn done(&self) -> bool {
        self.model.games_trained >= self.config.games
    }

    /// Plays one round of self-play and learns from it; returns the mean
    /// loss.
    pub fn round(&mut self) -> f32 {
        let cfg = &self.config;
        let n = (cfg.round_games as u64).min(cfg.games - self.model.games_trained) as usize;
        let first = self.model.games_trained;
        let net = &self.model.net;
        let game = self.game;
        let mut samples: Vec<Sample> = (0..n as u64)
            .into_par_iter()
            .flat_map_iter(|g| self_play(game, net, cfg, splitmix(cfg.seed ^ splitmix(first + g))))
            .collect();
        let mut rng = SmallRng::seed_from_u64(splitmix(cfg.seed ^ first ^ 0x5eed));
        samples.shuffle(&mut rng);
        let mut twin = self.net.take().expect("the twin is always there");
        let (mut loss_sum, mut batches) = (0f32, 0);
        for chunk in samples.chunks(cfg.batch) {
            let matrix = |row: fn(&Sample) -> &[f32]| {
                let cols = row(&chunk[0]).len();
                let flat: Vec<f32> = chunk.iter().flat_map(|s| row(s).iter().copied()).collect();
                Array2::from_shape_vec((chunk.len(), cols), flat).expect("rows of one length")
            };
            let (x, t) = (matrix(|s| &s.input), matrix(|s| &s.target));
            let (next, loss) = twin.adam_step(&mut self.optim, x, t, cfg.lr, &self.device);
            twin = next;
            loss_sum += loss;
            batches += 1;
        }
        self.model.net = twin.to_net();
        self.net = Some(twin);
        self.model.games_trained += n as u64;
        loss_sum / batches.max(1) as f32
    }

    /// Writes the model and the checkpoint beside it, each atomically.
    pub fn save(&self, path: &Path) -> Result<(), GameTrainError> {
        self.model.save(path)?;
        let twin = self.net.as_ref().expect("the twin is always there");
        let learner = twin.state(&self.optim);
        let ck = Checkpoint {
            config: self.config.clone(),
            model: self.model.clone(),
            learner,
        };
        let payload = bincode::serde::encode_to_vec(&ck, bincode::config::standard())
            .expect("a checkpoint serialises");
        let ck_path = checkpoint_path(path);
        crate::atomic_file::write(&ck_path, &frame(&CHECKPOINT, &payload)).map_err(|e| {
            GameTrainError::Checkpoint {
                path: ck_path,
                reason: e.to_string(),
            }
        })
    }

    /// The current network against the heuristic (mirrored dice).
    pub fn versus_heuristic(&self, games: u64, seed: u64) -> crate::players::DuelResult {
        let me = GamePlayer::Net {
            net: self.model.net.clone(),
            ply: 0,
        };
        duel_game(self.game, &me, &GamePlayer::Heuristic, games, seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icehouse::game::IcehouseKotra;

    fn config(explore: f32, cut_trace: bool) -> GameTrainConfig {
        GameTrainConfig {
            lambda: 1.0,
            explore,
            cut_trace,
            ..GameTrainConfig::default()
        }
    }

    /// How many targets are exactly a game result (0 or 1), and whether
    /// they alternate back from the last mover's win (samples come last
    /// position first).
    fn results(samples: &[Sample]) -> (usize, bool) {
        let exact = samples
            .iter()
            .filter(|s| s.target[0] == 0.0 || s.target[0] == 1.0)
            .count();
        let alternate = samples
            .iter()
            .enumerate()
            .all(|(k, s)| s.target == vec![if k % 2 == 0 { 1.0 } else { 0.0 }]);
        (exact, alternate)
    }

    #[test]
    fn lambda_one_targets_are_the_result_from_each_side() {
        // Icehouse's flip is 1 − y: with λ = 1 every position's target is
        // the game's result for its side to move, alternating back from
        // the last mover's win, whether the turns were greedy or random
        // (without the cut, the returns run on through every turn).
        let game = IcehouseKotra;
        let net = GameNet::random(game.inputs(), 8, game.outputs(), 3);
        for explore in [0.0, 1.0] {
            let samples = self_play(&game, &net, &config(explore, false), 9);
            assert!(samples.len() > 2);
            assert_eq!(
                results(&samples),
                (samples.len(), true),
                "explore {explore}"
            );
        }
    }

    #[test]
    fn with_the_cut_a_random_turn_starts_afresh_from_the_best_value() {
        // Every turn random and the trace cut: almost all stray, so
        // almost no target is a game result any more; each is the
        // network's view of a best turn.
        let game = IcehouseKotra;
        let net = GameNet::random(game.inputs(), 8, game.outputs(), 3);
        let samples = self_play(&game, &net, &config(1.0, true), 9);
        let (exact, _) = results(&samples);
        assert!(exact * 4 < samples.len(), "{exact} of {}", samples.len());
        // Greedy, the cut changes nothing.
        let greedy = self_play(&game, &net, &config(0.0, true), 9);
        assert_eq!(results(&greedy), (greedy.len(), true));
    }

    #[test]
    fn a_round_learns_and_a_checkpoint_resumes_it() {
        let game = IcehouseKotra;
        let config = GameTrainConfig {
            hidden: 8,
            games: 8,
            round_games: 4,
            ..GameTrainConfig::default()
        };
        let mut t = GameTrainer::new(&game, config);
        let before = t.model.net.clone();
        assert!(t.round().is_finite());
        assert_ne!(t.model.net, before);
        let dir = std::env::temp_dir().join(format!("kotra-gt-{}", std::process::id()));
        let path = dir.join("m.net");
        t.save(&path).unwrap();
        let resumed = GameTrainer::resume(&game, &checkpoint_path(&path), None).unwrap();
        assert_eq!(resumed.model, t.model);
        assert!(!resumed.done());
        let _ = std::fs::remove_dir_all(dir);
    }
}
