//! The cube and the stakes around a decision, seen from the side about to
//! roll: what each outcome is worth to it, and who may double.
//!
//! Values are in one currency per game type: points (cube included) for
//! money play, match winning chances for match play. Search and Janowski's
//! formulas work on these values unchanged, which is what lets one
//! recursion serve both.

use crate::backgammon::{GameResult, Setup};

use super::met::MatchEquityTable;

pub use crate::backgammon::Owner;

/// What a game is played for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stakes {
    Money {
        jacoby: bool,
        beavers: bool,
    },
    /// Points still needed by the roller and by the opponent; `crawford`:
    /// this game is the Crawford game (no doubling); `post_crawford`: the
    /// Crawford game has been played.
    Match {
        me_away: i32,
        opp_away: i32,
        crawford: bool,
        post_crawford: bool,
    },
}

/// The cube from the roller's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeState {
    pub value: u32,
    pub owner: Owner,
    pub stakes: Stakes,
}

impl CubeState {
    /// Money play, cube 1 centred, no Jacoby, no beavers: what the oracle's
    /// sets and most analysis assume.
    pub fn money() -> CubeState {
        CubeState {
            value: 1,
            owner: Owner::Centered,
            stakes: Stakes::Money {
                jacoby: false,
                beavers: false,
            },
        }
    }

    /// The cube of a Match ID, from the view of the player on roll.
    /// Beavers are not in the Match ID; money play here has none.
    pub fn from_setup(setup: &Setup) -> CubeState {
        let info = &setup.info;
        let me = info.on_roll as usize;
        let owner = Owner::seen_by(info.cube_owner, info.on_roll);
        let stakes = if info.is_money() {
            Stakes::Money {
                jacoby: info.jacoby,
                beavers: false,
            }
        } else {
            let away = |p: usize| info.match_length as i32 - info.score[p] as i32;
            let (me_away, opp_away) = (away(me), away(1 - me));
            Stakes::Match {
                me_away,
                opp_away,
                crawford: info.crawford,
                post_crawford: !info.crawford && (me_away == 1 || opp_away == 1),
            }
        };
        CubeState {
            value: info.cube_value.max(1),
            owner,
            stakes,
        }
    }

    pub fn is_money(&self) -> bool {
        matches!(self.stakes, Stakes::Money { .. })
    }

    /// The same cube seen by the opponent.
    pub fn swapped(&self) -> CubeState {
        let owner = self.owner.swapped();
        let stakes = match self.stakes {
            Stakes::Match {
                me_away,
                opp_away,
                crawford,
                post_crawford,
            } => Stakes::Match {
                me_away: opp_away,
                opp_away: me_away,
                crawford,
                post_crawford,
            },
            money => money,
        };
        CubeState {
            value: self.value,
            owner,
            stakes,
        }
    }

    /// After the roller doubles and the opponent takes.
    pub fn doubled(&self) -> CubeState {
        CubeState {
            value: self.value * 2,
            owner: Owner::Opponent,
            ..*self
        }
    }

    /// After the roller doubles and the opponent beavers: the cube at four
    /// times its value, back with the roller.
    pub fn beavered(&self) -> CubeState {
        CubeState {
            value: self.value * 4,
            owner: Owner::Roller,
            ..*self
        }
    }

    pub fn beavers_allowed(&self) -> bool {
        matches!(self.stakes, Stakes::Money { beavers: true, .. })
    }

    /// Whether the roller has the cube and doubling can gain something: not
    /// in the Crawford game, and not when winning at the present cube
    /// already wins the match.
    pub fn roller_may_double(&self) -> bool {
        if self.owner == Owner::Opponent || self.value >= 1 << 12 {
            return false;
        }
        match self.stakes {
            Stakes::Money { .. } => true,
            Stakes::Match {
                me_away, crawford, ..
            } => !crawford && me_away > self.value as i32,
        }
    }

    /// The value to the roller of winning `points` (negative: losing).
    pub fn points_value(&self, points: i64) -> f32 {
        match self.stakes {
            Stakes::Money { .. } => points as f32,
            Stakes::Match {
                me_away,
                opp_away,
                crawford,
                post_crawford,
            } => {
                // After this game the match is post-Crawford if this game
                // was the Crawford game or later.
                let post = crawford || post_crawford;
                let me = me_away as i64 - points.max(0);
                let opp = opp_away as i64 + points.min(0);
                // A new 1-away score right after a pre-Crawford game makes
                // the next game the Crawford game: the pre-Crawford table.
                let met = MatchEquityTable::kazaross_xg2();
                met.equity(me.clamp(-1, 64) as i32, opp.clamp(-1, 64) as i32, post)
            }
        }
    }

    /// The value to the roller of a finished game, the Jacoby rule applied
    /// (gammons count single while the cube is centred).
    pub fn result_value(&self, result: GameResult, roller_wins: bool) -> f32 {
        let jacoby = matches!(self.stakes, Stakes::Money { jacoby: true, .. })
            && self.owner == Owner::Centered;
        let multiple = if jacoby { 1 } else { result.points() as i64 };
        let points = multiple * self.value as i64;
        self.points_value(if roller_wins { points } else { -points })
    }

