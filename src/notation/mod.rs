//! How positions and moves are written down. The rules never depend on
//! this layer: each notation parses into and prints from the rules' types.

pub mod ascii;
mod base64;
pub mod fibs;
pub mod gnubg_id;
pub mod match_id;
pub mod move_text;
pub mod position_id;
pub mod xgid;

use crate::backgammon::Setup;
use thiserror::Error;

/// Any notation a user may give for a position.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SetupError {
    #[error(transparent)]
    Gnubg(#[from] gnubg_id::GnubgIdError),
    #[error(transparent)]
    Xgid(#[from] xgid::XgidError),
}

/// Parses `PositionID:MatchID`, a bare `PositionID`, or `XGID=...`.
pub fn parse_setup(text: &str) -> Result<Setup, SetupError> {
    let t = text.trim();
    if t.starts_with("XGID=") || t.matches(':').count() >= 8 {
        Ok(xgid::decode(t)?)
    } else {
        Ok(gnubg_id::decode(t)?)
    }
}
