//! Whole games of Icehouse Kotra with dice and choices from the caller.

use super::position::Position;
use super::turns::{Turn, first_player, legal_turns};

/// A game longer than this many turns ends without a winner. Hits send
/// pieces back, so a game could in principle cycle; none has come near.
pub const MAX_TURNS: u32 = 2000;

/// Plays a game from the start; returns the final position (its
/// [`Position::outcome`] is `None` only past [`MAX_TURNS`]) and the
/// number of turns.
pub fn play_game(
    players: u8,
    dice: &mut dyn FnMut() -> (u8, u8),
    choose: &mut dyn FnMut(&Position, &[Turn]) -> usize,
) -> (Position, u32) {
    let mut pos = Position::starting(players);
    pos.to_move = first_player(pos.seats(), &mut *dice);
    for turn_no in 1..=MAX_TURNS {
        let (d1, d2) = dice();
        let turns = legal_turns(&pos, d1, d2);
        let chosen = &turns[choose(&pos, &turns).min(turns.len() - 1)];
        if chosen.ended() {
            return (chosen.position, turn_no);
        }
        pos = chosen.position.passed();
    }
    (pos, MAX_TURNS)
}
