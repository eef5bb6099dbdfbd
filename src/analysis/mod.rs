//! The one facade every front end goes through (the command line, the
//! UBGI engine, and next the match review and the HTTP server): plain
//! requests in, plain reports out. A front end parses its input into a
//! [`Setup`] and prints or serialises a report; it never assembles the
//! engine (move lists, cube states, searchers, rollouts) itself, so every
//! front end gives the same numbers for the same question.
//!
//! Reports derive `Serialize`; their JSON is what `kotra-ai ... --json`
//! prints (values rounded to six decimals there, never in the reports).

pub mod any_game;
mod explain;
mod report;
mod request;
mod review;

pub use explain::{BoardFacts, CubeExplanation, Explanation, Fact};
pub use report::{
    CandidateRollout, CubeReport, Estimate6, LegalMove, LegalMoves, MoveLine, MoveReport,
    MovesRollout, PositionRollout, RolledCube,
};
pub use request::{
    CheckedRollout, MAX_CANDIDATES, MAX_FOUR_PLAYER_PLY, MAX_OTHER_GAME_PLY, MAX_PLY,
    MAX_ROLLOUT_PLY, MAX_SCORE_PLY, MAX_TRIALS, RequestError, RolloutRequest, game_ply, score_ply,
    search_ply,
};
pub use review::{
    CLOSE_CUBE, CubeErrors, DecisionKind, GameSummary, MARKS, Marks, MatchPlayer, Outcome,
    PlayerSummary, Review, ReviewError, ReviewSettings, Verdict, Why, luck_words, mark, rating,
};

use crate::backgammon::{Dice, GameResult, MoveList, Setup, legal_moves as generate_moves};
use crate::cube::static_cube_decision;
use crate::cube::{CubeState, Stakes};
use crate::eval::{Evaluator, Probs};
use crate::notation::{move_text, position_id};
use crate::rollout::{RolloutSettings, cube_rollout, rollout_until};
use crate::search::{MoveFilter, Preselector, SearchSettings, Searcher};
use ndarray::Array2;

/// The depth a front end uses unless told otherwise: gnubg's world class.
/// Against 0-ply it more than halves the dev set's move error and takes a
/// third off its cube error for a few milliseconds a position
/// (BENCHMARKS.md): an analyst gets the best play without knowing the
/// setting.
pub const DEFAULT_PLY: u8 = 2;

/// How far the first pass over a roll's moves may fall behind the best and
/// still be rolled out (gnubg's world-class first filter).
pub const CANDIDATE_WINDOW: f32 = 0.16;

/// What a search values: cubeful equity (cube actions in the tree, the
/// cube's leaf values) or cubeless money equity (what gnubg's cubeless
/// hints and the oracle's move sets are labelled with).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Equity {
    Cubeful,
    Cubeless,
}

/// Why a question cannot be answered.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum AnalysisError {
    #[error("no legal move with {0}: nothing to roll out")]
    Forfeit(Dice),
    #[error("cubeful rollouts are money play only; leave out --cubeful for match scores")]
    CubefulMatch,
    #[error("{0}")]
    Settings(String),
    #[error("cancelled")]
    Cancelled,
}

/// Where a long job (a rollout's trials, a review's decisions) reports
/// how far it has come (a progress bar, a server's event stream).
pub trait TrialProgress {
    /// The trials the whole job will play, said once before the first.
    fn planned(&self, _trials: u64) {}
    /// `trials` more have finished.
    fn done(&self, trials: u64);
    /// Whether to stop now (someone cancelled): no more trials start, and
    /// the job answers [`AnalysisError::Cancelled`].
    fn cancelled(&self) -> bool {
        false
    }
}

/// No one listening.
impl TrialProgress for () {
    fn done(&self, _: u64) {}
}

/// A progress bar: its length is set when the trials are planned.
impl TrialProgress for indicatif::ProgressBar {
    fn planned(&self, trials: u64) {
        self.set_length(trials);
    }
    fn done(&self, trials: u64) {
        self.inc(trials);
    }
}

