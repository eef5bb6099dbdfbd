//! One seed's teacher games: played once, chunk by chunk, and read back
//! by every later run that names the same seed and search.

use super::chunk_file::{create_dir, read_chunk, write_chunk};
use crate::eval::Evaluator;
use crate::seed::splitmix;
use crate::train::plan::{DistillPlan, SetTargets, TeacherGames};
use crate::train::rollout_targets::{self, RolloutTargets};
use crate::train::selfplay::{Sample, play_games};
use crate::train::{TrainError, run_folders};

/// Teacher games played from one seed, with one way of finding the
/// targets, `games_per_step` to a chunk file in `dir`.
pub(super) struct TeacherSet {
    pub(super) dir: std::path::PathBuf,
    pub(super) seed: u64,
    pub(super) games: u64,
    pub(super) targets: SetTargets,
}

/// One of a run's teacher sets, as its config names it.
pub(super) struct RunSet {
    pub(super) set: TeacherSet,
    /// How many times each of its positions counts per epoch.
    pub(super) weight: usize,
    /// Its own teacher, where it has one; else the run's.
    pub(super) teacher: Option<std::path::PathBuf>,
}

/// The teacher sets of `plan` with their folders in `out_dir`: the main
/// set first, then the extra sets in the config's order.
pub(super) fn sets_of_run(out_dir: &std::path::Path, plan: &DistillPlan) -> Vec<RunSet> {
    plan.sets
        .iter()
        .map(|set| RunSet {
            set: TeacherSet {
                dir: out_dir.join(&set.folder),
                seed: set.seed,
                games: set.games,
                targets: set.targets,
            },
            weight: set.weight,
            teacher: set.teacher.clone(),
        })
        .collect()
}

impl TeacherSet {
    pub(super) fn chunks(&self, how: &TeacherGames) -> u64 {
        self.games.div_ceil(how.per_chunk)
    }

    pub(super) fn games_in(&self, c: u64, how: &TeacherGames) -> u64 {
        how.per_chunk.min(self.games - c * how.per_chunk)
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
    pub(super) fn games_to_play(&self, how: &TeacherGames) -> u64 {
        (0..self.chunks(how))
            .filter(|&c| !self.is_played(c))
            .map(|c| self.games_in(c, how))
            .sum()
    }

    /// Chunk `c`: read where an earlier run wrote it, otherwise played by
    /// the teacher from the set's seed and written (atomically).
    pub(super) fn chunk(
        &self,
        c: u64,
        teacher: &Evaluator,
        how: &TeacherGames,
    ) -> Result<Vec<Sample>, TrainError> {
        create_dir(&self.dir)?;
        let path = self.path(c);
        if path.exists() {
            return read_chunk(&path);
        }
        let samples = self.play(c, teacher, how);
        write_chunk(&path, &samples)?;
        Ok(samples)
    }

    /// Chunk `c` played by the teacher: a function of the set's seed, the
    /// chunk's number, the teacher and [`TeacherSet::describe`] alone, so a
    /// chunk played anywhere (another process, a cluster's shard) is the
    /// same, bit for bit.
    pub(super) fn play(&self, c: u64, teacher: &Evaluator, how: &TeacherGames) -> Vec<Sample> {
        let seed = splitmix(self.seed ^ splitmix(c.wrapping_add(1 << 41)));
        let games = self.games_in(c, how);
        match self.targets {
            SetTargets::Search(search) => {
                play_games(teacher, games, seed, how.lambda, how.policy, search)
            }
            SetTargets::Rollouts(targets) => rollout_targets::play_games(
                teacher,
                games,
                seed,
                &RolloutTargets {
                    policy: how.policy,
                    ..targets
                },
            ),
        }
    }

    /// Everything besides the teacher's weights that chunk `c`'s samples
    /// depend on, as text: what names a chunk played as a shard.
    pub(super) fn describe(&self, c: u64, how: &TeacherGames) -> String {
        format!(
            "seed {}, chunk {c}, games {}, lambda {}, policy {:?}, targets {:?}",
            self.seed,
            self.games_in(c, how),
            how.lambda,
            how.policy,
            self.targets
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Model;
    use crate::train::selfplay::TargetSearch;

    #[test]
    fn only_chunks_not_on_disk_are_left_to_play() {
        let dir = std::env::temp_dir().join(format!("kotra-teacher-set-{}", std::process::id()));
        let set = TeacherSet {
            dir: dir.clone(),
            seed: 5,
            games: 3,
            targets: SetTargets::Search(TargetSearch::plain(1)),
        };
        let cfg = TeacherGames {
            per_chunk: 2,
            lambda: 0.7,
            policy: crate::train::selfplay::MovePolicy::greedy(),
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
