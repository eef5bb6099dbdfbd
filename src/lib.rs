//! kotra-ai: an engine that plays and analyses Kotra (backgammon) and its
//! two Icelandic relatives.
//!
//! Layers, each depending only on those above it:
//! - [`backgammon`]: the rules (positions, dice, legal moves, cube, match state);
//! - [`notation`]: gnubg Position/Match IDs, XGID, move text, FIBS, ASCII board;
//! - [`eval`]: evaluators (PubEval for now);
//! - [`game`]: the trait the three games share for search and training;
//! - [`bench`]: speed measurements behind `kotra-ai bench` and benches/;
//! - [`cli`]: the `kotra-ai` command line, a thin shell over the library.

pub mod atomic_file;
pub mod backgammon;
pub mod bench;
pub mod cli;
pub mod cube;
pub mod eval;
pub mod framed_file;
pub mod game;
pub mod icehouse;
pub mod icelandic;
pub mod notation;
pub mod players;
pub mod progress;
pub mod rollout;
pub mod search;
pub mod train;
pub mod ubgi;
