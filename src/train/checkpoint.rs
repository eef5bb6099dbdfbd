//! Everything needed to continue a training run, in one framed file
//! written atomically after every step: config, counters, weights, the
//! burn networks and their Adam moments, the previous measured model and
//! the learning curve. Random numbers are derived from the seed and the
//! step number, so the counters are the generator state.

use super::config::TrainConfig;
use super::curve::CurvePoint;
use super::learner::LearnerState;
use crate::eval::Model;
use crate::framed_file::{FileError, FrameKind, decode_payload, read_file, unframe, write_file};
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

/// Names a checkpoint in read, write and decode errors.
const WHAT: &str = "checkpoint";

#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// Reading, writing, the frame or the payload.
    #[error(transparent)]
    File(#[from] FileError),
    /// A file that was read but is not a usable checkpoint.
    #[error("{path}: {error}")]
    Invalid {
        path: PathBuf,
        error: Box<CheckpointError>,
    },
}

impl Checkpoint {
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let payload = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("a checkpoint always serialises");
        Ok(write_file(WHAT, &KIND, path, &payload)?)
    }

    pub fn load(path: &Path) -> Result<Checkpoint, CheckpointError> {
        let bytes = read_file(WHAT, path)?;
        Checkpoint::from_bytes(&bytes).map_err(|error| CheckpointError::Invalid {
            path: path.to_owned(),
            error: Box::new(error),
        })
    }

    /// Decodes and checks a checkpoint file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        let payload = unframe(&KIND, bytes).map_err(FileError::from)?;
        let c: Checkpoint = decode_payload(WHAT, payload)?;
        c.model.validate().map_err(|e| FileError::Decode {
            what: WHAT,
            message: e.to_string(),
        })?;
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
