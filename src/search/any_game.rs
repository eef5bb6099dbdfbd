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

/// The side to move's outputs at `ply`: the network's at 0-ply, else the
/// roll-weighted mean of the outputs along each roll's best turn (best by
/// [`turn_value`], as [`position_value`] chooses). These are the chances
/// behind the searched equity, for analysis to print beside it.
pub fn position_outputs<G: Game>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    ply: u8,
) -> [f32; MAX_OUTPUTS] {
    if ply == 0 {
        return outputs(game, net, state);
    }
    let n = game.outputs();
    let mut sum = [0f32; MAX_OUTPUTS];
    for &(roll, w) in game.rolls() {
        let turns = game.turns(state, roll);
        let best = crate::game::best_by(&turns, |t| turn_value(game, net, state, t, ply - 1));
        let mut y = turn_outputs(game, net, state, &turns[best], ply - 1);
        game.normalise(&mut y[..n]);
        for (s, v) in sum[..n].iter_mut().zip(&y[..n]) {
            *s += w as f32 * v;
        }
    }
    let total = game.roll_total() as f32;
    sum[..n].iter_mut().for_each(|s| *s /= total);
    sum
}

/// The outputs `turn` leads to, for its mover, looking `ply` more turns
/// ahead (a finished game's are its training target).
pub fn turn_outputs<G: Game>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    turn: &G::Turn,
    ply: u8,
) -> [f32; MAX_OUTPUTS] {
    match game.after(state, turn) {
        After::Ended(end) => {
            let mut y = [0f32; MAX_OUTPUTS];
            game.target(&end, &mut y[..game.outputs()]);
            y
        }
        After::Next(next) => {
            let mut y = position_outputs(game, net, &next, ply);
            game.flip(&mut y[..game.outputs()]);
            y
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::game_net::GameModel;

    /// The searched chances must be the ones behind the searched equity:
    /// the game's equity of them is the search's value.
    fn chances_match_the_value<G: Game>(game: &G, shipped: &[u8], states: &[G::State]) {
        let net = GameModel::from_bytes(shipped, game.name(), game.inputs(), game.outputs())
            .unwrap()
            .net;
        for state in states {
            for ply in 0..=1 {
                let y = position_outputs(game, &net, state, ply);
                let from_chances = game.equity(&y[..game.outputs()]);
                let value = position_value(game, &net, state, ply);
                assert!(
                    (from_chances - value).abs() < 1e-3,
                    "{state:?} at {ply}-ply: chances give {from_chances}, the search {value}"
                );
            }
        }
    }

    #[test]
    fn icelandic_searched_chances_give_the_searched_equity() {
        let game = crate::icelandic::game::IcelandicKotra::default();
        let states: Vec<_> = [
            "W: a11 g4 G; B: m10 n o p q d F5; B",
            "start",
            "W: s5 t5 u5; B: a5 b5 c5; W",
        ]
        .iter()
        .map(|t| crate::icelandic::parse_position(t).unwrap())
        .collect();
        chances_match_the_value(
            &game,
            include_bytes!("../../models/icelandic-kotra.net"),
            &states,
        );
    }

    #[test]
    fn icehouse_searched_chances_give_the_searched_equity() {
        let game = crate::icehouse::game::IcehouseKotra;
        let states = [crate::icehouse::parse_position("start").unwrap()];
        chances_match_the_value(
            &game,
            include_bytes!("../../models/icehouse-kotra.net"),
            &states,
        );
    }
}
