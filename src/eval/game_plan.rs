//! The kind of game a contact position is: the plans where a network
//! trained by plain self-play errs most (back games, holding games,
//! crashed boards) are visited rarely by its own play, so training looks
//! for them on purpose.

use crate::backgammon::{Position, Side};

/// A contact position's game plan, judged for both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GamePlan {
    /// No contact left.
    Race,
    /// A side holds two or more points in the other's home board.
    BackGame,
    /// A side's home board is crunching: at least seven of its checkers
    /// sit on its 1- to 3-points or are off while contact remains.
    Crashed,
    /// A side holds an anchor on the other's 4- to 7-point.
    Holding,
    /// Anything else with contact.
    Contact,
}

impl GamePlan {
    pub fn of(pos: &Position) -> GamePlan {
        if !pos.has_contact() {
            return GamePlan::Race;
        }
        let sides = [*pos, pos.swap()];
        if sides.iter().any(|p| anchors(p, 19..=24) >= 2) {
            GamePlan::BackGame
        } else if sides.iter().any(crunched) {
            GamePlan::Crashed
        } else if sides.iter().any(|p| anchors(p, 18..=21) >= 1) {
            GamePlan::Holding
        } else {
            GamePlan::Contact
        }
    }

    /// The plans a crashed network evaluates, when the model has one: a
    /// back game's or a crunched board's play (timing, holding on, saving
    /// the gammon) is unlike the rest of the contact game.
    pub fn is_crashed(self) -> bool {
        matches!(self, GamePlan::BackGame | GamePlan::Crashed)
    }

    /// `GamePlan::of(pos).is_crashed()` for a position with contact, read
    /// straight off the board for the evaluator's hot path (no swapped
    /// copy, no other plan worked out).
    #[inline]
    pub fn is_crashed_contact(pos: &Position) -> bool {
        let held = |n: u8| u8::from(n >= 2);
        let mover_back: u8 = (19..=24).map(|p| held(pos.mover_at(p))).sum();
        let opponent_back: u8 = (1..=6).map(|p| held(pos.opponent_at(p))).sum();
        if mover_back >= 2 || opponent_back >= 2 {
            return true;
        }
        let mover_deep: u8 = (1..=3).map(|p| pos.mover_at(p)).sum();
        let opponent_deep: u8 = (22..=24).map(|p| pos.opponent_at(p)).sum();
        let (mine, theirs) = pos.borne_off_both();
        mover_deep + mine >= 7 || opponent_deep + theirs >= 7
    }

    /// The plans self-play under-samples.
    pub fn is_hard(self) -> bool {
        matches!(
            self,
            GamePlan::BackGame | GamePlan::Crashed | GamePlan::Holding
        )
    }
}

/// Points in `points` (the mover's numbering) the mover holds with two or
/// more checkers.
fn anchors(pos: &Position, points: std::ops::RangeInclusive<usize>) -> usize {
    points.filter(|&p| pos.mover_at(p) >= 2).count()
}

fn crunched(pos: &Position) -> bool {
    let deep: u8 = (1..=3).map(|p| pos.mover_at(p)).sum();
    deep + pos.borne_off(Side::Mover) >= 7
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_of_typical_positions() {
        assert_eq!(GamePlan::of(&Position::starting()), GamePlan::Contact);
        // Anchors on the opponent's 1- and 3-points, far behind.
        let back = Position::from_points(
            &[(24, 2), (22, 3), (13, 4), (6, 3), (8, 3)],
            &[(6, 5), (5, 4), (4, 3), (8, 3)],
        );
        assert_eq!(GamePlan::of(&back), GamePlan::BackGame);
        // Seen from the other side the plan is the same.
        assert_eq!(GamePlan::of(&back.swap()), GamePlan::BackGame);
        // The opponent holds its 20-point (our 5-point) anchor.
        let holding = Position::from_points(
            &[(13, 5), (8, 4), (6, 6)],
            &[(20, 2), (13, 5), (8, 3), (6, 5)],
        );
        assert_eq!(GamePlan::of(&holding), GamePlan::Holding);
        // Seven checkers on our 1- to 3-points with a checker still back.
        let crashed = Position::from_points(&[(24, 1), (3, 3), (2, 3), (1, 2), (6, 6)], &[(6, 15)]);
        assert_eq!(GamePlan::of(&crashed), GamePlan::Crashed);
        assert!(GamePlan::BackGame.is_hard() && !GamePlan::Contact.is_hard());
        assert!(GamePlan::Crashed.is_crashed() && !GamePlan::Holding.is_crashed());
        let race = Position::from_points(&[(6, 15)], &[(6, 15)]);
        assert_eq!(GamePlan::of(&race), GamePlan::Race);
    }
}