/// Every legal move of `dice` in `setup`, written as the engine writes
/// moves; no evaluation, so no [`Analyzer`] is needed.
pub fn legal_moves(setup: &Setup, dice: Dice) -> LegalMoves {
    let mut list = MoveList::new();
    generate_moves(&setup.position, dice, &mut list);
    let moves = if list.is_forfeit() {
        Vec::new()
    } else {
        list.iter()
            .map(|c| LegalMove {
                text: move_text::format(&setup.position, &c.play),
                position_id: position_id::encode(&c.position),
            })
            .collect()
    };
    LegalMoves { moves }
}

/// How many of a ranking's moves `analyze` explains.
pub const EXPLAINED: usize = 5;

/// Explains the first `top` moves of `report`: each against the best, and
/// the best against the second. Kept apart from ranking, which every
/// player and the review call per decision and which must stay cheap.
pub fn explain_top(report: &mut MoveReport, top: usize) {
    let ranked: Vec<explain::Ranked> = report
        .moves
        .iter()
        .take(top.max(2))
        .map_while(ranked)
        .collect();
    if ranked.len() < 2 {
        return;
    }
    let diff = |i: usize| report.moves[0].equity - report.moves[i].equity;
    let mut explanations: Vec<Explanation> = (1..ranked.len())
        .map(|i| explain::explain(&ranked[0], &ranked[i], diff(i)))
        .collect();
    // The best's own explanation is the one against the second.
    explanations.insert(0, explanations[0].clone());
    explanations.truncate(top);
    for (m, e) in report.moves.iter_mut().zip(explanations) {
        m.explanation = Some(e);
    }
}

/// A ranking's line as an explanation reads it.
fn ranked(m: &MoveLine) -> Option<explain::Ranked<'_>> {
    let after = position_id::decode(&m.position_id).ok()?;
    Some(explain::Ranked::new(&m.text, &after, m.probs))
}

/// Why `best` is ranked above `other` (two lines of one ranking).
pub fn explain_pair(best: &MoveLine, other: &MoveLine) -> Option<Explanation> {
    Some(explain::explain(
        &ranked(best)?,
        &ranked(other)?,
        best.equity - other.equity,
    ))
}

/// A finished game's result as probabilities for the side on roll.
fn finished_probs(position: &crate::backgammon::Position) -> Option<Probs> {
    match GameResult::of_finished(position)? {
        (true, result) => Some(Probs::won(result)),
        (false, result) => Some(Probs::won(result).flip()),
    }
}

/// How many positions a batch evaluates between looks at its
/// cancellation: small enough to stop within milliseconds, large enough
/// that a core's share of a batch is a few long runs.
const BATCH_CHUNK: usize = 4096;

/// The engine behind the front ends: an evaluator and one searcher per
/// kind of equity, each keeping its evaluation cache from question to
/// question.
pub struct Analyzer<'a> {
    eval: &'a Evaluator,
    cubeful: Searcher<'a>,
    cubeless: Searcher<'a>,
}

impl<'a> Analyzer<'a> {
    pub fn new(eval: &'a Evaluator) -> Analyzer<'a> {
        Analyzer {
            eval,
            cubeful: Searcher::new(eval),
            cubeless: Searcher::new(eval).with_cubeless(true),
        }
    }

    /// What pre-selects the replies inside the search tree, and how many
    /// (0 = the network sees every reply).
    pub fn set_preselection(&mut self, by: Preselector, keep: usize) {
        self.cubeful.set_preselection(by, keep);
        self.cubeless.set_preselection(by, keep);
    }

    fn searcher(&self, equity: Equity) -> &Searcher<'a> {
        match equity {
            Equity::Cubeful => &self.cubeful,
            Equity::Cubeless => &self.cubeless,
        }
    }

