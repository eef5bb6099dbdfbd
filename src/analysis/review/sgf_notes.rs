//! A review as the notes of an annotated `.sgf`: gnubg's marks on each
//! checker play and cube decision, each roll's luck, and a comment with
//! the ranked alternatives or the cube's three equities. gnubg marks a
//! double, take or pass as the move of its node (`DO`, `BM`) and a missed
//! double on the move that followed (`DC`, `BC`).

use super::{DecisionKind, Review, Verdict};
use crate::notation::sgf::{Note, Notes};
use std::fmt::Write as _;

impl Review {
    /// One note per action judged, keyed as [`crate::notation::sgf::write`]
    /// looks them up.
    pub fn sgf_notes(&self) -> Notes {
        let mut notes = Notes::new();
        for v in &self.decisions {
            let note: &mut Note = notes.entry((v.game, v.action)).or_default();
            let level = mark_level(v);
            let comment = note.comment.get_or_insert_with(String::new);
            if !comment.is_empty() {
                comment.push('\n');
            }
            match v.kind {
                DecisionKind::Checker => {
                    note.move_mark = level;
                    note.luck = v.luck;
                    let _ = write!(comment, "kotra-ai {}-ply: {}", self.ply, v.played);
                    describe_loss(comment, v);
                    for (i, (text, equity)) in v.alternatives.iter().enumerate() {
                        let _ = write!(comment, "\n{}. {text} {equity:+.3}", i + 1);
                    }
                }
                DecisionKind::Double | DecisionKind::Take => {
                    // gnubg marks a double or an answer as that node's
                    // move, a chance to double missed on the move after it.
                    if v.played == "no double" {
                        note.cube_mark = level;
                    } else {
                        note.move_mark = level;
                    }
                    let _ = write!(comment, "kotra-ai {}-ply cube: {}", self.ply, v.played);
                    describe_loss(comment, v);
                    if let Some([nd, dt, dp]) = v.cube_equities {
                        let _ = write!(
                            comment,
                            "\nNo double {nd:+.3}, double/take {dt:+.3}, double/pass {dp:+.3}: {}",
                            v.best
                        );
                    }
                }
            }
        }
        notes
    }
}

/// 1 doubtful, 2 bad, 3 very bad.
fn mark_level(v: &Verdict) -> Option<u8> {
    match v.mark {
        Some("doubtful") => Some(1),
        Some("bad") => Some(2),
        Some("very bad") => Some(3),
        _ => None,
    }
}

fn describe_loss(comment: &mut String, v: &Verdict) {
    if v.loss > 0.0 {
        let _ = write!(comment, " (-{:.3}", v.loss);
        if let Some(m) = v.mark {
            let _ = write!(comment, ", {m}");
        }
        let _ = write!(comment, "; best {})", v.best);
    }
}
