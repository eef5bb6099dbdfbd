//! Analysis and rollout speed: what a player waits for.
//!
//! - Analysis: the time to rank every legal move of a dev-set decision at
//!   a given ply (world-class filters) and to take the cube decision of the
//!   same position, each a fresh search as a single `analyze` would be.
//! - Rollout: whole games per second in 0-ply rollouts from the opening,
//!   with and without luck adjustment.

use crate::backgammon::{MoveList, Position, legal_moves};
use crate::cube::CubeState;
use crate::eval::Evaluator;
use crate::rollout::{RolloutSettings, rollout};
use crate::search::{Preselector, SearchSettings, Searcher};
use std::time::Instant;

/// Per-decision times in milliseconds, sorted.
pub struct Timings {
    pub ms: Vec<f64>,
}

impl Timings {
    fn new(mut ms: Vec<f64>) -> Timings {
        ms.sort_by(f64::total_cmp);
        Timings { ms }
    }

    pub fn quantile(&self, q: f64) -> f64 {
        if self.ms.is_empty() {
            return 0.0;
        }
        self.ms[((self.ms.len() - 1) as f64 * q).round() as usize]
    }

    pub fn mean(&self) -> f64 {
        self.ms.iter().sum::<f64>() / self.ms.len().max(1) as f64
    }
}

/// Times checker-play analysis and cube decisions at `ply` over
/// `decisions` (position and roll).
pub fn analysis(
    eval: &Evaluator,
    decisions: &[(Position, crate::backgammon::Dice)],
    ply: u8,
    prune: usize,
    by: Preselector,
) -> (Timings, Timings) {
    let fresh = || Searcher::new(eval).with_preselection(by, prune);
    let mut moves = Vec::with_capacity(decisions.len());
    let mut cubes = Vec::with_capacity(decisions.len());
    let mut list = MoveList::new();
    for (pos, dice) in decisions {
        let searcher = fresh();
        let start = Instant::now();
        legal_moves(pos, *dice, &mut list);
        let ranked = searcher.rank_moves(
            &list,
            &CubeState::money(),
            &SearchSettings::world_class(ply),
        );
        std::hint::black_box(ranked);
        moves.push(start.elapsed().as_secs_f64() * 1e3);
        let searcher = fresh();
        let start = Instant::now();
        std::hint::black_box(searcher.cube_decision(pos, &CubeState::money(), ply));
        cubes.push(start.elapsed().as_secs_f64() * 1e3);
    }
    (Timings::new(moves), Timings::new(cubes))
}

/// The time to explain the top moves ([`crate::analysis::explain_top`])
/// beside the time the facade takes to rank them at `ply`, and the time
/// to explain the cube decision beside the time to take it, decision by
/// decision: what the explanations add to an `analyze`.
pub fn explanation_cost(
    eval: &Evaluator,
    decisions: &[(Position, crate::backgammon::Dice)],
    ply: u8,
) -> [Timings; 4] {
    use crate::analysis::{Analyzer, EXPLAINED, Equity, explain_top};
    let [
        mut ranking,
        mut explaining,
        mut deciding,
        mut explaining_cube,
    ] = std::array::from_fn(|_| Vec::with_capacity(decisions.len()));
    for (pos, dice) in decisions {
        let analyzer = Analyzer::new(eval);
        let setup = crate::backgammon::Setup {
            position: *pos,
            info: Default::default(),
        };
        let start = Instant::now();
        let mut report = analyzer.rank_moves(&setup, *dice, ply, Equity::Cubeful);
        ranking.push(start.elapsed().as_secs_f64() * 1e3);
        let start = Instant::now();
        explain_top(&mut report, EXPLAINED);
        std::hint::black_box(report);
        explaining.push(start.elapsed().as_secs_f64() * 1e3);
        let start = Instant::now();
        let mut cube = analyzer.cube_decision(&setup, ply);
        deciding.push(start.elapsed().as_secs_f64() * 1e3);
        let start = Instant::now();
        analyzer.explain_cube(&setup, &mut cube);
        std::hint::black_box(cube);
        explaining_cube.push(start.elapsed().as_secs_f64() * 1e3);
    }
    [ranking, explaining, deciding, explaining_cube].map(Timings::new)
}

/// Games per second of a rollout of the opening position with
/// `settings`; `cubeful` carries a centred money cube through the trials.
/// The checker play searches as `kotra-ai rollout` plays it: cubeless
/// values in a cubeless rollout (as gnubg's), cubeful ones in a cubeful
/// one.
pub fn rollout_speed(
    eval: &Evaluator,
    settings: &RolloutSettings,
    cubeful: bool,
    prune: usize,
    by: Preselector,
) -> f64 {
    let searcher = Searcher::new(eval)
        .with_cubeless(!cubeful)
        .with_preselection(by, prune);
    // The bear-off tables load (or are built) on first use: outside the
    // clock, as in a long-running engine.
    crate::eval::bearoff::BearoffDb::get();
    crate::eval::bearoff_two_sided::TwoSidedDb::get();
    crate::cube::exact_bearoff::CubefulBearoff::get();
    let states = [CubeState::money()];
    let states: &[CubeState] = if cubeful { &states } else { &[] };
    let start = Instant::now();
    let r = rollout(
        &searcher,
        &Position::starting(),
        true,
        states,
        settings,
        &|_| {},
    );
    std::hint::black_box(r);
    settings.trials as f64 / start.elapsed().as_secs_f64()
}