    /// Every legal move of `dice` ranked at `ply` (gnubg's world-class
    /// filters), best first. A forfeited roll gives no moves.
    pub fn rank_moves(&self, setup: &Setup, dice: Dice, ply: u8, equity: Equity) -> MoveReport {
        let before = &setup.position;
        let mut list = MoveList::new();
        generate_moves(before, dice, &mut list);
        let state = match equity {
            Equity::Cubeful => CubeState::from_setup(setup),
            Equity::Cubeless => CubeState::money(),
        };
        let ranked =
            self.searcher(equity)
                .rank_moves(&list, &state, &SearchSettings::world_class(ply));
        let moves = if list.is_forfeit() {
            Vec::new()
        } else {
            ranked
                .iter()
                .map(|r| MoveLine {
                    text: move_text::format(before, &list.as_slice()[r.index].play),
                    position_id: position_id::encode(&r.position),
                    equity: r.equity,
                    diff: r.equity - ranked[0].equity,
                    cubeless_equity: r.probs.equity(),
                    ply: r.ply,
                    probs: r.probs.0,
                    mwc: (!state.is_money()).then(|| state.denormalise(r.equity)),
                    explanation: None,
                    steps: list.as_slice()[r.index]
                        .play
                        .steps()
                        .map(|s| (s.from, s.to))
                        .collect(),
                })
                .collect()
        };
        MoveReport {
            ply,
            dice,
            money: state.is_money(),
            moves,
        }
    }

    /// Adds to `report` (the cube decision of `setup`) why its action
    /// follows: chances and gammon rates, the take point, market losers.
    pub fn explain_cube(&self, setup: &Setup, report: &mut CubeReport) {
        report.explanation = Some(explain::explain_cube(
            self.eval,
            &setup.position,
            &Probs(report.probs),
            &CubeState::from_setup(setup),
            &report.decision,
        ));
    }

    /// The cube decision before the roll for the side on roll (the
    /// doubler, if a double is pending), at `ply`.
    pub fn cube_decision(&self, setup: &Setup, ply: u8) -> CubeReport {
        let state = CubeState::from_setup(setup);
        let analysis = self
            .searcher(Equity::Cubeful)
            .cube_decision(&setup.position, &state, ply);
        CubeReport::new(ply, analysis.decision, analysis.probs, &state)
    }

    /// The luck of `dice` for the side on roll of `setup`: its value
    /// against the average roll's (of the non-doubles for a game's
    /// `opening` roll), money-normalised (see [`Searcher::roll_luck`]).
    pub fn luck(&self, setup: &Setup, dice: Dice, opening: bool) -> f32 {
        self.cubeful.roll_luck(
            &setup.position,
            dice,
            &CubeState::from_setup(setup),
            opening,
        )
    }

    /// The static cubeless probabilities of the side on roll; of a
    /// finished game (shown, not analysed), its result.
    pub fn evaluate(&self, setup: &Setup) -> Probs {
        match finished_probs(&setup.position) {
            Some(probs) => probs,
            None => self.cubeful.probs(&setup.position),
        }
    }

    /// The static cubeless probabilities of each position's side on roll,
    /// one row of five a position (win, win gammon, win backgammon, lose
    /// gammon, lose backgammon): a batch at the library's boundary, for
    /// callers that think in arrays (a server's batch request, a
    /// notebook); a finished game's row is its result. The rows are shared among all cores in chunks, each
    /// chunk evaluated straight by the network (a batch rarely repeats a
    /// position, so the search's cache would only cost); `progress` hears
    /// each chunk done and may cancel between chunks.
    pub fn evaluate_batch(
        &self,
        positions: &[crate::backgammon::Position],
        progress: &(dyn TrialProgress + Sync),
    ) -> Result<Array2<f32>, AnalysisError> {
        use rayon::prelude::*;
        progress.planned(positions.len() as u64);
        // A few chunks a thread, so that a batch of a thousand still
        // spreads over every core.
        let chunk = (positions.len() / (4 * rayon::current_num_threads())).clamp(64, BATCH_CHUNK);
        let mut out = vec![0f32; positions.len() * 5];
        out.par_chunks_mut(chunk * 5)
            .zip(positions.par_chunks(chunk))
            .for_each(|(rows, chunk)| {
                if progress.cancelled() {
                    return;
                }
                for (row, pos) in rows.chunks_exact_mut(5).zip(chunk) {
                    let probs = finished_probs(pos).unwrap_or_else(|| self.eval.probs(pos));
                    row.copy_from_slice(&probs.0);
                }
                progress.done(chunk.len() as u64);
            });
        if progress.cancelled() {
            return Err(AnalysisError::Cancelled);
        }
        Ok(Array2::from_shape_vec((positions.len(), 5), out).expect("five values a position"))
    }

