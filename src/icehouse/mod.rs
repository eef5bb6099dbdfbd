//! Icehouse Kotra (`docs/rules/icehouse-kotra.md`): Glenn Overby's race
//! game for Looney pyramids on a chessboard, for two or four players.
//!
//! - [`board`]: squares, seats and each seat's own rows;
//! - [`position`]: board, stashes, scores, the end and the winner;
//! - [`turns`]: legal turns with the entry obligation;
//! - [`notation`]: the text notation and the ASCII board;
//! - [`play`]: whole games.

pub mod board;
pub mod game;
pub mod maxn;
pub mod notation;
pub mod play;
pub mod position;
pub mod turns;

pub use board::Seat;
pub use notation::{NotationError, ascii_board, parse_position, position_text};
pub use position::{Outcome, Position};
pub use turns::{Play, Turn, legal_turns};
