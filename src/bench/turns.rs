//! Turn generation speed for the games behind [`Game`]: positions from
//! seeded heuristic self-play, each with every distinct roll.

use crate::game::{After, Game};
use crate::seed::splitmix;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::time::Instant;

/// Every position met before a turn in `games` heuristic games.
pub fn sample_positions<G: Game>(game: &G, games: u64, seed: u64) -> Vec<G::State> {
    let mut out = Vec::new();
    for g in 0..games {
        let mut rng = SmallRng::seed_from_u64(splitmix(seed ^ splitmix(g)));
        let faces = game.die_faces();
        let roll = |rng: &mut SmallRng| (rng.random_range(1..=faces), rng.random_range(1..=faces));
        let mut state = game.start(&mut || roll(&mut rng));
        for _ in 0..crate::game::MAX_TURNS {
            out.push(state);
            let turns = game.turns(&state, roll(&mut rng));
            match game.after(&state, &turns[game.heuristic(&state, &turns)]) {
                After::Next(next) => state = next,
                After::Ended(_) => break,
            }
        }
    }
    out
}

/// What one measurement found.
#[derive(Clone, Copy, Debug)]
pub struct TurnSpeed {
    pub positions: usize,
    /// Legal turns over all (position, roll) pairs of one pass.
    pub turns: u64,
    pub ns_per_pair: f64,
    pub ns_per_turn: f64,
}

/// Generates the legal turns of every position × distinct roll, for at
/// least `seconds`.
pub fn measure<G: Game>(game: &G, positions: &[G::State], seconds: f64) -> TurnSpeed {
    let rolls = game.rolls();
    let pass = || -> u64 {
        positions
            .iter()
            .map(|p| {
                rolls
                    .iter()
                    .map(|&(r, _)| game.turns(p, r).len() as u64)
                    .sum::<u64>()
            })
            .sum()
    };
    let turns = pass();
    let start = Instant::now();
    let mut passes = 0u32;
    while passes == 0 || start.elapsed().as_secs_f64() < seconds {
        std::hint::black_box(pass());
        passes += 1;
    }
    let ns = start.elapsed().as_nanos() as f64 / passes as f64;
    TurnSpeed {
        positions: positions.len(),
        turns,
        ns_per_pair: ns / (positions.len() * rolls.len()) as f64,
        ns_per_turn: ns / turns as f64,
    }
}
