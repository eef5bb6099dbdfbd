//! GNU Backgammon's Match ID: 12 base64 characters for a 72-bit key holding
//! cube, score, whose roll and dice (see gnubg's manual, "A technical
//! description of the Match ID"; bit 66 holds "Jacoby off" in gnubg 1.07).

use super::base64;
use crate::backgammon::{CubeOwner, MatchInfo};
use crate::quoted::Quoted;
use thiserror::Error;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MatchIdError {
    #[error("Match ID {} must be 12 characters long (it has {})", Quoted(.0), .1)]
    Length(String, usize),
    #[error("Match ID {} has characters outside base64 (A-Z a-z 0-9 + /)", Quoted(.0))]
    Alphabet(String),
    #[error("Match ID {}: {what}", Quoted(.id))]
    Inconsistent { id: String, what: String },
}

fn put(key: &mut u128, pos: u32, bits: u32, value: u64) {
    *key |= ((value & ((1u64 << bits) - 1)) as u128) << pos;
}

fn get(key: u128, pos: u32, bits: u32) -> u64 {
    ((key >> pos) as u64) & ((1u64 << bits) - 1)
}

impl MatchInfo {
    /// The 12-character Match ID.
    pub fn encode(&self) -> String {
        let mut key: u128 = 0;
        put(
            &mut key,
            0,
            4,
            self.cube_value.max(1).trailing_zeros() as u64,
        );
        let owner = match self.cube_owner {
            CubeOwner::Centered => 3,
            CubeOwner::Player(p) => p as u64,
        };
        put(&mut key, 4, 2, owner);
        put(&mut key, 6, 1, self.on_roll as u64);
        put(&mut key, 7, 1, self.crawford as u64);
        put(&mut key, 8, 3, self.game_state as u64);
        put(&mut key, 11, 1, self.turn as u64);
        put(&mut key, 12, 1, self.doubled as u64);
        put(&mut key, 13, 2, self.resigned as u64);
        put(&mut key, 15, 3, self.dice[0] as u64);
        put(&mut key, 18, 3, self.dice[1] as u64);
        put(&mut key, 21, 15, self.match_length as u64);
        put(&mut key, 36, 15, self.score[0] as u64);
        put(&mut key, 51, 15, self.score[1] as u64);
        put(&mut key, 66, 1, !self.jacoby as u64);
        base64::encode(&key.to_le_bytes()[..9])
    }

    /// Parses and checks a Match ID.
    pub fn decode(id: &str) -> Result<MatchInfo, MatchIdError> {
        let n = id.chars().count();
        if n != 12 {
            return Err(MatchIdError::Length(id.to_string(), n));
        }
        let bytes = base64::decode(id, 9).ok_or_else(|| MatchIdError::Alphabet(id.to_string()))?;
        let mut le = [0u8; 16];
        le[..9].copy_from_slice(&bytes);
        let key = u128::from_le_bytes(le);
        let owner = get(key, 4, 2) as u8;
        let info = MatchInfo {
            cube_value: 1 << get(key, 0, 4),
            cube_owner: if owner == 3 {
                CubeOwner::Centered
            } else {
                CubeOwner::Player(owner)
            },
            on_roll: get(key, 6, 1) as u8,
            crawford: get(key, 7, 1) == 1,
            game_state: get(key, 8, 3) as u8,
            turn: get(key, 11, 1) as u8,
            doubled: get(key, 12, 1) == 1,
            resigned: get(key, 13, 2) as u8,
            dice: [get(key, 15, 3) as u8, get(key, 18, 3) as u8],
            match_length: get(key, 21, 15) as u32,
            score: [get(key, 36, 15) as u32, get(key, 51, 15) as u32],
            jacoby: get(key, 66, 1) == 0,
        };
        info.check().map_err(|what| MatchIdError::Inconsistent {
            id: id.to_string(),
            what,
        })?;
        Ok(info)
    }

    /// Consistency rules a position to analyse must satisfy.
    fn check(&self) -> Result<(), String> {
        if owner_is_invalid(self.cube_owner) {
            return Err("cube owner field is 2 (must be 0, 1 or centred)".into());
        }
        let [d0, d1] = self.dice;
        if (d0 == 0) != (d1 == 0) || d0 > 6 || d1 > 6 {
            return Err(format!("bad dice {d0}{d1}"));
        }
        if self.game_state > 4 {
            return Err(format!("unknown game state {}", self.game_state));
        }
        if self.doubled && self.turn == self.on_roll {
            return Err("a double is pending but the doubler is to act".into());
        }
        if self.doubled && d0 != 0 {
            return Err("a double is pending after the dice were rolled".into());
        }
        if !self.doubled && self.resigned == 0 && self.turn != self.on_roll {
            return Err("the player to act is not the player on roll".into());
        }
        if self.match_length > 0 {
            let [a, b] = self.score;
            if a >= self.match_length || b >= self.match_length {
                return Err(format!(
                    "score {a}-{b} is not below the match length {}",
                    self.match_length
                ));
            }
        }
        Ok(())
    }
}

fn owner_is_invalid(owner: CubeOwner) -> bool {
    matches!(owner, CubeOwner::Player(p) if p > 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_ids_decode() {
        // gnubg's manual example: money game... and ids seen in the dev set.
        let m = MatchInfo::decode("cAkLAAAAAAAA").unwrap();
        assert_eq!(m.dice, [6, 2]);
        assert_eq!(m.on_roll, 1);
        assert_eq!(m.cube_owner, CubeOwner::Centered);
        assert_eq!(m.encode(), "cAkLAAAAAAAA");
        let m = MatchInfo::decode("AQHgAEAAEAAE").unwrap();
        assert_eq!((m.match_length, m.score, m.cube_value), (7, [4, 2], 2));
        assert_eq!(m.encode(), "AQHgAEAAEAAE");
    }

    #[test]
    fn default_is_money_centred() {
        assert_eq!(
            MatchInfo::decode(&MatchInfo::default().encode()).unwrap(),
            MatchInfo::default()
        );
    }

    #[test]
    fn malformed_ids_are_rejected() {
        assert!(MatchInfo::decode("cAkLAAAA").is_err());
        assert!(MatchInfo::decode("cAkLAAAAAA*A").is_err());
    }
}
