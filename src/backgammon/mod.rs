//! The rules of backgammon (Kotra): board, dice, legal moves, whole games,
//! the cube and match play. Concrete types and fixed arrays: this is the
//! hot path under search and training.

mod dice;
pub mod movegen;
mod play;
mod position;
mod setup;
mod step_orders;

pub use dice::{Dice, DiceError};
pub use movegen::{Candidate, MoveList, legal_moves, legal_moves_reference, with_legal_moves};
pub use play::{Play, Step, Steps};
pub use position::{BAR, CHECKERS, OPP_BAR, Position, PositionError, Side};
pub use setup::{CubeOwner, MAX_MATCH_LENGTH, MatchInfo, Owner, Setup, SetupStateError};
pub use step_orders::step_orders;
mod outcome;
pub use outcome::GameResult;
pub mod cube;
mod game_state;
pub mod session;
pub use game_state::{GameError, GameState, Outcome, Phase};
