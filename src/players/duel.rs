//! Money games between two players, cubeless (gammons and backgammons
//! count), with mirrored dice: each dice sequence is played twice with the
//! sides swapped, which cancels most of the luck. Pairs run in parallel, and
//! every game draws from its own seeded generators, so the result depends
//! only on the seed, never on the thread count.

use super::Player;
use crate::backgammon::cube::CubeRules;
use crate::backgammon::{Dice, GameState, Phase, Play, Position};
use crate::cube::CubeState;
use crate::search::Searcher;
use crate::seed::splitmix;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

/// Points per game for the first player, with its standard error.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct DuelResult {
    pub games: u64,
    pub ppg: f64,
    pub se: f64,
}

/// A duel's points per game for A: as played, and with every roll's luck
/// removed where a judge was given.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct JudgedDuelResult {
    #[serde(flatten)]
    pub played: DuelResult,
    /// The same games, each roll's luck (as the judge values it) taken
    /// off the points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub luck_adjusted: Option<DuelResult>,
}

/// The mirrored-pair driver of duels that may count the luck:
/// `play(pair index, dice_seed, [choice seed of each game])` plays A
/// first, then B first on the same dice, and gives each game's first
/// mover's points and luck; `judged` says whether the luck was counted.
pub fn judged_pairs(
    games: u64,
    seed: u64,
    judged: bool,
    progress: &(dyn Fn(u64) + Sync),
    play: impl Fn(u64, u64, [u64; 2]) -> [(f64, f64); 2] + Sync,
) -> JudgedDuelResult {
    let pairs = mirrored_pair_values(games, seed, progress, |pair, dice_seed, choice_seeds| {
        let [(first, first_luck), (second, second_luck)] = play(pair, dice_seed, choice_seeds);
        let played = (first - second) / 2.0;
        (played, played - (first_luck - second_luck) / 2.0)
    });
    let (played, adjusted): (Vec<f64>, Vec<f64>) = pairs.into_iter().unzip();
    JudgedDuelResult {
        played: DuelResult::from_pairs(&played),
        luck_adjusted: judged.then(|| DuelResult::from_pairs(&adjusted)),
    }
}

/// Plays `games` games (rounded up to an even number) of `a` against `b`;
/// none for 0 ([`DuelResult::not_played`]).
pub fn duel(a: &dyn Player, b: &dyn Player, games: u64, seed: u64) -> DuelResult {
    duel_reporting(a, b, games, seed, &|_| {})
}

/// [`duel`], calling `progress` with 2 after each mirrored pair of games:
/// [`duel_judged`]'s games, without a judge.
pub fn duel_reporting(
    a: &dyn Player,
    b: &dyn Player,
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> DuelResult {
    duel_judged(a, b, games, seed, None, progress).played
}

/// [`duel_reporting`], and the points with each roll's luck removed as
/// `luck_judge` (a cubeless searcher) values it, when given: the same
/// games, whose luck no longer spreads the points.
pub fn duel_judged(
    a: &dyn Player,
    b: &dyn Player,
    games: u64,
    seed: u64,
    luck_judge: Option<&Searcher>,
    progress: &(dyn Fn(u64) + Sync),
) -> JudgedDuelResult {
    judged_pairs(
        games,
        seed,
        luck_judge.is_some(),
        progress,
        |_, dice_seed, [c0, c1]| {
            let game = |first, second, choice_seed| {
                let (points, luck) =
                    play_judged_game(first, second, dice_seed, choice_seed, None, luck_judge);
                (f64::from(points), luck)
            };
            [game(a, b, c0), game(b, a, c1)]
        },
    )
}

/// [`mirrored_pairs`] of whole games between `a` and `b`: `play(first,
/// second, dice_seed, choice_seed)` plays one game and gives the first
/// mover's points; each pair plays A first, then B first on the same dice.
pub fn mirrored_games<P: ?Sized + Sync>(
    a: &P,
    b: &P,
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
    play: impl Fn(&P, &P, u64, u64) -> f64 + Sync,
) -> DuelResult {
    mirrored_pairs(games, seed, progress, |_, dice_seed, choice_seeds| {
        play(a, b, dice_seed, choice_seeds[0]) - play(b, a, dice_seed, choice_seeds[1])
    })
}

/// The mirrored-pair driver every game's duels share: `games` games
/// (rounded up to even; none for 0) as pairs on one dice sequence each,
/// seats swapped in the second. `pair(index, dice_seed, [choice seed of
/// each game])` plays both and gives the first seat's points over the two.
/// Pairs run in parallel, each seeded from (seed, pair index) alone, so
/// the result depends on the seed and never on the thread count.
pub fn mirrored_pairs(
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
    pair: impl Fn(u64, u64, [u64; 2]) -> f64 + Sync,
) -> DuelResult {
    let per_pair: Vec<f64> = mirrored_pair_values(games, seed, progress, pair)
        .into_iter()
        .map(|both| both / 2.0)
        .collect();
    DuelResult::from_pairs(&per_pair)
}

/// [`mirrored_pairs`]' pairs, each giving whatever `pair` returns (a
/// duel that counts more than the points, say), in pair order.
pub fn mirrored_pair_values<T: Send>(
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
    pair: impl Fn(u64, u64, [u64; 2]) -> T + Sync,
) -> Vec<T> {
    (0..games.div_ceil(2))
        .into_par_iter()
        .map(|i| {
            let dice_seed = splitmix(seed ^ splitmix(i));
            let both = pair(
                i,
                dice_seed,
                [splitmix(dice_seed ^ 1), splitmix(dice_seed ^ 2)],
            );
            progress(2);
            both
        })
        .collect()
}

impl DuelResult {
    /// No games: the figures are NaN, which curves and progress lines
    /// leave out.
    pub fn not_played() -> DuelResult {
        DuelResult {
            games: 0,
            ppg: f64::NAN,
            se: f64::NAN,
        }
    }

    /// The result of mirrored pairs, each pair's mean points for A (none:
    /// no games, NaN figures, as [`Self::not_played`]).
    pub fn from_pairs(per_pair: &[f64]) -> DuelResult {
        let (ppg, se) = mean_and_se(per_pair);
        DuelResult {
            games: 2 * per_pair.len() as u64,
            ppg,
            se,
        }
    }
}

/// The mean of independent samples and its standard error.
pub fn mean_and_se(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, (var / n).sqrt())
}

