//! One seed's teacher games: played once, chunk by chunk, and read back
//! by every later run that names the same seed and search.

use super::chunk_file::{create_dir, read_chunk, write_chunk};
use crate::eval::Evaluator;
use crate::players::duel::splitmix;
use crate::train::TrainError;
use crate::train::selfplay::{MovePolicy, Sample, TargetSearch, play_games};

/// Teacher games played from one seed, with one search for the targets,
/// `games_per_step` to a chunk file in `dir`.
pub(super) struct TeacherSet {
    pub(super) dir: std::path::PathBuf,
    pub(super) seed: u64,
    pub(super) games: u64,
    pub(super) search: TargetSearch,
}

impl TeacherSet {
    pub(super) fn chunks(&self, cfg: &crate::train::TrainConfig) -> u64 {
        self.games.div_ceil(cfg.games_per_step)
    }

    pub(super) fn games_in(&self, c: u64, cfg: &crate::train::TrainConfig) -> u64 {
        cfg.games_per_step.min(self.games - c * cfg.games_per_step)
    }

    /// Chunk `c`: read where an earlier run wrote it, otherwise played by
    /// the teacher from the set's seed and written (atomically).
    pub(super) fn chunk(
        &self,
        c: u64,
        teacher: &Evaluator,
        cfg: &crate::train::TrainConfig,
    ) -> Result<Vec<Sample>, TrainError> {
        create_dir(&self.dir)?;
        let path = self.dir.join(format!("{c:05}.bin"));
        if path.exists() {
            return read_chunk(&path);
        }
        let policy = MovePolicy {
            exploration: cfg.exploration,
            noise: cfg.move_noise,
        };
        let seed = splitmix(self.seed ^ splitmix(c.wrapping_add(1 << 41)));
        let samples = play_games(
            teacher,
            self.games_in(c, cfg),
            seed,
            cfg.lambda,
            policy,
            self.search,
        );
        write_chunk(&path, &samples)?;
        Ok(samples)
    }
}
