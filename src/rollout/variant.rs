//! Rollouts for the games behind [`Game`]: each trial plays the position
//! out to the end with the network at some ply, its first throw drawn in
//! turn from every throw of the game (weighted as it falls), the rest
//! from the trial's own seed. So a rollout depends only on its seed, not
//! on the thread count, and a multiple of the game's throw count covers
//! the first throw exactly. There is no luck adjustment (variance
//! reduction) here yet: only backgammon rollouts have it.

use super::Estimate;
use crate::eval::game_net::GameNet;
use crate::game::{After, Game};
use crate::players::duel::splitmix;
use crate::search::variant::best_turn;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

/// A rollout's result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameRollout {
    pub trials: u32,
    /// Its points minus the other side's, per game.
    pub points: Estimate,
    /// The share of trials it wins, and loses (a draw is neither).
    pub wins: Estimate,
    pub losses: Estimate,
}

impl GameRollout {
    /// The same trials from the other side's view.
    pub fn flipped(self) -> GameRollout {
        GameRollout {
            points: Estimate {
                mean: -self.points.mean,
                se: self.points.se,
            },
            wins: self.losses,
            losses: self.wins,
            ..self
        }
    }

    /// A game already over: `points` for the side to move, every trial alike.
    pub fn exact(points: f32, trials: u32) -> GameRollout {
        let share = |b: bool| Estimate {
            mean: f64::from(u8::from(b)),
            se: 0.0,
        };
        GameRollout {
            trials,
            points: Estimate {
                mean: points.into(),
                se: 0.0,
            },
            wins: share(points > 0.0),
            losses: share(points < 0.0),
        }
    }
}

/// Rolls `state` out `trials` times, both sides played by `net` at `ply`.
pub fn roll_out<G: Game>(
    game: &G,
    net: &GameNet,
    ply: u8,
    state: &G::State,
    trials: u32,
    seed: u64,
) -> GameRollout {
    let first_throws: Vec<(u8, u8)> = game
        .rolls()
        .iter()
        .flat_map(|&(roll, weight)| std::iter::repeat_n(roll, weight as usize))
        .collect();
    let faces = game.die_faces();
    let points: Vec<f64> = (0..trials)
        .into_par_iter()
        .map(|i| {
            let mut rng = SmallRng::seed_from_u64(splitmix(seed ^ splitmix(u64::from(i))));
            let mut first = Some(first_throws[i as usize % first_throws.len()]);
            let mut dice = || {
                first
                    .take()
                    .unwrap_or_else(|| (rng.random_range(1..=faces), rng.random_range(1..=faces)))
            };
            let mut choose = |s: &G::State, turns: &[G::Turn]| best_turn(game, net, s, turns, ply);
            f64::from(game.play_on(*state, &mut dice, &mut choose))
        })
        .collect();
    let share =
        |f: fn(f64) -> bool| Estimate::of(points.iter().map(move |&p| f64::from(u8::from(f(p)))));
    GameRollout {
        trials,
        points: Estimate::of(points.iter().copied()),
        wins: share(|p| p > 0.0),
        losses: share(|p| p < 0.0),
    }
}

/// Rolls out what each of `turns` leads to, from the view of the side
/// making it: a turn that ends the game is worth its points exactly.
pub fn roll_out_turns<G: Game>(
    game: &G,
    net: &GameNet,
    ply: u8,
    state: &G::State,
    turns: &[G::Turn],
    trials: u32,
    seed: u64,
) -> Vec<GameRollout> {
    turns
        .iter()
        .map(|turn| match game.after(state, turn) {
            After::Ended(end) => GameRollout::exact(end.points, trials),
            // The same seed for every turn: common dice sharpen the
            // comparison between them.
            After::Next(next) => roll_out(game, net, ply, &next, trials, seed).flipped(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icehouse::game::IcehouseKotra;
    use crate::icelandic::Options;
    use crate::icelandic::game::IcelandicKotra;

    fn dice_from(seed: u64, faces: u8) -> impl FnMut() -> (u8, u8) {
        let mut rng = SmallRng::seed_from_u64(seed);
        move || (rng.random_range(1..=faces), rng.random_range(1..=faces))
    }

    /// A whole game is the game played on from its start: the same dice
    /// and choices give the same points (seat 0's, the starting side's
    /// sign flipped where seat 1 starts), bonus throws included.
    fn play_is_play_on_from_the_start<G: Game>(game: &G) {
        for seed in 0..40 {
            let mut choose = |s: &G::State, t: &[G::Turn]| game.heuristic(s, t);
            let whole = game.play(&mut dice_from(seed, game.die_faces()), &mut choose);
            let mut dice = dice_from(seed, game.die_faces());
            let start = game.start(&mut dice);
            let on = game.play_on(start, &mut dice, &mut choose);
            let seat0 = if game.seat(&start) == 0 { on } else { -on };
            assert_eq!(whole, seat0, "seed {seed}");
        }
    }

    #[test]
    fn a_game_is_its_start_played_on() {
        play_is_play_on_from_the_start(&IcehouseKotra);
        play_is_play_on_from_the_start(&IcelandicKotra {
            options: Options {
                little_master: true,
                bonus_throws: Some(7),
                equalizing_throw: false,
            },
        });
    }

    #[test]
    fn a_rollout_depends_on_its_seed_not_on_the_thread_count() {
        let game = IcehouseKotra;
        let net = GameNet::random(game.inputs(), 8, game.outputs(), 5);
        let start = game.start(&mut dice_from(1, game.die_faces()));
        let alone = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| roll_out(&game, &net, 0, &start, 48, 9));
        let shared = roll_out(&game, &net, 0, &start, 48, 9);
        assert_eq!(alone, shared);
        assert_ne!(shared, roll_out(&game, &net, 0, &start, 48, 10));
        // Every trial ends in a win or a loss for the side to move.
        assert!((shared.wins.mean + shared.losses.mean - 1.0).abs() < 1e-12);
        assert!(shared.points.se > 0.0);
        // The other side's view of the same trials.
        let flipped = shared.flipped();
        assert_eq!(flipped.points.mean, -shared.points.mean);
        assert_eq!((flipped.wins, flipped.losses), (shared.losses, shared.wins));
    }

    #[test]
    fn a_turn_that_ends_the_game_is_worth_its_points_exactly() {
        let won = GameRollout::exact(2.0, 36);
        assert_eq!((won.points.mean, won.points.se), (2.0, 0.0));
        assert_eq!((won.wins.mean, won.losses.mean), (1.0, 0.0));
        let lost = GameRollout::exact(-1.0, 36).flipped();
        assert_eq!((lost.points.mean, lost.wins.mean), (1.0, 1.0));
    }
}
