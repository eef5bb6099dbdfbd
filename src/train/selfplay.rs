//! Self-play: the current network plays both sides at 0-ply; every
//! position a side rolls from becomes a training sample whose target is its
//! TD(λ) return, computed backwards from the game's result through the
//! network's own evaluations of the following positions.

use crate::backgammon::{GameResult, Position, with_legal_moves};
use crate::eval::{Evaluator, NetKind, PositionClass, Probs};
use crate::players::duel::{roll_for_turn, splitmix};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

/// A position (side on roll) and what its network should output.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub position: Position,
    pub kind: NetKind,
    pub target: Probs,
}

/// Plays `games` games in parallel; game `i` is seeded from `seed` and `i`
/// alone, so the samples do not depend on the thread count.
pub fn play_games(
    eval: &Evaluator,
    games: u64,
    seed: u64,
    lambda: f32,
    exploration: f32,
    target_ply: u8,
) -> Vec<Sample> {
    (0..games)
        .into_par_iter()
        .map(|i| {
            let mut rng = SmallRng::seed_from_u64(splitmix(seed ^ splitmix(i)));
            let mut samples = play_game(eval, &mut rng, lambda, exploration);
            if target_ply > 0 {
                for s in &mut samples {
                    s.target = searched_target(eval, &s.position, target_ply);
                }
            }
            samples
        })
        .flatten_iter()
        .collect()
}

/// The `ply`-ply probabilities of `pos` for its roller: the average over
/// its 21 rolls of its best play's value (plain search).
pub fn searched_target(eval: &Evaluator, pos: &Position, ply: u8) -> Probs {
    // As if the opponent had just moved into `pos`: the search's view.
    crate::search::after_move(eval, &pos.swap(), ply)
        .flip()
        .consistent()
}

const MAX_TURNS: usize = 400;

/// One self-play game's samples.
pub fn play_game(
    eval: &Evaluator,
    rng: &mut SmallRng,
    lambda: f32,
    exploration: f32,
) -> Vec<Sample> {
    // (position rolled from, value of the position after the chosen move,
    // for the side that moved).
    let mut trail: Vec<(Position, Probs)> = Vec::with_capacity(64);
    let mut pos = Position::starting();
    // An untrained network can shuffle checkers for thousands of turns; a
    // game cut off here ends on the network's own evaluation.
    for turn in 0..MAX_TURNS {
        let dice = roll_for_turn(rng, turn);
        let explore = exploration > 0.0 && rng.random_bool(exploration as f64);
        let pick = rng.random::<u64>();
        let (after, value) = with_legal_moves(&pos, dice, |list| {
            let moves = list.as_slice();
            if explore {
                let c = &moves[(pick % moves.len() as u64) as usize];
                return (c.position, eval.after_move(&c.position));
            }
            let mut best = (moves[0].position, eval.after_move(&moves[0].position));
            for c in &moves[1..] {
                let v = eval.after_move(&c.position);
                if v.equity() > best.1.equity() {
                    best = (c.position, v);
                }
            }
            best
        });
        trail.push((pos, value));
        if GameResult::of_mover_win(&after).is_some() {
            break;
        }
        pos = after.swap();
    }
    targets(&trail, lambda)
}

/// λ-returns backwards: the last move's value is the exact result; each
/// earlier one blends the next position's evaluation with its return.
fn targets(trail: &[(Position, Probs)], lambda: f32) -> Vec<Sample> {
    let mut out = Vec::with_capacity(trail.len());
    let mut next_return: Option<Probs> = None;
    for &(position, value) in trail.iter().rev() {
        let ret = match next_return {
            None => value,
            Some(g) => {
                let g = g.flip();
                let mut r = Probs::default();
                r.add_scaled(&value, 1.0 - lambda);
                r.add_scaled(&g, lambda);
                r
            }
        };
        if let Some(kind) = PositionClass::of(&position).net() {
            out.push(Sample {
                position,
                kind,
                target: ret,
            });
        }
        next_return = Some(ret);
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Model;

    #[test]
    fn searched_targets_look_one_roll_ahead() {
        // Whatever the network, one checker on the 4-point against one on
        // the 1-point wins exactly when this roll bears it off: 34/36.
        let eval = Evaluator::new(Model::random(16, 8, 2));
        let (mut me, mut opp) = ([0u8; 25], [0u8; 25]);
        me[3] = 1;
        opp[0] = 1;
        let pos = Position::from_sides(&me, &opp).unwrap();
        let t = searched_target(&eval, &pos, 1);
        assert!((t.win() - 34.0 / 36.0).abs() < 1e-6, "{t:?}");
        let samples = play_games(&eval, 2, 3, 0.7, 0.0, 1);
        assert!(
            samples
                .iter()
                .all(|s| s.target.0.iter().all(|v| (0.0..=1.0).contains(v)))
        );
    }

    #[test]
    fn lambda_one_targets_are_the_final_result() {
        let eval = Evaluator::new(Model::random(16, 8, 2));
        let mut rng = SmallRng::seed_from_u64(4);
        let samples = play_game(&eval, &mut rng, 1.0, 0.0);
        assert!(samples.len() > 10);
        // With λ = 1 every target is the result, seen from its own side: a
        // certain outcome in {0, 1} for each of the five values.
        for s in &samples {
            assert!(
                s.target.0.iter().all(|&v| v == 0.0 || v == 1.0),
                "{:?}",
                s.target
            );
        }
        let first = samples[0].target;
        assert!(first.win() == 1.0 || first.win() == 0.0);
    }

    #[test]
    fn lambda_zero_targets_are_the_next_evaluation() {
        let trail = vec![
            (Position::starting(), Probs([0.6, 0.2, 0.0, 0.1, 0.0])),
            (Position::starting(), Probs([1.0, 0.0, 0.0, 0.0, 0.0])),
        ];
        let t = targets(&trail, 0.0);
        assert_eq!(t[0].target, trail[0].1);
        let t = targets(&trail, 0.5);
        // 0.5 * own value + 0.5 * the flipped final result (a loss for the first mover).
        assert!((t[0].target.win() - 0.3).abs() < 1e-6);
    }
}
