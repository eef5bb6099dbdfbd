//! The targets a chunk gets beside its teacher's search values: rollouts
//! of its race positions and of drawn contact positions, and the siblings
//! of drawn positions, each cached in a folder of its own.

use super::chunk_file::{create_dir, read_chunk, write_chunk};
use crate::eval::{Evaluator, NetKind};
use crate::seed::splitmix;
use crate::train::plan::{ContactRollouts, RaceRollouts, Siblings};
use crate::train::selfplay::Sample;
use crate::train::{RolloutPick, TrainError};
use crate::train::{run_folders, win_window};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::path::Path;

/// `chunk` (number `c`) with its race positions' targets replaced by
/// rollouts of `race_rollout_trials` trials ([`Rollouts::of`]).
pub(super) fn with_race_rollouts(
    chunk: Vec<Sample>,
    out_dir: &Path,
    c: u64,
    teacher: &Evaluator,
    how: &RaceRollouts,
) -> Result<Vec<Sample>, TrainError> {
    let (race, mut rest): (Vec<Sample>, Vec<Sample>) =
        chunk.into_iter().partition(|s| s.kind == NetKind::Race);
    let rollouts = Rollouts {
        dir: out_dir.join(run_folders::race_rollouts(how.trials)),
        trials: how.trials,
        seed: splitmix(how.seed ^ splitmix(c.wrapping_add(3 << 41))),
        what: "race positions",
    };
    rest.extend(rollouts.of(&race, c, teacher)?);
    Ok(rest)
}

/// `chunk` (number `c`) with the targets of `contact_rollouts_per_chunk`
/// of its contact positions, drawn by the seed, replaced by rollouts of
/// `contact_rollout_trials` trials ([`Rollouts::of`]); and their
/// indices, ascending.
pub(super) fn with_contact_rollouts(
    mut chunk: Vec<Sample>,
    out_dir: &Path,
    c: u64,
    teacher: &Evaluator,
    how: &ContactRollouts,
) -> Result<(Vec<Sample>, Vec<usize>), TrainError> {
    let window = how.window;
    let k = how.per_chunk;
    let (chosen, seed) = match how.pick {
        RolloutPick::Random => draw_contact(&chunk, c, 5, k, window, how.seed),
        RolloutPick::Disagreement => (
            most_disagreeing(&chunk, k, window, teacher),
            contact_seed(c, 5, how.seed),
        ),
    };
    let picked: Vec<Sample> = chosen.iter().map(|&i| chunk[i]).collect();
    let rollouts = Rollouts {
        dir: out_dir.join(run_folders::contact_rollouts(
            how.trials,
            how.per_chunk,
            window,
            how.pick == RolloutPick::Disagreement,
        )),
        trials: how.trials,
        seed: splitmix(seed),
        what: "chosen contact positions",
    };
    for (&i, rolled) in chosen.iter().zip(rollouts.of(&picked, c, teacher)?) {
        chunk[i] = rolled;
    }
    Ok((chunk, chosen))
}

/// The siblings ([`crate::train::siblings`]) of `siblings_per_chunk` contact
/// positions of `chunk` (number `c`), drawn by the seed: read from the
/// cache where an earlier run wrote them, otherwise searched by the
/// teacher and written there (atomically). The cache file holds the
/// drawn positions first, so that a cache of another draw is refused.
pub(super) fn siblings_of(
    chunk: &[Sample],
    out_dir: &Path,
    c: u64,
    teacher: &Evaluator,
    how: &Siblings,
) -> Result<Vec<Sample>, TrainError> {
    let (chosen, seed) = draw_contact(chunk, c, 7, how.per_chunk, None, how.seed);
    let k = chosen.len();
    let origins: Vec<Sample> = chosen.iter().map(|&i| chunk[i]).collect();
    let dir = out_dir.join(run_folders::siblings(how.moves, how.per_chunk));
    create_dir(&dir)?;
    let path = dir.join(run_folders::chunk_file(c));
    if path.exists() {
        let mut cached = read_chunk(&path)?;
        if cached.len() < k
            || cached[..k]
                .iter()
                .zip(&origins)
                .any(|(a, b)| a.position != b.position)
        {
            return Err(TrainError::Positions {
                path,
                why: "its positions are not the chunk's drawn sibling origins".into(),
            });
        }
        return Ok(cached.split_off(k));
    }
    let sibs = crate::train::siblings::siblings(
        teacher,
        &origins,
        how.moves as usize,
        how.search,
        splitmix(seed),
    );
    let mut file = origins;
    file.extend_from_slice(&sibs);
    write_chunk(&path, &file)?;
    Ok(sibs)
}

