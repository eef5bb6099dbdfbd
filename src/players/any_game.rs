//! Players and mirrored duels for the games behind [`Game`]: a network at
//! some ply, the game's greedy heuristic, or a random mover.

use super::duel::{DuelResult, mirrored_games};
use super::{NetSpecError, PlayerError, net_spec};
use crate::eval::game_net::{GameModel, GameNet};
use crate::game::Game;
use crate::search::any_game::best_turn;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::path::Path;

/// Who picks the turns.
#[derive(Clone, Debug)]
pub enum GamePlayer {
    Net { net: GameNet, ply: u8 },
    Heuristic,
    Random,
}

impl GamePlayer {
    pub fn choose<G: Game>(
        &self,
        game: &G,
        state: &G::State,
        turns: &[G::Turn],
        rng: &mut SmallRng,
    ) -> usize {
        match self {
            GamePlayer::Net { net, ply } => best_turn(game, net, state, turns, *ply),
            GamePlayer::Heuristic => game.heuristic(state, turns),
            GamePlayer::Random => rng.random_range(0..turns.len()),
        }
    }
}

/// Parses `net`, `net@1`, `net:PATH`, `net:PATH@1`, `heuristic`, `random`;
/// `shipped` is the game's shipped model.
pub fn parse_game_player<G: Game>(
    game: &G,
    spec: &str,
    shipped: impl FnOnce() -> Result<GameModel, crate::eval::game_net::GameModelError>,
) -> Result<GamePlayer, PlayerError> {
    match spec {
        "heuristic" => return Ok(GamePlayer::Heuristic),
        "random" => return Ok(GamePlayer::Random),
        _ => {}
    }
    let (path, ply) = match net_spec(spec, 2) {
        Ok(parsed) => parsed,
        Err(NetSpecError::NotNet) => return Err(PlayerError::UnknownForGame(spec.into())),
        Err(NetSpecError::Ply) => return Err(PlayerError::GamePly(spec.into())),
    };
    let model = match path {
        None => shipped()?,
        Some(p) => GameModel::load(Path::new(p), game.name(), game.inputs(), game.outputs())?,
    };
    Ok(GamePlayer::Net {
        net: model.net,
        ply,
    })
}

/// Plays `games` games (rounded up to even; none for 0) of `a` against `b`: each dice
/// sequence twice, with the seats swapped. Points per game for `a` in the
/// game's own scoring. Depends only on the seed, not on the thread count.
pub fn duel_game<G: Game>(
    game: &G,
    a: &GamePlayer,
    b: &GamePlayer,
    games: u64,
    seed: u64,
) -> DuelResult {
    duel_game_reporting(game, a, b, games, seed, &|_| {})
}

/// [`duel_game`], calling `progress` with 2 after each mirrored pair.
pub fn duel_game_reporting<G: Game>(
    game: &G,
    a: &GamePlayer,
    b: &GamePlayer,
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> DuelResult {
    mirrored_games(
        a,
        b,
        games,
        seed,
        progress,
        |first, second, dice_seed, choice_seed| {
            f64::from(play_one(game, [first, second], dice_seed, choice_seed))
        },
    )
}

/// One game with `seats[0]` in seat 0; seat 0's net points.
pub fn play_one<G: Game>(
    game: &G,
    seats: [&GamePlayer; 2],
    dice_seed: u64,
    choice_seed: u64,
) -> f32 {
    let mut dice_rng = SmallRng::seed_from_u64(dice_seed);
    let mut choice_rng = SmallRng::seed_from_u64(choice_seed);
    let faces = game.die_faces();
    let mut dice = || {
        (
            dice_rng.random_range(1..=faces),
            dice_rng.random_range(1..=faces),
        )
    };
    let mut choose = |s: &G::State, turns: &[G::Turn]| {
        seats[game.seat(s)].choose(game, s, turns, &mut choice_rng)
    };
    game.play(&mut dice, &mut choose)
}
