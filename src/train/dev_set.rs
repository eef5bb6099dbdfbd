//! The oracle's development set of checker-play decisions: every legal
//! move with GNU Backgammon's 2-ply equity. Used only to measure (the
//! error of our choice in millipoints), never to train.

use crate::backgammon::{Dice, Position};
use crate::eval::Evaluator;
use crate::notation::position_id;
use std::path::Path;

/// One decision: the legal moves as after-positions (mover's view) with
/// gnubg's equity of each.
pub struct DevDecision {
    pub id: String,
    /// The position before the move, from the mover's view, and the roll.
    pub position: Position,
    pub dice: Dice,
    pub label: String,
    pub moves: Vec<(Position, f64)>,
}

#[derive(Debug, thiserror::Error)]
pub enum DevSetError {
    #[error("cannot read dev set {path}: {error}")]
    Read {
        path: std::path::PathBuf,
        error: std::io::Error,
    },
    #[error("dev set line {line}: {message}")]
    Line { line: usize, message: String },
}

pub struct DevSet {
    pub decisions: Vec<DevDecision>,
}

impl DevSet {
    pub fn load(path: &Path) -> Result<DevSet, DevSetError> {
        let text = std::fs::read_to_string(path).map_err(|error| DevSetError::Read {
            path: path.to_owned(),
            error,
        })?;
        let mut decisions = Vec::new();
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let bad = |message: String| DevSetError::Line {
                line: i + 1,
                message,
            };
            let v: serde_json::Value =
                serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
            let moves = v["moves"]
                .as_array()
                .ok_or_else(|| bad("no moves".into()))?
                .iter()
                .map(|m| {
                    let id = m["after_id"].as_str().ok_or("no after_id")?;
                    let pos = position_id::decode(id).map_err(|_| "bad after_id")?;
                    // A cubeless money equity: 1e308 or 1e999 (read as
                    // infinity) would turn every mean into inf or null.
                    let eq = m["eq"].as_f64().ok_or("no eq")?;
                    if !(eq.is_finite() && eq.abs() <= 3.0) {
                        return Err("eq must be a cubeless equity from -3 to 3");
                    }
                    Ok((pos, eq))
                })
                .collect::<Result<Vec<_>, &str>>()
                .map_err(|e| bad(e.into()))?;
            if moves.is_empty() {
                return Err(bad("no moves".into()));
            }
            let position = v["position_id"]
                .as_str()
                .and_then(|id| position_id::decode(id).ok())
                .ok_or_else(|| bad("no valid position_id".into()))?;
            let die = |k: usize| v["dice"][k].as_u64().unwrap_or(0) as u8;
            let dice = Dice::new(die(0), die(1)).ok_or_else(|| bad("no valid dice".into()))?;
            decisions.push(DevDecision {
                id: v["id"].as_str().unwrap_or("").into(),
                position,
                dice,
                label: v["label"].as_str().unwrap_or("").into(),
                moves,
            });
        }
        Ok(DevSet { decisions })
    }

    /// Mean error of the evaluator's 0-ply choice in millipoints per
    /// decision, as ../shared/oracle/score.py counts it.
    pub fn mean_error_mp(&self, eval: &Evaluator) -> f64 {
        let judged = self.judge(eval, 0);
        judged.iter().map(|j| j.error_mp).sum::<f64>() / judged.len().max(1) as f64
    }

    /// Each decision judged at `ply`, from one evaluation of every move.
    pub fn judge(&self, eval: &Evaluator, ply: u8) -> Vec<Judgement> {
        self.judge_reporting(eval, ply, &|_| {})
    }

    /// [`DevSet::judge`], calling `progress` with 1 after each decision.
    pub fn judge_reporting(
        &self,
        eval: &Evaluator,
        ply: u8,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Vec<Judgement> {
        use rayon::prelude::*;
        self.decisions
            .par_iter()
            .map(|d| {
                progress(1);
                // (our equity, gnubg's) of our choice and of gnubg's.
                let mut ours = (f32::NEG_INFINITY, 0.0);
                let mut gnubgs = (0.0, f64::NEG_INFINITY);
                for &(pos, eq) in &d.moves {
                    let e = crate::search::after_move(eval, &pos, ply).equity();
                    // Of moves we value equally, count the one gnubg
                    // likes least: the set lists moves best first, so
                    // keeping the first of equals scored a network that
                    // values every move the same as perfect.
                    if e > ours.0 || (e == ours.0 && eq < ours.1) {
                        ours = (e, eq);
                    }
                    // The last of gnubg's equal best, as the figures in
                    // training/notes/models-history.md were measured.
                    if eq >= gnubgs.1 {
                        gnubgs = (e, eq);
                    }
                }
                Judgement {
                    error_mp: (gnubgs.1 - ours.1) * 1000.0,
                    gap_mp: (f64::from(gnubgs.0) - gnubgs.1) * 1000.0,
                }
            })
            .collect()
    }
}