/// Up to `k` of `chunk`'s contact positions (number `c`), with a win
/// chance in `window` where one is given, drawn by the run's `seed`
/// salted by `salt` (one salt per use, so that the draws are
/// independent): their indices, ascending, and the draw's seed.
fn draw_contact(
    chunk: &[Sample],
    c: u64,
    salt: u64,
    k: u32,
    window: Option<[f32; 2]>,
    seed: u64,
) -> (Vec<usize>, u64) {
    let contact = eligible_contact(chunk, window);
    let seed = contact_seed(c, salt, seed);
    let mut rng = SmallRng::seed_from_u64(seed);
    let k = (k as usize).min(contact.len());
    let mut chosen: Vec<usize> = rand::seq::index::sample(&mut rng, contact.len(), k)
        .into_iter()
        .map(|j| contact[j])
        .collect();
    chosen.sort_unstable();
    (chosen, seed)
}

/// The indices of `chunk`'s contact positions whose target gives the side
/// on roll a win chance in `window` (all of them without one).
fn eligible_contact(chunk: &[Sample], window: Option<[f32; 2]>) -> Vec<usize> {
    (0..chunk.len())
        .filter(|&i| {
            chunk[i].kind != NetKind::Race
                && window.is_none_or(|w| win_window::contains(w, chunk[i].target.win()))
        })
        .collect()
}

/// The seed of chunk `c`'s draw for the use `salt`.
fn contact_seed(c: u64, salt: u64, seed: u64) -> u64 {
    splitmix(seed ^ splitmix(c.wrapping_add(salt << 41)))
}

