//! The self-play loop: each step's games played by the current weights
//! (or, overlapping, by the weights before the last learning), learned
//! from, checkpointed and now and then measured.

use super::checkpoint::Checkpoint;
use super::dev_set::DevSet;
use super::learner::{self, Learners};
use super::step_report::{Steps, measure, progress_bar};
use super::{TrainConfig, TrainError, TrainOptions, average, plan, rollout_targets, selfplay};
use crate::eval::Evaluator;
use crate::seed::splitmix;
use std::time::Instant;

/// Plays and learns the steps of `plan` until the config's games are
/// played, from `state` on.
pub(super) fn run(
    opts: &TrainOptions,
    plan: &plan::SelfPlayPlan,
    mut state: Checkpoint,
    mut learners: Learners,
    dev: Option<&DevSet>,
) -> Result<Checkpoint, TrainError> {
    let cfg = state.config.clone();
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
                play_step(plan, &player, games, step_seed)
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
                    || play_step(plan, &player, next_games, next_seed),
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
            let point = measure(&state, dev, last_loss);
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
