//! Rollouts for the games behind [`Game`]: each trial plays the position
//! out to the end with the network at some ply, its first two throws
//! stratified as backgammon's are (the shared [`Strata`] over the game's
//! dice), the rest from the trial's own seed. So a rollout depends only on
//! its seed, not on the thread count, and a multiple of the game's throw
//! count covers the first throw exactly.
//!
//! Variance reduction works as in backgammon's rollouts: each throw's
//! luck, the 0-ply value of the best turn with that throw minus the
//! weighted mean over every throw of the game, is subtracted from the
//! trial's points (and likewise from its win and loss). The throw is
//! drawn after the position it is thrown in is fixed, so each term's
//! expectation is zero whatever the network says: the estimate stays
//! unbiased while most of the dice's noise cancels. Throws after the
//! turn that ends the game (Icelandic bonus throws) are left unadjusted.
//!
//! Unlike backgammon's, it pays only when the trials play at 1-ply or
//! deeper. Generating every throw's turns is most of its cost, and these
//! games have no cheap pre-selection to skip it: from the Icelandic start
//! (360 trials, 0-ply) it cut the standard error of the points 1.7 times
//! for 28 times the time, from the Icehouse start 2.1 times for 10 times;
//! at 1-ply (36 Icelandic trials) 1.5 times for 6% more time.

use super::{Estimate, Strata};
use crate::eval::game_net::GameNet;
use crate::game::{After, Game};
use crate::search::any_game::{best_turn, outputs};
use crate::seed::splitmix;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use std::cell::Cell;

/// How to roll out a position of one of these games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameRolloutSettings {
    pub trials: u32,
    /// Turn choice inside the rollout (0 = the network alone).
    pub ply: u8,
    pub seed: u64,
    pub variance_reduction: bool,
}

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

/// Points, win and loss of one trial, or one throw's luck, for one side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Outcome {
    points: f64,
    win: f64,
    loss: f64,
}

impl Outcome {
    fn of_points(points: f32) -> Outcome {
        Outcome {
            points: points.into(),
            win: f64::from(u8::from(points > 0.0)),
            loss: f64::from(u8::from(points < 0.0)),
        }
    }

    /// The other side's view.
    fn flipped(self) -> Outcome {
        Outcome {
            points: -self.points,
            win: self.loss,
            loss: self.win,
        }
    }

    fn scaled(self, k: f64) -> Outcome {
        Outcome {
            points: k * self.points,
            win: k * self.win,
            loss: k * self.loss,
        }
    }

    fn plus(self, o: Outcome) -> Outcome {
        Outcome {
            points: self.points + o.points,
            win: self.win + o.win,
            loss: self.loss + o.loss,
        }
    }

    fn minus(self, o: Outcome) -> Outcome {
        self.plus(o.scaled(-1.0))
    }
}

/// Rolls `state` out, both sides played by `net` at `settings.ply`;
/// `progress` hears of each finished trial.
pub fn roll_out<G: Game>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    settings: &GameRolloutSettings,
    progress: &(dyn Fn(u64) + Sync),
) -> GameRollout {
    let strata = Strata::new(settings.seed, game.die_faces());
    let outcomes: Vec<Outcome> = (0..settings.trials)
        .into_par_iter()
        .map(|i| {
            let outcome = trial(game, net, state, settings, &strata, i);
            progress(1);
            outcome
        })
        .collect();
    let estimate = |f: fn(&Outcome) -> f64| Estimate::of(outcomes.iter().map(f));
    GameRollout {
        trials: settings.trials,
        points: estimate(|o| o.points),
        wins: estimate(|o| o.win),
        losses: estimate(|o| o.loss),
    }
}

/// Trial `index`: `state` played out for its side to move, its first two
/// throws from the strata, luck removed when asked.
fn trial<G: Game>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    settings: &GameRolloutSettings,
    strata: &Strata,
    index: u32,
) -> Outcome {
    let seed = splitmix(settings.seed ^ splitmix(u64::from(index)));
    let mut rng = SmallRng::seed_from_u64(seed);
    let faces = game.die_faces();
    let thrown = Cell::new((0, 0));
    let mut throws = 0;
    let mut dice = || {
        let throw = match throws {
            0 => strata.first(index),
            1 => strata.second(index),
            _ => (rng.random_range(1..=faces), rng.random_range(1..=faces)),
        };
        throws += 1;
        thrown.set(throw);
        throw
    };
    let root = game.seat(state);
    let mut luck = Outcome::default();
    let mut over = false;
    let mut choose = |s: &G::State, turns: &[G::Turn]| {
        let i = best_turn(game, net, s, turns, settings.ply);
        if settings.variance_reduction && !over {
            let l = throw_luck(game, net, s, thrown.get());
            let l = if game.seat(s) == root { l } else { l.flipped() };
            luck = luck.plus(l);
            over = matches!(game.after(s, &turns[i]), After::Ended(_));
        }
        i
    };
    let points = game.play_on(*state, &mut dice, &mut choose);
    Outcome::of_points(points).minus(luck)
}

/// What `throw` brought the side to move in `state`: the 0-ply outcome of
/// its best turn with that throw, less the mean over every throw.
fn throw_luck<G: Game>(game: &G, net: &GameNet, state: &G::State, throw: (u8, u8)) -> Outcome {
    let throw = (throw.0.max(throw.1), throw.0.min(throw.1));
    let mut mean = Outcome::default();
    let mut actual = Outcome::default();
    for &(roll, weight) in game.rolls() {
        let best = game
            .turns(state, roll)
            .iter()
            .map(|t| after_turn(game, net, state, t))
            .max_by(|a, b| a.points.total_cmp(&b.points))
            .unwrap_or_default();
        mean = mean.plus(best.scaled(f64::from(weight)));
        if roll == throw {
            actual = best;
        }
    }
    actual.minus(mean.scaled(1.0 / f64::from(game.roll_total())))
}

