//! The board of traditional Icelandic Kotra, held from the side to move.
//!
//! Each side's stones are indexed by that side's own track (1–24, stored at
//! index 0–23), so the rules read the same for White and Black. The two
//! tracks are the same 24 points shifted by 12: the mover's track `t` is
//! the other side's track `t + 12` (mod 24).

/// Stones per side.
pub const STONES: u8 = 15;
/// Points on the board.
pub const POINTS: usize = 24;

/// One side's stones and the flags of special rules 1–4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Side {
    /// Stones on own tracks 1..=24 (index track − 1).
    pub points: [u8; POINTS],
    pub bar: u8,
    pub off: u8,
    /// True until this side's first turn of the game ends (rule 1).
    pub first_turn: bool,
    /// Rule 4: a stone of this side has ended a step on its track 12.
    pub unlocked: bool,
    /// Rule 3: five stones have left the starting point.
    pub five_out: bool,
    /// Rule 2: the 6-6 group stands intact on track 7.
    pub group: bool,
}

impl Side {
    /// All 15 stones on track 1, nothing unlocked.
    pub fn starting() -> Side {
        let mut points = [0; POINTS];
        points[0] = STONES;
        Side {
            points,
            bar: 0,
            off: 0,
            first_turn: true,
            unlocked: false,
            five_out: false,
            group: false,
        }
    }

    /// Stones on own track `t` (1..=24).
    #[inline]
    pub fn at(&self, t: usize) -> u8 {
        self.points[t - 1]
    }

    /// Stones on the board, on the bar and off.
    pub fn total(&self) -> u32 {
        self.points.iter().map(|&n| n as u32).sum::<u32>() + self.bar as u32 + self.off as u32
    }

    /// Pips still to travel: each stone's distance past track 24, bar stones
    /// from track 0.
    pub fn pips(&self) -> u32 {
        let board: u32 = (1..=POINTS)
            .map(|t| self.at(t) as u32 * (25 - t as u32))
            .sum();
        board + self.bar as u32 * 25
    }

    /// All stones still in play stand in the home quarter (tracks 19–24).
    pub fn all_home(&self) -> bool {
        self.bar == 0 && self.points[..18].iter().all(|&n| n == 0)
    }
}

/// The mover's track `t` seen as the other side's track.
#[inline]
pub fn other_track(t: usize) -> usize {
    (t + 11) % 24 + 1
}

/// A whole position: the side to move, the other side, and which colour
/// moves (only notation and display care about colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub mover: Side,
    pub other: Side,
    pub white_to_move: bool,
}

impl Position {
    /// The start: White on a, Black on m, White to move (the opening roll
    /// decides who really starts; see [`super::play`]).
    pub fn starting() -> Position {
        Position {
            mover: Side::starting(),
            other: Side::starting(),
            white_to_move: true,
        }
    }

    /// The same position with the other side to move.
    pub fn swapped(&self) -> Position {
        Position {
            mover: self.other,
            other: self.mover,
            white_to_move: !self.white_to_move,
        }
    }

    /// Stones of the other side on the mover's track `t`.
    #[inline]
    pub fn other_at(&self, t: usize) -> u8 {
        self.other.at(other_track(t))
    }

    /// White's side and Black's side.
    pub fn by_colour(&self) -> (&Side, &Side) {
        if self.white_to_move {
            (&self.mover, &self.other)
        } else {
            (&self.other, &self.mover)
        }
    }

    /// Both sides hold 15 stones and no point holds stones of both.
    pub fn is_consistent(&self) -> bool {
        self.mover.total() == STONES as u32
            && self.other.total() == STONES as u32
            && (1..=POINTS).all(|t| self.mover.at(t) == 0 || self.other_at(t) == 0)
    }
}

/// Letter (a..x, index 0..23) of a colour's own track.
pub fn letter_of(white: bool, track: usize) -> char {
    let index = if white { track - 1 } else { (track + 11) % 24 };
    (b'a' + index as u8) as char
}

/// A colour's own track of a letter index (a = 0).
pub fn track_of(white: bool, letter_index: usize) -> usize {
    if white {
        letter_index + 1
    } else {
        (letter_index + 12) % 24 + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn track_conversions_follow_the_table() {
        assert_eq!(track_of(false, 12), 1); // m is Black's 1
        assert_eq!(track_of(false, 0), 13); // a is Black's 13
        assert_eq!(track_of(false, 11), 24); // l is Black's 24
        assert_eq!(letter_of(false, 7), 's');
        assert_eq!(letter_of(true, 7), 'g');
        for t in 1..=24 {
            assert_eq!(other_track(other_track(t)), t);
            let white_letter = letter_of(true, t);
            assert_eq!(letter_of(false, other_track(t)), white_letter);
        }
    }
}
