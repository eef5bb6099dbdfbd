//! Why a training run, a shard or a merge stops.

use super::checkpoint::CheckpointError;
use super::{database, dev_set};
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error(transparent)]
    DevSet(#[from] dev_set::DevSetError),
    #[error(
        "{0} already holds a checkpoint: pass --resume to continue it, or choose another --out"
    )]
    Exists(PathBuf),
    #[error("nothing to resume: {0} does not exist")]
    NothingToResume(PathBuf),
    #[error(
        "checkpoint was made with a different config; resume uses the checkpoint's own config ({0})"
    )]
    ConfigMismatch(String),
    #[error("{0}")]
    Restore(String),
    /// Reading the initial model or writing `model.net`.
    #[error(transparent)]
    Model(#[from] crate::eval::ModelError),
    #[error("cannot write {path}: {error}")]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("cannot read {path}: {error}")]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(
        "the config has no distill_teacher: its games are played by the network being trained, step by step, so there is nothing to shard (run kotra-ai train)"
    )]
    NotShardable,
    #[error("the shard count must be at least 1")]
    NoShards,
    #[error("shard {index} of {count}: a shard's index must be below the count")]
    ShardIndex { index: u64, count: u64 },
    #[error(
        "{missing} of {total} chunks are not in {dir} yet: shards {shards} have not finished (run them again)"
    )]
    MissingShards {
        missing: usize,
        total: usize,
        dir: PathBuf,
        shards: String,
    },
    #[error("{path} holds another chunk than the shards' {from}: merge into a new folder")]
    MergeConflict { path: PathBuf, from: PathBuf },
    #[error("training positions {path}: {why} (delete the file to play its games again)")]
    Positions { path: PathBuf, why: String },
    #[error("banked rollouts {path}: {why}")]
    BankedRollouts { path: PathBuf, why: String },
    #[error(transparent)]
    Database(#[from] database::DatabaseError),
}
