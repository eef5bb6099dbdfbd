//! What a caller asks of a training run: the config, the folder, resume.

use super::TrainConfig;
use std::path::PathBuf;

/// How `train` is asked to run.
pub struct TrainOptions {
    /// The config of a new run; on resume, if given, it must match the
    /// checkpoint's (except for the number of games).
    pub config: Option<TrainConfig>,
    /// Overrides the total number of games.
    pub games: Option<u64>,
    pub out_dir: PathBuf,
    pub resume: bool,
    pub dev_set: Option<PathBuf>,
    pub progress: bool,
}
