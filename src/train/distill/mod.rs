//! Distillation: supervised learning of a new contact network from a
//! teacher's search.
//!
//! Self-play learning refines a network only as fast as its games come:
//! each position is seen once, at a learning rate small enough for the
//! noise of fresh targets, and 1-ply targets stopped paying near 6.5 mp.
//! Here the teacher plays `games` noisy games once, every position it
//! rolls from gets its `target_ply`-ply value, and the student makes
//! `epochs` full passes over that fixed set at a decaying learning rate.
//! A student with two hidden layers learns the teacher's 1-ply judgement
//! far better than the teacher's own 0-ply network holds it (kotra-v10 in
//! training/notes/models-history.md).
//!
//! Phase 1 writes the positions in chunks of `games_per_step` games
//! (`positions/NNNNN.bin`, each written atomically and skipped on
//! resume); phase 2 checkpoints after every epoch. The student keeps the
//! teacher's race network, which it does not train, unless `distill_nets`
//! names it: then the set's race positions train it (with `"race"` alone,
//! the contact network stays the initial model's). With `crashed_net`
//! it has a crashed network of the contact network's shape for back
//! games and crashed boards (`eval::contact_net`), which then learns
//! those positions alone: twice the weights for the contact game at the
//! same cost per evaluation (measured as kotra-v13c in training/notes/models-history.md:
//! it did not pay). Without it the contact network learns them too.

use super::checkpoint::Checkpoint;
use super::dev_set::DevSet;
use super::error::TrainError;
use super::learner::{AdamPass, Learners};
use super::options::TrainOptions;
use super::plan::{DistillPlan, Weighting};
use super::selfplay::Sample;
use super::step_report::{Steps, measure, progress_bar};
use crate::backgammon::Position;
use crate::eval::game_plan::GamePlan;
use crate::eval::{Evaluator, Model, NetKind, contact_net};
use crate::seed::splitmix;
use std::time::Instant;

mod chunk_file;
mod chunk_targets;
pub mod shards;
mod teacher_set;

use chunk_file::banked_chunks;
use chunk_targets::{siblings_of, with_contact_rollouts, with_race_rollouts};
use teacher_set::{TeacherSet, sets_of_run};

/// The student of `teacher`: its race network, a new contact network of
/// `hidden` and `mid` units, no crashed network (the caller adds one).
pub fn student(teacher: &Model, hidden: usize, mid: usize, seed: u64) -> Model {
    let mut m = teacher.clone().with_fresh_contact(hidden, mid, seed);
    m.crashed = None;
    m
}

/// A student that starts from `init`'s networks. Its crashed network is
/// kept only with `crashed_net` (training and evaluation must route
/// alike); the caller adds a fresh one where the config asks and `init`
/// has none, as for a fresh student.
pub fn refined_student(init: &Model, crashed_net: bool) -> Model {
    let mut m = init.clone();
    if !crashed_net {
        m.crashed = None;
    }
    m
}

/// Runs (or continues) a distillation run whose checkpoint is `state`.
pub(super) fn run(
    opts: &TrainOptions,
    plan: &DistillPlan,
    mut state: Checkpoint,
    mut learners: Learners,
    dev: Option<&DevSet>,
) -> Result<Checkpoint, TrainError> {
    let cfg = state.config.clone();
    if state.step == 0 {
        // A checkpoint before the teacher's games, so that `--resume`
        // works while they are played (written chunks are kept).
        state.save_all(&opts.out_dir)?;
    }
    // Wall time counts the teacher's games played in this session too.
    let started = Instant::now();
    let base_seconds = state.seconds;
    let (samples, distinct) = positions(opts, plan)?;
    state.games_played = cfg.games;
    state.model.meta.games_trained = state.prior_games + cfg.games;
    let passes = plan.passes;
    let epochs = passes.epochs as u64;
    let bar = progress_bar(opts.progress, epochs, state.step, Steps::Epochs);
    let sizes = format!("{distinct} positions, {} samples a pass", samples.len());
    bar.suspend(|| eprintln!("{sizes}"));
    bar.set_message(sizes);
    while state.step < epochs {
        // From `learning_rate` at the first epoch to `learning_rate_end` at the last.
        let lr = passes.learning_rate_of(state.step);
        let pass = AdamPass {
            batch: passes.batch,
            epochs: 1,
            lr,
        };
        let loss = learners.train(&samples, pass, splitmix(passes.seed ^ state.step));
        learners.export(&mut state.model);
        state.step += 1;
        state.seconds = base_seconds + started.elapsed().as_secs_f64();
        state.keep_learners(&learners);
        let mut point = measure(&state, dev, loss);
        // A distillation's curve runs over epochs.
        point.games = state.step;
        // The loss of each network this run trains.
        let losses: Vec<String> = [("loss", point.loss_contact), ("race loss", point.loss_race)]
            .into_iter()
            .filter(|(_, loss)| loss.is_finite())
            .map(|(name, loss)| format!("{name} {loss:.3e}"))
            .collect();
        bar.suspend(|| {
            eprintln!(
                "epoch {}: lr {lr:.2e}, {}, {}",
                state.step,
                losses.join(", "),
                point.strength()
            )
        });
        state.record(point, &opts.out_dir)?;
        state.save_all(&opts.out_dir)?;
        bar.set_position(state.step);
    }
    bar.finish();
    Ok(state)
}

