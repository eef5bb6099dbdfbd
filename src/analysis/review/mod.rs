//! Reviewing a played match, decision by decision: each checker play
//! against the best at the chosen ply, each cube decision (the roller's
//! double or no double before a roll, the answer to a double), and the
//! luck of every roll, all cubeful: money equity in a money session,
//! money-normalised match equity (Kazaross-XG2, Crawford and
//! post-Crawford) in a match. gnubg's marks and error rates, eXtreme
//! Gammon's PR, per player, per game and for the match.

mod sgf_notes;
mod summary;
mod verdict;

pub use summary::{CubeErrors, GameSummary, Marks, Outcome, PlayerSummary};
pub use verdict::{
    ALTERNATIVES, CLOSE_CUBE, DecisionKind, MARKS, Verdict, Why, luck_words, mark, rating,
};

use super::{Analyzer, Equity, TrialProgress};
use crate::backgammon::Setup;
use crate::cube::{CubeAction, CubeState, MatchEquityTable, TakeAnswer};
use crate::notation::mat::{Action, MatError, MatchRecord};
use crate::notation::match_replay::{Replayed, replay};
use crate::notation::{gnubg_id, position_id};
use rayon::prelude::*;
use serde::Serialize;

/// How a review judges.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReviewSettings {
    /// The depth of every checker play's and cube decision's analysis
    /// (luck is valued at 0-ply, as gnubg values it by default).
    pub ply: u8,
    /// Doubtful, bad and very bad, in normalised equity lost.
    pub marks: [f32; 3],
}

impl ReviewSettings {
    pub fn at(ply: u8) -> ReviewSettings {
        ReviewSettings { ply, marks: MARKS }
    }
}

/// A player's figures over the whole match, with the result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchPlayer {
    #[serde(flatten)]
    pub summary: PlayerSummary,
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// The whole review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Review {
    pub ply: u8,
    pub marks: [f32; 3],
    /// 0 for a money session.
    pub length: u32,
    pub players: Vec<MatchPlayer>,
    pub games: Vec<GameSummary>,
    /// Every checker play, every double and answer, and every close
    /// chance to double not taken, in file order.
    pub decisions: Vec<Verdict>,
}

/// A decision to judge, gathered from the replay.
enum Job {
    Checker {
        replayed: Replayed,
        opening: bool,
    },
    /// The roller's cube decision before a roll (`replayed` is the
    /// double, or the move that followed no double), with the answer
    /// when there was a double.
    Cube {
        replayed: Replayed,
        doubled: bool,
        answer: Option<Answer>,
    },
}

