//! Everything needed to continue a training run, in one framed file
//! written atomically after every step: config, counters, weights, the
//! burn networks and their Adam moments, the previous measured model and
//! the learning curve. Random numbers are derived from the seed and the
//! step number, so the counters are the generator state.
//!
//! Format 5 appends the weights that played the next step's games (an
//! `overlap_play` run) after the format-4 payload, so a format-4 file
//! still loads, with none.

use super::config::TrainConfig;
use super::curve::CurvePoint;
use super::learner::LearnerState;
use crate::eval::Model;
use crate::framed_file::{
    FileError, FrameKind, decode_payload, decode_payload_prefix, read_file, unframe_since,
    write_file,
};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

const KIND: FrameKind = FrameKind {
    name: "kotra-ai checkpoint",
    magic: b"KOTRACKP",
    // 2: the model's optional crashed network and its learner.
    // 3: the moving average of the weights.
    // 4: networks with a second hidden layer (model file format 3).
    // 5: the pending player's weights, after the rest.
    version: 5,
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
    /// In an `overlap_play` run, the weights that play the next step's
    /// games (those from before the last step's learning); a resumed run
    /// plays them again with these. Written after the rest of the payload.
    #[serde(skip)]
    pub pending: Option<Model>,
}

/// The oldest checkpoint format this build still reads.
const OLDEST_VERSION: u32 = 4;

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
        Ok(write_file(WHAT, &KIND, path, &self.payload())?)
    }

    /// The current format's payload: the checkpoint, then its pending
    /// player.
    fn payload(&self) -> Vec<u8> {
        let mut payload = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("a checkpoint always serialises");
        payload.extend(
            bincode::serde::encode_to_vec(&self.pending, bincode::config::standard())
                .expect("a model always serialises"),
        );
        payload
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
        let (version, payload) =
            unframe_since(&KIND, OLDEST_VERSION, bytes).map_err(FileError::from)?;
        let (mut c, used): (Checkpoint, usize) = decode_payload_prefix(WHAT, payload)?;
        if version >= 5 {
            c.pending = decode_payload(WHAT, &payload[used..])?;
        }
        for model in std::iter::once(&c.model).chain(&c.pending) {
            model.validate().map_err(|e| FileError::Decode {
                what: WHAT,
                message: e.to_string(),
            })?;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framed_file::frame;
    use crate::train::config::LearnerKind;
    use crate::train::learner::Learners;

    fn checkpoint(pending: Option<Model>) -> Checkpoint {
        let model = Model::random(8, 8, 3);
        let learners = Learners::new(&model, LearnerKind::Parallel);
        Checkpoint {
            config: TrainConfig::default(),
            step: 2,
            games_played: 40,
            prior_games: 0,
            seconds: 1.5,
            model,
            contact: learners.contact.state(),
            race: learners.race.state(),
            crashed: None,
            averaged: None,
            previous: None,
            curve: Vec::new(),
            pending,
        }
    }

    #[test]
    fn the_pending_player_survives_a_save() {
        let pending = Model::random(8, 8, 4);
        let bytes = frame(&KIND, &checkpoint(Some(pending.clone())).payload());
        let read = Checkpoint::from_bytes(&bytes).unwrap();
        assert_eq!(read.pending, Some(pending));
        assert_eq!(read.games_played, 40);
    }

    #[test]
    fn a_format_4_checkpoint_loads_with_no_pending_player() {
        let old = FrameKind { version: 4, ..KIND };
        let c = checkpoint(Some(Model::random(8, 8, 4)));
        let payload = bincode::serde::encode_to_vec(&c, bincode::config::standard()).unwrap();
        let read = Checkpoint::from_bytes(&frame(&old, &payload)).unwrap();
        assert_eq!(read.pending, None);
        assert_eq!(read.model, c.model);
        // The same payload claimed as format 5 lacks its pending player.
        assert!(Checkpoint::from_bytes(&frame(&KIND, &payload)).is_err());
    }
}
