//! A backgammon position, always seen from the side on roll.
//!
//! One signed byte per slot keeps the whole board in 26 bytes, so copying a
//! position for each candidate move is a couple of vector moves and equality
//! is a `memcmp`. Index `1..=24` are points in the mover's own numbering
//! (positive = mover's checkers, negative = opponent's), `25` is the mover's
//! bar and `0` the opponent's bar (stored negative). Borne-off checkers are
//! not stored: they are 15 minus what is on the board.

use thiserror::Error;

/// Number of checkers each side plays with.
pub const CHECKERS: u8 = 15;
/// Slot of the mover's bar.
pub const BAR: usize = 25;
/// Slot of the opponent's bar (values there are negative).
pub const OPP_BAR: usize = 0;

/// Which side of a position is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The side on roll (the mover).
    Mover,
    /// The side not on roll.
    Opponent,
}

/// Why a raw board is not a backgammon position.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PositionError {
    #[error("{side} has {count} checkers on the board (at most 15)")]
    TooManyCheckers { side: &'static str, count: u32 },
    #[error("both sides have checkers on point {point} (mover's numbering)")]
    SharedPoint { point: usize },
    #[error("both sides have borne off all their checkers")]
    BothFinished,
    #[error(
        "slot {slot} holds {value}: slot 25 is the bar of the side on roll (0 or more) and slot 0 the other side's (0 or less)"
    )]
    BarSign { slot: usize, value: i8 },
}

/// A position from the mover's point of view; see the module comment.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    pub(crate) pips: [i8; 26],
}

impl Position {
    /// The standard starting position (each side 2 on 24, 5 on 13, 3 on 8, 5 on 6).
    pub fn starting() -> Position {
        let mut p = [0i8; 26];
        for (point, n) in [(24, 2), (13, 5), (8, 3), (6, 5)] {
            p[point] = n;
            p[25 - point] = -n;
        }
        Position { pips: p }
    }

    /// Builds a position from the layout gnubg uses: for each side, index
    /// `i` (0..24) is that side's own point `i + 1` and index 24 its bar.
    pub fn from_sides(mover: &[u8; 25], opponent: &[u8; 25]) -> Result<Position, PositionError> {
        let count = |s: &[u8; 25]| s.iter().map(|&n| n as u32).sum::<u32>();
        for (side, s) in [("the player on roll", mover), ("the opponent", opponent)] {
            let n = count(s);
            if n > CHECKERS as u32 {
                return Err(PositionError::TooManyCheckers { side, count: n });
            }
        }
        if count(mover) == 0 && count(opponent) == 0 {
            return Err(PositionError::BothFinished);
        }
        let mut p = [0i8; 26];
        for point in 1..=24 {
            let mine = mover[point - 1];
            let theirs = opponent[24 - point];
            if mine > 0 && theirs > 0 {
                return Err(PositionError::SharedPoint { point });
            }
            p[point] = mine as i8 - theirs as i8;
        }
        p[BAR] = mover[24] as i8;
        p[OPP_BAR] = -(opponent[24] as i8);
        Ok(Position { pips: p })
    }

    /// Checks a board in this type's own layout (see the module comment;
    /// wildbg's too), as callers that think in arrays give it: each bar's
    /// sign, at most 15 checkers a side, not both sides finished.
    pub fn from_raw(raw: &[i8; 26]) -> Result<Position, PositionError> {
        for (slot, bad) in [(BAR, raw[BAR] < 0), (OPP_BAR, raw[OPP_BAR] > 0)] {
            if bad {
                return Err(PositionError::BarSign {
                    slot,
                    value: raw[slot],
                });
            }
        }
        let count = |sign: i32| -> u32 {
            raw.iter()
                .map(|&v| i32::from(v) * sign)
                .filter(|&v| v > 0)
                .map(|v| v as u32)
                .sum()
        };
        for (side, sign) in [("the player on roll", 1), ("the opponent", -1)] {
            let n = count(sign);
            if n > u32::from(CHECKERS) {
                return Err(PositionError::TooManyCheckers { side, count: n });
            }
        }
        if count(1) == 0 && count(-1) == 0 {
            return Err(PositionError::BothFinished);
        }
        Ok(Position { pips: *raw })
    }

    /// The inverse of [`Position::from_sides`]: `(mover, opponent)`.
    pub fn to_sides(&self) -> ([u8; 25], [u8; 25]) {
        let mut me = [0u8; 25];
        let mut opp = [0u8; 25];
        for point in 1..=24 {
            let v = self.pips[point];
            if v > 0 {
                me[point - 1] = v as u8;
            } else if v < 0 {
                opp[24 - point] = (-v) as u8;
            }
        }
        me[24] = self.pips[BAR] as u8;
        opp[24] = (-self.pips[OPP_BAR]) as u8;
        (me, opp)
    }

    /// The same position seen by the other side, who is now on roll.
    #[inline]
    pub fn swap(&self) -> Position {
        let mut p = [0i8; 26];
        for (i, slot) in p.iter_mut().enumerate() {
            *slot = -self.pips[25 - i];
        }
        Position { pips: p }
    }

