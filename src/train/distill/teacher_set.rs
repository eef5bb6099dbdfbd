//! One seed's teacher games: played once, chunk by chunk, and read back
//! by every later run that names the same seed and search.

use super::chunk_file::{create_dir, read_chunk, write_chunk};
use crate::eval::Evaluator;
use crate::seed::splitmix;
use crate::train::rollout_targets::{self, RolloutTargets};
use crate::train::selfplay::{Sample, TargetSearch, play_games};
use crate::train::{TrainConfig, TrainError, run_folders};

/// Teacher games played from one seed, with one way of finding the
/// targets, `games_per_step` to a chunk file in `dir`.
pub(super) struct TeacherSet {
    pub(super) dir: std::path::PathBuf,
    pub(super) seed: u64,
    pub(super) games: u64,
    pub(super) targets: SetTargets,
}

/// How a set's positions get their targets.
#[derive(Clone, Copy, Debug)]
pub(super) enum SetTargets {
    /// Every position of the games, valued by the teacher's search.
    Search(TargetSearch),
    /// A few positions of each game, rolled out by the teacher.
    Rollouts(RolloutTargets),
}

impl SetTargets {
    /// Whether every sample of the set is a rollout target.
    pub(super) fn rolled_out(&self) -> bool {
        matches!(self, SetTargets::Rollouts(_))
    }
}

/// One of a run's teacher sets, as its config names it.
pub(super) struct RunSet {
    pub(super) set: TeacherSet,
    /// How many times each of its positions counts per epoch.
    pub(super) weight: usize,
    /// Its own teacher, where it has one; else the run's.
    pub(super) teacher: Option<std::path::PathBuf>,
}

/// The teacher sets of the run in `out_dir` that `cfg` describes: the
/// main set first, then the `extra_sets` in the config's order.
pub(super) fn sets_of_run(out_dir: &std::path::Path, cfg: &TrainConfig) -> Vec<RunSet> {
    let main = RunSet {
        set: TeacherSet {
            dir: out_dir.join(run_folders::MAIN_SET),
            seed: cfg.seed,
            games: cfg.games,
            targets: SetTargets::Search(cfg.target_search()),
        },
        weight: 1,
        teacher: None,
    };
    let extras = cfg.extra_sets.iter().map(|set| RunSet {
        set: TeacherSet {
            dir: out_dir.join(set.folder()),
            seed: set.seed,
            games: set.games,
            targets: set.rollout_targets().map_or(
                SetTargets::Search(set.target_search()),
                SetTargets::Rollouts,
            ),
        },
        weight: set.weight as usize,
        teacher: set.teacher.clone(),
    });
    std::iter::once(main).chain(extras).collect()
}

impl TeacherSet {
    pub(super) fn chunks(&self, cfg: &TrainConfig) -> u64 {
        self.games.div_ceil(cfg.games_per_step)
    }

    pub(super) fn games_in(&self, c: u64, cfg: &TrainConfig) -> u64 {
        cfg.games_per_step.min(self.games - c * cfg.games_per_step)
    }

    pub(super) fn path(&self, c: u64) -> std::path::PathBuf {
        self.dir.join(run_folders::chunk_file(c))
    }

    /// Whether chunk `c` is on disk already (reading it back takes a
    /// moment, playing it minutes).
    pub(super) fn is_played(&self, c: u64) -> bool {
        self.path(c).exists()
    }

    /// The games of the chunks not yet on disk.
    pub(super) fn games_to_play(&self, cfg: &TrainConfig) -> u64 {
        (0..self.chunks(cfg))
            .filter(|&c| !self.is_played(c))
            .map(|c| self.games_in(c, cfg))
            .sum()
    }

    /// Chunk `c`: read where an earlier run wrote it, otherwise played by
    /// the teacher from the set's seed and written (atomically).
    pub(super) fn chunk(
        &self,
        c: u64,
        teacher: &Evaluator,
        cfg: &TrainConfig,
    ) -> Result<Vec<Sample>, TrainError> {
        create_dir(&self.dir)?;
        let path = self.path(c);
        if path.exists() {
            return read_chunk(&path);
        }
        let samples = self.play(c, teacher, cfg);
        write_chunk(&path, &samples)?;
        Ok(samples)
    }

    /// Chunk `c` played by the teacher: a function of the set's seed, the
    /// chunk's number, the teacher and [`TeacherSet::describe`] alone, so a
    /// chunk played anywhere (another process, a cluster's shard) is the
    /// same, bit for bit.
    pub(super) fn play(&self, c: u64, teacher: &Evaluator, cfg: &TrainConfig) -> Vec<Sample> {
        let seed = splitmix(self.seed ^ splitmix(c.wrapping_add(1 << 41)));
        let games = self.games_in(c, cfg);
        match self.targets {
            SetTargets::Search(search) => {
                play_games(teacher, games, seed, cfg.lambda, cfg.move_policy(), search)
            }
            SetTargets::Rollouts(how) => rollout_targets::play_games(
                teacher,
                games,
                seed,
                &RolloutTargets {
                    policy: cfg.move_policy(),
                    ..how
                },
            ),
        }
    }

    /// Everything besides the teacher's weights that chunk `c`'s samples
    /// depend on, as text: what names a chunk played as a shard.
    pub(super) fn describe(&self, c: u64, cfg: &TrainConfig) -> String {
        format!(
            "seed {}, chunk {c}, games {}, lambda {}, policy {:?}, targets {:?}",
            self.seed,
            self.games_in(c, cfg),
            cfg.lambda,
            cfg.move_policy(),
            self.targets
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Model;

    #[test]
    fn only_chunks_not_on_disk_are_left_to_play() {
        let dir = std::env::temp_dir().join(format!("kotra-teacher-set-{}", std::process::id()));
        let set = TeacherSet {
            dir: dir.clone(),
            seed: 5,
            games: 3,
            targets: SetTargets::Search(TargetSearch::plain(1)),
        };
        let cfg = crate::train::TrainConfig {
            games_per_step: 2,
            ..Default::default()
        };
        let teacher = Evaluator::new(Model::random(16, 8, 9));
        assert_eq!((set.chunks(&cfg), set.games_to_play(&cfg)), (2, 3));
        let played = set.chunk(1, &teacher, &cfg).unwrap();
        assert!(set.is_played(1) && !set.is_played(0));
        assert_eq!(set.games_to_play(&cfg), 2, "chunk 1 held the third game");
        let read_back = set.chunk(1, &teacher, &cfg).unwrap();
        assert!(!played.is_empty() && played.len() == read_back.len());
        assert!(
            played
                .iter()
                .zip(&read_back)
                .all(|(a, b)| a.position == b.position && a.target == b.target)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
