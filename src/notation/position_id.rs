//! GNU Backgammon's Position ID: 14 base64 characters for an 80-bit key.
//!
//! The key lists the opponent's 25 slots and then the mover's (each side in
//! its own numbering, points 1..24 then the bar), writing one 1-bit per
//! checker and a 0-bit after each slot, least significant bit first.

use super::base64;
use crate::backgammon::{Position, PositionError};
use crate::quoted::Quoted;
use thiserror::Error;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PositionIdError {
    #[error("Position ID {} must be 14 characters long (it has {})", Quoted(.0), .1)]
    Length(String, usize),
    #[error("Position ID {} has characters outside base64 (A-Z a-z 0-9 + /)", Quoted(.0))]
    Alphabet(String),
    #[error("Position ID {} decodes to {count} checkers for {side}", Quoted(.id))]
    TooManyCheckers {
        id: String,
        side: &'static str,
        count: u32,
    },
    #[error("Position ID {}: {}", Quoted(.0), .1)]
    Invalid(String, PositionError),
}

/// A position prints as its Position ID, the shortest exact text for it.
/// The impl lives here, not beside `Position`, so that the rules never
/// call a notation.
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", encode(self))
    }
}

/// The Position ID of `position` (mover's view).
pub fn encode(position: &Position) -> String {
    base64::encode(&key(position))
}

/// The 80-bit key behind the Position ID: the most compact exact form of
/// a position, which is why stored training positions use it.
pub fn key(position: &Position) -> [u8; 10] {
    let (me, opp) = position.to_sides();
    let mut key = [0u8; 10];
    let mut bit = 0usize;
    for &n in opp.iter().chain(me.iter()) {
        for _ in 0..n {
            key[bit / 8] |= 1 << (bit % 8);
            bit += 1;
        }
        bit += 1;
    }
    key
}

/// Parses a Position ID into a position seen by the side it was drawn for.
pub fn decode(id: &str) -> Result<Position, PositionIdError> {
    let n = id.chars().count();
    if n != 14 {
        return Err(PositionIdError::Length(id.to_string(), n));
    }
    let key: [u8; 10] = base64::decode(id, 10)
        .and_then(|k| k.try_into().ok())
        .ok_or_else(|| PositionIdError::Alphabet(id.to_string()))?;
    from_key(&key, id)
}

/// The position of an 80-bit [`key`]; `id` names it in errors.
pub fn from_key(key: &[u8; 10], id: &str) -> Result<Position, PositionIdError> {
    let mut sides = [[0u8; 25]; 2];
    let (mut side, mut slot) = (0usize, 0usize);
    let mut counts = [0u32; 2];
    for bit in 0..80 {
        if side == 2 {
            break;
        }
        if key[bit / 8] >> (bit % 8) & 1 == 1 {
            sides[side][slot] = sides[side][slot].saturating_add(1);
            counts[side] += 1;
        } else {
            slot += 1;
            if slot == 25 {
                side += 1;
                slot = 0;
            }
        }
    }
    for (s, name) in [(1, "the player on roll"), (0, "the opponent")] {
        if counts[s] > 15 {
            return Err(PositionIdError::TooManyCheckers {
                id: id.to_string(),
                side: name,
                count: counts[s],
            });
        }
    }
    Position::from_sides(&sides[1], &sides[0])
        .map_err(|e| PositionIdError::Invalid(id.to_string(), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_position_is_the_famous_id() {
        assert_eq!(encode(&Position::starting()), "4HPwATDgc/ABMA");
        assert_eq!(decode("4HPwATDgc/ABMA").unwrap(), Position::starting());
    }

    #[test]
    fn bad_ids_say_what_is_wrong() {
        assert!(matches!(
            decode("4HPwATDgc/AB"),
            Err(PositionIdError::Length(_, 12))
        ));
        assert!(matches!(
            decode("4HPwATDgc/AB!A"),
            Err(PositionIdError::Alphabet(_))
        ));
        // All bits set: 80 checkers for the first side read.
        let e = decode("//////////////").unwrap_err();
        assert!(e.to_string().contains("checkers for"), "{e}");
    }
}