/// The whole set of samples (a hard position repeated, see [`copies`])
/// and the number of distinct positions trained on: chunks already on disk
/// are read, the rest played by the teacher and written. The main set's
/// chunks get their rollouts and siblings; then come the `extra_sets`.
fn positions(opts: &TrainOptions, plan: &DistillPlan) -> Result<(Vec<Sample>, usize), TrainError> {
    let (games, weighting) = (&plan.games, &plan.weighting);
    let teacher = Evaluator::new(Model::load(&plan.teacher)?);
    // The database is read after the teacher's games: a missing batch
    // must stop the run before them, not hours later.
    for (path, _) in &plan.database {
        crate::train::database::check_present(path)?;
    }
    let mut sets = sets_of_run(&opts.out_dir, plan).into_iter();
    let main_set = sets.next().expect("a run has its main set").set;
    let extra_sets: Vec<(TeacherSet, usize, Option<Evaluator>)> = sets
        .map(|run_set| {
            let own_teacher = run_set
                .teacher
                .as_deref()
                .map(|path| Model::load(path).map(Evaluator::new))
                .transpose()?;
            Ok((run_set.set, run_set.weight, own_teacher))
        })
        .collect::<Result<_, TrainError>>()?;
    // The bar counts the games still to play: chunks read back from disk
    // take no time, and counting them would make the rate and the eta
    // of a resumed run nonsense.
    let to_play = main_set.games_to_play(games)
        + extra_sets
            .iter()
            .map(|(set, _, _)| set.games_to_play(games))
            .sum::<u64>();
    let bar = progress_bar(opts.progress, to_play, 0, Steps::TeacherGames);
    let mut all = Vec::new();
    let mut distinct = 0;
    for c in 0..main_set.chunks(games) {
        let fresh = !main_set.is_played(c);
        let chunk = main_set.chunk(c, &teacher, games)?;
        let chunk = match &plan.race_rollouts {
            Some(how) => with_race_rollouts(chunk, &opts.out_dir, c, &teacher, how)?,
            None => chunk,
        };
        let (chunk, rolled) = match &plan.contact_rollouts {
            Some(how) => with_contact_rollouts(chunk, &opts.out_dir, c, &teacher, how)?,
            None => (chunk, Vec::new()),
        };
        let siblings = match &plan.siblings {
            Some(how) => siblings_of(&chunk, &opts.out_dir, c, &teacher, how)?,
            None => Vec::new(),
        };
        distinct += add_trained(&mut all, chunk, &rolled, 1, weighting);
        distinct += add_trained(&mut all, siblings, &[], 1, weighting);
        if fresh {
            bar.inc(main_set.games_in(c, games));
        }
        bar.set_message(format!("{distinct} positions"));
    }
    for (set, weight, own_teacher) in &extra_sets {
        for c in 0..set.chunks(games) {
            let fresh = !set.is_played(c);
            let chunk = set.chunk(c, own_teacher.as_ref().unwrap_or(&teacher), games)?;
            let rolled: Vec<usize> = if set.targets.rolled_out() {
                (0..chunk.len()).collect()
            } else {
                Vec::new()
            };
            distinct += add_trained(&mut all, chunk, &rolled, *weight, weighting);
            if fresh {
                bar.inc(set.games_in(c, games));
            }
            bar.set_message(format!("{distinct} positions"));
        }
    }
    for dir in &plan.banked_rollouts {
        for chunk in banked_chunks(dir)? {
            let rolled: Vec<usize> = (0..chunk.len()).collect();
            distinct += add_trained(&mut all, chunk, &rolled, 1, weighting);
        }
        bar.set_message(format!("{distinct} positions"));
    }
    if !plan.database.is_empty() {
        for (samples, weight) in database_samples(&plan.database, weighting)? {
            distinct += add_trained(&mut all, samples, &[], weight, weighting);
        }
        bar.set_message(format!("{distinct} positions"));
    }
    bar.finish_and_clear();
    Ok((all, distinct))
}

