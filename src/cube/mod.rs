//! The doubling cube: what a game is played for (money or a match score),
//! cubeful values from cubeless probabilities (Janowski), the match equity
//! table, cube decisions, and the exact equities of small bear-offs.

pub mod decision;
pub mod exact_bearoff;
pub mod janowski;
pub mod leaf;
pub mod met;
pub mod state;

pub use decision::{CubeAction, CubeDecision, TakeAnswer};
pub use janowski::{cubeful, efficiency};
pub use leaf::{CubeTuning, LeafCube, leaf_value, static_cube_decision, static_value};
pub(crate) use leaf::{cube_states, decide, roller_cube_choice};
pub use met::{MatchEquityTable, MetError};
pub use state::{CubeState, Owner, Stakes};
