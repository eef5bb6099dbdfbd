//! Everything that defines a training run. A config file in training/
//! plus its seed reproduces a shipped network exactly (given the time).

use super::run_folders;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrainConfig {
    /// Seeds the initial weights and every game; per-step seeds derive from it.
    pub seed: u64,
    /// Start from this model file's weights instead of random ones (the
    /// hidden sizes are then the file's); a path relative to the working
    /// folder, e.g. a shipped network to refine.
    pub init_model: Option<std::path::PathBuf>,
    /// Hidden units of the contact network (a multiple of 8).
    pub contact_hidden: usize,
    /// Hidden units of the race network.
    pub race_hidden: usize,
    /// Self-play games in the whole run.
    pub games: u64,
    /// Games played in parallel with fixed weights before each round of
    /// gradient steps.
    pub games_per_step: u64,
    /// TD(λ): how far back the outcome reaches; 0 = pure bootstrapping.
    pub lambda: f32,
    /// Adam's learning rate at the start of the run.
    pub learning_rate: f64,
    /// Learning rate at the end of the run, reached by geometric decay
    /// (none: constant).
    pub learning_rate_end: Option<f64>,
    /// Minibatch size.
    pub batch_size: usize,
    /// Passes over each step's positions.
    pub epochs: usize,
    /// Contact features (0..17, see `side_features`) left out, for
    /// ablations: their inputs are zeroed in training and their first-layer
    /// weights zeroed in the model, so play never sees them either.
    pub drop_features: Vec<usize>,
    /// Chance of playing a random legal move instead of the best one; such
    /// a turn trains as a noisy stray does (see `move_noise`).
    pub exploration: f32,
    /// Standard deviation of Gaussian noise on each candidate's equity in
    /// self-play (gnubg's player noise): the games reach back games and
    /// crashed boards that greedy play seldom does. A turn that strays
    /// from the best move trains on the best move's value and cuts the
    /// TD(λ) trace, so targets stay those of greedy play.
    pub move_noise: f32,
    /// Targets from our own search instead of TD(λ): each position's
    /// target is its `target_ply`-ply value (0 = TD(λ) returns). Deeper
    /// targets are less noisy and see further, at about 21× the work per
    /// ply; used to refine a network TD has already taught.
    pub target_ply: u8,
    /// Inside a search target's tree, the network weighs only the replies
    /// PubEval pre-selects, this many a roll (0 = every reply, the plain
    /// search). At `target_ply` 2 with 8, kotra-v13's teacher games give
    /// about 310 positions a second on both cores against about 70 for
    /// the plain search (which has no evaluation cache either), and the
    /// pruned search chooses moves nearly as well (dev moves, kotra-v15:
    /// 2.00 mp against 1.90 unpruned).
    pub target_prune: u32,
    /// Targets from rollouts instead (0 = off): each self-play game gives
    /// `rollouts_per_game` contact positions, each played out this many
    /// times by the current network; see `rollout_targets`.
    pub rollout_trials: u32,
    pub rollouts_per_game: u32,
    /// How much likelier a back game, holding game or crashed position is
    /// chosen for a rollout than any other; in distillation, how many
    /// times each such position is seen per epoch (a whole number).
    pub hard_plan_weight: f32,
    /// Give back games and crashed boards a network of their own
    /// (`eval::contact_net`), started as a copy of the contact network
    /// when the initial model has none (in distillation, of the student's
    /// new one).
    pub crashed_net: bool,
    /// Decay per step of a moving average of the weights (0 = none): with
    /// it `model.net` and the measurements are the average's, while
    /// self-play and learning go on with the current weights.
    pub weight_average: f32,
    /// Distil the search of this model instead of learning from self-play
    /// (see `distill`): it plays `games` games (noise and exploration as
    /// below, `games_per_step` to a chunk on disk), every position rolled
    /// from gets its `target_ply`-ply value, and a new contact network of
    /// `contact_hidden` and `contact_mid` units makes `epochs` passes over
    /// the whole set, the learning rate decaying from `learning_rate` to
    /// `learning_rate_end` over the epochs. It keeps the teacher's race
    /// network (unless `distill_nets` trains it) and has no crashed
    /// network; it is measured every epoch.
    /// With `init_model` the student starts from that file's networks
    /// instead (its shape, its race network): a network refined on its
    /// teacher's search rather than learning it from scratch.
    pub distill_teacher: Option<std::path::PathBuf>,
    /// Units of the contact network's second hidden layer (0 = none).
    pub contact_mid: usize,
    /// With `init_model`: widen its contact network's first layer to this
    /// many units before training, the new units silent at first (the
    /// model evaluates as before), so a wider network starts from what
    /// the narrow one knows (0 = keep its width).
    pub widen_contact: usize,
    /// Which of the student's networks a distillation trains (see
    /// [`DistillNets`]).
    pub distill_nets: DistillNets,
    /// In a distillation that trains the race network: its targets are
    /// rollouts of this many trials (0 = the teacher's search values),
    /// played by the teacher at 0-ply to the end of the game and cached
    /// beside the positions (`race-rollouts-T/` for T trials).
    pub race_rollout_trials: u32,
    /// In a distillation that trains the contact network: this many
    /// contact positions of each chunk (drawn by the seed) get rollouts
    /// of `contact_rollout_trials` trials as targets instead of the
    /// teacher's search values, cached beside the positions
    /// (`contact-rollouts-T-K/`), and count `rollout_weight` times as
    /// often as the others.
    pub contact_rollouts_per_chunk: u32,
    /// Trials per rolled-out contact position (0 = none rolled out).
    pub contact_rollout_trials: u32,
    /// How many times more a rolled-out contact position is seen per
    /// epoch (`hard_plan_weight` multiplies it).
    pub rollout_weight: u32,
    /// Draws the rolled-out contact positions only among those whose
    /// search target gives the side on roll a win chance in `[lo, hi]`
    /// (none: among all of them). The doubling window is where the cube's
    /// double and take decisions rest on the network's probabilities, and
    /// where kotra-v17's cube errors are: back and holding games whose
    /// leader it rates well above what its own rollouts find.
    pub contact_rollout_window: Option<[f32; 2]>,
    /// How the rolled-out contact positions are chosen among those
    /// eligible ([`RolloutPick`]).
    pub contact_rollout_pick: RolloutPick,
    /// In a distillation that trains the contact network: this many
    /// contact positions of each chunk (drawn by the seed) get a roll, and
    /// the results of the teacher's best `sibling_moves` plays for it are
    /// trained with the teacher's search values (cached beside the
    /// positions in `siblings-M-K/`): the alternatives a move is ranked
    /// against, which self-play's own path seldom visits.
    pub siblings_per_chunk: u32,
    /// Plays per sibling roll (0 = no siblings).
    pub sibling_moves: u32,
    /// More teacher games in a distillation, each set with its own seed,
    /// games and search (see [`ExtraSet`]): deeper targets are dear, so a
    /// small set of them is trained beside a large set of shallower ones.
    pub extra_sets: Vec<ExtraSet>,
    /// Folders of contact rollout targets that earlier distillations wrote
    /// (their `contact-rollouts-T-K/` caches, paths relative to the
    /// working folder), trained beside this run's own set, each position
    /// counting as one of its own rolled-out positions does
    /// (`rollout_weight`). Rollouts are the dear targets and the ones that
    /// move the network's absolute equities, so each run banks its
    /// predecessors' instead of leaving them on disk; positions of an
    /// older teacher's play are still played out to the end.
    pub banked_rollouts: Vec<std::path::PathBuf>,
    /// Position databases the campaign grew (`training/data/`: a folder
    /// stands for every batch its manifest lists, a `.kpd` file for
    /// itself), trained beside the run's teacher games, each position
    /// `database_weight` times a pass. Targets come from the batches'
    /// own teachers' searches; where two batches hold one position, the
    /// later batch's target is kept. With a database a distillation may
    /// play no teacher games (`games: 0`). An entry may carry its own
    /// weight (`{"path": ..., "weight": W}`): listed after the folder, a
    /// batch file then counts W times instead (newer, deeper labels above
    /// the old ones).
    pub database: Vec<DatabaseEntry>,
    pub database_weight: u32,
    /// How many times more a database position counts whose target is a
    /// rollout (origins `rollout` and `timing_rollout`) than the others
    /// of its entry. The rollouts are the positions where the teacher's
    /// search misjudges timing and the doubling window, and they are a
    /// few in a hundred of the database: at their batch's weight the
    /// search-labelled rest outvotes them.
    pub database_rollout_weight: u32,
    /// How many times a database position whose origin is `cube_action`
    /// counts, as a multiple of its entry's weight: 1 as the others, 0
    /// left out. Those positions carry the search's cubeless value before
    /// the roll where 0-ply and the search differed on the cube, and in
    /// the doubling window that value leans the other way from the
    /// rollouts; this weighs them against the rest.
    pub database_cube_weight: u32,
    /// In a distillation that trains the race network: a fresh race
    /// network of `race_hidden` and a second layer of this many units
    /// instead of `init_model`'s (0 = keep that one).
    pub race_mid: usize,
    /// Games between strength measurements (rounded to whole steps).
    pub measure_every: u64,
    /// What takes the gradient steps: burn (the default, with which every
    /// recipe in training/ was made) or the data-parallel learner that
    /// uses every core (`dense_adam`; its rounding differs, so a recipe
    /// trained with it gives another, equally good, network).
    pub learner: LearnerKind,
    /// Self-play runs: a step's learning and the next step's games run at
    /// once, the games played by the weights from before that learning (one
    /// step behind), so that the cores a learning pass leaves idle at its
    /// joins play games instead. Off by default: the games then differ from
    /// an unpipelined run's, so every recipe in training/ keeps its network.
    pub overlap_play: bool,
    /// Games per measurement against PubEval and the previous checkpoint.
    pub measure_games: u64,
}

