//! Self-play: the current network plays both sides at 0-ply; every
//! position a side rolls from becomes a training sample whose target is its
//! TD(λ) return, computed backwards from the game's result through the
//! network's own evaluations of the following positions.

use crate::backgammon::cube::CubeRules;
use crate::backgammon::{GameState, Phase, Position};
use crate::cube::CubeState;
use crate::eval::{Evaluator, FirstLayerMemo, NetKind, Probs};
use crate::players::duel::roll_for_turn;
use crate::search::{Preselector, Searcher};
use crate::seed::splitmix;
use crate::train::lambda_returns::{Step, lambda_returns};
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
    policy: MovePolicy,
    target: TargetSearch,
) -> Vec<Sample> {
    // TD self-play (no search) allocates no search cache every step.
    let targets = (target.ply > 0).then(|| target.targets(eval));
    (0..games)
        .into_par_iter()
        .map(|i| {
            let mut rng = SmallRng::seed_from_u64(splitmix(seed ^ splitmix(i)));
            let mut samples = play_game(eval, &mut rng, lambda, policy);
            if target.race_only {
                samples.retain(|s| s.kind == NetKind::Race);
            }
            if let Some(targets) = &targets {
                for s in &mut samples {
                    s.target = targets.value(&s.position);
                }
            }
            samples
        })
        .flatten_iter()
        .collect()
}

/// How a sample's search target is found: `ply` plies deep (0 = no
/// search: the self-play return), and inside the tree only the `prune`
/// replies PubEval pre-selects for each roll are weighed by the network
/// (0 = every reply, the plain search of [`searched_target`]). Pruning
/// to 8 replies (and the search's cache) makes 2-ply targets about four
/// times as cheap.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TargetSearch {
    pub ply: u8,
    pub prune: usize,
    /// Only the games' race positions are kept and valued: a race
    /// network's targets then cost the race searches and the games' 0-ply
    /// play, not the contact searches, which are nearly all of a 2-ply
    /// chunk's time.
    pub race_only: bool,
}

impl TargetSearch {
    /// Plain targets of `ply` plies.
    pub fn plain(ply: u8) -> TargetSearch {
        TargetSearch {
            ply,
            ..TargetSearch::default()
        }
    }

    /// What finds the targets: the plain search, or for pruned targets
    /// the cubeless `Searcher`, whose cache is shared by the games of one
    /// call (the plain search needs none, so it gets none).
    pub fn targets<'a>(&self, eval: &'a Evaluator) -> Targets<'a> {
        match self.prune {
            0 => Targets::Plain {
                eval,
                ply: self.ply,
            },
            prune => Targets::Pruned {
                searcher: Searcher::new(eval)
                    .with_preselection(Preselector::PubEval, prune)
                    .with_cubeless(true),
                ply: self.ply,
            },
        }
    }
}

/// A [`TargetSearch`] ready to value positions.
pub enum Targets<'a> {
    Plain { eval: &'a Evaluator, ply: u8 },
    Pruned { searcher: Searcher<'a>, ply: u8 },
}

impl Targets<'_> {
    /// The target of `pos` for its roller.
    pub fn value(&self, pos: &Position) -> Probs {
        match self {
            Targets::Plain { eval, ply } => searched_target(eval, pos, *ply),
            Targets::Pruned { searcher, ply } => {
                let mut v = [0f32];
                searcher
                    .evaluate(pos, &[CubeState::money()], *ply, &mut v)
                    .consistent()
            }
        }
    }
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

/// How self-play strays from the network's best move, to reach positions
/// greedy play never visits (back games, crashed boards: where gnubg-style
/// noisy play goes and our own games did not).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MovePolicy {
    /// Chance of a uniformly random legal move.
    pub exploration: f32,
    /// Standard deviation of Gaussian noise added to each candidate's
    /// equity before the best is picked (gnubg's "noise" for its players).
    pub noise: f32,
}

impl MovePolicy {
    pub fn greedy() -> MovePolicy {
        MovePolicy::default()
    }

    /// Index of the move played, given each candidate's equity and the
    /// greedy best.
    pub(crate) fn pick(&self, rng: &mut SmallRng, equities: &[f32], best: usize) -> usize {
        let explore = self.exploration > 0.0 && rng.random_bool(self.exploration as f64);
        // Drawn every turn, used or not, so that greedy games stay the ones
        // the shipped recipes were trained on.
        let draw = rng.random::<u64>();
        if explore {
            return (draw % equities.len() as u64) as usize;
        }
        if self.noise <= 0.0 {
            return best;
        }
        let mut pick = (best, f32::NEG_INFINITY);
        for (i, &e) in equities.iter().enumerate() {
            let noisy = e + self.noise * standard_normal(rng);
            if noisy > pick.1 {
                pick = (i, noisy);
            }
        }
        pick.0
    }
}

