//! The chessboard of Icehouse Kotra, the seats around it and each seat's
//! own rows (§2 and §9 of the rules).
//!
//! Squares are numbered `rank * 8 + file` (a1 = 0, h8 = 63). A seat sees
//! the board as rows 1–8 forward from its home edge and a lateral
//! coordinate 0–7 along it; every rule is written in those terms so the
//! four seats share one code path.

/// Squares on the board.
pub const SQUARES: usize = 64;

/// A seat, in the clockwise turn order of §9 (South, West, North, East).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    South = 0,
    West = 1,
    North = 2,
    East = 3,
}

impl Seat {
    pub const ALL: [Seat; 4] = [Seat::South, Seat::West, Seat::North, Seat::East];

    pub fn from_index(i: usize) -> Seat {
        Seat::ALL[i & 3]
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        match self {
            Seat::South => 'S',
            Seat::West => 'W',
            Seat::North => 'N',
            Seat::East => 'E',
        }
    }

    pub fn from_letter(c: char) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| s.letter() == c)
    }

    /// The square at the seat's own `row` (1..=8) and `lateral` (0..=7).
    #[inline]
    pub fn square(self, row: usize, lateral: usize) -> usize {
        let (file, rank) = match self {
            Seat::South => (lateral, row - 1),
            Seat::North => (lateral, 8 - row),
            Seat::West => (row - 1, lateral),
            Seat::East => (8 - row, lateral),
        };
        rank * 8 + file
    }

    /// The seat's own row (1..=8) of a square.
    #[inline]
    pub fn row(self, square: usize) -> usize {
        let (file, rank) = (square % 8, square / 8);
        match self {
            Seat::South => rank + 1,
            Seat::North => 8 - rank,
            Seat::West => file + 1,
            Seat::East => 8 - file,
        }
    }

    /// The seat's lateral coordinate (0..=7) of a square.
    #[inline]
    pub fn lateral(self, square: usize) -> usize {
        match self {
            Seat::South | Seat::North => square % 8,
            Seat::West | Seat::East => square / 8,
        }
    }
}

/// Pyramid sizes: pawn (1), drone (2), queen (3).
pub const SIZES: [u8; 3] = [1, 2, 3];

/// The letter of a size: P, D, Q.
pub fn size_letter(size: u8) -> char {
    match size {
        1 => 'P',
        2 => 'D',
        _ => 'Q',
    }
}

/// The row from which a piece of this size scores: pawns from 8, drones
/// and queens from 7 (the farthest rows they can reach).
pub fn final_row(size: u8) -> usize {
    if size == 1 { 8 } else { 7 }
}

/// A piece on a square, packed: 0 is empty, else `seat << 2 | size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cell(pub u8);

impl Cell {
    pub const EMPTY: Cell = Cell(0);

    pub fn piece(seat: Seat, size: u8) -> Cell {
        Cell(((seat as u8) << 2) | size)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn seat(self) -> Option<Seat> {
        (!self.is_empty()).then(|| Seat::from_index((self.0 >> 2) as usize))
    }

    pub fn size(self) -> u8 {
        self.0 & 3
    }
}

/// `e7` for a square.
pub fn square_name(square: usize) -> String {
    format!("{}{}", (b'a' + (square % 8) as u8) as char, square / 8 + 1)
}

/// The square of `e7`.
pub fn parse_square(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_squares_invert() {
        for seat in Seat::ALL {
            for sq in 0..SQUARES {
                assert_eq!(seat.square(seat.row(sq), seat.lateral(sq)), sq);
            }
        }
        assert_eq!(Seat::North.row(parse_square("d2").unwrap()), 7);
        assert_eq!(Seat::West.row(parse_square("a4").unwrap()), 1);
        assert_eq!(Seat::East.row(parse_square("h4").unwrap()), 1);
    }
}