/// The 0-ply outcome of `turn` for its mover.
fn after_turn<G: Game>(game: &G, net: &GameNet, state: &G::State, turn: &G::Turn) -> Outcome {
    match game.after(state, turn) {
        After::Ended(end) => Outcome::of_points(end.points),
        After::Next(next) => {
            let y = outputs(game, net, &next);
            let y = &y[..game.outputs()];
            let (win, loss) = game.win_loss(y);
            Outcome {
                points: game.equity(y).into(),
                win: win.into(),
                loss: loss.into(),
            }
            .flipped()
        }
    }
}

/// Rolls out what each of `turns` leads to, from the view of the side
/// making it: a turn that ends the game is worth its points exactly.
pub fn roll_out_turns<G: Game>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    turns: &[G::Turn],
    settings: &GameRolloutSettings,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<GameRollout> {
    turns
        .iter()
        .map(|turn| match game.after(state, turn) {
            After::Ended(end) => {
                progress(settings.trials.into());
                GameRollout::exact(end.points, settings.trials)
            }
            // The same seed for every turn: common dice sharpen the
            // comparison between them.
            After::Next(next) => roll_out(game, net, &next, settings, progress).flipped(),
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

    fn settings(trials: u32, seed: u64, variance_reduction: bool) -> GameRolloutSettings {
        GameRolloutSettings {
            trials,
            ply: 0,
            seed,
            variance_reduction,
        }
    }

    #[test]
    fn a_rollout_depends_on_its_seed_not_on_the_thread_count() {
        let game = IcehouseKotra;
        let net = GameNet::random(game.inputs(), 8, game.outputs(), 5);
        let start = game.start(&mut dice_from(1, game.die_faces()));
        for variance_reduction in [false, true] {
            let run = |seed| {
                let s = settings(24, seed, variance_reduction);
                roll_out(&game, &net, &start, &s, &|_| {})
            };
            let alone = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap()
                .install(|| run(9));
            let shared = run(9);
            assert_eq!(alone, shared);
            assert_ne!(shared, run(10));
        }
        let done = std::sync::atomic::AtomicU64::new(0);
        let count = |n| {
            done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        };
        let shared = roll_out(&game, &net, &start, &settings(48, 9, false), &count);
        assert_eq!(done.into_inner(), 48, "progress hears of every trial");
        // Every trial ends in a win or a loss for the side to move.
        assert!((shared.wins.mean + shared.losses.mean - 1.0).abs() < 1e-12);
        assert!(shared.points.se > 0.0);
        // The other side's view of the same trials.
        let flipped = shared.flipped();
        assert_eq!(flipped.points.mean, -shared.points.mean);
        assert_eq!((flipped.wins, flipped.losses), (shared.losses, shared.wins));
    }

    /// The positions a heuristic game from the start passes through.
    fn states_of_a_game<G: Game>(game: &G, seed: u64) -> Vec<G::State> {
        let mut dice = dice_from(seed, game.die_faces());
        let start = game.start(&mut dice);
        let mut states = Vec::new();
        let mut choose = |s: &G::State, t: &[G::Turn]| {
            states.push(*s);
            game.heuristic(s, t)
        };
        game.play_on(start, &mut dice, &mut choose);
        states
    }

    /// Luck is a throw's value less the mean over all throws, so weighted
    /// by how often each throw falls it sums to nothing, in points, wins
    /// and losses alike, and the dice's order does not matter.
    fn luck_weighs_out<G: Game>(game: &G) {
        let net = GameNet::random(game.inputs(), 8, game.outputs(), 3);
        for state in states_of_a_game(game, 4).iter().step_by(7) {
            let mut sum = Outcome::default();
            for &(roll, weight) in game.rolls() {
                let luck = throw_luck(game, &net, state, roll);
                assert_eq!(luck, throw_luck(game, &net, state, (roll.1, roll.0)));
                sum = sum.plus(luck.scaled(f64::from(weight)));
            }
            let total = f64::from(game.roll_total());
            for v in [sum.points, sum.win, sum.loss] {
                assert!(v.abs() / total < 1e-6, "{sum:?}");
            }
        }
    }

    #[test]
    fn every_throws_luck_weighs_out_to_nothing() {
        luck_weighs_out(&IcehouseKotra);
        luck_weighs_out(&IcelandicKotra::default());
    }

    /// With the shipped network, whose values follow the dice, luck
    /// adjustment must narrow the estimate without moving it: the same
    /// trials with and without it agree within their errors.
    #[test]
    fn luck_adjustment_cuts_the_noise_not_the_mean() {
        let game = IcelandicKotra::default();
        let model = crate::eval::game_net::GameModel::from_bytes(
            include_bytes!("../../models/icelandic-kotra.net"),
            game.name(),
            game.inputs(),
            game.outputs(),
        )
        .unwrap();
        let states = states_of_a_game(&game, 11);
        let late = states[states.len() * 5 / 6];
        let plain = roll_out(&game, &model.net, &late, &settings(108, 7, false), &|_| {});
        let adjusted = roll_out(&game, &model.net, &late, &settings(108, 7, true), &|_| {});
        for (p, a) in [
            (plain.points, adjusted.points),
            (plain.wins, adjusted.wins),
            (plain.losses, adjusted.losses),
        ] {
            assert!(a.se < 0.8 * p.se, "{plain:?} {adjusted:?}");
            assert!(
                (a.mean - p.mean).abs() < 4.0 * p.se.hypot(a.se),
                "{plain:?} {adjusted:?}"
            );
        }
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