/// Box–Muller: rand 0.10 has no normal distribution without rand_distr.
fn standard_normal(rng: &mut SmallRng) -> f32 {
    let u1 = 1.0 - rng.random::<f32>();
    let u2 = rng.random::<f32>();
    (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos()
}

/// One turn of the trail: the position rolled from, the network that
/// learns it (none for exact bear-offs), and the step the λ-returns are
/// formed from (the best move's value for the side that moved, and
/// whether another move was played).
#[derive(Clone, Copy, Debug)]
struct Turn {
    position: Position,
    kind: Option<NetKind>,
    step: Step<Probs>,
}

/// One self-play game's samples. The rules' referee ([`GameState`])
/// keeps the game, as in a duel: cubeless, so nobody doubles.
pub fn play_game(
    eval: &Evaluator,
    rng: &mut SmallRng,
    lambda: f32,
    policy: MovePolicy,
) -> Vec<Sample> {
    let mut trail: Vec<Turn> = Vec::with_capacity(64);
    let mut equities: Vec<f32> = Vec::with_capacity(64);
    let mut game = GameState::new(CubeRules::default(), true, false);
    // An untrained network can shuffle checkers for thousands of turns; a
    // game cut off here ends on the network's own evaluation.
    for turn in 0..MAX_TURNS {
        let dice = roll_for_turn(rng, turn);
        // The opening roll is never a double: player 0 throws the higher
        // die and moves first with both.
        let rolled = if turn == 0 {
            game.opening_roll(dice.high(), dice.low()).map(|_| ())
        } else {
            game.roll(dice)
        };
        debug_assert!(rolled.is_ok());
        let before = game.position;
        let mut step = Step {
            value: Probs::default(),
            strayed: false,
        };
        let played = game.play_chosen(|_, list| {
            let moves = list.as_slice();
            equities.clear();
            let mut best = (0, Probs::default(), f32::NEG_INFINITY);
            let mut memo = FirstLayerMemo::new();
            for (i, c) in moves.iter().enumerate() {
                let v = eval.after_candidate(&c.position, &mut memo);
                let e = v.equity();
                equities.push(e);
                if e > best.2 {
                    best = (i, v, e);
                }
            }
            let played = policy.pick(rng, &equities, best.0);
            step = Step {
                value: best.1,
                strayed: played != best.0,
            };
            played
        });
        debug_assert!(played.is_ok());
        trail.push(Turn {
            position: before,
            kind: eval.net_kind(&before),
            step,
        });
        // The best move's value is exact when that move ends the game.
        if matches!(game.phase(), Phase::Over(_)) {
            break;
        }
    }
    targets(&trail, lambda)
}

/// The turns' λ-returns ([`lambda_returns`]: the last move's value is the
/// exact result, a strayed turn cuts the trace) as samples of the turns a
/// network learns.
fn targets(trail: &[Turn], lambda: f32) -> Vec<Sample> {
    let steps: Vec<Step<Probs>> = trail.iter().map(|t| t.step).collect();
    let returns = lambda_returns(
        &steps,
        |value| *value,
        |value, next| {
            let mut r = Probs::default();
            r.add_scaled(value, 1.0 - lambda);
            r.add_scaled(&next.flip(), lambda);
            r
        },
    );
    trail
        .iter()
        .zip(returns)
        .filter_map(|(turn, target)| {
            turn.kind.map(|kind| Sample {
                position: turn.position,
                kind,
                target,
            })
        })
        .collect()
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
        let samples = play_games(
            &eval,
            2,
            3,
            0.7,
            MovePolicy::greedy(),
            TargetSearch::plain(1),
        );
        assert!(
            samples
                .iter()
                .all(|s| s.target.0.iter().all(|v| (0.0..=1.0).contains(v)))
        );
    }

    #[test]
    fn race_only_sets_keep_the_same_games_race_positions_and_values() {
        let eval = Evaluator::new(crate::eval::shipped_model().unwrap());
        let play = |race_only| {
            let target = TargetSearch {
                ply: 1,
                prune: 0,
                race_only,
            };
            play_games(&eval, 4, 11, 0.7, MovePolicy::greedy(), target)
        };
        let (all, race) = (play(false), play(true));
        let raced: Vec<&Sample> = all.iter().filter(|s| s.kind == NetKind::Race).collect();
        assert!(!raced.is_empty() && raced.len() < all.len());
        assert_eq!(race.len(), raced.len());
        for (a, b) in race.iter().zip(raced) {
            assert_eq!(a.position, b.position);
            assert_eq!(a.target.0, b.target.0);
        }
    }

    #[test]
    fn pruned_targets_are_the_plain_search_when_nothing_is_pruned() {
        let eval = Evaluator::new(crate::eval::shipped_model().unwrap());
        let samples = play_games(
            &eval,
            1,
            5,
            0.7,
            MovePolicy::greedy(),
            TargetSearch::plain(0),
        );
        // Keeping more replies than any roll has prunes nothing (64 would
        // prune a double's list of 65 to 128 plays).
        let whole = TargetSearch {
            ply: 2,
            prune: usize::MAX,
            race_only: false,
        };
        let pruned = TargetSearch {
            ply: 2,
            prune: 4,
            race_only: false,
        };
        let (whole, pruned) = (whole.targets(&eval), pruned.targets(&eval));
        let mut differs = false;
        for s in samples
            .iter()
            .filter(|s| s.kind != NetKind::Race)
            .step_by(7)
            .take(4)
        {
            let plain = searched_target(&eval, &s.position, 2);
            let a = whole.value(&s.position);
            assert!(
                (a.equity() - plain.equity()).abs() < 1e-4,
                "{a:?} {plain:?}"
            );
            let b = pruned.value(&s.position);
            // Four replies a roll: near the whole tree, seldom exactly it.
            assert!((b.equity() - plain.equity()).abs() < 0.1, "{b:?} {plain:?}");
            differs |= (b.equity() - plain.equity()).abs() > 1e-4;
        }
        assert!(differs, "pruning four replies a roll changes some value");
    }

    #[test]
    fn lambda_one_targets_are_the_final_result() {
        let eval = Evaluator::new(Model::random(16, 8, 2));
        let mut rng = SmallRng::seed_from_u64(4);
        let samples = play_game(&eval, &mut rng, 1.0, MovePolicy::greedy());
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

    fn turn(value: [f32; 5], strayed: bool) -> Turn {
        Turn {
            position: Position::starting(),
            kind: Some(NetKind::Contact),
            step: Step {
                value: Probs(value),
                strayed,
            },
        }
    }

    #[test]
    fn lambda_zero_targets_are_the_next_evaluation() {
        let trail = vec![
            turn([0.6, 0.2, 0.0, 0.1, 0.0], false),
            turn([1.0, 0.0, 0.0, 0.0, 0.0], false),
        ];
        let t = targets(&trail, 0.0);
        assert_eq!(t[0].target, trail[0].step.value);
        let t = targets(&trail, 0.5);
        // 0.5 * own value + 0.5 * the flipped final result (a loss for the first mover).
        assert!((t[0].target.win() - 0.3).abs() < 1e-6);
    }

    #[test]
    fn a_stray_move_cuts_the_trace() {
        // The first mover strayed: the game's loss after its stray move says
        // nothing of its best move, whose value is the target, and the move
        // before it learns from that value, not from the result.
        let trail = vec![
            turn([0.5, 0.1, 0.0, 0.1, 0.0], false),
            turn([0.6, 0.2, 0.0, 0.1, 0.0], true),
            turn([1.0, 0.0, 0.0, 0.0, 0.0], false),
        ];
        let t = targets(&trail, 1.0);
        assert_eq!(t[1].target, trail[1].step.value);
        assert_eq!(t[0].target, trail[1].step.value.flip());
        let t = targets(&trail, 0.0);
        assert_eq!(t[1].target, trail[1].step.value);
    }

    #[test]
    fn noise_strays_and_greedy_does_not() {
        let eval = Evaluator::new(Model::random(16, 8, 2));
        let mut rng = SmallRng::seed_from_u64(5);
        let equities = [0.1, 0.3, 0.2, -0.4];
        let greedy = MovePolicy::greedy();
        assert!((0..200).all(|_| greedy.pick(&mut rng, &equities, 1) == 1));
        let noisy = MovePolicy {
            exploration: 0.0,
            noise: 0.1,
        };
        let picks: Vec<usize> = (0..2000)
            .map(|_| noisy.pick(&mut rng, &equities, 1))
            .collect();
        let count = |i| picks.iter().filter(|&&p| p == i).count();
        // Best kept most often; the close second sometimes; the far-off
        // fourth (7 standard deviations of the difference away) never.
        assert!(
            count(1) > 1000 && count(2) > 100 && count(3) == 0,
            "{picks:?}"
        );
        // And a noisy game still gives sound targets.
        let samples = play_game(&eval, &mut rng, 0.7, noisy);
        assert!(samples.len() > 10);
        assert!(
            samples
                .iter()
                .all(|s| s.target.0.iter().all(|v| (0.0..=1.0).contains(v)))
        );
    }
}