    /// The best candidates of `dice` (at most `candidates` within
    /// [`CANDIDATE_WINDOW`] of the best at 0-ply), each rolled out on the
    /// same dice, best first. A cubeless rollout ranks and plays by
    /// cubeless equity; a cubeful one (money only) carries the cube.
    /// `progress` hears the total of trials once the candidates are
    /// chosen, then each trial done.
    pub fn rollout_candidates(
        &self,
        setup: &Setup,
        dice: Dice,
        candidates: usize,
        settings: &RolloutSettings,
        cubeful: bool,
        progress: &(dyn TrialProgress + Sync),
    ) -> Result<MovesRollout, AnalysisError> {
        let state = self.rollout_state(setup, cubeful)?;
        let mut list = MoveList::new();
        generate_moves(&setup.position, dice, &mut list);
        if list.is_forfeit() {
            return Err(AnalysisError::Forfeit(dice));
        }
        let searcher = self.searcher(if cubeful {
            Equity::Cubeful
        } else {
            Equity::Cubeless
        });
        let filter = SearchSettings {
            first: MoveFilter {
                keep: candidates,
                window: CANDIDATE_WINDOW,
            },
            ..SearchSettings::world_class(0)
        };
        let ranked = searcher.rank_moves(&list, &state, &filter);
        let chosen: Vec<_> = ranked
            .iter()
            .take(candidates)
            .filter(|r| r.equity >= ranked[0].equity - CANDIDATE_WINDOW)
            .collect();
        progress.planned(u64::from(settings.trials) * chosen.len() as u64);
        let tick = |n| progress.done(n);
        let stop = || progress.cancelled();
        let states: Vec<CubeState> = if cubeful {
            vec![state.swapped()]
        } else {
            vec![]
        };
        let mut rows: Vec<CandidateRollout> = chosen
            .iter()
            .map(|r| {
                let result = rollout_until(
                    searcher,
                    &r.position.swap(),
                    false,
                    &states,
                    settings,
                    &tick,
                    &stop,
                );
                CandidateRollout {
                    text: move_text::format(&setup.position, &list.as_slice()[r.index].play),
                    position_id: position_id::encode(&r.position),
                    result,
                }
            })
            .collect();
        if progress.cancelled() {
            return Err(AnalysisError::Cancelled);
        }
        rows.sort_by(|a, b| b.key().total_cmp(&a.key()));
        Ok(MovesRollout {
            dice,
            trials: settings.trials,
            seed: settings.seed,
            ply: settings.ply,
            move_filter: settings.searching_filter(),
            middle_filter: settings.one_ply_pass(),
            moves: rows,
        })
    }

    /// The position rolled out for the side on roll, with its cube
    /// decision: played inside the trials when `cubeful` (money only),
    /// else the cube model's on the rolled-out probabilities, as
    /// `cube_decision` takes it from the network's.
    pub fn rollout_position(
        &self,
        setup: &Setup,
        settings: &RolloutSettings,
        cubeful: bool,
        progress: &(dyn TrialProgress + Sync),
    ) -> Result<PositionRollout, AnalysisError> {
        let state = self.rollout_state(setup, cubeful)?;
        progress.planned(u64::from(settings.trials));
        let listener = progress;
        let stop = || listener.cancelled();
        let progress = |n| listener.done(n);
        let progress = &progress;
        let pos = &setup.position;
        if cubeful {
            let (d, result) = cube_rollout(
                self.searcher(Equity::Cubeful),
                pos,
                &state,
                settings,
                progress,
                &stop,
            );
            if listener.cancelled() {
                return Err(AnalysisError::Cancelled);
            }
            let cube = RolledCube::InTrials {
                no_double: result.cubeful[0].into(),
                double_take: result.cubeful[1].into(),
                double_pass: 1.0,
                action: d.action.to_string(),
                take: d.take.to_string(),
            };
            return Ok(PositionRollout::new(settings, result, Some(cube)));
        }
        let result = rollout_until(
            self.searcher(Equity::Cubeless),
            pos,
            true,
            &[],
            settings,
            progress,
            &stop,
        );
        if listener.cancelled() {
            return Err(AnalysisError::Cancelled);
        }
        // Rolled-out probabilities decide better than the static
        // network's (training/notes/notebook.md, "Back games by
        // rollouts").
        let probs = Probs(result.probs.map(|e| e.mean as f32)).consistent();
        let d = static_cube_decision(pos, &probs, &state);
        let cube = RolledCube::FromProbs(CubeReport::new(settings.ply, d, probs, &state));
        Ok(PositionRollout::new(settings, result, Some(cube)))
    }

