//! Sibling positions for a distillation: the results of the plays that
//! compete for one roll. Self-play samples are the positions a game
//! passed through, so the student learns the played move's result and
//! seldom the close alternatives it has to be ranked against. Move errors
//! are ranking errors: a student can fit its samples well and still order
//! two siblings wrongly. For a drawn position of the chunk, a roll is
//! drawn, the teacher ranks the plays at 0-ply, and the best
//! `sibling_moves` results (the opponent on roll) get the teacher's
//! search values as targets.

use super::selfplay::{Sample, TargetSearch};
use crate::backgammon::with_legal_moves;
use crate::eval::{Evaluator, NetKind};
use crate::players::duel::roll_for_turn;
use crate::seed::splitmix;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rayon::prelude::*;

/// The siblings of `origins` (positions with their roller on roll): for
/// origin `k`, a roll drawn from `seed` and `k`, and the results of the
/// teacher's best `moves` plays, each with its `target` value for the
/// side then on roll. Results that end the game or leave no contact are
/// left out (the contact network is what learns from them). The order
/// and values do not depend on the thread count.
pub fn siblings(
    teacher: &Evaluator,
    origins: &[Sample],
    moves: usize,
    target: TargetSearch,
    seed: u64,
) -> Vec<Sample> {
    let targets = target.targets(teacher);
    origins
        .par_iter()
        .enumerate()
        .map(|(k, origin)| {
            let mut rng = SmallRng::seed_from_u64(splitmix(seed ^ splitmix(k as u64)));
            let dice = roll_for_turn(&mut rng, 1);
            let mut ranked = with_legal_moves(&origin.position, dice, |list| {
                list.iter()
                    .map(|c| (teacher.after_move(&c.position).equity(), c.position))
                    .collect::<Vec<_>>()
            });
            // Best first; equal equities keep the generator's order.
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
            ranked
                .into_iter()
                .take(moves)
                .filter_map(|(_, after)| {
                    let next = after.swap();
                    match teacher.net_kind(&next) {
                        Some(kind) if kind != NetKind::Race => Some(Sample {
                            position: next,
                            kind,
                            target: targets.value(&next),
                        }),
                        _ => None,
                    }
                })
                .collect::<Vec<_>>()
        })
        .flatten_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::Position;
    use crate::eval::Model;

    #[test]
    fn siblings_are_the_best_plays_results_with_searched_targets() {
        let eval = Evaluator::new(Model::random(16, 8, 2));
        let origin = Sample {
            position: Position::starting(),
            kind: NetKind::Contact,
            target: Default::default(),
        };
        let sibs = siblings(&eval, &[origin; 3], 4, TargetSearch::plain(1), 7);
        // From the start every play keeps contact: four siblings each.
        assert_eq!(sibs.len(), 12);
        for s in &sibs {
            // The opponent is on roll: its 15 checkers untouched.
            assert_eq!(s.position.to_sides().0, Position::starting().to_sides().0);
            assert_eq!(
                s.target,
                super::super::selfplay::searched_target(&eval, &s.position, 1)
            );
        }
        // The best four of a roll are the first four of its best eight.
        for seed in 0..5 {
            let four = siblings(&eval, &[origin], 4, TargetSearch::plain(1), seed);
            let eight = siblings(&eval, &[origin], 8, TargetSearch::plain(1), seed);
            let first: Vec<_> = eight.iter().take(4).map(|s| s.position).collect();
            let kept: Vec<_> = four.iter().map(|s| s.position).collect();
            assert_eq!(kept, first, "the same roll, the same order");
        }
        // The same seed gives the same siblings; another seed other rolls.
        let same = siblings(&eval, &[origin; 3], 4, TargetSearch::plain(1), 7);
        assert!(
            same.iter()
                .zip(&sibs)
                .all(|(a, b)| a.position == b.position)
        );
        let other = siblings(&eval, &[origin; 3], 4, TargetSearch::plain(1), 8);
        assert!(
            other
                .iter()
                .zip(&sibs)
                .any(|(a, b)| a.position != b.position)
        );
    }
}
