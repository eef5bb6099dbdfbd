//! Rollouts: play a position out many times and average the results.
//!
//! - Every trial is seeded from (seed, trial index) and results are summed
//!   in trial order, so the same seed gives the same numbers to the last
//!   digit on any thread count.
//! - The first two rolls are stratified ([`Strata`]): every 36 trials see
//!   each first roll once and each second roll once, every 1296 trials
//!   each pair once, and with any number of trials a trial's second roll
//!   is uniform given its first. Candidates of one roll share trial seeds
//!   and strata (common random numbers), which sharpens their differences.
//! - Variance reduction: each roll's luck, the 0-ply value of the best
//!   play with that roll minus the average over all 21 rolls, is
//!   subtracted from the result. Its expectation is zero whatever the
//!   evaluator and whichever plays it weighs, so the estimate stays
//!   unbiased while most of the dice's noise cancels; the network weighs
//!   only the few plays PubEval pre-selects for each roll.
//! - Trials stop when the game ends, at truncation (then the evaluator
//!   scores the position), or in a bear-off, which the database settles.
//!   A cubeful trial's last position is worth what a search leaf is: the
//!   roller's best cube action first, so a roller past his cash point
//!   cashes.
//! - Cubeful rollouts (money play) carry each cube state of interest
//!   through the same dice; both sides double and take by cube decisions
//!   at the checker play's depth, as gnubg's and XG's rollouts are usually
//!   set. A turn whose static cube decision is far from a double
//!   ([`Searcher::double_out_of_reach`]) asks for no deeper one.

pub mod any_game;
pub mod strata;
mod trial;

use crate::backgammon::Position;
use crate::cube::{CubeDecision, CubeState};
use crate::search::{MoveFilter, OnePlyPass, SearchSettings, Searcher};
use rayon::prelude::*;
pub use strata::Strata;
use trial::{Trial, TrialResult};

/// A searching rollout's first move filter at `ply`: of the 0-ply pass
/// over a roll's moves, the ones its search values. Every move of every
/// trial is such a search, so this filter sets a searching rollout's
/// speed; it is narrower than the analysis' only at a ply where mirrored
/// duels showed the narrow play level with the analysis' (BENCHMARKS.md).
pub fn rollout_filter(ply: u8) -> MoveFilter {
    match ply {
        1 => MoveFilter {
            keep: 3,
            window: 0.06,
        },
        _ => SearchSettings::world_class(ply).first,
    }
}

/// A searching rollout's 1-ply pass at 2-ply, between the first filter
/// and the 2-ply search (the analysis skips it, as gnubg does). A 1-ply
/// pass walks one level of rolls where the 2-ply search walks two and
/// orders the moves much as 2-ply does, so at every move of every trial
/// it saves the 2-ply search of moves that would not be chosen. Its
/// filter is one that a mirrored 2-ply duel found level with skipping
/// it, where narrower ones lost (BENCHMARKS.md).
pub fn rollout_one_ply_pass(ply: u8) -> OnePlyPass {
    if ply >= 2 {
        OnePlyPass::Filter(MoveFilter {
            keep: 5,
            window: 0.1,
        })
    } else {
        OnePlyPass::Skip
    }
}

/// How to roll out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutSettings {
    pub trials: u32,
    /// Checker play inside the rollout (0 = the network alone).
    pub ply: u8,
    /// At ply 1 and deeper, which of the 0-ply pass's moves are searched
    /// (`None`: [`rollout_filter`] of the ply).
    pub filter: Option<MoveFilter>,
    /// At ply 2, the 1-ply pass between the first filter and the 2-ply
    /// search (`None`: [`rollout_one_ply_pass`] of the ply).
    pub middle: Option<OnePlyPass>,
    /// Stop after this many half-moves and score with the evaluator.
    pub truncate: Option<u32>,
    pub seed: u64,
    pub variance_reduction: bool,
}

impl RolloutSettings {
    /// The first move filter the trials' searching play goes through.
    pub fn move_filter(&self) -> MoveFilter {
        self.filter.unwrap_or_else(|| rollout_filter(self.ply))
    }

    /// The move filter the trials' searching play goes through; none at
    /// 0-ply, which does not search.
    pub fn searching_filter(&self) -> Option<MoveFilter> {
        (self.ply > 0).then(|| self.move_filter())
    }

