//! `kotra-ai train`: TD(λ) self-play on all cores with rayon, gradient
//! steps with burn, atomic checkpoints after every step, and regular
//! strength measurements (against PubEval, against the previous
//! measurement's network, and on the oracle's dev set).
//!
//! One step: the current weights play `games_per_step` games against
//! themselves; each position rolled from gets its λ-return as target; Adam
//! makes `epochs` passes over those samples; the new weights go back into
//! the fast inference path for the next step.

pub mod any_game;
pub mod average;
pub mod campaign;
pub mod checkpoint;
pub mod config;
mod config_checks;
pub mod curve;
pub mod database;
pub mod dense_adam;
mod description;
pub mod dev_set;
pub mod distill;
mod error;
pub mod lambda_returns;
pub mod learner;
mod options;
pub mod plan;
pub mod prune_net;
pub mod rollout_targets;
pub mod run_folders;
mod self_play_steps;
pub mod selfplay;
pub mod siblings;
mod start;
mod step_report;
pub(crate) mod win_window;

use crate::eval::Model;
use checkpoint::Checkpoint;
pub use config::{DatabaseEntry, ExtraSet, RolloutPick, TrainConfig};
use curve::CurvePoint;
pub use description::DATABASE_ENTRY;
use dev_set::DevSet;
pub use error::TrainError;
use learner::Learners;
pub use options::TrainOptions;
use std::path::Path;

/// File names inside a run's output folder.
pub const CHECKPOINT_FILE: &str = "checkpoint.bin";
pub const MODEL_FILE: &str = "model.net";

/// Runs (or continues) training until `config.games` games are played.
pub fn train(opts: &TrainOptions) -> Result<Checkpoint, TrainError> {
    let ckpt_path = opts.out_dir.join(CHECKPOINT_FILE);
    let dev = opts.dev_set.as_deref().map(DevSet::load).transpose()?;
    let (mut state, mut learners) = if opts.resume {
        start::resume(opts, &ckpt_path)?
    } else {
        start::fresh(opts, &ckpt_path)?
    };
    let cfg = state.config.clone();
    learners.drop_features(&cfg.drop_features);
    learners.export(&mut state.model);
    match cfg.plan() {
        plan::TrainPlan::Distill(plan) => distill::run(opts, &plan, state, learners, dev.as_ref()),
        plan::TrainPlan::SelfPlay(plan) => {
            self_play_steps::run(opts, &plan, state, learners, dev.as_ref())
        }
    }
}

impl Checkpoint {
    /// The learners' weights and optimizer moments, for the next save.
    fn keep_learners(&mut self, learners: &Learners) {
        self.contact = learners.contact.state();
        self.race = learners.race.state();
        self.crashed = learners.crashed.as_ref().map(|l| l.state());
    }

    /// Adds a measurement to the curve (rewriting its CSV and chart) and
    /// makes the measured model the next measurement's opponent.
    fn record(&mut self, point: CurvePoint, dir: &Path) -> Result<(), TrainError> {
        self.curve.push(point);
        self.previous = Some(self.published().clone());
        curve::write(dir, &self.curve).map_err(|error| TrainError::Write {
            path: dir.to_owned(),
            error,
        })
    }

    /// The checkpoint, then the plain model file beside it.
    fn save_all(&self, dir: &Path) -> Result<(), TrainError> {
        self.save(&dir.join(CHECKPOINT_FILE))?;
        Ok(self.published().save(&dir.join(MODEL_FILE))?)
    }

    /// The weights the run gives out and measures: the moving average when
    /// the config keeps one, else the current weights.
    pub fn published(&self) -> &Model {
        self.averaged.as_ref().unwrap_or(&self.model)
    }
}