/// One game from the starting position; points won by `first` (who makes
/// the opening move), negative when it loses. The rules' referee
/// ([`GameState`]) keeps the game: cubeless, so nobody doubles.
pub fn play_game(first: &dyn Player, second: &dyn Player, dice_seed: u64, choice_seed: u64) -> i32 {
    play_judged_game(first, second, dice_seed, choice_seed, None, None).0
}

/// A game's turns as played: the seat (0 = the first mover), the dice, the
/// position before (mover's view) and the play.
pub type GameLog = Vec<(u8, Dice, Position, Play)>;

/// [`play_game`], writing each turn into `log` when given, with the luck
/// of the rolls for `first` (each roll's from its roller's view, in
/// cubeless points) as `luck_judge` values it (0 without one).
pub fn play_judged_game(
    first: &dyn Player,
    second: &dyn Player,
    dice_seed: u64,
    choice_seed: u64,
    mut log: Option<&mut GameLog>,
    luck_judge: Option<&Searcher>,
) -> (i32, f64) {
    let mut dice_rng = SmallRng::seed_from_u64(dice_seed);
    let mut choice_rng = SmallRng::seed_from_u64(choice_seed);
    let players = [first, second];
    let mut game = GameState::new(CubeRules::default(), true, false);
    let mut luck = 0.0;
    // The opening roll is never a double: `first` (player 0) throws the
    // higher die and moves first with both.
    let opening = roll_for_turn(&mut dice_rng, 0);
    let started = game.opening_roll(opening.high(), opening.low());
    debug_assert_eq!(started, Ok(true));
    for turn in 0..10_000usize {
        let dice = if turn > 0 {
            let dice = roll_for_turn(&mut dice_rng, turn);
            let rolled = game.roll(dice);
            debug_assert!(rolled.is_ok());
            dice
        } else {
            opening
        };
        let seat = game.on_roll;
        if let Some(judge) = luck_judge {
            // The opening roll is judged against the other non-doubles.
            let roll_luck = judge.roll_luck(&game.position, dice, &CubeState::money(), turn == 0);
            luck += f64::from(if seat == 0 { roll_luck } else { -roll_luck });
        }
        let player = players[seat as usize];
        let played = game.play_chosen(|pos, list| {
            let i = player.choose(pos, list, &mut choice_rng);
            if let Some(log) = log.as_deref_mut() {
                let i = i.min(list.len() - 1);
                log.push((seat, dice, *pos, list.as_slice()[i].play));
            }
            i
        });
        debug_assert!(played.is_ok());
        if let Phase::Over(outcome) = game.phase() {
            let points = outcome.points as i32;
            return (if outcome.winner == 0 { points } else { -points }, luck);
        }
    }
    (0, luck)
}

