//! n-ply expectiminimax for the games behind [`Game`]: a turn is worth the
//! points it wins, or minus the other side's value of the position it
//! leaves; a position at depth k is the roll-weighted mean of the best
//! turn at depth k − 1, and at depth 0 the network's equity.

use crate::eval::game_net::GameNet;
use crate::game::{After, Game};
use rayon::prelude::*;

/// Inputs and outputs the stack scratch holds.
pub const MAX_INPUTS: usize = 512;
pub const MAX_OUTPUTS: usize = 32;

/// The network's outputs for the side to move.
pub fn outputs<G: Game>(game: &G, net: &GameNet, state: &G::State) -> [f32; MAX_OUTPUTS] {
    let mut x = [0f32; MAX_INPUTS];
    let x = &mut x[..game.inputs()];
    game.encode(state, x);
    let mut y = [0f32; MAX_OUTPUTS];
    net.forward_into(x, &mut y[..game.outputs()]);
    y
}

/// The side to move's equity at `ply` (0 = the network alone).
pub fn position_value<G: Game>(game: &G, net: &GameNet, state: &G::State, ply: u8) -> f32 {
    if ply == 0 {
        let y = outputs(game, net, state);
        return game.equity(&y[..game.outputs()]);
    }
    let mut sum = 0.0;
    for &(roll, w) in game.rolls() {
        let turns = game.turns(state, roll);
        let best = turns
            .iter()
            .map(|t| turn_value(game, net, state, t, ply - 1))
            .fold(f32::NEG_INFINITY, f32::max);
        sum += w as f32 * best;
    }
    sum / game.roll_total() as f32
}

/// What `turn` is worth to its mover, looking `ply` more turns ahead.
pub fn turn_value<G: Game>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    turn: &G::Turn,
    ply: u8,
) -> f32 {
    match game.after(state, turn) {
        After::Ended(end) => end.points,
        After::Next(next) => -position_value(game, net, &next, ply),
    }
}

/// The value of every turn (in parallel when searching deeper than 0-ply).
pub fn turn_values<G: Game>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    turns: &[G::Turn],
    ply: u8,
) -> Vec<f32> {
    if ply == 0 {
        turns
            .iter()
            .map(|t| turn_value(game, net, state, t, 0))
            .collect()
    } else {
        turns
            .par_iter()
            .map(|t| turn_value(game, net, state, t, ply))
            .collect()
    }
}

/// The index of the best turn at `ply`.
pub fn best_turn<G: Game>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    turns: &[G::Turn],
    ply: u8,
) -> usize {
    if turns.len() == 1 {
        return 0;
    }
    let values = turn_values(game, net, state, turns, ply);
    crate::game::best_by(&values, |v| *v)
}