/// Up to `k` of `chunk`'s eligible contact positions ([`eligible_contact`])
/// whose target equity is furthest from `teacher`'s static equity (the
/// earlier of equals first): their indices, ascending.
fn most_disagreeing(
    chunk: &[Sample],
    k: u32,
    window: Option<[f32; 2]>,
    teacher: &Evaluator,
) -> Vec<usize> {
    let mut scored: Vec<(f32, usize)> = eligible_contact(chunk, window)
        .into_iter()
        .map(|i| {
            let s = &chunk[i];
            (
                (teacher.probs(&s.position).equity() - s.target.equity()).abs(),
                i,
            )
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut chosen: Vec<usize> = scored.iter().take(k as usize).map(|&(_, i)| i).collect();
    chosen.sort_unstable();
    chosen
}

/// Where and how one kind of rollout target is made.
struct Rollouts {
    /// The cache folder. Its name carries the trial count (and for
    /// contact positions how many a chunk has): rollouts of another
    /// length are other targets, never to be read back as these.
    dir: std::path::PathBuf,
    trials: u32,
    seed: u64,
    /// The positions' description, for the error a stale cache gets.
    what: &'static str,
}

impl Rollouts {
    /// `samples` (of chunk `c`) with rollout targets, read from the cache
    /// where an earlier run wrote them and otherwise rolled out by
    /// `teacher` at 0-ply and written there (atomically, so a kill loses
    /// at most the chunk in flight).
    fn of(
        &self,
        samples: &[Sample],
        c: u64,
        teacher: &Evaluator,
    ) -> Result<Vec<Sample>, TrainError> {
        create_dir(&self.dir)?;
        let path = self.dir.join(run_folders::chunk_file(c));
        if path.exists() {
            let rolled = read_chunk(&path)?;
            if rolled.len() != samples.len()
                || rolled
                    .iter()
                    .zip(samples)
                    .any(|(a, b)| a.position != b.position)
            {
                return Err(TrainError::Positions {
                    path,
                    why: format!("its positions are not the chunk's {}", self.what),
                });
            }
            return Ok(rolled);
        }
        let rolled =
            crate::train::rollout_targets::rolled_out_all(teacher, samples, self.trials, self.seed);
        write_chunk(&path, &rolled)?;
        Ok(rolled)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{add_trained, banked_chunks, copies};
    use super::*;
    use crate::eval::Model;
    use crate::eval::game_plan::GamePlan;
    use crate::train::selfplay::{MovePolicy, TargetSearch, play_games};

    /// The parts of a distillation's plan that these functions take.
    fn distill(cfg: &crate::train::TrainConfig) -> crate::train::plan::DistillPlan {
        match cfg.plan() {
            crate::train::plan::TrainPlan::Distill(plan) => *plan,
            other => panic!("not a distillation: {other:?}"),
        }
    }

    fn race_part(cfg: &crate::train::TrainConfig) -> RaceRollouts {
        distill(cfg).race_rollouts.expect("race rollouts")
    }

    fn contact_part(cfg: &crate::train::TrainConfig) -> ContactRollouts {
        distill(cfg).contact_rollouts.expect("contact rollouts")
    }

    fn siblings_part(cfg: &crate::train::TrainConfig) -> Siblings {
        distill(cfg).siblings.expect("siblings")
    }

    #[test]
    fn race_rollouts_are_cached_beside_the_positions_and_checked_against_them() {
        let eval = Evaluator::new(Model::random(16, 8, 21));
        let mut chunk = play_games(
            &eval,
            3,
            22,
            0.7,
            MovePolicy::greedy(),
            TargetSearch::plain(1),
        );
        let race = chunk.iter().filter(|s| s.kind == NetKind::Race).count();
        assert!(race > 0, "three games reach a race");
        let cfg = crate::train::TrainConfig {
            distill_teacher: Some("t.net".into()),
            init_model: Some("t.net".into()),
            target_ply: 1,
            distill_nets: crate::train::config::DistillNets::Race,
            race_rollout_trials: 36,
            ..Default::default()
        };
        cfg.validate().unwrap();
        let dir = std::env::temp_dir().join(format!("kotra-race-rollouts-{}", std::process::id()));
        let first = with_race_rollouts(chunk.clone(), &dir, 4, &eval, &race_part(&cfg)).unwrap();
        assert_eq!(first.len(), chunk.len());
        let rolled: Vec<&Sample> = first.iter().filter(|s| s.kind == NetKind::Race).collect();
        assert_eq!(rolled.len(), race);
        for s in &rolled {
            let [w, wg, wbg, lg, lbg] = s.target.0;
            assert!(wbg <= wg && wg <= w && lbg <= lg && lg <= 1.0 - w, "{s:?}");
        }
        assert!(
            rolled.iter().any(|s| chunk
                .iter()
                .any(|c| c.position == s.position && c.target != s.target)),
            "the targets are the rollouts', not the search's"
        );
        let again = with_race_rollouts(chunk.clone(), &dir, 4, &eval, &race_part(&cfg)).unwrap();
        assert!(
            first
                .iter()
                .zip(&again)
                .all(|(a, b)| a.position == b.position && a.target == b.target)
        );
        // Another chunk's positions under this chunk's cache are refused.
        chunk.retain(|s| s.kind != NetKind::Race || s.position != rolled[0].position);
        let err = with_race_rollouts(chunk, &dir, 4, &eval, &race_part(&cfg))
            .unwrap_err()
            .to_string();
        assert!(err.contains("not the chunk's race positions"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_window_draws_rollouts_among_the_positions_it_holds() {
        let (eval, chunk) = two_game_chunk();
        let wins: Vec<f32> = chunk
            .iter()
            .filter(|s| s.kind != NetKind::Race)
            .map(|s| s.target.win())
            .collect();
        let mut sorted = wins.clone();
        sorted.sort_by(f32::total_cmp);
        // The middle third of this chunk's win chances.
        let (lo, hi) = (sorted[sorted.len() / 3], sorted[2 * sorted.len() / 3]);
        let inside = wins.iter().filter(|&&w| (lo..=hi).contains(&w)).count();
        assert!(
            inside > 4 && inside < wins.len(),
            "{inside} of {}",
            wins.len()
        );
        let cfg = crate::train::TrainConfig {
            contact_rollout_window: Some([lo, hi]),
            ..contact_rollout_config(4, 4)
        };
        cfg.validate().unwrap();
        let dir = std::env::temp_dir().join(format!("kotra-window-{}", std::process::id()));
        let (_, chosen) =
            with_contact_rollouts(chunk.clone(), &dir, 2, &eval, &contact_part(&cfg)).unwrap();
        assert_eq!(chosen.len(), 4);
        for &i in &chosen {
            let w = chunk[i].target.win();
            assert!(
                chunk[i].kind != NetKind::Race && (lo..=hi).contains(&w),
                "{w}"
            );
        }
        // Its cache is its own: the window is in the folder's name.
        assert_eq!(
            cache_folders(&dir),
            [format!("contact-rollouts-4-4-w{lo}-{hi}")]
        );
        std::fs::remove_dir_all(&dir).unwrap();
        for bad in [[0.6, 0.5], [-0.1, 0.5], [0.5, 1.5], [f32::NAN, 0.5]] {
            let cfg = crate::train::TrainConfig {
                contact_rollout_window: Some(bad),
                ..cfg.clone()
            };
            assert!(cfg.validate().is_err(), "{bad:?}");
        }
        assert_refused_without_contact_rollouts(cfg);
    }

    #[test]
    fn disagreement_rolls_out_where_static_and_search_values_differ_most() {
        let (eval, chunk) = two_game_chunk();
        let gap = |s: &Sample| (eval.probs(&s.position).equity() - s.target.equity()).abs();
        let cfg = crate::train::TrainConfig {
            contact_rollout_pick: RolloutPick::Disagreement,
            ..contact_rollout_config(4, 5)
        };
        cfg.validate().unwrap();
        let dir = std::env::temp_dir().join(format!("kotra-disagree-{}", std::process::id()));
        let (rolled, chosen) =
            with_contact_rollouts(chunk.clone(), &dir, 2, &eval, &contact_part(&cfg)).unwrap();
        assert_eq!(chosen.len(), 5);
        assert!(chosen.windows(2).all(|w| w[0] < w[1]));
        // Every contact position left out is no further apart than every
        // one chosen, and the chosen ones got rollout targets.
        let least_chosen = chosen
            .iter()
            .map(|&i| gap(&chunk[i]))
            .fold(f32::INFINITY, f32::min);
        for (i, s) in chunk.iter().enumerate() {
            if s.kind != NetKind::Race && !chosen.contains(&i) {
                assert!(
                    gap(s) <= least_chosen,
                    "position {i}: {} > {least_chosen}",
                    gap(s)
                );
            }
        }
        assert!(chosen.iter().any(|&i| rolled[i].target != chunk[i].target));
        // The random draw picks others, and each has a cache of its own.
        let random = crate::train::TrainConfig {
            contact_rollout_pick: RolloutPick::Random,
            ..cfg.clone()
        };
        let (_, drawn) =
            with_contact_rollouts(chunk.clone(), &dir, 2, &eval, &contact_part(&random)).unwrap();
        assert_ne!(drawn, chosen);
        assert_eq!(
            cache_folders(&dir),
            ["contact-rollouts-4-5", "contact-rollouts-4-5-disagreement"]
        );
        std::fs::remove_dir_all(&dir).unwrap();
        assert_refused_without_contact_rollouts(cfg);
    }

    #[test]
    fn banked_rollouts_train_as_the_runs_own_rolled_out_positions() {
        let (eval, chunk) = two_game_chunk();
        let cfg = crate::train::TrainConfig {
            rollout_weight: 5,
            ..contact_rollout_config(4, 3)
        };
        let dir = std::env::temp_dir().join(format!("kotra-banked-{}", std::process::id()));
        // Two chunks of an earlier run's cache, written out of order, and
        // a file that is not a chunk.
        for c in [3, 1] {
            with_contact_rollouts(chunk.clone(), &dir, c, &eval, &contact_part(&cfg)).unwrap();
        }
        let bank = dir.join("contact-rollouts-4-3");
        std::fs::write(bank.join("notes.txt"), "not a chunk").unwrap();
        let banked = crate::train::TrainConfig {
            banked_rollouts: vec![bank.clone()],
            ..cfg.clone()
        };
        banked.validate().unwrap();
        let chunks = banked_chunks(&bank).unwrap();
        assert_eq!(chunks.len(), 2);
        let expected = read_chunk(&bank.join("00001.bin")).unwrap();
        let same = |a: &[Sample], b: &[Sample]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x.position == y.position && x.target == y.target)
        };
        assert!(same(&chunks[0], &expected), "read in file-name order");
        assert!(chunks.iter().flatten().all(|s| s.kind != NetKind::Race));
        // Each banked position counts rollout_weight times (times its
        // hard-plan copies), as the run's own rolled-out ones do.
        let mut all = Vec::new();
        let rolled: Vec<usize> = (0..expected.len()).collect();
        add_trained(
            &mut all,
            expected.clone(),
            &rolled,
            1,
            &distill(&banked).weighting,
        );
        let weights: usize = expected
            .iter()
            .map(|s| 5 * copies(&s.position, banked.hard_plan_weight))
            .sum();
        assert_eq!(all.len(), weights);
        // A missing or empty folder is an error, not a run without them.
        assert!(matches!(
            banked_chunks(&dir.join("missing")),
            Err(TrainError::BankedRollouts { .. })
        ));
        let empty = dir.join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        assert!(matches!(
            banked_chunks(&empty),
            Err(TrainError::BankedRollouts { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
        // They are contact targets of a distillation.
        let not_distilled = crate::train::TrainConfig {
            banked_rollouts: vec![bank],
            ..Default::default()
        };
        assert!(not_distilled.validate().is_err());
    }

    /// The folders in `dir`, sorted: the caches a run made.
    fn cache_folders(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// A way of choosing contact rollouts means nothing without them.
    fn assert_refused_without_contact_rollouts(cfg: crate::train::TrainConfig) {
        let no_rollouts = crate::train::TrainConfig {
            contact_rollout_trials: 0,
            contact_rollouts_per_chunk: 0,
            ..cfg
        };
        assert!(no_rollouts.validate().is_err());
    }

    /// A 1-ply distillation whose chunks each roll out `per_chunk` contact
    /// positions of `trials` trials: what the contact rollout tests vary.
    fn contact_rollout_config(trials: u32, per_chunk: u32) -> crate::train::TrainConfig {
        crate::train::TrainConfig {
            distill_teacher: Some("t.net".into()),
            target_ply: 1,
            contact_rollout_trials: trials,
            contact_rollouts_per_chunk: per_chunk,
            ..Default::default()
        }
    }

    /// A random network and the samples of two of its games with 1-ply
    /// targets: the chunk the rollout and sibling caches are tested on.
    fn two_game_chunk() -> (Evaluator, Vec<Sample>) {
        let eval = Evaluator::new(Model::random(16, 8, 23));
        let chunk = play_games(
            &eval,
            2,
            24,
            0.7,
            MovePolicy::greedy(),
            TargetSearch::plain(1),
        );
        (eval, chunk)
    }

    #[test]
    fn chosen_contact_positions_get_cached_rollouts_and_their_weight() {
        let (eval, chunk) = two_game_chunk();
        let cfg = crate::train::TrainConfig {
            rollout_weight: 3,
            ..contact_rollout_config(8, 5)
        };
        cfg.validate().unwrap();
        let dir =
            std::env::temp_dir().join(format!("kotra-contact-rollouts-{}", std::process::id()));
        let (first, chosen) =
            with_contact_rollouts(chunk.clone(), &dir, 2, &eval, &contact_part(&cfg)).unwrap();
        assert_eq!(first.len(), chunk.len());
        assert_eq!(chosen.len(), 5);
        assert!(chosen.windows(2).all(|w| w[0] < w[1]));
        for (i, (a, b)) in first.iter().zip(&chunk).enumerate() {
            assert_eq!(a.position, b.position);
            if chosen.contains(&i) {
                assert_ne!(a.kind, NetKind::Race);
            } else {
                assert_eq!(a.target, b.target, "only the chosen positions change");
            }
        }
        assert!(
            chosen.iter().any(|&i| first[i].target != chunk[i].target),
            "the chosen targets are the rollouts'"
        );
        // The rolled-out positions count rollout_weight times as often.
        let mut all = Vec::new();
        let trained = add_trained(
            &mut all,
            first.clone(),
            &chosen,
            1,
            &distill(&cfg).weighting,
        );
        let count = |i: usize| {
            all.iter()
                .filter(|s| s.position == first[i].position)
                .count()
        };
        let plain = (0..first.len())
            .find(|&i| {
                first[i].kind != NetKind::Race
                    && !GamePlan::of(&first[i].position).is_hard()
                    && first
                        .iter()
                        .filter(|s| s.position == first[i].position)
                        .count()
                        == 1
            })
            .expect("a plain contact position seen once");
        assert_eq!(count(plain), 1);
        for &i in &chosen {
            if first
                .iter()
                .filter(|s| s.position == first[i].position)
                .count()
                == 1
            {
                assert_eq!(
                    count(i),
                    3 * copies(&first[i].position, cfg.hard_plan_weight)
                );
            }
        }
        assert_eq!(
            trained,
            first.iter().filter(|s| s.kind != NetKind::Race).count()
        );
        // Read back, not rolled again: the same targets.
        let (again, same) =
            with_contact_rollouts(chunk.clone(), &dir, 2, &eval, &contact_part(&cfg)).unwrap();
        assert_eq!(same, chosen);
        assert!(again.iter().zip(&first).all(|(a, b)| a.target == b.target));
        // Another draw of positions (another seed) under this cache is refused.
        let other = crate::train::TrainConfig {
            seed: 2,
            ..cfg.clone()
        };
        let err = with_contact_rollouts(chunk, &dir, 2, &eval, &contact_part(&other))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("not the chunk's chosen contact positions"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        // The two fields go together, with a whole-number weight.
        for bad in [
            crate::train::TrainConfig {
                contact_rollouts_per_chunk: 0,
                ..cfg.clone()
            },
            crate::train::TrainConfig {
                rollout_weight: 0,
                ..cfg.clone()
            },
            crate::train::TrainConfig {
                distill_nets: crate::train::config::DistillNets::Race,
                init_model: Some("t.net".into()),
                ..cfg.clone()
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn siblings_are_cached_with_their_origins() {
        let (eval, chunk) = two_game_chunk();
        let cfg = crate::train::TrainConfig {
            distill_teacher: Some("t.net".into()),
            target_ply: 1,
            siblings_per_chunk: 6,
            sibling_moves: 2,
            ..Default::default()
        };
        cfg.validate().unwrap();
        let dir = std::env::temp_dir().join(format!("kotra-siblings-{}", std::process::id()));
        let first = siblings_of(&chunk, &dir, 3, &eval, &siblings_part(&cfg)).unwrap();
        assert!(!first.is_empty() && first.len() <= 12, "{}", first.len());
        assert!(first.iter().all(|s| s.kind != NetKind::Race));
        // Read back, not searched again.
        let again = siblings_of(&chunk, &dir, 3, &eval, &siblings_part(&cfg)).unwrap();
        assert!(
            again
                .iter()
                .zip(&first)
                .all(|(a, b)| a.position == b.position && a.target == b.target)
                && again.len() == first.len()
        );
        // Another draw (another seed) under this cache is refused.
        let other = crate::train::TrainConfig {
            seed: 2,
            ..cfg.clone()
        };
        let err = siblings_of(&chunk, &dir, 3, &eval, &siblings_part(&other))
            .unwrap_err()
            .to_string();
        assert!(err.contains("drawn sibling origins"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
        // The two fields go together, with search targets.
        for bad in [
            crate::train::TrainConfig {
                sibling_moves: 0,
                ..cfg.clone()
            },
            crate::train::TrainConfig {
                target_ply: 0,
                ..cfg.clone()
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }
}
