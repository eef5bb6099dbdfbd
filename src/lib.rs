//! kotra-ai: an engine that plays and analyses Kotra (backgammon) and its
//! two other games called Kotra (traditional Icelandic Kotra and Icehouse
//! Kotra).
//!
//! The modules form layers, each using only those below it (lowest
//! first; `docs/architecture.md` gives each one's job, and
//! `tests/architecture.rs` keeps the order true):
//! 0. utilities: [`atomic_file`], [`framed_file`], [`progress`],
//!    [`quoted`], [`seed`];
//! 1. rules: [`backgammon`] and the [`game`] trait;
//! 2. [`notation`] (gnubg IDs, XGID, move text, FIBS, ASCII board) and the
//!    two other games called Kotra, [`icelandic`] and [`icehouse`];
//! 3. [`eval`]: networks, encodings, bear-off databases, PubEval;
//! 4. [`cube`]: cube states, cubeful equities, match equity, decisions;
//! 5. [`search`]: n-ply search for backgammon and for any [`game::Game`];
//! 6. [`players`] and duels, [`rollout`];
//! 7. [`analysis`]: the facade every front end goes through;
//! 8. [`train`]: self-play and the learner;
//! 9. front ends: [`bench`](mod@bench), [`ubgi`];
//! 10. [`cli`]: the `kotra-ai` command line, a thin shell over the library.

pub mod analysis;
pub mod atomic_file;
pub mod backgammon;
#[cfg(feature = "cli")]
pub mod bench;
#[cfg(feature = "cli")]
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
pub mod quoted;
pub mod rollout;
pub mod search;
pub mod seed;
#[cfg(feature = "cli")]
pub mod serve;
#[cfg(feature = "cli")]
pub mod train;
pub mod ubgi;
