//! Everything needed to continue a training run, in one framed file
//! written atomically after every step: config, counters, weights, the
//! burn networks and their Adam moments, the previous measured model and
//! the learning curve. Random numbers are derived from the seed and the
//! step number, so the counters are the generator state.

use super::config::TrainConfig;
use super::curve::CurvePoint;
use super::learner::LearnerState;
use crate::eval::Model;
use crate::framed_file::{FrameError, FrameKind, frame, unframe};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

const KIND: FrameKind = FrameKind {
    name: "kotra-ai checkpoint",
    magic: b"KOTRACKP",
    // 2: the model's optional crashed network and its learner.
    // 3: the moving average of the weights.
    // 4: networks with a second hidden layer (model file format 3).
    version: 4,
};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Kept as JSON text inside the binary payload, so that configs can
    /// grow fields without breaking older checkpoints.
    #[serde(with = "json_text")]
    pub config: TrainConfig,
    pub step: u64,
    pub games_played: u64,
    /// Games behind the initial model (0 unless `init_model` was given).
    pub prior_games: u64,
    /// Training wall time so far, across resumes.
    pub seconds: f64,
    pub model: Model,
    pub contact: LearnerState,
    pub race: LearnerState,
    pub crashed: Option<LearnerState>,
    /// Moving average of the weights (`weight_average`), once a step has
    /// been taken.
    pub averaged: Option<Model>,
    /// The model at the last measurement, the opponent for the next one.
    pub previous: Option<Model>,
    pub curve: Vec<CurvePoint>,
}

#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("cannot read checkpoint {path}: {error}")]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("cannot write checkpoint {path}: {error}")]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(transparent)]
    Frame(#[from] FrameError),
    /// A file that was read but is not a usable checkpoint.
    #[error("{path}: {error}")]
    Invalid {
        path: PathBuf,
        error: Box<CheckpointError>,
    },
    #[error("checkpoint payload cannot be decoded: {0}")]
    Decode(String),
}

impl Checkpoint {
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let payload = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("a checkpoint always serialises");
        crate::atomic_file::write(path, &frame(&KIND, &payload)).map_err(|error| {
            CheckpointError::Write {
                path: path.to_owned(),
                error,
            }
        })
    }

    pub fn load(path: &Path) -> Result<Checkpoint, CheckpointError> {
        let bytes = std::fs::read(path).map_err(|error| CheckpointError::Read {
            path: path.to_owned(),
            error,
        })?;
        Checkpoint::from_bytes(&bytes).map_err(|error| CheckpointError::Invalid {
            path: path.to_owned(),
            error: Box::new(error),
        })
    }

    /// Decodes and checks a checkpoint file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        let payload = unframe(&KIND, bytes)?;
        let (c, _): (Checkpoint, usize) =
            bincode::serde::decode_from_slice(payload, bincode::config::standard())
                .map_err(|e| CheckpointError::Decode(e.to_string()))?;
        c.model
            .validate()
            .map_err(|e| CheckpointError::Decode(e.to_string()))?;
        Ok(c)
    }
}

mod json_text {
    use super::TrainConfig;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &TrainConfig, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&serde_json::to_string(c).map_err(serde::ser::Error::custom)?)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TrainConfig, D::Error> {
        let text = String::deserialize(d)?;
        serde_json::from_str(&text).map_err(serde::de::Error::custom)
    }
}
