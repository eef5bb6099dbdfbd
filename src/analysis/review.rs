//! Reviewing a played match, decision by decision: each checker play
//! against the best at the chosen ply (cubeful: money equity in a money
//! session, money-normalised match equity in a match), with gnubg's marks
//! and error rates per player. Cube decisions and luck are not judged yet.

use super::{Analyzer, Equity};
use crate::notation::mat::{Action, MatError, MatchRecord, Replayed, replay};
use crate::notation::{gnubg_id, position_id};
use rayon::prelude::*;
use serde::Serialize;

/// gnubg 1.07's thresholds (normalised equity lost): doubtful, bad, very bad.
pub const MARKS: [f32; 3] = [0.030, 0.060, 0.120];

/// One checker play judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveVerdict {
    pub game: u32,
    pub move_number: u32,
    pub line: usize,
    /// 0 left, 1 right.
    pub player: u8,
    /// The decision for `kotra-ai analyze` (`PositionID:MatchID`, dice in it).
    pub gnubg_id: String,
    pub dice: String,
    pub played: String,
    pub best: String,
    /// Normalised equity lost (0 when the best was played).
    pub loss: f32,
    /// "doubtful", "bad", "very bad" or none.
    pub mark: Option<&'static str>,
    /// Only one legal play (not counted in the rates).
    pub forced: bool,
}

/// A player's figures over the match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerSummary {
    pub name: String,
    /// Unforced checker plays judged.
    pub decisions: usize,
    /// Normalised equity lost in all.
    pub total_loss: f32,
    /// mEMG per unforced decision, as gnubg prints it.
    pub error_rate: f32,
    pub checker_error_rate: f32,
    /// eXtreme Gammon's performance rating: 500 × equity lost per counted
    /// decision (here the unforced checker plays).
    pub pr: f32,
    pub marks: Marks,
    /// gnubg's words for the error rate.
    pub rating: &'static str,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Marks {
    pub doubtful: usize,
    pub bad: usize,
    pub very_bad: usize,
}

/// The whole review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Review {
    pub ply: u8,
    pub players: Vec<PlayerSummary>,
    pub decisions: Vec<MoveVerdict>,
}

/// gnubg's rating words by error rate (mEMG).
pub fn rating(error_rate: f32) -> &'static str {
    match error_rate {
        r if r < 2.0 => "supernatural",
        r if r < 5.0 => "world class",
        r if r < 8.0 => "expert",
        r if r < 12.0 => "advanced",
        r if r < 18.0 => "intermediate",
        r if r < 26.0 => "casual",
        r if r < 35.0 => "beginner",
        _ => "awful",
    }
}

fn mark(loss: f32) -> Option<&'static str> {
    match loss {
        l if l >= MARKS[2] => Some("very bad"),
        l if l >= MARKS[1] => Some("bad"),
        l if l >= MARKS[0] => Some("doubtful"),
        _ => None,
    }
}

impl Analyzer<'_> {
    /// Reviews every checker play of `record` at `ply`, in parallel; the
    /// answer does not depend on the thread count (each decision is judged
    /// on its own, and the results are kept in file order).
    pub fn review(
        &self,
        record: &MatchRecord,
        ply: u8,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Review, MatError> {
        let mut moves: Vec<Replayed> = Vec::new();
        replay(record, |r| {
            if r.after.is_some() {
                moves.push(r.clone());
            }
        })?;
        let decisions: Vec<MoveVerdict> = moves
            .par_iter()
            .map(|r| {
                let verdict = self.judge_move(r, ply);
                progress(1);
                verdict
            })
            .collect();
        let players = (0..2u8)
            .map(|p| summary(&record.players[p as usize], p, &decisions))
            .collect();
        Ok(Review {
            ply,
            players,
            decisions,
        })
    }

    fn judge_move(&self, r: &Replayed, ply: u8) -> MoveVerdict {
        let Action::Move { player, dice, text } = &r.action else {
            unreachable!("only moves are judged")
        };
        let setup = r.setup();
        let after = r.after.expect("a move has its position after");
        let report = self.rank_moves(&setup, *dice, ply, Equity::Cubeful);
        let played_id = position_id::encode(&after);
        let (loss, best) = match report.moves.first() {
            Some(best) => {
                let played = report
                    .moves
                    .iter()
                    .find(|m| m.position_id == played_id)
                    .map_or(best.equity, |m| m.equity);
                ((best.equity - played).max(0.0), best.text.clone())
            }
            None => (0.0, String::new()),
        };
        MoveVerdict {
            game: r.game,
            move_number: r.move_number,
            line: r.line,
            player: *player,
            gnubg_id: gnubg_id::encode(&setup),
            dice: dice.to_string(),
            played: text.clone(),
            best,
            loss,
            mark: mark(loss),
            forced: report.moves.len() <= 1,
        }
    }
}

fn summary(name: &str, player: u8, decisions: &[MoveVerdict]) -> PlayerSummary {
    let counted: Vec<&MoveVerdict> = decisions
        .iter()
        .filter(|d| d.player == player && !d.forced)
        .collect();
    let total_loss: f32 = counted.iter().map(|d| d.loss).sum();
    let n = counted.len().max(1) as f32;
    let error_rate = 1000.0 * total_loss / n;
    let count = |m: &str| counted.iter().filter(|d| d.mark == Some(m)).count();
    PlayerSummary {
        name: name.to_string(),
        decisions: counted.len(),
        total_loss,
        error_rate,
        checker_error_rate: error_rate,
        pr: 500.0 * total_loss / n,
        marks: Marks {
            doubtful: count("doubtful"),
            bad: count("bad"),
            very_bad: count("very bad"),
        },
        rating: rating(error_rate),
    }
}