/// [`duel_judged`] that also returns every game as played, pair by pair
/// in order (A first, then B first on the same dice), for saving.
pub fn duel_logged(
    a: &dyn Player,
    b: &dyn Player,
    games: u64,
    seed: u64,
    luck_judge: Option<&Searcher>,
    progress: &(dyn Fn(u64) + Sync),
) -> (JudgedDuelResult, Vec<[(GameLog, i32); 2]>) {
    let logs = std::sync::Mutex::new(std::collections::BTreeMap::new());
    let judged = luck_judge.is_some();
    let result = judged_pairs(
        games,
        seed,
        judged,
        progress,
        |pair, dice_seed, [c0, c1]| {
            let (mut log_a, mut log_b) = (GameLog::new(), GameLog::new());
            let first = play_judged_game(a, b, dice_seed, c0, Some(&mut log_a), luck_judge);
            let second = play_judged_game(b, a, dice_seed, c1, Some(&mut log_b), luck_judge);
            logs.lock()
                .expect("no thread panics holding it")
                .insert(pair, [(log_a, first.0), (log_b, second.0)]);
            [
                (f64::from(first.0), first.1),
                (f64::from(second.0), second.1),
            ]
        },
    );
    let logs = logs.into_inner().expect("no thread panics holding it");
    (result, logs.into_values().collect())
}

fn roll(rng: &mut SmallRng) -> Dice {
    Dice::new(rng.random_range(1..=6), rng.random_range(1..=6)).expect("dice are 1..=6")
}

/// The dice of turn `turn` (0 = the opening roll, which is never a double:
/// both dice are rolled again).
pub fn roll_for_turn(rng: &mut SmallRng, turn: usize) -> Dice {
    loop {
        let d = roll(rng);
        if turn > 0 || !d.is_double() {
            return d;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::{PubEvalPlayer, RandomPlayer};

    #[test]
    fn pubeval_crushes_random_and_mirrors_cancel() {
        let r = duel(&PubEvalPlayer, &RandomPlayer, 200, 5);
        assert_eq!(r.games, 200);
        assert!(r.ppg > 0.8, "PubEval against random: {r:?}");
        let same = duel(&PubEvalPlayer, &PubEvalPlayer, 50, 5);
        assert_eq!(
            same.ppg, 0.0,
            "identical players with mirrored dice tie exactly"
        );
    }

    #[test]
    fn same_seed_same_result() {
        assert_eq!(
            duel(&RandomPlayer, &PubEvalPlayer, 40, 9),
            duel(&RandomPlayer, &PubEvalPlayer, 40, 9)
        );
    }

    #[test]
    fn the_cubeless_luck_removed_leaves_a_tie_a_tie_and_narrows_a_win() {
        use crate::eval::{Evaluator, shipped_model};
        use crate::players::NetPlayer;
        let eval = std::sync::Arc::new(Evaluator::new(shipped_model().unwrap()));
        let judge = Searcher::new(&eval).with_cubeless(true);
        let net = NetPlayer {
            eval: eval.clone(),
            ply: 0,
        };
        let same = duel_judged(&net, &net, 8, 3, Some(&judge), &|_| {});
        let adjusted = same.luck_adjusted.unwrap();
        assert_eq!((same.played.ppg, adjusted.ppg), (0.0, 0.0), "{same:?}");
        // The games a plain duel plays, their points far less spread
        // once each roll's luck is off them; the saved games' duel counts
        // the same.
        let plain = duel(&net, &PubEvalPlayer, 60, 5);
        let r = duel_judged(&net, &PubEvalPlayer, 60, 5, Some(&judge), &|_| {});
        assert_eq!(r.played, plain);
        assert_eq!(
            duel_judged(&net, &PubEvalPlayer, 60, 5, None, &|_| {}).luck_adjusted,
            None
        );
        let (logged, games) = duel_logged(&net, &PubEvalPlayer, 60, 5, Some(&judge), &|_| {});
        assert_eq!((logged, games.len()), (r, 30));
        let adjusted = r.luck_adjusted.unwrap();
        assert_eq!(adjusted.games, 60);
        assert!(adjusted.se < 0.5 * r.played.se, "{r:?}");
        assert!(adjusted.ppg > 2.0 * adjusted.se, "{r:?}");
    }

    #[test]
    fn no_games_is_no_result() {
        let none = duel(&RandomPlayer, &PubEvalPlayer, 0, 9);
        assert_eq!(none.games, 0);
        assert!(none.ppg.is_nan() && none.se.is_nan());
    }
}
