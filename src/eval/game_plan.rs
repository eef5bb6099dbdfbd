//! The kind of game a contact position is: the plans where a network
//! trained by plain self-play errs most (back games, holding games,
//! crashed boards) are visited rarely by its own play, so training looks
//! for them on purpose.

use crate::backgammon::{BAR, Position};

/// A contact position's game plan, judged for both sides. Named in
/// training configs in snake case (`"back_game"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
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
            GamePlan::Race
        } else if back_game(pos) {
            GamePlan::BackGame
        } else if crunched(pos) {
            GamePlan::Crashed
        } else if holding(pos) {
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

    /// `GamePlan::of(pos).is_crashed()` for a position with contact,
    /// without working out the other plans: the evaluator asks on every
    /// contact evaluation.
    #[inline]
    pub fn is_crashed_contact(pos: &Position) -> bool {
        back_game(pos) || crunched(pos)
    }

    /// The name configs use (the serde name).
    pub fn name(self) -> &'static str {
        match self {
            GamePlan::Race => "race",
            GamePlan::BackGame => "back_game",
            GamePlan::Crashed => "crashed",
            GamePlan::Holding => "holding",
            GamePlan::Contact => "contact",
        }
    }

    /// The plans self-play under-samples.
    pub fn is_hard(self) -> bool {
        matches!(
            self,
            GamePlan::BackGame | GamePlan::Crashed | GamePlan::Holding
        )
    }
}

/// A priming battle that turns on timing, who must break first: both
/// sides hold a prime (`TIMING_PRIME` or more points in a row) with a
/// checker of the other trapped behind it, or a side priming a checker
/// must itself enter from the bar. A search a couple of rolls deep cannot
/// see who cracks, and greedy self-play seldom reaches these games, so
/// the networks misjudge them most among contact positions.
pub fn is_timing_battle(pos: &Position) -> bool {
    if !pos.has_contact() {
        return false;
    }
    let theirs = pos.swap();
    let (i_prime, they_prime) = (mover_primes_a_checker(pos), mover_primes_a_checker(&theirs));
    (i_prime && (they_prime || pos.mover_at(BAR) > 0)) || (they_prime && theirs.mover_at(BAR) > 0)
}

/// The fewest points in a row that count as a prime for
/// [`is_timing_battle`].
const TIMING_PRIME: u8 = 5;

/// The mover holds `TIMING_PRIME` points in a row ahead of the
/// opponent's rearmost checker.
fn mover_primes_a_checker(pos: &Position) -> bool {
    // The opponent moves up the mover's points, entering from 0 (its bar).
    let Some(rearmost) = (0..=24).find(|&q| pos.opponent_at(q) > 0) else {
        return false;
    };
    let mut run = 0;
    for p in (rearmost + 1..=24).rev() {
        run = if pos.mover_at(p) >= 2 { run + 1 } else { 0 };
        if run >= TIMING_PRIME {
            return true;
        }
    }
    false
}

/// Points each side holds (two or more checkers) among `points`, numbered
/// from that side's own view: `(mover, opponent)`. Read straight off the
/// board, without a swapped copy.
#[inline]
fn held(pos: &Position, points: std::ops::RangeInclusive<u8>) -> (u8, u8) {
    points.fold((0, 0), |(mine, theirs), p| {
        let p = usize::from(p);
        (
            mine + u8::from(pos.mover_at(p) >= 2),
            theirs + u8::from(pos.opponent_at(25 - p) >= 2),
        )
    })
}

/// A side holds two or more points in the other's home board.
#[inline]
fn back_game(pos: &Position) -> bool {
    let (mine, theirs) = held(pos, 19..=24);
    mine >= 2 || theirs >= 2
}

/// A side has seven checkers on its 1- to 3-points or off.
#[inline]
fn crunched(pos: &Position) -> bool {
    // The opponent's 1- to 3-points are the mover's 24 to 22.
    let mine: u8 = (1..=3).map(|p| pos.mover_at(p)).sum();
    let theirs: u8 = (22..=24).map(|p| pos.opponent_at(p)).sum();
    let (mine_off, theirs_off) = pos.borne_off_both();
    mine + mine_off >= 7 || theirs + theirs_off >= 7
}

/// A side holds an anchor on the other's 4- to 7-point.
fn holding(pos: &Position) -> bool {
    let (mine, theirs) = held(pos, 18..=21);
    mine >= 1 || theirs >= 1
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

    #[test]
    fn timing_battles_are_primes_on_both_sides_or_a_primer_on_the_bar() {
        let prime = [(10, 2), (9, 2), (8, 2), (7, 2), (6, 2)];
        let with = |more: &[(usize, u8)]| [&prime[..], more].concat();
        // The doubling war's position (Position ID dnsDAQSwbRsAcA): we
        // hold our 5- to 10-points with an opponent checker on our
        // 4-point, and sit on the bar against its prime from its 2- to
        // 6-point.
        let war = Position::from_points(
            &[(25, 3), (10, 2), (9, 2), (8, 2), (7, 2), (6, 2), (5, 2)],
            &[(6, 2), (5, 4), (4, 2), (3, 3), (2, 2), (12, 1), (21, 1)],
        );
        assert!(is_timing_battle(&war) && is_timing_battle(&war.swap()));
        // A prime with a checker of theirs on our 3-point: one-sided, and
        // we are not on the bar.
        let trapped = Position::from_points(&with(&[(13, 5)]), &[(22, 1), (13, 14)]);
        assert!(mover_primes_a_checker(&trapped) && !mover_primes_a_checker(&trapped.swap()));
        assert!(!is_timing_battle(&trapped) && !is_timing_battle(&trapped.swap()));
        // The same with one of ours on the bar.
        let entering = Position::from_points(&with(&[(25, 1), (13, 4)]), &[(22, 1), (13, 14)]);
        assert!(is_timing_battle(&entering) && is_timing_battle(&entering.swap()));
        // Both sides priming a checker.
        let mutual = Position::from_points(
            &with(&[(24, 1), (13, 4)]),
            &[(10, 2), (9, 2), (8, 2), (7, 2), (6, 2), (22, 1), (13, 4)],
        );
        assert!(is_timing_battle(&mutual));
        // Their checkers all past the prime: nothing is trapped.
        let passed = Position::from_points(&with(&[(25, 1), (13, 4)]), &[(14, 2), (13, 13)]);
        assert!(!mover_primes_a_checker(&passed) && !is_timing_battle(&passed));
        // Four points in a row are not a prime here.
        let four = Position::from_points(
            &[(25, 1), (9, 2), (8, 2), (7, 2), (6, 2), (13, 6)],
            &[(22, 1), (13, 14)],
        );
        assert!(!mover_primes_a_checker(&four) && !is_timing_battle(&four));
        assert!(!is_timing_battle(&Position::starting()));
    }

    #[test]
    fn plan_names_are_the_config_names() {
        for plan in [
            GamePlan::Race,
            GamePlan::BackGame,
            GamePlan::Crashed,
            GamePlan::Holding,
            GamePlan::Contact,
        ] {
            let named = serde_json::to_value(plan).unwrap();
            assert_eq!(named, serde_json::Value::from(plan.name()));
            assert_eq!(serde_json::from_value::<GamePlan>(named).unwrap(), plan);
        }
    }
}