/// Why a match cannot be reviewed.
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum ReviewError {
    /// The file's moves do not replay.
    #[error(transparent)]
    Match(#[from] MatError),
    /// Its listener cancelled the review before the end.
    #[error("cancelled")]
    Cancelled,
}

/// The answer to a double: who, what ("take", "pass", "beaver"), and
/// where in the file.
#[derive(Clone, Copy)]
struct Answer {
    player: u8,
    action: usize,
    played: &'static str,
    line: usize,
    move_number: u32,
}

impl Analyzer<'_> {
    /// Reviews every decision of `record`, in parallel; the answer does
    /// not depend on the thread count (each decision is judged on its own,
    /// and the results are kept in file order). `progress` hears how many
    /// decisions there are once the match is replayed, then each one
    /// judged.
    pub fn review(
        &self,
        record: &MatchRecord,
        settings: &ReviewSettings,
        progress: &(dyn TrialProgress + Sync),
    ) -> Result<Review, ReviewError> {
        let jobs = gather(record)?;
        progress.planned(jobs.len() as u64);
        let decisions: Vec<Verdict> = jobs
            .par_iter()
            .map(|job| {
                // Cancelled: the decisions not yet started are skipped, so
                // the caller gets its answer within one decision's time.
                if progress.cancelled() {
                    return Vec::new();
                }
                let verdicts = match job {
                    Job::Checker { replayed, opening } => {
                        vec![self.judge_move(replayed, *opening, settings)]
                    }
                    Job::Cube {
                        replayed,
                        doubled,
                        answer,
                    } => self.judge_cube(replayed, *doubled, *answer, settings),
                };
                progress.done(1);
                verdicts
            })
            .flatten()
            .collect();
        if progress.cancelled() {
            return Err(ReviewError::Cancelled);
        }
        let games = record
            .games
            .iter()
            .map(|g| {
                let mine: Vec<Verdict> = decisions
                    .iter()
                    .filter(|d| d.game == g.number)
                    .cloned()
                    .collect();
                let won = g.actions.iter().find_map(|(_, _, a)| match a {
                    Action::Win { player, points } => Some((*player, *points)),
                    _ => None,
                });
                GameSummary {
                    number: g.number,
                    score: g.score,
                    winner: won.map(|w| w.0),
                    points: won.map_or(0, |w| w.1),
                    players: (0..2u8)
                        .map(|p| PlayerSummary::of(&record.players[p as usize], p, &mine))
                        .collect(),
                }
            })
            .collect::<Vec<_>>();
        let players = (0..2u8)
            .map(|p| MatchPlayer {
                summary: PlayerSummary::of(&record.players[p as usize], p, &decisions),
                outcome: outcome(record, &games, &decisions, p),
            })
            .collect();
        Ok(Review {
            ply: settings.ply,
            marks: settings.marks,
            length: record.length,
            players,
            games,
            decisions,
        })
    }

    fn judge_move(&self, r: &Replayed, opening: bool, settings: &ReviewSettings) -> Verdict {
        let Action::Move { player, dice, text } = &r.action else {
            unreachable!("a checker job is a move")
        };
        let setup = r.setup();
        let after = r.after.expect("a move has its position after");
        let report = self.rank_moves(&setup, *dice, settings.ply, Equity::Cubeful);
        let played_id = position_id::encode(&after);
        let played_line = report.moves.iter().find(|m| m.position_id == played_id);
        let best_line = report.moves.first();
        let loss = best_line.map_or(0.0, |best| {
            (best.equity - played_line.map_or(best.equity, |m| m.equity)).max(0.0)
        });
        // The played move in the engine's one notation (the file may say
        // `25/23`, `2/0 2/0` or list a double's four steps), so that played
        // and best read alike; a forfeit keeps the file's words.
        let played = played_line.map_or_else(|| text.clone(), |m| m.text.clone());
        let mark = mark(loss, &settings.marks);
        // A marked error is explained against the best move; the rest
        // (most decisions) cost nothing more.
        let explanation = match (mark, best_line, played_line) {
            (Some(_), Some(best), Some(played)) => super::explain_pair(best, played).map(Why::Move),
            _ => None,
        };
        let state = CubeState::from_setup(&setup);
        let mwc_scale = mwc_per_unit(&state);
        let luck = self.luck(&setup, *dice, opening);
        let luck_stakes = state.denormalise(luck) - state.denormalise(0.0);
        Verdict {
            game: r.game,
            action: r.index,
            move_number: r.move_number,
            line: r.line,
            player: *player,
            kind: DecisionKind::Checker,
            gnubg_id: gnubg_id::encode(&setup),
            dice: Some(dice.to_string()),
            played,
            best: best_line.map_or_else(String::new, |m| m.text.clone()),
            played_position_id: best_line.map(|_| played_id.clone()),
            best_position_id: best_line.map(|m| m.position_id.clone()),
            loss,
            mark,
            explanation,
            counted: report.moves.len() > 1,
            cube_error: None,
            cube_equities: None,
            luck: Some(luck),
            loss_mwc: mwc_scale.map(|k| loss * k),
            alternatives: report
                .moves
                .iter()
                .take(ALTERNATIVES)
                .map(|m| (m.text.clone(), m.equity))
                .collect(),
            luck_stakes,
        }
    }

    /// The doubler's verdict (left out when not doubling was obvious or
    /// the cube was not the roller's) and the answer's.
    fn judge_cube(
        &self,
        r: &Replayed,
        doubled: bool,
        answer: Option<Answer>,
        settings: &ReviewSettings,
    ) -> Vec<Verdict> {
        let mut setup: Setup = r.setup();
        setup.info.dice = [0, 0];
        if !doubled && !CubeState::from_setup(&setup).roller_may_double() {
            return Vec::new();
        }
        let mut report = self.cube_decision(&setup, settings.ply);
        let d = report.decision;
        let after_double = d.double_take.min(d.double_pass);
        let equities = [d.no_double, d.double_take, d.double_pass];
        let mwc_scale = mwc_per_unit(&CubeState::from_setup(&setup));
        let verdict = |player, kind, played: &str, best: String, loss: f32, error| Verdict {
            game: r.game,
            action: r.index,
            move_number: r.move_number,
            line: r.line,
            player,
            kind,
            gnubg_id: gnubg_id::encode(&setup),
            dice: None,
            played: played.to_string(),
            played_position_id: None,
            best_position_id: None,
            best,
            loss,
            mark: mark(loss, &settings.marks),
            explanation: None,
            counted: true,
            cube_error: (loss > 0.0).then_some(error),
            cube_equities: Some(equities),
            luck: None,
            loss_mwc: mwc_scale.map(|k| loss * k),
            alternatives: Vec::new(),
            luck_stakes: 0.0,
        };
        let mut out = Vec::new();
        let doubler = setup.info.on_roll;
        let best_action = d.action.to_string();
        if doubled {
            let error = match d.action {
                CubeAction::TooGoodTake | CubeAction::TooGoodPass => "too good",
                _ => "wrong double",
            };
            let loss = (d.optimal() - after_double).max(0.0);
            out.push(verdict(
                doubler,
                DecisionKind::Double,
                "double",
                best_action,
                loss,
                error,
            ));
        } else if after_double > d.no_double - CLOSE_CUBE {
            let loss = (d.optimal() - d.no_double).max(0.0);
            out.push(verdict(
                doubler,
                DecisionKind::Double,
                "no double",
                best_action,
                loss,
                "missed double",
            ));
        }
        if let Some(a) = answer {
            // The taker wants the doubler's equity low; a beaver is judged
            // as the take it contains.
            let (chosen, error) = match a.played {
                "pass" => (d.double_pass, "wrong pass"),
                _ => (d.double_take, "wrong take"),
            };
            let best = match d.take {
                TakeAnswer::Pass => "pass",
                _ => "take",
            };
            let mut v = verdict(
                a.player,
                DecisionKind::Take,
                a.played,
                best.to_string(),
                (chosen - after_double).max(0.0),
                error,
            );
            (v.line, v.move_number, v.action) = (a.line, a.move_number, a.action);
            out.push(v);
        }
        // A marked cube error is explained once for both sides' verdicts:
        // why the action follows, the taker's chances against its take
        // point included. The rest cost nothing more.
        if out.iter().any(|v| v.mark.is_some()) {
            self.explain_cube(&setup, &mut report);
            for v in out.iter_mut().filter(|v| v.mark.is_some()) {
                v.explanation = report.explanation.clone().map(Why::Cube);
            }
        }
        out
    }
}

