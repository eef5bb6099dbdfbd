//! Four-player Icehouse Kotra duels: one seat's share of the wins
//! against three seats of another player, the seat taking each place in
//! turn. The players are the max-n searcher, the greedy player and a
//! random mover of [`crate::icehouse::maxn`].

use crate::icehouse::Seat;
use crate::icehouse::maxn::{greedy_choice, maxn_choice};

/// Who sits where in a four-player game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FourPlayer {
    Greedy,
    MaxN,
    Random,
}

impl FourPlayer {
    pub fn parse(text: &str) -> Option<FourPlayer> {
        match text {
            "heuristic" => Some(FourPlayer::Greedy),
            "maxn" => Some(FourPlayer::MaxN),
            "random" => Some(FourPlayer::Random),
            _ => None,
        }
    }
}

/// The share of the win of `a` in `games` four-player games against three
/// `b` seats, `a` taking each seat in turn; with its standard error.
pub fn seat_share(a: FourPlayer, b: FourPlayer, games: u64, seed: u64) -> (f64, f64) {
    use crate::seed::splitmix;
    use rand::{RngExt, SeedableRng, rngs::SmallRng};
    use rayon::prelude::*;
    let results: Vec<f64> = (0..games)
        .into_par_iter()
        .map(|g| {
            let a_seat = Seat::from_index(g as usize % 4);
            let mut dice_rng = SmallRng::seed_from_u64(splitmix(seed ^ splitmix(g)));
            let mut pick_rng = SmallRng::seed_from_u64(splitmix(seed ^ splitmix(g) ^ 7));
            let mut dice = || {
                (
                    dice_rng.random_range(1..=4u8),
                    dice_rng.random_range(1..=4u8),
                )
            };
            let (last, _) = crate::icehouse::play::play_game(4, &mut dice, &mut |p, list| {
                let who = if p.to_move == a_seat { a } else { b };
                match who {
                    FourPlayer::Greedy => greedy_choice(p, list),
                    FourPlayer::MaxN => maxn_choice(p, list),
                    FourPlayer::Random => pick_rng.random_range(0..list.len()),
                }
            });
            last.outcome().map_or(0.25, |o| o.share(a_seat) as f64)
        })
        .collect();
    super::duel::mean_and_se(&results)
}