/// The samples of the position databases `entries` (each a path and its
/// weight), each position once, grouped by weight in the order read: where
/// batches repeat a position, the last one's target and its entry's weight
/// (later batches come from later teachers), times the origin's own
/// multiplier (`database_rollout_weight` for a rollout target,
/// `database_cube_weight` for a cube decision's position, which 0 leaves
/// out).
fn database_samples(
    entries: &[(std::path::PathBuf, usize)],
    how: &Weighting,
) -> Result<Vec<(Vec<Sample>, usize)>, TrainError> {
    use crate::train::database::Origin;
    let mut records = Vec::new();
    for (path, weight) in entries {
        let read = crate::train::database::load(std::slice::from_ref(path))?;
        records.extend(read.into_iter().map(|r| (r, *weight)));
    }
    let mut last = rustc_hash::FxHashMap::default();
    for (i, (r, _)) in records.iter().enumerate() {
        last.insert(r.position, i);
    }
    let mut groups: Vec<(Vec<Sample>, usize)> = Vec::new();
    for (i, (r, weight)) in records.iter().enumerate() {
        if last[&r.position] != i {
            continue;
        }
        let sample = Sample {
            position: r.position,
            kind: r.kind,
            target: r.target.consistent(),
        };
        let times = match r.origin {
            o if o.is_rollout() => how.database_rollout_weight,
            Origin::CubeAction => how.database_cube_weight,
            _ => 1,
        };
        let weight = weight * times as usize;
        if weight == 0 {
            continue;
        }
        match groups.iter_mut().find(|(_, w)| *w == weight) {
            Some((samples, _)) => samples.push(sample),
            None => groups.push((vec![sample], weight)),
        }
    }
    Ok(groups)
}

/// Appends the samples of `chunk` that the run trains to `all`, each as
/// often as it counts per epoch (`weight` times, the rolled-out ones, at
/// the ascending indices `rolled`, `rollout_weight` times more), and
/// returns how many positions that was.
fn add_trained(
    all: &mut Vec<Sample>,
    chunk: Vec<Sample>,
    rolled: &[usize],
    weight: usize,
    how: &Weighting,
) -> usize {
    let mut added = 0;
    for (i, s) in chunk.into_iter().enumerate() {
        if !how.nets.trains(s.kind) {
            continue;
        }
        let s = Sample {
            kind: student_net(&s, how.crashed_net),
            ..s
        };
        let rollout_weight = if rolled.binary_search(&i).is_ok() {
            how.rollout_weight as usize
        } else {
            1
        };
        all.extend(std::iter::repeat_n(
            s,
            weight * rollout_weight * copies(&s.position, how.hard_plan_weight),
        ));
        added += 1;
    }
    added
}

/// The student network a sample trains: the one that will evaluate its
/// position (the student has a crashed network when `crashed_net`).
fn student_net(s: &Sample, crashed_net: bool) -> NetKind {
    match s.kind {
        NetKind::Race => NetKind::Race,
        _ => contact_net(&s.position, crashed_net),
    }
}

