//! A distillation's teacher games as shards, for many machines.
//!
//! The teacher's games are nearly all of a distillation's cost, and each
//! chunk of them depends on the teacher's weights, its set's seed and the
//! chunk's number alone (`TeacherSet::play`). So shard `i` of `n` plays
//! every `n`-th chunk of every set, in any process on any machine, and
//! writes it to a shared folder under a name that is the hash of what
//! determines it. A shard run twice, requeued or killed half-way finds the
//! chunks it already wrote and plays only the rest; a chunk of another
//! config or teacher can never be mistaken for one of this run. The merge
//! puts the chunks where a one-process run would have written them, so
//! `kotra-ai train` then reads them instead of playing them, and the run
//! is the same bit for bit.
//!
//! A main set's per-chunk extras (race and contact rollouts, siblings)
//! stay with the training job: they are cached beside the run as before.

use super::chunk_file::{create_dir, decode_chunk, read_chunk, write_chunk};
use super::teacher_set::{RunSet, sets_of_run};
use crate::eval::{Evaluator, Model};
use crate::train::database::batch::hex_sha256;
use crate::train::plan::{TeacherGames, TrainPlan};
use crate::train::{TrainConfig, TrainError, run_folders};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The version of the naming scheme, part of every name: a change to how
/// chunks are played or written must change it.
const NAMING: &str = "kotra-ai teacher chunk v1";

/// One chunk of one of the run's sets: the unit of work of a shard.
struct Unit {
    /// Index into the run's sets (0 the main set).
    set: usize,
    chunk: u64,
    /// The file name in the shared folder: the hash of what determines it.
    name: String,
}

/// Every chunk of a distillation's sets, in the order a one-process run
/// plays them, and the teacher of each set.
struct Plan {
    games: TeacherGames,
    sets: Vec<RunSet>,
    teachers: Vec<PathBuf>,
    units: Vec<Unit>,
}

impl Plan {
    /// `cfg`'s chunks, with the sets' folders under `out_dir`.
    fn new(cfg: &TrainConfig, out_dir: &Path) -> Result<Plan, TrainError> {
        let TrainPlan::Distill(distill) = cfg.plan() else {
            return Err(TrainError::NotShardable);
        };
        let run_teacher = distill.teacher.clone();
        let sets = sets_of_run(out_dir, &distill);
        let teachers: Vec<PathBuf> = sets
            .iter()
            .map(|s| s.teacher.clone().unwrap_or_else(|| run_teacher.clone()))
            .collect();
        let mut hashes: HashMap<&Path, String> = HashMap::new();
        for path in &teachers {
            if !hashes.contains_key(path.as_path()) {
                let bytes = std::fs::read(path).map_err(|error| TrainError::Read {
                    path: path.clone(),
                    error,
                })?;
                hashes.insert(path, hex_sha256(&bytes));
            }
        }
        let mut units = Vec::new();
        for (i, run_set) in sets.iter().enumerate() {
            let teacher = &hashes[teachers[i].as_path()];
            for chunk in 0..run_set.set.chunks(&distill.games) {
                let what = format!(
                    "{NAMING}; teacher sha256 {teacher}; {}",
                    run_set.set.describe(chunk, &distill.games)
                );
                units.push(Unit {
                    set: i,
                    chunk,
                    name: format!("{}.bin", &hex_sha256(what.as_bytes())[..32]),
                });
            }
        }
        Ok(Plan {
            games: distill.games,
            sets,
            teachers,
            units,
        })
    }

    /// The units of shard `index` of `count`: every `count`-th, so that
    /// each shard gets its share of every set, cheap and dear alike.
    fn shard(&self, index: u64, count: u64) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .enumerate()
            .filter(move |(u, _)| *u as u64 % count == index)
            .map(|(_, unit)| unit)
    }
}

fn check_shard(index: u64, count: u64) -> Result<(), TrainError> {
    if count == 0 {
        return Err(TrainError::NoShards);
    }
    if index >= count {
        return Err(TrainError::ShardIndex { index, count });
    }
    Ok(())
}

/// What a shard did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShardDone {
    /// Chunks this shard played now.
    pub played: usize,
    /// Chunks it found in the shared folder already (an earlier try).
    pub found: usize,
}

