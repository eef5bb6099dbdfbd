//! A player's figures over a set of judged decisions (one game or the
//! whole match), as gnubg's match statistics and eXtreme Gammon's PR
//! count them.

use super::verdict::{DecisionKind, Verdict, luck_words, rating};
use serde::Serialize;

/// How many marks of each kind, over counted decisions.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Marks {
    pub doubtful: usize,
    pub bad: usize,
    pub very_bad: usize,
}

/// How many cube errors of each kind.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CubeErrors {
    pub missed_doubles: usize,
    pub wrong_doubles: usize,
    pub too_good: usize,
    pub wrong_takes: usize,
    pub wrong_passes: usize,
}

/// A player's figures. Error rates are mEMG (thousandths of a normalised
/// game) per counted decision, as gnubg prints them; the PR is eXtreme
/// Gammon's, 500 × equity lost per counted decision. Counted: every
/// checker play with more than one legal move, every double and answer
/// to a double, and every chance to double that was close (not doubling
/// was not better than doubling by [`super::CLOSE_CUBE`] or more).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerSummary {
    pub name: String,
    /// Counted decisions, checker and cube.
    pub decisions: usize,
    pub checker_decisions: usize,
    pub cube_decisions: usize,
    /// Normalised equity lost in all, and by kind.
    pub total_loss: f32,
    pub checker_loss: f32,
    pub cube_loss: f32,
    /// The same total in match winning chances (matches only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_loss_mwc: Option<f32>,
    pub error_rate: f32,
    pub checker_error_rate: f32,
    pub cube_error_rate: f32,
    pub pr: f32,
    pub marks: Marks,
    pub cube_errors: CubeErrors,
    /// gnubg's words for the error rate.
    pub rating: &'static str,
    /// The rolls whose luck is counted (every roll the player moved on).
    pub rolls: usize,
    /// Normalised luck in all, and per roll in mEMG.
    pub luck: f32,
    pub luck_rate: f32,
    /// gnubg's words for the luck rate.
    pub luck_words: &'static str,
}

impl PlayerSummary {
    /// `player`'s figures over `verdicts`.
    pub fn of(name: &str, player: u8, verdicts: &[Verdict]) -> PlayerSummary {
        let mine = || verdicts.iter().filter(move |v| v.player == player);
        let counted = || mine().filter(|v| v.counted);
        let checker = || counted().filter(|v| v.kind == DecisionKind::Checker);
        let cube = || counted().filter(|v| v.kind != DecisionKind::Checker);
        let checker_decisions = checker().count();
        let cube_decisions = cube().count();
        let checker_loss: f32 = checker().map(|v| v.loss).sum();
        let cube_loss: f32 = cube().map(|v| v.loss).sum();
        let decisions = checker_decisions + cube_decisions;
        let total_loss = checker_loss + cube_loss;
        let per = per_thousand;
        let error_rate = per(total_loss, decisions);
        let count_mark = |m: &str| counted().filter(|v| v.mark == Some(m)).count();
        let count_cube = |e: &str| mine().filter(|v| v.cube_error == Some(e)).count();
        let lucky: Vec<f32> = mine().filter_map(|v| v.luck).collect();
        let luck: f32 = lucky.iter().sum();
        let luck_rate = per(luck, lucky.len());
        PlayerSummary {
            name: name.to_string(),
            decisions,
            checker_decisions,
            cube_decisions,
            total_loss,
            checker_loss,
            cube_loss,
            total_loss_mwc: counted()
                .map(|v| v.loss_mwc)
                .try_fold(0.0, |sum, l| l.map(|l| sum + l)),
            error_rate,
            checker_error_rate: per(checker_loss, checker_decisions),
            cube_error_rate: per(cube_loss, cube_decisions),
            pr: error_rate / 2.0,
            marks: Marks {
                doubtful: count_mark("doubtful"),
                bad: count_mark("bad"),
                very_bad: count_mark("very bad"),
            },
            cube_errors: CubeErrors {
                missed_doubles: count_cube("missed double"),
                wrong_doubles: count_cube("wrong double"),
                too_good: count_cube("too good"),
                wrong_takes: count_cube("wrong take"),
                wrong_passes: count_cube("wrong pass"),
            },
            rating: rating(error_rate),
            rolls: lucky.len(),
            luck,
            luck_rate,
            luck_words: luck_words(luck_rate),
        }
    }
}

/// A player's result over the match or session and the same with the
/// luck of the dice taken out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// Money: net points per game. Match: the match winning chances the
    /// player ended with (1 or 0 for a finished match).
    pub result: f32,
    /// `result` less the luck of both sides' rolls in the same stakes
    /// (the player's own less the opponent's).
    pub luck_adjusted: f32,
}

/// One game's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameSummary {
    pub number: u32,
    /// The match score before the game (left, right; 0-0 for money).
    pub score: [u32; 2],
    /// Who won and how many points, where the file says.
    pub winner: Option<u8>,
    pub points: u32,
    pub players: Vec<PlayerSummary>,
}

/// Thousandths of a point per decision. A sum of losses can be −0.0
/// (a zero loss negated), which would print as "-0.0": adding +0.0 makes
/// every zero a plain one and leaves other values as they are.
fn per_thousand(loss: f32, n: usize) -> f32 {
    1000.0 * loss / n.max(1) as f32 + 0.0
}

#[cfg(test)]
mod per_thousand_tests {
    use super::per_thousand;

    #[test]
    fn a_negative_zero_rate_prints_as_zero() {
        assert_eq!(format!("{:.1}", per_thousand(-0.0, 5)), "0.0");
        assert_eq!(format!("{:.1}", per_thousand(-0.0, 0)), "0.0");
        assert_eq!(per_thousand(0.012, 4), 3.0);
        assert_eq!(per_thousand(-0.004, 2), -2.0);
    }
}