    /// The cube state a rollout starts from; cubeful rollouts are money
    /// play only.
    fn rollout_state(&self, setup: &Setup, cubeful: bool) -> Result<CubeState, AnalysisError> {
        let state = CubeState::from_setup(setup);
        if cubeful && !matches!(state.stakes, Stakes::Money { .. }) {
            return Err(AnalysisError::CubefulMatch);
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::shipped_model;
    use crate::notation::parse_setup;

    #[test]
    fn the_kind_of_equity_is_a_setting_of_each_question_not_left_behind() {
        let eval = Evaluator::new(shipped_model().unwrap());
        let analyzer = Analyzer::new(&eval);
        // 4-away, 2-away with the cube centred: cubeful and cubeless differ.
        let setup = parse_setup("4HPwATDgc/ABMA:AQHgAEAAEAAE").unwrap();
        let dice = Dice::new(4, 2).unwrap();
        let cubeless = analyzer.rank_moves(&setup, dice, 1, Equity::Cubeless);
        let cubeful = analyzer.rank_moves(&setup, dice, 1, Equity::Cubeful);
        let again = analyzer.rank_moves(&setup, dice, 1, Equity::Cubeless);
        assert_eq!(cubeless, again);
        assert_ne!(cubeless.moves[0].equity, cubeful.moves[0].equity);
        // A cubeless ranking is money play: no match winning chances.
        assert!(cubeless.moves.iter().all(|m| m.mwc.is_none()));
        assert!(cubeful.moves.iter().all(|m| m.mwc.is_some()));
    }

    #[test]
    fn a_batch_is_one_evaluation_a_row() {
        let eval = Evaluator::new(shipped_model().unwrap());
        let analyzer = Analyzer::new(&eval);
        let positions: Vec<_> = ["4HPwATDgc/ABMA", "EwAAsAEAAAAAAA", "4P8PAAABAAAAAA"]
            .iter()
            .map(|id| crate::notation::position_id::decode(id).unwrap())
            .collect();
        let batch = analyzer.evaluate_batch(&positions, &()).unwrap();
        assert_eq!(batch.dim(), (3, 5));
        for (row, pos) in batch.rows().into_iter().zip(&positions) {
            assert_eq!(row.to_vec(), eval.probs(pos).0.to_vec());
        }
    }

    #[test]
    fn candidates_are_the_best_within_the_window_rolled_out_best_first() {
        let eval = Evaluator::new(shipped_model().unwrap());
        let analyzer = Analyzer::new(&eval);
        let setup = parse_setup("4HPwATDgc/ABMA").unwrap();
        let settings = RolloutSettings {
            trials: 36,
            ..RolloutSettings::default()
        };
        let rows = analyzer
            .rollout_candidates(&setup, Dice::new(3, 1).unwrap(), 3, &settings, false, &())
            .unwrap()
            .moves;
        assert!(!rows.is_empty() && rows.len() <= 3);
        assert!(rows.windows(2).all(|w| w[0].key() >= w[1].key()));
        assert!(rows.iter().any(|r| r.text == "8/5 6/5"));
        let report = analyzer.cube_decision(&setup, 0);
        assert_eq!(report.cube.action, "no double");
    }
}