/// How the evaluator did on one decision, in millipoints.
#[derive(Clone, Copy, Debug)]
pub struct Judgement {
    /// gnubg's equity of its best move less its equity of ours, as
    /// ../shared/oracle/score.py counts it.
    pub error_mp: f64,
    /// Our equity of gnubg's best move's result less gnubg's own. Cube
    /// decisions need the equity itself right, not only the order of the
    /// moves: this is the bias behind a wrong take, measured on every
    /// decision of the set rather than on the few cube positions.
    pub gap_mp: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Model;

    fn one_decision(moves: Vec<(Position, f64)>) -> DevSet {
        DevSet {
            decisions: vec![DevDecision {
                id: "t".into(),
                position: Position::starting(),
                dice: Dice::new(3, 1).unwrap(),
                label: "opening".into(),
                moves,
            }],
        }
    }

    #[test]
    fn the_equity_gap_is_ours_minus_gnubgs_on_gnubgs_best_move() {
        let eval = Evaluator::new(Model::random(16, 8, 3));
        let best = Position::from_points(&[(8, 2), (6, 6), (5, 2)], &[(6, 5), (13, 5)]);
        let other = Position::from_points(&[(8, 3), (6, 5), (5, 1)], &[(6, 5), (13, 5)]);
        let ours = f64::from(crate::search::after_move(&eval, &best, 0).equity());
        // gnubg rates the best move 0.1 below our equity of it: we are 100 mp
        // too high, whatever the other move is worth.
        let set = one_decision(vec![(other, ours - 0.5), (best, ours - 0.1)]);
        let judged = set.judge(&eval, 0);
        assert_eq!(judged.len(), 1);
        assert!((judged[0].gap_mp - 100.0).abs() < 1e-3, "{judged:?}");
    }

    #[test]
    fn a_decision_without_moves_is_refused_with_its_line() {
        let dir = std::env::temp_dir().join(format!("kotra-devset-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("empty.jsonl");
        let line = r#"{"id":"x","position_id":"4HPwATDgc/ABMA","dice":[3,1],"label":"opening","moves":[]}"#;
        std::fs::write(&path, format!("\n{line}\n")).unwrap();
        let err = DevSet::load(&path).err().expect("refused").to_string();
        assert_eq!(err, "dev set line 2: no moves");
        // Equities past any game's worth, or past f64's, are refused too.
        for eq in ["1e308", "-3.5"] {
            let line = format!(
                r#"{{"id":"x","position_id":"4HPwATDgc/ABMA","dice":[3,1],"moves":[{{"after_id":"4HPwATDgc/ABMA","eq":{eq}}}]}}"#
            );
            std::fs::write(&path, line).unwrap();
            let err = DevSet::load(&path).err().expect("refused").to_string();
            assert_eq!(
                err, "dev set line 1: eq must be a cubeless equity from -3 to 3",
                "{eq}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn equal_values_count_as_the_worst_of_them() {
        // A network with zero output weights values every move alike.
        let mut model = Model::random(8, 8, 3);
        for net in [&mut model.contact, &mut model.race] {
            net.w2.fill(0.0);
        }
        let eval = Evaluator::new(model);
        let a = Position::from_points(&[(8, 2), (6, 6), (5, 2)], &[(6, 5), (13, 5)]);
        let b = Position::from_points(&[(8, 1), (6, 6), (5, 3)], &[(6, 5), (13, 5)]);
        let set = one_decision(vec![(a, 0.2), (b, -0.1)]);
        let j = set.judge(&eval, 0);
        assert!((j[0].error_mp - 300.0).abs() < 1e-6, "{}", j[0].error_mp);
    }
}
