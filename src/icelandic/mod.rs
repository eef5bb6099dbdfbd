//! Traditional Icelandic Kotra (`docs/rules/icelandic-kotra.md`): all
//! stones start on one point, six special rules, ten ways to win.
//!
//! - [`position`]: the board from the side to move, with the rule flags;
//! - [`turns`]: legal turns, step by step;
//! - [`outcome`]: the wins and their values (half points);
//! - [`notation`]: the text notation and the ASCII board;
//! - [`play`]: whole games: opening roll, the optional rules of §8.1–8.3.

pub mod game;
pub mod notation;
pub mod outcome;
pub mod play;
pub mod position;
pub mod turns;

pub use notation::{NotationError, ascii_board, parse_position, position_text};
pub use outcome::{Win, WinKind};
pub use play::{GameRecord, Options};
pub use position::{Position, Side};
pub use turns::{Step, Turn, TurnRules, legal_turns};
