//! gnubg's combined `PositionID:MatchID`, the form gnubg shows and UBGI carries.
//! The Position ID is drawn from the view of the Match ID's player on roll;
//! a bare Position ID means a money game, cube centred, that side on roll.

use super::match_id::MatchIdError;
use super::position_id::{self, PositionIdError};
use crate::backgammon::{MatchInfo, Setup};
use thiserror::Error;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GnubgIdError {
    #[error(transparent)]
    Position(#[from] PositionIdError),
    #[error(transparent)]
    Match(#[from] MatchIdError),
}

/// Parses `PositionID:MatchID` or a bare `PositionID`.
pub fn decode(text: &str) -> Result<Setup, GnubgIdError> {
    let text = text.trim();
    let (pid, mid) = match text.split_once(':') {
        Some((p, m)) => (p, Some(m)),
        None => (text, None),
    };
    let position = position_id::decode(pid)?;
    let info = match mid {
        Some(m) => MatchInfo::decode(m)?,
        None => MatchInfo::default(),
    };
    Ok(Setup { position, info })
}

/// `PositionID:MatchID` of a setup.
pub fn encode(setup: &Setup) -> String {
    format!(
        "{}:{}",
        position_id::encode(&setup.position),
        setup.info.encode()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_a_dev_set_id() {
        let id = "4PPgQSDgc/ABMA:MIESAAAAAAAE";
        let s = decode(id).unwrap();
        assert_eq!(s.info.dice, [5, 4]);
        assert_eq!(encode(&s), id);
    }

    #[test]
    fn bare_position_id_is_money_centred() {
        let s = decode("4HPwATDgc/ABMA").unwrap();
        assert_eq!(s.info, MatchInfo::default());
        assert!(decode("4HPwATDgc/ABMA:").is_err());
    }
}