    /// Mover's checkers on `point` (1..=24, or 25 for the bar).
    #[inline]
    pub fn mover_at(&self, point: usize) -> u8 {
        self.pips[point].max(0) as u8
    }

    /// Opponent's checkers on the mover's `point` (1..=24), or on the
    /// opponent's bar for 0.
    #[inline]
    pub fn opponent_at(&self, point: usize) -> u8 {
        (-self.pips[point]).max(0) as u8
    }

    /// Checkers of `side` still on the board (bar included).
    pub fn on_board(&self, side: Side) -> u8 {
        let sum: i32 = match side {
            Side::Mover => self.pips.iter().map(|&v| v.max(0) as i32).sum(),
            Side::Opponent => self.pips.iter().map(|&v| (-v).max(0) as i32).sum(),
        };
        sum as u8
    }

    /// Checkers each side has borne off, `(mover, opponent)`, in one pass
    /// over the board (the evaluator asks on every call).
    #[inline]
    pub fn borne_off_both(&self) -> (u8, u8) {
        let (mut mine, mut theirs) = (0u8, 0u8);
        for &v in &self.pips {
            mine += v.max(0) as u8;
            theirs += (-v).max(0) as u8;
        }
        (CHECKERS - mine, CHECKERS - theirs)
    }

    /// Checkers `side` has borne off.
    #[inline]
    pub fn borne_off(&self, side: Side) -> u8 {
        CHECKERS - self.on_board(side)
    }

    /// Pip counts `(mover, opponent)`; a checker on the bar counts 25.
    pub fn pip_counts(&self) -> (u32, u32) {
        let mut me = 0u32;
        let mut opp = 0u32;
        for point in 1..=24 {
            let v = self.pips[point] as i32;
            if v > 0 {
                me += v as u32 * point as u32;
            } else {
                opp += (-v) as u32 * (25 - point) as u32;
            }
        }
        me += self.pips[BAR] as u32 * 25;
        opp += (-self.pips[OPP_BAR]) as u32 * 25;
        (me, opp)
    }

    /// True when either side has borne off all fifteen checkers.
    pub fn is_game_over(&self) -> bool {
        self.on_board(Side::Mover) == 0 || self.on_board(Side::Opponent) == 0
    }

    /// True while the two sides can still hit or block each other.
    pub fn has_contact(&self) -> bool {
        // The mover's rearmost checker against the opponent's rearmost one,
        // both in the mover's numbering.
        let my_back = (1..=25).rev().find(|&p| self.pips[p] > 0).unwrap_or(0);
        let opp_back = (0..=24).find(|&p| self.pips[p] < 0).unwrap_or(25);
        my_back > opp_back
    }

    /// Raw slots (see the module comment); for encoders and tests.
    #[inline]
    pub fn raw(&self) -> &[i8; 26] {
        &self.pips
    }
}

#[cfg(test)]
impl Position {
    /// For tests: each side's (point in its own numbering, checkers).
    pub fn from_points(mover: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
        let side = |points: &[(usize, u8)]| {
            let mut s = [0u8; 25];
            for &(point, n) in points {
                s[point - 1] = n;
            }
            s
        };
        Position::from_sides(&side(mover), &side(opponent)).unwrap()
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::starting()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_position_is_symmetric_with_167_pips() {
        let p = Position::starting();
        assert_eq!(p.swap(), p);
        assert_eq!(p.pip_counts(), (167, 167));
        assert_eq!(p.on_board(Side::Mover), 15);
        assert!(p.has_contact());
    }

    #[test]
    fn raw_boards_round_trip_and_impossible_ones_are_refused() {
        let p = Position::starting();
        assert_eq!(Position::from_raw(p.raw()), Ok(p));
        let mut raw = *p.raw();
        raw[BAR] = -1;
        assert!(matches!(
            Position::from_raw(&raw),
            Err(PositionError::BarSign { slot: BAR, .. })
        ));
        let mut raw = *p.raw();
        raw[OPP_BAR] = 1;
        assert!(matches!(
            Position::from_raw(&raw),
            Err(PositionError::BarSign { slot: OPP_BAR, .. })
        ));
        let mut raw = *p.raw();
        raw[3] = 1;
        assert_eq!(
            Position::from_raw(&raw),
            Err(PositionError::TooManyCheckers {
                side: "the player on roll",
                count: 16
            })
        );
        assert_eq!(
            Position::from_raw(&[0; 26]),
            Err(PositionError::BothFinished)
        );
    }

    #[test]
    fn sides_round_trip_and_shared_points_are_rejected() {
        let p = Position::starting();
        let (me, opp) = p.to_sides();
        assert_eq!(Position::from_sides(&me, &opp).unwrap(), p);
        let mut bad = opp;
        bad[0] = 1; // opponent's 1-point is the mover's 24-point, held by the mover
        assert_eq!(
            Position::from_sides(&me, &bad),
            Err(PositionError::TooManyCheckers {
                side: "the opponent",
                count: 16
            })
        );
        bad[5] -= 1;
        assert_eq!(
            Position::from_sides(&me, &bad),
            Err(PositionError::SharedPoint { point: 24 })
        );
    }
}
