//! Targets from rollouts of our own play: self-play games supply
//! positions, a few per game are chosen (the game plans self-play rarely
//! reaches weigh more), and each is played out to the end many times by
//! the current network at 0-ply, with variance reduction. A rollout sees
//! past the network's blind spots where a TD target, bootstrapped from the
//! same network a move later, cannot: a back game's fate is decided dozens
//! of moves on.

use super::selfplay::{MovePolicy, Sample, play_game};
use super::win_window;
use crate::eval::game_plan::GamePlan;
use crate::eval::{Evaluator, NetKind, Probs};
use crate::rollout::{RolloutSettings, rollout};
use crate::search::Searcher;
use crate::seed::splitmix;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rayon::prelude::*;

/// How the positions are chosen and rolled out.
#[derive(Clone, Copy, Debug)]
pub struct RolloutTargets {
    /// Trials per position (stratified over the first roll).
    pub trials: u32,
    /// Positions taken from each self-play game.
    pub per_game: u32,
    /// How much more likely a position in a hard game plan is chosen.
    pub hard_weight: f32,
    /// Only positions of this plan are chosen (a game without one gives
    /// none).
    pub plan: Option<GamePlan>,
    /// Only positions whose side on roll the network gives a win chance in
    /// `[lo, hi]`: the doubling window, where the cube's decisions rest on
    /// the probabilities.
    pub window: Option<[f32; 2]>,
    /// How the games that supply the positions are played.
    pub policy: MovePolicy,
}

/// Plays `games` self-play games and returns the rolled-out samples of
/// the positions chosen from them; game `i` depends on `seed` and `i`
/// alone, so the result does not depend on the thread count.
pub fn play_games(eval: &Evaluator, games: u64, seed: u64, how: &RolloutTargets) -> Vec<Sample> {
    let chosen: Vec<(Sample, u64)> = (0..games)
        .into_par_iter()
        .map(|i| {
            let game_seed = splitmix(seed ^ splitmix(i));
            let mut rng = SmallRng::seed_from_u64(game_seed);
            // The positions are what is wanted; the game's own λ-returns
            // are replaced by rollouts below.
            let samples = play_game(eval, &mut rng, 1.0, how.policy);
            choose(eval, &samples, how, &mut rng)
                .into_iter()
                .enumerate()
                .map(|(k, s)| (s, splitmix(game_seed ^ (k as u64 + 1))))
                .collect::<Vec<_>>()
        })
        .flatten_iter()
        .collect();
    let searcher = Searcher::new(eval);
    chosen
        .into_par_iter()
        .map(|(sample, seed)| Sample {
            target: rolled_out(&searcher, &sample, how.trials, seed),
            ..sample
        })
        .collect()
}

/// Up to `per_game` contact positions of one game, drawn without
/// replacement with weight `hard_weight` for hard game plans and 1 for
/// the rest.
fn choose(
    eval: &Evaluator,
    samples: &[Sample],
    how: &RolloutTargets,
    rng: &mut SmallRng,
) -> Vec<Sample> {
    let pool: Vec<&Sample> = samples
        .iter()
        .filter(|s| {
            s.kind != NetKind::Race
                && how.plan.is_none_or(|p| GamePlan::of(&s.position) == p)
                && how
                    .window
                    .is_none_or(|w| win_window::contains(w, eval.probs(&s.position).win()))
        })
        .collect();
    let weight = |s: &&Sample| {
        if GamePlan::of(&s.position).is_hard() {
            how.hard_weight
        } else {
            1.0
        }
    };
    pool.sample_weighted(rng, how.per_game as usize, weight)
        .expect("weights are positive and finite (the config is validated)")
        .map(|s| **s)
        .collect()
}

/// `samples` with rollout targets of `trials` trials each (sample `k`'s
/// seeded from `seed` and `k` alone, so the result does not depend on
/// the thread count).
pub fn rolled_out_all(eval: &Evaluator, samples: &[Sample], trials: u32, seed: u64) -> Vec<Sample> {
    let searcher = Searcher::new(eval);
    samples
        .par_iter()
        .enumerate()
        .map(|(k, sample)| Sample {
            target: rolled_out(
                &searcher,
                sample,
                trials,
                splitmix(seed ^ splitmix(k as u64)),
            ),
            ..*sample
        })
        .collect()
}

/// The rollout probabilities of `sample`'s position for its roller.
pub(crate) fn rolled_out(searcher: &Searcher, sample: &Sample, trials: u32, seed: u64) -> Probs {
    let settings = RolloutSettings {
        trials,
        ply: 0,
        filter: None,
        middle: None,
        truncate: None,
        seed,
        // Luck adjustment costs about 2.5 times a plain trial in a race
        // and 8 to 9 times in contact (bench rollout: 86-91 against
        // 650-845 games/s), and cuts the standard error of a race's
        // winning chance some 36 times (25,920 trials: 0.00002 against
        // 0.00076), so a few trials make a sharp target.
        variance_reduction: true,
    };
    let r = rollout(searcher, &sample.position, true, &[], &settings, &|_| {});
    Probs(r.probs.map(|e| e.mean as f32)).consistent()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Model;

    #[test]
    fn a_plan_chooses_only_its_own_positions() {
        // About a third of the shipped network's noisy games reach a back
        // game.
        let eval = Evaluator::new(crate::eval::shipped_model().unwrap());
        let how = RolloutTargets {
            trials: 2,
            per_game: 2,
            hard_weight: 1.0,
            plan: Some(GamePlan::BackGame),
            window: None,
            policy: MovePolicy {
                exploration: 0.0,
                noise: 0.1,
            },
        };
        let chosen = play_games(&eval, 12, 3, &how);
        assert!(!chosen.is_empty() && chosen.len() < 24, "{}", chosen.len());
        assert!(
            chosen
                .iter()
                .all(|s| GamePlan::of(&s.position) == GamePlan::BackGame)
        );
        let any = play_games(&eval, 12, 3, &RolloutTargets { plan: None, ..how });
        assert!(
            any.iter()
                .any(|s| GamePlan::of(&s.position) != GamePlan::BackGame),
            "without a plan the other positions are chosen too"
        );
        let window = [0.55, 0.9];
        let windowed = play_games(
            &eval,
            12,
            3,
            &RolloutTargets {
                plan: None,
                window: Some(window),
                ..how
            },
        );
        assert!(!windowed.is_empty());
        assert!(windowed.iter().all(|s| {
            let win = eval.probs(&s.position).win();
            (window[0]..=window[1]).contains(&win)
        }));
    }

    #[test]
    fn rollout_targets_are_consistent_and_reproducible() {
        let eval = Evaluator::new(Model::random(16, 8, 3));
        let how = RolloutTargets {
            trials: 36,
            per_game: 3,
            hard_weight: 4.0,
            plan: None,
            window: None,
            policy: MovePolicy {
                exploration: 0.1,
                noise: 0.0,
            },
        };
        let a = play_games(&eval, 2, 9, &how);
        assert!(!a.is_empty() && a.len() <= 6);
        for s in &a {
            assert_ne!(s.kind, NetKind::Race);
            let [w, wg, wbg, lg, lbg] = s.target.0;
            assert!(wbg <= wg && wg <= w && lbg <= lg && lg <= 1.0 - w, "{s:?}");
        }
        let b = play_games(&eval, 2, 9, &how);
        let same = a
            .iter()
            .zip(&b)
            .all(|(x, y)| x.position == y.position && x.target == y.target);
        assert!(same && a.len() == b.len());
    }
}