    /// The 1-ply pass the trials' search makes, where its ply has one
    /// (2-ply and deeper).
    pub fn one_ply_pass(&self) -> Option<OnePlyPass> {
        (self.ply >= 2).then(|| {
            self.middle
                .unwrap_or_else(|| rollout_one_ply_pass(self.ply))
        })
    }
}

impl Default for RolloutSettings {
    fn default() -> Self {
        RolloutSettings {
            trials: 1296,
            ply: 0,
            filter: None,
            middle: None,
            truncate: None,
            seed: 1,
            variance_reduction: true,
        }
    }
}

/// A mean and its standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub se: f64,
}

impl Estimate {
    fn of(values: impl Iterator<Item = f64> + Clone) -> Estimate {
        let n = values.clone().count() as f64;
        if n == 0.0 {
            return Estimate::default();
        }
        let mean = values.clone().sum::<f64>() / n;
        let var = if n > 1.0 {
            values.map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        Estimate {
            mean,
            se: (var / n).sqrt(),
        }
    }
}

/// What a rollout measured, for the side it was asked about.
#[derive(Clone, Debug, PartialEq)]
pub struct RolloutResult {
    pub trials: u32,
    /// win, win gammon, win backgammon, lose gammon, lose backgammon.
    pub probs: [Estimate; 5],
    pub cubeless: Estimate,
    /// One per cube state asked for, in units of the starting cube.
    pub cubeful: Vec<Estimate>,
}

/// Rolls out a position before `start`'s roller rolls. Results are for
/// the side `for_roller` says: the roller, or (after a move, when `start`
/// is the opponent to roll) the mover. `states` are cube states from the
/// roller's view, carried through each trial for cubeful results.
pub fn rollout(
    searcher: &Searcher,
    start: &Position,
    for_roller: bool,
    states: &[CubeState],
    settings: &RolloutSettings,
    progress: &(dyn Fn(u64) + Sync),
) -> RolloutResult {
    rollout_until(
        searcher,
        start,
        for_roller,
        states,
        settings,
        progress,
        &|| false,
    )
}

/// [`rollout`] that plays no more trials once `stop` says so (a user
/// cancelled): the result then counts only the trials played, and is no
/// longer the same for the seed.
pub fn rollout_until(
    searcher: &Searcher,
    start: &Position,
    for_roller: bool,
    states: &[CubeState],
    settings: &RolloutSettings,
    progress: &(dyn Fn(u64) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> RolloutResult {
    let trial = Trial::new(searcher, settings, states);
    let results: Vec<TrialResult> = (0..settings.trials)
        .into_par_iter()
        .filter_map(|i| {
            if stop() {
                return None;
            }
            let r = trial.play(start, i);
            progress(1);
            Some(r)
        })
        .collect();
    let sign = if for_roller { 1.0 } else { -1.0 };
    let flip = |r: &TrialResult| {
        if for_roller {
            r.probs
        } else {
            let [w, wg, wbg, lg, lbg] = r.probs;
            [1.0 - w, lg, lbg, wg, wbg]
        }
    };
    let probs = std::array::from_fn(|k| Estimate::of(results.iter().map(|r| flip(r)[k])));
    let cubeless = Estimate::of(results.iter().map(|r| sign * r.equity));
    let unit = states.first().map_or(1.0, |s| s.value as f64);
    let cubeful = (0..states.len())
        .map(|j| Estimate::of(results.iter().map(move |r| sign * r.cubeful[j] / unit)))
        .collect();
    RolloutResult {
        trials: results.len() as u32,
        probs,
        cubeless,
        cubeful,
    }
}

/// A cube decision by cubeful rollout (money play): no double and
/// double/take rolled out over the same dice; double/pass is exact.
pub fn cube_rollout(
    searcher: &Searcher,
    pos: &Position,
    state: &CubeState,
    settings: &RolloutSettings,
    progress: &(dyn Fn(u64) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> (CubeDecision, RolloutResult) {
    let states = [*state, state.doubled()];
    let result = rollout_until(searcher, pos, true, &states, settings, progress, stop);
    let decision = CubeDecision::new(
        result.cubeful[0].mean as f32,
        result.cubeful[1].mean as f32,
        1.0,
        state.roller_may_double(),
        false,
    );
    (decision, result)
}