/// How many times a position is seen per epoch: `hard_plan_weight` for
/// back games, holding games and crashed boards, where the network errs
/// most (with kotra-v10 as teacher they were 64% of the contact
/// positions, so the weight buys more passes over them, not coverage).
fn copies(pos: &Position, hard_plan_weight: f32) -> usize {
    if GamePlan::of(pos).is_hard() {
        hard_plan_weight as usize
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Probs;
    use crate::train::DatabaseEntry;

    #[test]
    fn hard_positions_count_hard_plan_weight_times_and_go_to_their_network() {
        let mut cfg = super::super::TrainConfig {
            distill_teacher: Some("teacher.net".into()),
            target_ply: 1,
            hard_plan_weight: 3.0,
            ..Default::default()
        };
        cfg.validate().unwrap();
        // Seven checkers on the 1- to 3-points with a checker still back.
        let crashed = Position::from_points(&[(24, 1), (3, 3), (2, 3), (1, 2), (6, 6)], &[(6, 15)]);
        assert!(GamePlan::of(&crashed).is_hard());
        assert_eq!(copies(&crashed, cfg.hard_plan_weight), 3);
        assert_eq!(copies(&Position::starting(), cfg.hard_plan_weight), 1);
        let sample = |position, kind| Sample {
            position,
            kind,
            target: Probs([0.5, 0.1, 0.0, 0.1, 0.0]),
        };
        let crashed = sample(crashed, NetKind::Contact);
        let opening = sample(Position::starting(), NetKind::Contact);
        assert_eq!(student_net(&crashed, cfg.crashed_net), NetKind::Contact);
        cfg.crashed_net = true;
        cfg.validate().unwrap();
        assert_eq!(student_net(&crashed, cfg.crashed_net), NetKind::Crashed);
        assert_eq!(student_net(&opening, cfg.crashed_net), NetKind::Contact);
        let race = Position::from_points(&[(8, 15)], &[(6, 15)]);
        assert_eq!(
            student_net(&sample(race, NetKind::Race), cfg.crashed_net),
            NetKind::Race
        );
        for bad in [0.5, 1.5] {
            cfg.hard_plan_weight = bad;
            assert!(cfg.validate().is_err(), "{bad}");
        }
    }

    #[test]
    fn distill_nets_picks_the_networks_and_its_fields_are_checked() {
        use crate::train::config::DistillNets;
        let parse = |json: &str| serde_json::from_str::<crate::train::TrainConfig>(json).unwrap();
        let cfg = parse(r#"{"distill_teacher": "t.net", "target_ply": 1, "distill_nets": "race"}"#);
        assert_eq!(cfg.distill_nets, DistillNets::Race);
        assert!(cfg.validate().is_err(), "race alone needs init_model");
        let mut cfg = parse(
            r#"{"distill_teacher": "t.net", "init_model": "t.net", "target_ply": 1, "distill_nets": "race", "race_rollout_trials": 36}"#,
        );
        cfg.validate().unwrap();
        assert!(
            cfg.distill_nets.trains(NetKind::Race) && !cfg.distill_nets.trains(NetKind::Contact)
        );
        cfg.distill_nets = DistillNets::Contact;
        assert!(
            cfg.validate().is_err(),
            "rollouts for a race network not trained"
        );
        cfg.distill_nets = DistillNets::Both;
        cfg.race_mid = 64;
        cfg.validate().unwrap();
        cfg.race_mid = 12;
        assert!(cfg.validate().is_err(), "race_mid is a multiple of 8");
        cfg.race_mid = 64;
        cfg.distill_nets = DistillNets::Contact;
        cfg.race_rollout_trials = 0;
        assert!(
            cfg.validate().is_err(),
            "a fresh race network that nothing trains"
        );
        let mut cfg = parse(
            r#"{"distill_teacher": "t.net", "init_model": "t.net", "target_ply": 2, "distill_nets": "race",
                "extra_sets": [{"seed": 7, "games": 500, "target_ply": 2, "target_prune": 8, "race_only": true}]}"#,
        );
        cfg.validate().unwrap();
        assert_eq!(cfg.extra_sets[0].folder(), "positions-7-2-8-race");
        assert!(cfg.extra_sets[0].target_search().race_only);
        cfg.distill_nets = DistillNets::Contact;
        assert!(
            cfg.validate().is_err(),
            "race positions alone for a race network not trained"
        );
        let fresh = Model::random(16, 8, 3).with_fresh_race(32, 16, 4);
        assert_eq!(
            (fresh.race.hidden, fresh.race.mid.as_ref().map(|m| m.units)),
            (32, Some(16))
        );
        fresh.validate().unwrap();
        assert!(!DistillNets::Contact.trains(NetKind::Race));
        assert!(DistillNets::Contact.trains(NetKind::Crashed));
        assert!(
            DistillNets::Both.trains(NetKind::Race) && DistillNets::Both.trains(NetKind::Contact)
        );
    }

    #[test]
    fn rollout_sets_are_named_and_checked() {
        let parse = |text: &str| serde_json::from_str::<crate::train::TrainConfig>(text).unwrap();
        let cfg = parse(
            r#"{"distill_teacher": "t.net", "target_ply": 2, "extra_sets": [
                {"seed": 35, "games": 500, "target_ply": 0, "rollout_trials": 144, "plan": "back_game"},
                {"seed": 36, "games": 500, "target_ply": 0, "rollout_trials": 36, "rollouts_per_game": 2, "rollout_window": [0.5, 0.9]},
                {"seed": 36, "games": 500, "target_ply": 1}]}"#,
        );
        cfg.validate().unwrap();
        let folders: Vec<String> = cfg.extra_sets.iter().map(|s| s.folder()).collect();
        assert_eq!(
            folders,
            [
                "rollouts-35-144-1-back_game",
                "rollouts-36-36-2-w0.5-0.9",
                "positions-36-1-0"
            ]
        );
        let how = cfg.extra_sets[0].rollout_targets().unwrap();
        assert_eq!(
            (how.trials, how.per_game, how.plan),
            (144, 1, Some(GamePlan::BackGame))
        );
        assert!(cfg.extra_sets[2].rollout_targets().is_none());
        let refused = [
            // A rollout set searches nothing.
            r#"{"seed": 1, "games": 5, "target_ply": 1, "rollout_trials": 36}"#,
            r#"{"seed": 1, "games": 5, "target_ply": 0, "target_prune": 8, "rollout_trials": 36}"#,
            // Rollouts are of contact positions.
            r#"{"seed": 1, "games": 5, "target_ply": 0, "rollout_trials": 36, "plan": "race"}"#,
            r#"{"seed": 1, "games": 5, "target_ply": 0, "rollout_trials": 36, "race_only": true}"#,
            r#"{"seed": 1, "games": 5, "target_ply": 0, "rollout_trials": 36, "rollouts_per_game": 0}"#,
            // A plan or a count of rollouts without rollouts, a set without targets.
            r#"{"seed": 1, "games": 5, "target_ply": 1, "plan": "back_game"}"#,
            r#"{"seed": 1, "games": 5, "target_ply": 1, "rollouts_per_game": 3}"#,
            r#"{"seed": 1, "games": 5, "target_ply": 0}"#,
            r#"{"seed": 1, "games": 5, "target_ply": 0, "rollout_trials": 36, "rollout_window": [0.9, 0.5]}"#,
            r#"{"seed": 1, "games": 5, "target_ply": 1, "rollout_window": [0.5, 0.9]}"#,
        ];
        for set in refused {
            let cfg = parse(&format!(
                r#"{{"distill_teacher": "t.net", "target_ply": 2, "extra_sets": [{set}]}}"#
            ));
            assert!(cfg.validate().is_err(), "{set}");
        }
        let race_only = parse(
            r#"{"distill_teacher": "t.net", "init_model": "t.net", "target_ply": 2, "distill_nets": "race",
                "extra_sets": [{"seed": 1, "games": 5, "target_ply": 0, "rollout_trials": 36}]}"#,
        );
        assert!(
            race_only.validate().is_err(),
            "contact rollouts for a contact network not trained"
        );
    }

    /// A database folder holding `batches`, each entered in its manifest.
    fn database(dir: &std::path::Path, batches: &[Vec<crate::train::database::Record>]) {
        use crate::train::database::{BatchEntry, Manifest, batch};
        let mut manifest = Manifest::empty();
        for (i, records) in batches.iter().enumerate() {
            let bytes = batch::encode(records);
            let file = batch::name(i as u64 + 1, "teacher0", "settings", &bytes);
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(&file), &bytes).unwrap();
            manifest.add(BatchEntry {
                file,
                seed: i as u64 + 1,
                positions: records.len() as u64,
                ..Default::default()
            });
        }
        manifest.save(dir).unwrap();
    }

    #[test]
    fn a_distillation_learns_a_database_alone_and_keeps_the_later_target() {
        use crate::train::database::{Origin, Record};
        use crate::train::{TrainOptions, train};
        let dir = std::env::temp_dir().join(format!("kotra-db-train-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let teacher = dir.join("teacher.net");
        Model::random(16, 8, 31).save(&teacher).unwrap();
        // Contact positions a few checkers apart, all "won gammons".
        let positions: Vec<Position> = (2..=6)
            .flat_map(|a| {
                (7..=12).map(move |b| {
                    Position::from_points(&[(a, 2), (b, 2), (13, 11)], &[(24, 2), (6, 13)])
                })
            })
            .collect();
        let record = |p: &Position, win: f32| {
            Record::new(
                *p,
                Origin::SearchChoice,
                Probs([win, win * 0.8, 0.0, 0.0, 0.0]),
                0.02,
            )
        };
        let early: Vec<Record> = positions.iter().map(|p| record(p, 0.1)).collect();
        let late: Vec<Record> = positions.iter().map(|p| record(p, 0.95)).collect();
        database(&dir.join("data"), &[early, late]);
        let groups = database_samples(&[(dir.join("data"), 2)], &weighting(1, 1)).unwrap();
        assert_eq!(groups.len(), 1);
        let (samples, weight) = &groups[0];
        assert_eq!(*weight, 2);
        assert_eq!(samples.len(), positions.len(), "each position once");
        assert!(samples.iter().all(|s| (s.target.0[0] - 0.95).abs() < 1e-4));
        // A batch listed after its folder with a weight of its own counts
        // that often; listed before it, the folder's weight holds.
        let manifest = crate::train::database::Manifest::load(&dir.join("data")).unwrap();
        let late_file = dir.join("data").join(&manifest.batches[1].file);
        let weights = |entries: &[(std::path::PathBuf, usize)]| -> Vec<(usize, usize)> {
            database_samples(entries, &weighting(1, 1))
                .unwrap()
                .iter()
                .map(|(s, w)| (s.len(), *w))
                .collect()
        };
        let n = positions.len();
        let folder = dir.join("data");
        assert_eq!(
            weights(&[(folder.clone(), 2), (late_file.clone(), 9)]),
            [(n, 9)]
        );
        assert_eq!(
            weights(&[(late_file.clone(), 9), (folder.clone(), 2)]),
            [(n, 2)]
        );
        // The early batch alone after the folder: its targets, its weight.
        let early_file = dir.join("data").join(&manifest.batches[0].file);
        let groups = database_samples(&[(folder, 2), (early_file, 5)], &weighting(1, 1)).unwrap();
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].1, 5);
        assert!(
            groups[0]
                .0
                .iter()
                .all(|s| (s.target.0[0] - 0.1).abs() < 1e-4)
        );
        let cfg = crate::train::TrainConfig {
            distill_teacher: Some(teacher.clone()),
            init_model: Some(teacher.clone()),
            target_ply: 1,
            games: 0,
            database: vec![DatabaseEntry::Path(dir.join("data"))],
            database_weight: 20,
            // Grown from the teacher's 16 units.
            widen_contact: 24,
            contact_hidden: 16,
            race_hidden: 8,
            epochs: 10,
            learning_rate: 3e-3,
            measure_games: 0,
            ..Default::default()
        };
        cfg.validate().unwrap();
        let out = dir.join("run");
        let opts = TrainOptions {
            config: Some(cfg.clone()),
            games: None,
            out_dir: out.clone(),
            resume: false,
            dev_set: None,
            progress: false,
        };
        train(&opts).unwrap();
        let error = |model: &Model| {
            let eval = Evaluator::new(model.clone());
            positions
                .iter()
                .map(|p| (eval.probs(p).0[0] - 0.95).abs())
                .sum::<f32>()
        };
        let before = error(&Model::load(&teacher).unwrap());
        let trained = Model::load(&out.join(crate::train::MODEL_FILE)).unwrap();
        assert_eq!(trained.contact.hidden, 24);
        let after = error(&trained);
        assert!(after < before * 0.5, "{before} -> {after}");
        let mut unfounded = cfg.clone();
        unfounded.init_model = None;
        assert!(
            unfounded
                .validate()
                .unwrap_err()
                .to_string()
                .contains("widen_contact")
        );
        // No teacher games and no database: nothing to learn.
        let mut bare = cfg.clone();
        bare.database.clear();
        assert!(
            bare.validate()
                .unwrap_err()
                .to_string()
                .contains("games must be 1")
        );
        let mut unweighted = cfg.clone();
        unweighted.database.push(DatabaseEntry::Weighted {
            path: dir.join("data"),
            weight: 0,
        });
        assert!(unweighted.validate().is_err(), "a weight of 0");
        let mut rollouts_unweighted = cfg.clone();
        rollouts_unweighted.database_rollout_weight = 0;
        assert!(
            rollouts_unweighted.validate().is_err(),
            "a rollout weight of 0"
        );
        let e = database_samples(&[(dir.join("nowhere"), 1)], &weighting(1, 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("nowhere"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The weighting a distillation's config with these database origin
    /// weights plans, so that the config's wiring is tested with it.
    fn weighting(rollout: u32, cube: u32) -> Weighting {
        let cfg = crate::train::TrainConfig {
            distill_teacher: Some("teacher.net".into()),
            database_rollout_weight: rollout,
            database_cube_weight: cube,
            ..Default::default()
        };
        let crate::train::plan::TrainPlan::Distill(plan) = cfg.plan() else {
            panic!("a config with a teacher plans a distillation");
        };
        plan.weighting
    }

    #[test]
    fn database_origins_count_their_own_weight_times_their_entrys() {
        use crate::train::database::{Origin, Record};
        let dir = std::env::temp_dir().join(format!("kotra-db-rolled-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let records: Vec<Record> = (2..=7)
            .zip(Origin::ALL)
            .map(|(a, origin)| {
                let p = Position::from_points(&[(a, 2), (13, 13)], &[(24, 2), (6, 13)]);
                Record::new(p, origin, Probs([0.5, 0.1, 0.0, 0.0, 0.0]), 0.02)
            })
            .collect();
        database(&dir, &[records]);
        let groups = |rollout, cube| -> Vec<(usize, usize)> {
            database_samples(&[(dir.clone(), 3)], &weighting(rollout, cube))
                .unwrap()
                .iter()
                .map(|(s, w)| (s.len(), *w))
                .collect()
        };
        // Four search-labelled origins (the fourth a cube decision's),
        // then rollout and timing_rollout.
        assert_eq!(groups(4, 1), [(4, 3), (2, 12)]);
        assert_eq!(groups(1, 1), [(6, 3)]);
        assert_eq!(groups(4, 0), [(3, 3), (2, 12)], "cube decisions left out");
        assert_eq!(groups(1, 2), [(5, 3), (1, 6)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_student_keeps_the_teachers_race_network() {
        let teacher = Model::random(16, 8, 4);
        let s = student(&teacher, 32, 8, 5);
        assert_eq!(s.race, teacher.race);
        assert_eq!(s.contact.hidden, 32);
        assert_eq!(s.contact.mid.as_ref().map(|m| m.units), Some(8));
        assert!(s.crashed.is_none());
        s.validate().unwrap();
    }

    #[test]
    fn a_refined_student_starts_from_its_initial_networks() {
        let mut init = Model::random(16, 8, 6).with_fresh_contact(24, 8, 7);
        init.crashed = Some(init.contact.clone());
        let s = refined_student(&init, false);
        assert_eq!((&s.contact, &s.race), (&init.contact, &init.race));
        assert!(s.crashed.is_none());
        assert_eq!(refined_student(&init, true).crashed, init.crashed);
        let cfg = crate::train::TrainConfig {
            distill_teacher: Some("teacher.net".into()),
            init_model: Some("init.net".into()),
            target_ply: 1,
            ..Default::default()
        };
        cfg.validate().unwrap();
    }
}