/// The largest learning rate a config may ask for (both games' trainers).
pub const MAX_LEARNING_RATE: f64 = 1.0;

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            seed: 1,
            init_model: None,
            contact_hidden: 128,
            race_hidden: 64,
            games: 200_000,
            games_per_step: 200,
            lambda: 0.7,
            learning_rate: 1e-3,
            learning_rate_end: None,
            batch_size: 128,
            epochs: 1,
            exploration: 0.0,
            move_noise: 0.0,
            target_ply: 0,
            target_prune: 0,
            rollout_trials: 0,
            rollouts_per_game: 4,
            hard_plan_weight: 1.0,
            drop_features: Vec::new(),
            crashed_net: false,
            weight_average: 0.0,
            distill_teacher: None,
            contact_mid: 0,
            widen_contact: 0,
            distill_nets: DistillNets::Contact,
            race_rollout_trials: 0,
            contact_rollouts_per_chunk: 0,
            contact_rollout_trials: 0,
            rollout_weight: 1,
            contact_rollout_window: None,
            contact_rollout_pick: RolloutPick::Random,
            siblings_per_chunk: 0,
            sibling_moves: 0,
            extra_sets: Vec::new(),
            banked_rollouts: Vec::new(),
            database: Vec::new(),
            database_weight: 1,
            database_rollout_weight: 1,
            database_cube_weight: 1,
            race_mid: 0,
            measure_every: 10_000,
            learner: LearnerKind::Burn,
            overlap_play: false,
            measure_games: 1_000,
        }
    }
}

