//! kotra-ai: an engine that plays and analyses Kotra (backgammon) and its
//! two other games called Kotra (traditional Icelandic Kotra and Icehouse
//! Kotra).
//!
//! Layers, each depending only on those above it:
//! - [`backgammon`]: the rules (positions, dice, legal moves, cube, match state);
//! - [`notation`]: gnubg Position/Match IDs, XGID, move text, FIBS, ASCII board;
//! - [`eval`]: networks, encodings, bear-off databases, PubEval;
//! - [`icelandic`], [`icehouse`]: the rules and notations of the two other
//!   games called Kotra;
//! - [`game`]: the trait they implement, so that [`search::variant`],
//!   [`train::variant`] and the duels run on them;
//! - [`bench`](mod@bench): speed measurements behind `kotra-ai bench` and benches/;
//! - [`cli`]: the `kotra-ai` command line, a thin shell over the library.

pub mod atomic_file;
pub mod backgammon;
pub mod bench;
pub mod cli;
pub mod cube;
pub mod eval;
pub mod fast_hash;
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