/// Plays shard `index` of `count` of the distillation `cfg` describes into
/// `dir/chunks/`, skipping the chunks already there.
pub fn play_shard(
    cfg: &TrainConfig,
    index: u64,
    count: u64,
    dir: &Path,
    progress: bool,
) -> Result<ShardDone, TrainError> {
    check_shard(index, count)?;
    let plan = Plan::new(cfg, dir)?;
    let folder = dir.join(run_folders::SHARD_CHUNKS);
    create_dir(&folder)?;
    let mine: Vec<&Unit> = plan.shard(index, count).collect();
    let bar = crate::progress::bar(
        progress,
        mine.len() as u64,
        "{elapsed_precise} [{bar:30}] {pos}/{len} chunks of this shard (eta {eta})",
    );
    let mut teachers: HashMap<&Path, Evaluator> = HashMap::new();
    let mut done = ShardDone::default();
    for unit in mine {
        let path = folder.join(&unit.name);
        // A chunk is written whole or not at all; one that does not read
        // back was damaged since, and is played again.
        if path.exists() && read_chunk(&path).is_ok() {
            done.found += 1;
        } else {
            let teacher_path = plan.teachers[unit.set].as_path();
            if !teachers.contains_key(teacher_path) {
                teachers.insert(teacher_path, Evaluator::new(Model::load(teacher_path)?));
            }
            let samples =
                plan.sets[unit.set]
                    .set
                    .play(unit.chunk, &teachers[teacher_path], &plan.games);
            write_chunk(&path, &samples)?;
            done.played += 1;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(done)
}

/// What a merge did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeDone {
    /// Chunks copied into the run's folder.
    pub copied: usize,
    /// Chunks the run's folder held already, the same bytes.
    pub present: usize,
}

/// Puts every chunk the shards wrote into `dir/chunks/` where a
/// one-process run in `out` would have written it, checking each reads
/// back whole. Fails, copying nothing, when a chunk is missing (naming the
/// shards of `count` to run again) or when `out` holds a different chunk.
pub fn merge_shards(
    cfg: &TrainConfig,
    count: u64,
    dir: &Path,
    out: &Path,
) -> Result<MergeDone, TrainError> {
    check_shard(0, count)?;
    let plan = Plan::new(cfg, out)?;
    let folder = dir.join(run_folders::SHARD_CHUNKS);
    let mut unfinished: Vec<u64> = plan
        .units
        .iter()
        .enumerate()
        .filter(|(_, unit)| !folder.join(&unit.name).exists())
        .map(|(u, _)| u as u64 % count)
        .collect();
    if !unfinished.is_empty() {
        let missing = unfinished.len();
        unfinished.sort_unstable();
        unfinished.dedup();
        return Err(TrainError::MissingShards {
            missing,
            total: plan.units.len(),
            dir: folder,
            shards: unfinished
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    let mut done = MergeDone::default();
    for unit in &plan.units {
        let from = folder.join(&unit.name);
        let bytes = std::fs::read(&from).map_err(|e| TrainError::Positions {
            path: from.clone(),
            why: e.to_string(),
        })?;
        decode_chunk(&from, &bytes)?;
        let set = &plan.sets[unit.set].set;
        let to = set.path(unit.chunk);
        if to.exists() {
            if std::fs::read(&to).ok().as_deref() != Some(bytes.as_slice()) {
                return Err(TrainError::MergeConflict { path: to, from });
            }
            done.present += 1;
            continue;
        }
        create_dir(&set.dir)?;
        crate::atomic_file::write(&to, &bytes)
            .map_err(|error| TrainError::Write { path: to, error })?;
        done.copied += 1;
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::{ExtraSet, TrainOptions, train};

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kotra-shards-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A small distillation: a main set of three chunks at 1-ply and an
    /// extra set of two race-only chunks.
    fn config(teacher: &Path) -> TrainConfig {
        let cfg = TrainConfig {
            seed: 11,
            distill_teacher: Some(teacher.to_owned()),
            target_ply: 1,
            distill_nets: crate::train::config::DistillNets::Both,
            games: 5,
            games_per_step: 2,
            contact_hidden: 16,
            race_hidden: 8,
            epochs: 1,
            measure_games: 2,
            extra_sets: vec![ExtraSet {
                seed: 12,
                games: 3,
                target_ply: 1,
                target_prune: 0,
                weight: 1,
                teacher: None,
                race_only: true,
                rollout_trials: 0,
                rollouts_per_game: 1,
                plan: None,
                rollout_window: None,
            }],
            ..Default::default()
        };
        cfg.validate().unwrap();
        cfg
    }

    fn train_in(cfg: &TrainConfig, out: &Path) -> Vec<u8> {
        let opts = TrainOptions {
            config: Some(cfg.clone()),
            games: None,
            out_dir: out.to_owned(),
            resume: false,
            dev_set: None,
            progress: false,
        };
        train(&opts).unwrap();
        std::fs::read(out.join(crate::train::MODEL_FILE)).unwrap()
    }

    fn chunk_files(out: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        for folder in std::fs::read_dir(out).unwrap() {
            let folder = folder.unwrap().path();
            if folder.is_dir() {
                for file in std::fs::read_dir(&folder).unwrap() {
                    let file = file.unwrap().path();
                    let name = file.strip_prefix(out).unwrap().to_owned();
                    files.push((name, std::fs::read(&file).unwrap()));
                }
            }
        }
        files.sort();
        files
    }

    #[test]
    fn sharded_chunks_merge_into_the_one_process_run_bit_for_bit() {
        let root = temp("same");
        let teacher = root.join("teacher.net");
        Model::random(16, 8, 4).save(&teacher).unwrap();
        let cfg = config(&teacher);
        let alone = train_in(&cfg, &root.join("alone"));

        let shared = root.join("shared");
        let count = 3;
        let out = root.join("merged");
        // Shard 2 has not run yet: the merge names it and copies nothing.
        play_shard(&cfg, 0, count, &shared, false).unwrap();
        play_shard(&cfg, 1, count, &shared, false).unwrap();
        let err = merge_shards(&cfg, count, &shared, &out).unwrap_err();
        assert!(
            err.to_string().contains("shards 2 have not finished"),
            "{err}"
        );
        assert!(!out.exists());
        // A requeued shard plays nothing twice.
        let first = play_shard(&cfg, 2, count, &shared, false).unwrap();
        let again = play_shard(&cfg, 2, count, &shared, false).unwrap();
        // Five chunks in all (three of the main set, two of the extra),
        // dealt out in turn: shard 2 has the third alone.
        assert_eq!((first.played, first.found), (1, 0));
        assert_eq!((again.played, again.found), (0, 1));
        let merged = merge_shards(&cfg, count, &shared, &out).unwrap();
        assert_eq!(merged.copied, 5);
        assert_eq!(chunk_files(&root.join("alone")), chunk_files(&out));
        assert!(train_in(&cfg, &out) == alone, "the same model, bit for bit");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_chunk_is_named_by_its_teacher_and_settings() {
        let root = temp("names");
        let teacher = root.join("teacher.net");
        Model::random(16, 8, 4).save(&teacher).unwrap();
        let cfg = config(&teacher);
        let names = |cfg: &TrainConfig| -> Vec<String> {
            let plan = Plan::new(cfg, &root).unwrap();
            plan.units.into_iter().map(|u| u.name).collect()
        };
        let base = names(&cfg);
        assert_eq!(base.len(), 5);
        let mut distinct = base.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 5);
        let noisier = TrainConfig {
            move_noise: 0.1,
            ..cfg.clone()
        };
        assert!(names(&noisier).iter().all(|n| !base.contains(n)));
        Model::random(16, 8, 5).save(&teacher).unwrap();
        assert!(names(&cfg).iter().all(|n| !base.contains(n)));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn self_play_runs_and_bad_indices_are_refused() {
        let dir = temp("refused");
        let td = TrainConfig::default();
        let err = play_shard(&td, 0, 2, &dir, false).unwrap_err();
        assert!(err.to_string().contains("distill_teacher"), "{err}");
        let teacher = dir.join("teacher.net");
        Model::random(16, 8, 4).save(&teacher).unwrap();
        let err = play_shard(&config(&teacher), 4, 4, &dir, false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "shard 4 of 4: a shard's index must be below the count"
        );
        let err = merge_shards(&config(&teacher), 0, &dir, &dir).unwrap_err();
        assert_eq!(err.to_string(), "the shard count must be at least 1");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
