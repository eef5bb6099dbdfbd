//! The doubling cube: what a game is played for (money or a match score),
//! cubeful values from cubeless probabilities (Janowski), the match equity
//! table, and cube decisions.

pub mod decision;
pub mod janowski;
pub mod met;
pub mod state;

pub use decision::{CubeAction, CubeDecision, TakeAnswer};
pub use janowski::{cubeful, efficiency};
pub use met::{MatchEquityTable, MetError};
pub use state::{CubeState, Owner, Stakes};
