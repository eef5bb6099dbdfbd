//! One judged decision of a played match, and the marks and words gnubg
//! gives to errors and error rates.

use serde::Serialize;

/// gnubg 1.07's thresholds (normalised equity lost): doubtful, bad, very
/// bad. `review --marks` may set others.
pub const MARKS: [f32; 3] = [0.030, 0.060, 0.120];

/// A cube decision where not doubling beats doubling by this much or more
/// (normalised) is obvious and not counted, as gnubg leaves out cube
/// decisions that are not close.
pub const CLOSE_CUBE: f32 = 0.16;

/// How many of the best moves a checker verdict keeps.
pub const ALTERNATIVES: usize = 5;

/// What kind of decision a verdict judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// A checker play.
    Checker,
    /// The roller's choice to double or not before a roll.
    Double,
    /// The answer to a double: take, pass or beaver.
    Take,
}

/// Why a decision's best choice is best, in counted facts and a
/// sentence; the JSON is the explanation itself (a move's or a cube
/// decision's), so that a reader finds `sentence` in either.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Why {
    Move(crate::analysis::Explanation),
    Cube(crate::analysis::CubeExplanation),
}

impl Why {
    pub fn sentence(&self) -> &str {
        match self {
            Why::Move(e) => &e.sentence,
            Why::Cube(e) => &e.sentence,
        }
    }
}

/// One decision judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    pub game: u32,
    /// The action's index in its game's record (not in the JSON; what
    /// an annotated `.sgf` hangs the verdict on).
    #[serde(skip)]
    pub action: usize,
    pub move_number: u32,
    pub line: usize,
    /// Who decided: 0 left, 1 right.
    pub player: u8,
    pub kind: DecisionKind,
    /// The position for `kotra-ai analyze` (`PositionID:MatchID`; the
    /// dice in it for a checker play, none for a cube decision, which is
    /// the doubler's before the roll).
    pub gnubg_id: String,
    /// The roll (checker plays only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<String>,
    /// What was played: the move, "no double", "double", "take", "pass"
    /// or "beaver".
    pub played: String,
    /// What should have been.
    pub best: String,
    /// The Position IDs after the played and after the best move, from
    /// the mover's view (checker plays that moved; not a forfeit), so a
    /// board can show both; a move that ends the game has one too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played_position_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_position_id: Option<String>,
    /// Normalised equity lost (0 when the best was played).
    pub loss: f32,
    /// "doubtful", "bad", "very bad" or none.
    pub mark: Option<&'static str>,
    /// Why the best choice is best (marked errors only): for a checker
    /// play the best move against the played one, for a cube decision
    /// why its action follows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Why>,
    /// Counted in the rates: not a forced move, not an obvious no double.
    pub counted: bool,
    /// For a cube error: "missed double", "wrong double", "too good" (a
    /// double where playing on for more was right), "wrong take", "wrong
    /// pass".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cube_error: Option<&'static str>,
    /// No double, double/take, double/pass (the doubler's normalised
    /// equities; cube decisions only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cube_equities: Option<[f32; 3]>,
    /// The same loss in match winning chances (matches only): the
    /// Kazaross-XG2 table's value of the equity lost at this score and cube.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_mwc: Option<f32>,
    /// The roll's luck for the mover, normalised (checker plays only; a
    /// game's opening roll against the average of the 30 non-doubles).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub luck: Option<f32>,
    /// The best moves at the review's ply with their normalised equities,
    /// best first (checker plays only, at most `ALTERNATIVES`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<(String, f32)>,
    /// The same luck in the stakes of the game: points (money, at the
    /// cube's value) or match winning chances (not in the JSON).
    #[serde(skip)]
    pub luck_stakes: f32,
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

/// gnubg's luck words by luck rate (mEMG per roll).
pub fn luck_words(luck_rate: f32) -> &'static str {
    match luck_rate {
        r if r > 60.0 => "go to Las Vegas",
        r if r > 30.0 => "good dice, man!",
        r if r > -30.0 => "none",
        r if r > -60.0 => "bad dice, man!",
        _ => "go to bed",
    }
}

/// The mark of an error of `loss` against `marks` (doubtful, bad, very bad).
pub fn mark(loss: f32, marks: &[f32; 3]) -> Option<&'static str> {
    match loss {
        l if l >= marks[2] => Some("very bad"),
        l if l >= marks[1] => Some("bad"),
        l if l >= marks[0] => Some("doubtful"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_words_follow_the_thresholds() {
        assert_eq!(mark(0.029, &MARKS), None);
        assert_eq!(mark(0.030, &MARKS), Some("doubtful"));
        assert_eq!(mark(0.07, &MARKS), Some("bad"));
        assert_eq!(mark(0.5, &MARKS), Some("very bad"));
        assert_eq!(mark(0.07, &[0.1, 0.2, 0.3]), None);
        assert_eq!(rating(1.9), "supernatural");
        assert_eq!(rating(4.9), "world class");
        assert_eq!(rating(40.0), "awful");
        assert_eq!(luck_words(0.0), "none");
        assert_eq!(luck_words(45.0), "good dice, man!");
        assert_eq!(luck_words(-70.0), "go to bed");
    }
}
