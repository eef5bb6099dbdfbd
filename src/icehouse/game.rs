//! Two-player Icehouse Kotra as a [`Game`]: one network output, the chance
//! that the side to move wins; a win counts 1 point and a loss −1.

use super::board::{SQUARES, Seat, final_row};
use super::position::Position;
use super::turns::{Turn, first_player, legal_turns};
use crate::game::{After, Ended, Game, best_by};

/// Per square, three size units for each side; stash and scored counts.
pub const INPUTS: usize = SQUARES * 6 + 12;

/// The two-player game.
#[derive(Clone, Copy, Debug, Default)]
pub struct IcehouseKotra;

static ROLLS: std::sync::LazyLock<Vec<((u8, u8), u32)>> =
    std::sync::LazyLock::new(|| crate::game::distinct_rolls(4));

/// Progress of a seat's pieces on the board: rows travelled towards each
/// piece's final row, as a fraction, summed.
pub fn progress(pos: &Position, seat: Seat) -> f32 {
    pos.cells
        .iter()
        .enumerate()
        .filter(|(_, c)| c.seat() == Some(seat))
        .map(|(sq, c)| seat.row(sq) as f32 / final_row(c.size()) as f32)
        .sum()
}

fn stash_count(pos: &Position, seat: Seat) -> f32 {
    pos.stash[seat.index()].iter().map(|&n| n as f32).sum()
}

/// The greedy evaluation of a position for `seat` (also the four-player
/// search's leaf evaluation): 10 per point scored, the progress of its
/// pieces, 2 per piece still to enter counted against it.
pub fn greedy_score(pos: &Position, seat: Seat) -> f32 {
    10.0 * pos.points(seat) as f32 + progress(pos, seat) - 2.0 * stash_count(pos, seat)
}

impl Game for IcehouseKotra {
    type State = Position;
    type Turn = Turn;

    fn name(&self) -> &'static str {
        "icehouse-kotra"
    }

    fn rolls(&self) -> &'static [((u8, u8), u32)] {
        &ROLLS
    }

    fn die_faces(&self) -> u8 {
        4
    }

    fn start(&self, dice: &mut dyn FnMut() -> (u8, u8)) -> Position {
        let mut p = Position::starting(2);
        p.to_move = first_player(p.seats(), dice);
        p
    }

    fn seat(&self, state: &Position) -> usize {
        if state.to_move == Seat::South { 0 } else { 1 }
    }

    fn turns(&self, state: &Position, (d1, d2): (u8, u8)) -> Vec<Turn> {
        legal_turns(state, d1, d2)
    }

    fn after(&self, state: &Position, turn: &Turn) -> After<Position> {
        match turn.position.outcome() {
            Some(o) => {
                let won = o.is_winner(state.to_move);
                After::Ended(Ended {
                    points: if won { 1.0 } else { -1.0 },
                    class: if won { 0 } else { 1 },
                })
            }
            None => After::Next(turn.position.passed()),
        }
    }

    fn turn_text(&self, _state: &Position, turn: &Turn) -> String {
        turn.text()
    }

    fn state_text(&self, state: &Position) -> String {
        super::notation::position_text(state)
    }

    fn inputs(&self) -> usize {
        INPUTS
    }

    fn outputs(&self) -> usize {
        1
    }

    /// Squares in the mover's own rows and laterals, so both seats see the
    /// board the same way.
    fn encode(&self, pos: &Position, out: &mut [f32]) {
        out.fill(0.0);
        let me = pos.to_move;
        let them = pos.next_seat(me);
        for (sq, c) in pos.cells.iter().enumerate() {
            let Some(owner) = c.seat() else { continue };
            let index = (me.row(sq) - 1) * 8 + me.lateral(sq);
            let base = if owner == me { 0 } else { 3 };
            out[index * 6 + base + c.size() as usize - 1] = 1.0;
        }
        let tail = &mut out[SQUARES * 6..];
        for k in 0..3 {
            tail[k] = pos.stash[me.index()][k] as f32 / 5.0;
            tail[3 + k] = pos.stash[them.index()][k] as f32 / 5.0;
            tail[6 + k] = pos.scored[me.index()][k] as f32 / 5.0;
            tail[9 + k] = pos.scored[them.index()][k] as f32 / 5.0;
        }
    }

    fn equity(&self, y: &[f32]) -> f32 {
        2.0 * y[0] - 1.0
    }

    fn win_loss(&self, y: &[f32]) -> (f32, f32) {
        (y[0], 1.0 - y[0])
    }

    fn flip(&self, y: &mut [f32]) {
        y[0] = 1.0 - y[0];
    }

    fn target(&self, end: &Ended, out: &mut [f32]) {
        out[0] = if end.class == 0 { 1.0 } else { 0.0 };
    }

    fn draw_target(&self, out: &mut [f32]) {
        out[0] = 0.5;
    }

    /// Greedy on one turn: a turn that wins the game, never one that loses
    /// it, otherwise the best [`greedy_score`] for us minus the other
    /// side's (hits count through his stash).
    fn heuristic(&self, state: &Position, turns: &[Turn]) -> usize {
        let me = state.to_move;
        let them = state.next_seat(me);
        best_by(turns, |t| match t.position.outcome() {
            Some(o) if o.is_winner(me) => 1000.0,
            Some(_) => -1000.0,
            None => greedy_score(&t.position, me) - greedy_score(&t.position, them),
        })
    }
}
