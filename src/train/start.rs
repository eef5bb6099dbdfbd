//! Where a run begins: a checkpoint resumed as it was left, or a fresh
//! one with its initial model (loaded, widened, given a student's
//! networks) and learners.

use super::checkpoint::Checkpoint;
use super::learner::Learners;
use super::{TrainConfig, TrainError, TrainOptions, description, distill};
use crate::eval::Model;
use std::path::Path;

/// The checkpoint at `ckpt_path`, with `opts`' config and games where
/// they may differ from it.
pub(super) fn resume(
    opts: &TrainOptions,
    ckpt_path: &Path,
) -> Result<(Checkpoint, Learners), TrainError> {
    if !ckpt_path.exists() {
        return Err(TrainError::NothingToResume(ckpt_path.to_path_buf()));
    }
    crate::atomic_file::remove_stale_temporaries(&opts.out_dir);
    let mut c = Checkpoint::load(ckpt_path)?;
    if let Some(given) = &opts.config {
        let mut same = given.clone();
        same.games = c.config.games;
        if same != c.config {
            return Err(TrainError::ConfigMismatch(ckpt_path.display().to_string()));
        }
        c.config.games = given.games;
    }
    if let Some(games) = opts.games {
        c.config.games = games;
    }
    let learners = Learners::restore(
        &c.model,
        &c.contact,
        &c.race,
        c.crashed.as_ref(),
        c.config.learner,
    )
    .map_err(TrainError::Restore)?;
    Ok((c, learners))
}

/// A new run's first checkpoint, in an output folder that holds none.
pub(super) fn fresh(
    opts: &TrainOptions,
    ckpt_path: &Path,
) -> Result<(Checkpoint, Learners), TrainError> {
    if ckpt_path.exists() {
        return Err(TrainError::Exists(opts.out_dir.clone()));
    }
    let mut cfg = opts.config.clone().unwrap_or_default();
    if let Some(games) = opts.games {
        cfg.games = games;
    }
    let mut model = initial_model(&cfg)?;
    let games_before = model.meta.games_trained;
    model.meta.description = description::describe(&cfg);
    let learners = Learners::new(&model, cfg.learner);
    let c = Checkpoint {
        config: cfg,
        step: 0,
        games_played: 0,
        prior_games: games_before,
        seconds: 0.0,
        previous: Some(model.clone()),
        contact: learners.contact.state(),
        race: learners.race.state(),
        crashed: learners.crashed.as_ref().map(|l| l.state()),
        averaged: None,
        model,
        curve: Vec::new(),
        pending: None,
    };
    Ok((c, learners))
}

/// The model a new run starts from, as its config asks.
fn initial_model(cfg: &TrainConfig) -> Result<Model, TrainError> {
    let mut model = match (&cfg.distill_teacher, &cfg.init_model) {
        (Some(_), Some(path)) => distill::refined_student(&Model::load(path)?, cfg.crashed_net),
        (Some(teacher), None) => distill::student(
            &Model::load(teacher)?,
            cfg.contact_hidden,
            cfg.contact_mid,
            cfg.seed,
        ),
        (None, Some(path)) => Model::load(path)?,
        (None, None) => Model::random(cfg.contact_hidden, cfg.race_hidden, cfg.seed)
            .with_fresh_contact(cfg.contact_hidden, cfg.contact_mid, cfg.seed),
    };
    if cfg.widen_contact > 0 {
        if cfg.widen_contact < model.contact.hidden {
            return Err(TrainError::Restore(format!(
                "widen_contact {} is narrower than the initial model's {} units",
                cfg.widen_contact, model.contact.hidden
            )));
        }
        model = model.with_wider_contact(cfg.widen_contact, cfg.seed);
    }
    if cfg.crashed_net && model.crashed.is_none() {
        model.crashed = Some(model.contact.clone());
    }
    if cfg.race_mid > 0 {
        model = model.with_fresh_race(cfg.race_hidden, cfg.race_mid, cfg.seed);
    }
    Ok(model)
}