    /// What the roller gets when it doubles and the opponent passes.
    pub fn cash(&self) -> f32 {
        self.points_value(self.value as i64)
    }

    /// The same value seen by the opponent.
    pub fn flip(&self, value: f32) -> f32 {
        if self.is_money() { -value } else { 1.0 - value }
    }

    /// A value in units of this cube: per unit of the cube for money,
    /// money-normalised equity for a match (−1 = lose a single game at this
    /// cube, +1 = win one).
    pub fn normalise(&self, value: f32) -> f32 {
        if self.is_money() {
            return value / self.value as f32;
        }
        let (lose, win) = self.single_game();
        if win - lose < 1e-9 {
            return 0.0;
        }
        (2.0 * value - win - lose) / (win - lose)
    }

    /// The inverse of [`CubeState::normalise`]: points, or match winning
    /// chances, from a value in units of this cube.
    pub fn denormalise(&self, normalised: f32) -> f32 {
        if self.is_money() {
            return normalised * self.value as f32;
        }
        let (lose, win) = self.single_game();
        lose + (normalised + 1.0) / 2.0 * (win - lose)
    }

    /// The values of losing and of winning a single game at this cube: the
    /// ends of the money-normalised scale.
    fn single_game(&self) -> (f32, f32) {
        let points = self.value as i64;
        (self.points_value(-points), self.points_value(points))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::{CubeOwner, MatchInfo, Position};

    fn match_state(me: i32, opp: i32) -> CubeState {
        CubeState {
            value: 1,
            owner: Owner::Centered,
            stakes: Stakes::Match {
                me_away: me,
                opp_away: opp,
                crawford: false,
                post_crawford: false,
            },
        }
    }

    #[test]
    fn transitions() {
        let c = CubeState::money();
        assert!(c.roller_may_double());
        let d = c.doubled();
        assert_eq!((d.value, d.owner), (2, Owner::Opponent));
        assert!(!d.roller_may_double());
        let taker = d.swapped();
        assert_eq!(taker.owner, Owner::Roller);
        assert!(taker.roller_may_double());
        assert_eq!(taker.doubled().value, 4);
        assert_eq!(c.beavered().owner, Owner::Roller);
        assert_eq!(c.beavered().value, 4);
        assert_eq!(c.swapped().swapped(), c);
    }

    #[test]
    fn money_values_and_jacoby() {
        let mut c = CubeState::money();
        assert_eq!(c.result_value(GameResult::Gammon, true), 2.0);
        c.stakes = Stakes::Money {
            jacoby: true,
            beavers: false,
        };
        assert_eq!(c.result_value(GameResult::Gammon, false), -1.0);
        let d = c.doubled();
        assert_eq!(d.result_value(GameResult::Backgammon, true), 6.0);
        assert_eq!(d.normalise(3.0), 1.5);
    }

    #[test]
    fn match_values_come_from_the_table() {
        let s = match_state(3, 5);
        let met = MatchEquityTable::kazaross_xg2();
        assert_eq!(s.points_value(0), met.equity(3, 5, false));
        assert_eq!(s.points_value(1), met.equity(2, 5, false));
        assert_eq!(s.points_value(-2), met.equity(3, 3, false));
        assert_eq!(s.points_value(3), 1.0);
        assert_eq!(s.points_value(-5), 0.0);
        assert!((s.flip(s.points_value(1)) - s.swapped().points_value(-1)).abs() < 1e-6);
        // Normalised: winning a single game is +1, losing one −1.
        assert!((s.normalise(s.cash()) - 1.0).abs() < 1e-6);
        assert!((s.normalise(s.points_value(-1)) + 1.0).abs() < 1e-6);
        assert!((s.denormalise(s.normalise(0.61)) - 0.61).abs() < 1e-6);
    }

    #[test]
    fn crawford_and_dead_cubes() {
        let mut s = match_state(1, 4);
        assert!(!s.roller_may_double(), "1-away gains nothing by doubling");
        assert!(s.swapped().roller_may_double());
        s.stakes = Stakes::Match {
            me_away: 2,
            opp_away: 4,
            crawford: true,
            post_crawford: false,
        };
        assert!(!s.roller_may_double() && !s.swapped().roller_may_double());
        // A win in the Crawford game leaves a post-Crawford score.
        let met = MatchEquityTable::kazaross_xg2();
        assert_eq!(s.points_value(-3), met.equity(2, 1, true));
    }

    #[test]
    fn from_match_id() {
        let info = MatchInfo {
            cube_value: 2,
            cube_owner: CubeOwner::Player(1),
            on_roll: 1,
            turn: 1,
            match_length: 7,
            score: [4, 2],
            ..MatchInfo::default()
        };
        let s = CubeState::from_setup(&Setup {
            position: Position::starting(),
            info,
        });
        assert_eq!(s.owner, Owner::Roller);
        assert_eq!(s.value, 2);
        assert_eq!(
            s.stakes,
            Stakes::Match {
                me_away: 5,
                opp_away: 3,
                crawford: false,
                post_crawford: false
            }
        );
    }
}
