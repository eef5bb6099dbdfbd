//! The sessions the server holds, by id: the one piece of play that the
//! server's shared state owns (so that the state needs nothing of the
//! handlers, which need the state).

use super::session::Session;
use crate::serve::held::Held;
use std::sync::Mutex;

/// Sessions held at once; a new one past this drops the oldest.
pub const MAX_GAMES: usize = 1000;

/// The sessions the server holds, by id.
pub type Games = Held<Mutex<Session>>;

pub fn games() -> Games {
    Held::new("/api/play", "games", MAX_GAMES)
}