/// What one unit of normalised equity is worth in match winning chances
/// (matches only; the normalisation is linear).
fn mwc_per_unit(state: &CubeState) -> Option<f32> {
    (!state.is_money()).then(|| state.denormalise(1.0) - state.denormalise(0.0))
}

/// Every decision of the match in file order: each move (after a cube
/// decision of its roller unless the turn began with a double) and each
/// double with its answer.
fn gather(record: &MatchRecord) -> Result<Vec<Job>, MatError> {
    let mut jobs = Vec::new();
    let mut game = 0;
    let mut moved = false;
    let mut turn_began_with_double = false;
    replay(record, |r| {
        if r.game != game {
            (game, moved, turn_began_with_double) = (r.game, false, false);
        }
        match &r.action {
            Action::Move { .. } => {
                if moved && !turn_began_with_double {
                    jobs.push(Job::Cube {
                        replayed: r.clone(),
                        doubled: false,
                        answer: None,
                    });
                }
                jobs.push(Job::Checker {
                    replayed: r.clone(),
                    opening: !moved,
                });
                (moved, turn_began_with_double) = (true, false);
            }
            Action::Double { .. } => {
                jobs.push(Job::Cube {
                    replayed: r.clone(),
                    doubled: true,
                    answer: None,
                });
                turn_began_with_double = true;
            }
            Action::Take { player } | Action::Drop { player } | Action::Beaver { player, .. } => {
                let played = match r.action {
                    Action::Take { .. } => "take",
                    Action::Drop { .. } => "pass",
                    _ => "beaver",
                };
                if let Some(Job::Cube { answer, .. }) = jobs.last_mut() {
                    answer.get_or_insert(Answer {
                        player: *player,
                        action: r.index,
                        played,
                        line: r.line,
                        move_number: r.move_number,
                    });
                }
            }
            Action::Win { .. } => {}
        }
    })?;
    Ok(jobs)
}

/// `player`'s result and luck-adjusted result: money in points per game,
/// a match in match winning chances at the end.
fn outcome(
    record: &MatchRecord,
    games: &[GameSummary],
    decisions: &[Verdict],
    player: u8,
) -> Outcome {
    let luck: f32 = decisions
        .iter()
        .map(|v| {
            if v.player == player {
                v.luck_stakes
            } else {
                -v.luck_stakes
            }
        })
        .sum();
    let mut score = [0u32; 2];
    for g in games {
        if let Some(w) = g.winner {
            score[w as usize] += g.points;
        }
    }
    let me = player as usize;
    if record.length == 0 {
        let n = games.len().max(1) as f32;
        let net = score[me] as f32 - score[1 - me] as f32;
        return Outcome {
            result: net / n,
            luck_adjusted: (net - luck) / n,
        };
    }
    let away = |p: usize| record.length as i32 - score[p] as i32;
    // Past the Crawford game when the last game began with a player 1-away.
    let post_crawford = games
        .last()
        .is_some_and(|g| g.score.iter().any(|&s| s + 1 == record.length));
    let result = MatchEquityTable::kazaross_xg2().equity(away(me), away(1 - me), post_crawford);
    Outcome {
        result,
        luck_adjusted: result - luck,
    }
}