/// One entry of [`TrainConfig::database`]: a folder or batch file whose
/// positions count `database_weight` times a pass, or one with a weight
/// of its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
pub enum DatabaseEntry {
    Path(std::path::PathBuf),
    Weighted {
        path: std::path::PathBuf,
        weight: u32,
    },
}

impl DatabaseEntry {
    pub fn path(&self) -> &std::path::Path {
        match self {
            DatabaseEntry::Path(path) | DatabaseEntry::Weighted { path, .. } => path,
        }
    }

    /// How many times a pass its positions count, `default` unless it
    /// says.
    pub fn weight(&self, default: u32) -> u32 {
        match self {
            DatabaseEntry::Path(_) => default,
            DatabaseEntry::Weighted { weight, .. } => *weight,
        }
    }
}

/// What takes a run's gradient steps (see `TrainConfig::learner`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LearnerKind {
    #[default]
    Burn,
    Parallel,
}

/// A set of teacher games beside a distillation's own: the same noise and
/// `games_per_step`, the same teacher unless `teacher` names another (an
/// earlier round's teacher, whose games that round already played), its
/// own seed, number of games and search targets, its chunks in
/// `positions-S-P-R/` (seed S, `target_ply` P, `target_prune` R) beside
/// `positions/`. Chunk `c` is played from the seed as the main set's is,
/// so a run with the same teacher, noise and seed has the same chunks (and
/// they can be copied in). Its positions count `weight` times as often as
/// the main set's (`hard_plan_weight` multiplies it); they get no rollouts
/// or siblings. With `race_only` it keeps and values only its games' race
/// positions (for a distillation that trains the race network), in
/// `positions-S-P-R-race/`.
///
/// A rollout set (`target_ply` 0, `rollout_trials` T) values positions by
/// rollouts instead of a search: from each of its games, played by the
/// teacher at 0-ply, `rollouts_per_game` K contact positions (of game plan
/// `plan` alone, when given) are rolled out T times at 0-ply with variance
/// reduction, and count `rollout_weight` times as the main set's rolled-out
/// positions do; with `rollout_window: [lo, hi]` only positions whose side
/// on roll the teacher gives a win chance from lo to hi are chosen. Its
/// chunks are in `rollouts-S-T-K[-plan][-wLO-HI]/`. Rollouts see
/// a game's end, past what any search of the teacher sees: fed to our cube
/// model, the shipped network's own 1,296-trial rollouts err 3.93 mp on the
/// dev cube set where its static values err 7.40, and a rollout set is
/// how a bank of them is built (training/notes/notebook.md, "Back games by
/// rollouts").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtraSet {
    pub seed: u64,
    pub games: u64,
    pub target_ply: u8,
    #[serde(default)]
    pub target_prune: u32,
    #[serde(default = "one")]
    pub weight: u32,
    #[serde(default)]
    pub teacher: Option<std::path::PathBuf>,
    #[serde(default)]
    pub race_only: bool,
    #[serde(default)]
    pub rollout_trials: u32,
    #[serde(default = "one")]
    pub rollouts_per_game: u32,
    #[serde(default)]
    pub plan: Option<crate::eval::game_plan::GamePlan>,
    #[serde(default)]
    pub rollout_window: Option<[f32; 2]>,
}

