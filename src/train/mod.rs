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
pub mod dev_set;
pub mod distill;
mod error;
pub mod lambda_returns;
pub mod learner;
mod options;
pub mod plan;
pub mod rollout_targets;
pub mod run_folders;
pub mod selfplay;
pub mod siblings;
mod step_report;
pub(crate) mod win_window;

use crate::eval::{Evaluator, Model};
use crate::seed::splitmix;
use checkpoint::Checkpoint;
pub use config::{ExtraSet, RolloutPick, TrainConfig};
use curve::CurvePoint;
use dev_set::DevSet;
pub use error::TrainError;
use learner::Learners;
pub use options::TrainOptions;
use std::path::Path;
use std::time::Instant;
use step_report::{Steps, measure, progress_bar};

/// File names inside a run's output folder.
pub const CHECKPOINT_FILE: &str = "checkpoint.bin";
pub const MODEL_FILE: &str = "model.net";

/// Runs (or continues) training until `config.games` games are played.
pub fn train(opts: &TrainOptions) -> Result<Checkpoint, TrainError> {
    let ckpt_path = opts.out_dir.join(CHECKPOINT_FILE);
    let dev = opts.dev_set.as_deref().map(DevSet::load).transpose()?;
    let (mut state, mut learners) = if opts.resume {
        if !ckpt_path.exists() {
            return Err(TrainError::NothingToResume(ckpt_path));
        }
        crate::atomic_file::remove_stale_temporaries(&opts.out_dir);
        let mut c = Checkpoint::load(&ckpt_path)?;
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
        (c, learners)
    } else {
        if ckpt_path.exists() {
            return Err(TrainError::Exists(opts.out_dir.clone()));
        }
        let mut cfg = opts.config.clone().unwrap_or_default();
        if let Some(games) = opts.games {
            cfg.games = games;
        }
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
        let games_before = model.meta.games_trained;
        model.meta.description = if let Some(teacher) = &cfg.distill_teacher {
            let from = cfg
                .init_model
                .as_ref()
                .map_or(String::new(), |init| format!(" into {}", init.display()));
            let mut rolled = String::new();
            if cfg.contact_rollout_trials > 0 {
                rolled += &format!(
                    ", {} contact positions a chunk rolled out ({} trials, weight {})",
                    cfg.contact_rollouts_per_chunk, cfg.contact_rollout_trials, cfg.rollout_weight
                );
                if let Some([lo, hi]) = cfg.contact_rollout_window {
                    rolled += &format!(", drawn where the win chance is {lo} to {hi}");
                }
                if cfg.contact_rollout_pick == RolloutPick::Disagreement {
                    rolled += ", those whose static and search values differ most";
                }
            }
            if cfg.sibling_moves > 0 {
                rolled += &format!(
                    ", siblings of {} positions a chunk (best {} plays)",
                    cfg.siblings_per_chunk, cfg.sibling_moves
                );
            }
            if cfg.race_rollout_trials > 0 {
                rolled += &format!(
                    ", race positions rolled out ({} trials)",
                    cfg.race_rollout_trials
                );
            }
            for set in &cfg.extra_sets {
                let pruned = match set.target_prune {
                    0 => String::new(),
                    k => format!(" ({k} replies a roll)"),
                };
                let by = set
                    .teacher
                    .as_ref()
                    .map_or(String::new(), |t| format!(" by {}", t.display()));
                let only = if set.race_only {
                    " (race positions only)"
                } else {
                    ""
                };
                let valued = if set.rollout_trials > 0 {
                    let plan = set.plan.map_or(String::new(), |p| format!(" {}", p.name()));
                    let window = set.rollout_window.map_or(String::new(), |[lo, hi]| {
                        format!(" with a win chance from {lo} to {hi}")
                    });
                    format!(
                        ": {}{plan} positions a game{window} rolled out ({} trials)",
                        set.rollouts_per_game, set.rollout_trials
                    )
                } else {
                    format!(" at {}-ply{pruned}{only}", set.target_ply)
                };
                rolled += &format!(
                    ", and {} games of seed {}{by}{valued}, weight {}",
                    set.games, set.seed, set.weight
                );
            }
            for dir in &cfg.banked_rollouts {
                rolled += &format!(", the rollouts banked in {}", dir.display());
            }
            for path in &cfg.database {
                rolled += &format!(
                    ", the position database {} (weight {})",
                    path.display(),
                    cfg.database_weight
                );
            }
            format!(
                "kotra-ai distillation of {}'s {}-ply search over {} of its games{from}{rolled}, config seed {}",
                teacher.display(),
                cfg.target_ply,
                cfg.games,
                cfg.seed
            )
        } else {
            // Every self-play method can overlap its steps.
            let overlap = if cfg.overlap_play {
                ", each step's games played during the step before's learning"
            } else {
                ""
            };
            let method = if cfg.rollout_trials > 0 {
                format!(
                    "kotra-ai self-play with {}-trial rollout targets",
                    cfg.rollout_trials
                )
            } else if cfg.target_ply > 0 {
                format!(
                    "kotra-ai self-play with {}-ply search targets",
                    cfg.target_ply
                )
            } else {
                "kotra-ai TD(λ) self-play".to_string()
            };
            format!("{method}{overlap}, config seed {}", cfg.seed)
        };
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
        (c, learners)
    };
    let cfg = state.config.clone();
    learners.drop_features(&cfg.drop_features);
    learners.export(&mut state.model);
    let plan = match cfg.plan() {
        plan::TrainPlan::Distill(plan) => {
            return distill::run(opts, &plan, state, learners, dev.as_ref());
        }
        plan::TrainPlan::SelfPlay(plan) => plan,
    };
    let bar = progress_bar(opts.progress, cfg.games, state.games_played, Steps::Games);
    let started = Instant::now();
    let base_seconds = state.seconds;
    let mut last_loss = learner::StepLoss::default();
    // An overlap_play run's next step's samples, played during this step's
    // learning.
    let mut ahead: Option<Vec<selfplay::Sample>> = None;
    while state.games_played < cfg.games {
        let games = cfg.games_per_step.min(cfg.games - state.games_played);
        let step_seed = seed_of_step(&cfg, state.step);
        let t0 = Instant::now();
        let samples = match ahead.take() {
            Some(samples) => samples,
            None => {
                let player = Evaluator::new(state.pending.as_ref().unwrap_or(&state.model).clone());
                play_step(&plan, &player, games, step_seed)
            }
        };
        let t1 = Instant::now();
        let rate = cfg.learning_rate_at(state.games_played);
        let pass = learner::AdamPass {
            batch: cfg.batch_size,
            epochs: cfg.epochs,
            lr: rate,
        };
        let next_games = cfg
            .games_per_step
            .min(cfg.games - state.games_played - games);
        // With overlap_play, the next step's games are always the weights'
        // from before this learning, whether played now or (on a resume,
        // or past a larger --games) later.
        let before_learning = plan.overlap_play.then(|| state.model.clone());
        let loss = match &before_learning {
            Some(model) if next_games > 0 => {
                let player = Evaluator::new(model.clone());
                let next_seed = seed_of_step(&cfg, state.step + 1);
                let (loss, next) = rayon::join(
                    || learners.train(&samples, pass, step_seed),
                    || play_step(&plan, &player, next_games, next_seed),
                );
                ahead = Some(next);
                loss
            }
            _ => learners.train(&samples, pass, step_seed),
        };
        state.pending = before_learning;
        last_loss = loss.or(last_loss);
        if std::env::var_os("KOTRA_TRAIN_TIMING").is_some() {
            // With overlap_play, "learn" is the learning and the next
            // step's games together.
            eprintln!(
                "step {}: {} samples, play {:.2} s, learn {:.2} s",
                state.step,
                samples.len(),
                (t1 - t0).as_secs_f64(),
                t1.elapsed().as_secs_f64()
            );
        }
        learners.export(&mut state.model);
        let before = state.games_played;
        state.games_played += games;
        state.step += 1;
        state.model.meta.games_trained = state.prior_games + state.games_played;
        if cfg.weight_average > 0.0 {
            let avg = state.averaged.get_or_insert_with(|| state.model.clone());
            average::blend(avg, &state.model, cfg.weight_average);
        }
        state.seconds = base_seconds + started.elapsed().as_secs_f64();
        state.keep_learners(&learners);
        let crossed = before / cfg.measure_every != state.games_played / cfg.measure_every;
        if crossed || state.games_played == cfg.games {
            let point = measure(&state, dev.as_ref(), last_loss);
            let line = format!(
                "{} games: {}, loss {:.4}/{:.4}/{:.4}",
                point.games,
                point.strength(),
                point.loss_contact,
                point.loss_race,
                point.loss_crashed
            );
            bar.suspend(|| eprintln!("{line}"));
            bar.set_message(format!(
                "PubEval {:+.3} ppg, dev {:.2} mp",
                point.ppg_pubeval, point.dev_mp
            ));
            state.record(point, &opts.out_dir)?;
        }
        state.save_all(&opts.out_dir)?;
        bar.set_position(state.games_played);
        bar.set_prefix(format!("loss {:.4}", last_loss.contact.unwrap_or(f64::NAN)));
    }
    bar.finish();
    Ok(state)
}

/// The seed of a self-play step's games and minibatch order.
fn seed_of_step(cfg: &TrainConfig, step: u64) -> u64 {
    splitmix(cfg.seed ^ splitmix(step.wrapping_add(1 << 40)))
}

/// One self-play step's games by `player`, with the plan's targets.
fn play_step(
    plan: &plan::SelfPlayPlan,
    player: &Evaluator,
    games: u64,
    seed: u64,
) -> Vec<selfplay::Sample> {
    match &plan.targets {
        plan::SelfPlayTargets::Rollouts(how) => {
            rollout_targets::play_games(player, games, seed, how)
        }
        plan::SelfPlayTargets::Returns {
            lambda,
            search,
            policy,
        } => selfplay::play_games(player, games, seed, *lambda, *policy, *search),
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