fn one() -> u32 {
    1
}

impl ExtraSet {
    /// How the set's search targets are found.
    pub fn target_search(&self) -> super::selfplay::TargetSearch {
        super::selfplay::TargetSearch {
            ply: self.target_ply,
            prune: self.target_prune as usize,
            race_only: self.race_only,
        }
    }

    /// How a rollout set's positions are chosen and rolled out (the move
    /// policy is the run's, filled in when its games are played); `None`
    /// for a set of search targets.
    pub fn rollout_targets(&self) -> Option<super::rollout_targets::RolloutTargets> {
        (self.rollout_trials > 0).then(|| super::rollout_targets::RolloutTargets {
            trials: self.rollout_trials,
            per_game: self.rollouts_per_game,
            hard_weight: 1.0,
            plan: self.plan,
            window: self.rollout_window,
            policy: super::selfplay::MovePolicy::greedy(),
        })
    }

    /// Its folder of chunks, beside the main set's `positions/`.
    pub fn folder(&self) -> String {
        if self.rollout_trials > 0 {
            return run_folders::rollout_set(
                self.seed,
                self.rollout_trials,
                self.rollouts_per_game,
                self.plan.map(|p| p.name()),
                self.rollout_window,
            );
        }
        run_folders::search_set(
            self.seed,
            self.target_ply,
            self.target_prune,
            self.race_only,
        )
    }
}

/// The networks a distillation trains on the teacher's positions.
///
/// The race network had only ever been trained by TD(λ) (kotra-v5's,
/// kept by every student since), and its 1-ply search was worse than its
/// 0-ply on the dev set's races, above all in gammon- and
/// backgammon-saving endings. Its own search values inherit those
/// errors, so rollouts (`race_rollout_trials`) are its targets of choice
/// (training/notes/notebook.md, "The race network").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DistillNets {
    /// The contact (and crashed) network; the teacher's race network is kept.
    #[default]
    Contact,
    /// The race network alone, from the race positions; the contact
    /// network stays the initial model's.
    Race,
    /// Both, each from its own positions.
    Both,
}

impl DistillNets {
    pub fn trains(self, kind: crate::eval::NetKind) -> bool {
        use crate::eval::NetKind;
        match self {
            DistillNets::Contact => kind != NetKind::Race,
            DistillNets::Race => kind == NetKind::Race,
            DistillNets::Both => true,
        }
    }
}

/// Which of a chunk's eligible contact positions get rollout targets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RolloutPick {
    /// Drawn by the seed, all alike.
    #[default]
    Random,
    /// Those where the teacher's static equity and its search value
    /// (the position's target) differ most. A perfect evaluator's static
    /// value is the mean of its search's, so the gap marks where the
    /// network contradicts itself: the back games and holding games whose
    /// leader it overrates are such positions, and a random draw reaches
    /// them a few at a time.
    Disagreement,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config {path}: {error}")]
    Read {
        path: std::path::PathBuf,
        error: std::io::Error,
    },
    #[error("config {path}: {message}")]
    Parse {
        path: std::path::PathBuf,
        message: String,
    },
    #[error("config: {0}")]
    Invalid(String),
}

impl TrainConfig {
    /// How the search targets are found.
    pub fn target_search(&self) -> super::selfplay::TargetSearch {
        super::selfplay::TargetSearch {
            ply: self.target_ply,
            prune: self.target_prune as usize,
            race_only: false,
        }
    }

    /// How the run's games choose their moves: its exploration and noise.
    pub fn move_policy(&self) -> super::selfplay::MovePolicy {
        super::selfplay::MovePolicy {
            exploration: self.exploration,
            noise: self.move_noise,
        }
    }

    pub fn load(path: &std::path::Path) -> Result<TrainConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
            path: path.to_owned(),
            error,
        })?;
        let config: TrainConfig = serde_json::from_str(&text).map_err(|e| ConfigError::Parse {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        config.validate()?;
        Ok(config)
    }

    /// The learning rate after `games` of the run's games.
    pub fn learning_rate_at(&self, games: u64) -> f64 {
        self.learning_rate_after((games as f64 / self.games.max(1) as f64).min(1.0))
    }

    /// The learning rate after `progress` (0 to 1) of the run.
    pub fn learning_rate_after(&self, progress: f64) -> f64 {
        decayed_rate(self.learning_rate, self.learning_rate_end, progress)
    }
}

/// A rate decaying geometrically from `start` to `end` (if any) as
/// `progress` goes from 0 to 1.
pub fn decayed_rate(start: f64, end: Option<f64>, progress: f64) -> f64 {
    match end {
        None => start,
        Some(end) => start * (end / start).powf(progress),
    }
}
