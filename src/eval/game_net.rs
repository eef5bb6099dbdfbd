//! The network of the other Kotra games: the same one-hidden-layer sigmoid
//! perceptron as backgammon's [`super::network::Mlp`], with as many outputs
//! as the game needs (20 win-type chances for Icelandic Kotra, one winning
//! chance for Icehouse Kotra), and its model file.

use super::network::{all_finite, hidden_layer, random_weights, sigmoid};
use crate::framed_file::{
    FileError, FrameKind, decode_payload, frame, read_file, unframe, write_file,
};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Largest hidden layer.
pub const MAX_HIDDEN: usize = 512;

/// Weights of one network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameNet {
    pub inputs: usize,
    pub hidden: usize,
    pub outputs: usize,
    /// `[inputs][hidden]`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `[outputs][hidden]`.
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
}

impl GameNet {
    /// Small seeded random weights, as [`super::network::Mlp::random`].
    pub fn random(inputs: usize, hidden: usize, outputs: usize, seed: u64) -> GameNet {
        let (w1, b1, w2) = random_weights(inputs, hidden, outputs, seed);
        GameNet {
            inputs,
            hidden,
            outputs,
            w1,
            b1,
            w2,
            b2: vec![0.0; outputs],
        }
    }

    /// The outputs for `input`, written into `out` (length `outputs`).
    pub fn forward_into(&self, input: &[f32], out: &mut [f32]) {
        let mut scratch = [0f32; MAX_HIDDEN];
        let hidden = &mut scratch[..self.hidden];
        hidden_layer(&self.w1, &self.b1, input, hidden);
        for (o, slot) in out.iter_mut().enumerate().take(self.outputs) {
            let w = &self.w2[o * self.hidden..(o + 1) * self.hidden];
            let z: f32 = hidden.iter().zip(w).map(|(a, b)| a * b).sum();
            *slot = sigmoid(z + self.b2[o]);
        }
    }

    fn validate(&self, inputs: usize, outputs: usize) -> Result<(), GameModelError> {
        let shape_ok = self.inputs == inputs
            && self.outputs == outputs
            && (1..=MAX_HIDDEN).contains(&self.hidden)
            && self.w1.len() == inputs * self.hidden
            && self.b1.len() == self.hidden
            && self.w2.len() == outputs * self.hidden
            && self.b2.len() == outputs;
        if !shape_ok {
            return Err(GameModelError::Shape {
                inputs: self.inputs,
                outputs: self.outputs,
                want_inputs: inputs,
                want_outputs: outputs,
            });
        }
        if !all_finite(&[&self.w1, &self.b1, &self.w2, &self.b2]) {
            return Err(GameModelError::NotFinite);
        }
        Ok(())
    }
}

impl From<super::network::Mlp> for GameNet {
    /// A one-layer backgammon network (the caller guarantees no mid layer).
    fn from(m: super::network::Mlp) -> GameNet {
        debug_assert!(m.mid.is_none());
        GameNet {
            inputs: m.inputs,
            hidden: m.hidden,
            outputs: m.b2.len(),
            w1: m.w1,
            b1: m.b1,
            w2: m.w2,
            b2: m.b2.to_vec(),
        }
    }
}

impl From<GameNet> for super::network::Mlp {
    /// Backgammon's five outputs; the caller guarantees the shape.
    fn from(n: GameNet) -> super::network::Mlp {
        let mut b2 = [0f32; super::network::OUTPUTS];
        b2.copy_from_slice(&n.b2);
        super::network::Mlp {
            inputs: n.inputs,
            hidden: n.hidden,
            w1: n.w1,
            b1: n.b1,
            mid: None,
            w2: n.w2,
            b2,
        }
    }
}

const KIND: FrameKind = FrameKind {
    name: "kotra-ai game model",
    magic: b"KOTRAGAM",
    version: 1,
};

/// A model file for one of the other games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameModel {
    /// The game's name (`icelandic-kotra`, `icehouse-kotra`).
    pub game: String,
    /// Free text: how it was made.
    pub description: String,
    /// Self-play games behind the weights.
    pub games_trained: u64,
    pub net: GameNet,
}

/// Names a model file in read, write and decode errors.
const WHAT: &str = "model file";

#[derive(Debug, thiserror::Error)]
pub enum GameModelError {
    /// Reading, writing, the frame or the payload.
    #[error(transparent)]
    File(#[from] FileError),
    /// A file that was read but is not a usable model of this game.
    #[error("{path}: {error}")]
    Invalid {
        path: PathBuf,
        error: Box<GameModelError>,
    },
    #[error("model is for {found}, not {expected}")]
    Game { found: String, expected: String },
    #[error(
        "network has {inputs} inputs and {outputs} outputs, the game needs {want_inputs} and {want_outputs}"
    )]
    Shape {
        inputs: usize,
        outputs: usize,
        want_inputs: usize,
        want_outputs: usize,
    },
    #[error("weights contain NaN or infinity")]
    NotFinite,
}

impl GameModel {
    pub fn to_bytes(&self) -> Vec<u8> {
        frame(&KIND, &self.payload())
    }

    /// The model encoded, before its frame.
    fn payload(&self) -> Vec<u8> {
        bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("a model always serialises")
    }

    /// Decodes and checks the model against the game's name and shape.
    pub fn from_bytes(
        bytes: &[u8],
        game: &str,
        inputs: usize,
        outputs: usize,
    ) -> Result<GameModel, GameModelError> {
        let payload = unframe(&KIND, bytes).map_err(FileError::from)?;
        let model: GameModel = decode_payload(WHAT, payload)?;
        if model.game != game {
            return Err(GameModelError::Game {
                found: model.game,
                expected: game.into(),
            });
        }
        model.net.validate(inputs, outputs)?;
        Ok(model)
    }

    pub fn load(
        path: &Path,
        game: &str,
        inputs: usize,
        outputs: usize,
    ) -> Result<GameModel, GameModelError> {
        let bytes = read_file(WHAT, path)?;
        GameModel::from_bytes(&bytes, game, inputs, outputs).map_err(|error| {
            GameModelError::Invalid {
                path: path.to_owned(),
                error: Box::new(error),
            }
        })
    }

    /// Writes atomically (temp file and rename).
    pub fn save(&self, path: &Path) -> Result<(), GameModelError> {
        Ok(write_file(WHAT, &KIND, path, &self.payload())?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forward_agrees_with_the_backgammon_network_and_files_check_themselves() {
        let mlp = super::super::network::Mlp::random(30, 16, 4);
        let net = GameNet::from(mlp.clone());
        let x: Vec<f32> = (0..30).map(|i| (i % 4) as f32 / 3.0).collect();
        let mut out = [0f32; 5];
        net.forward_into(&x, &mut out);
        for (a, b) in out.iter().zip(mlp.forward(&x)) {
            assert!((a - b).abs() < 1e-5);
        }
        let model = GameModel {
            game: "g".into(),
            description: String::new(),
            games_trained: 0,
            net,
        };
        let bytes = model.to_bytes();
        assert_eq!(GameModel::from_bytes(&bytes, "g", 30, 5).unwrap(), model);
        assert!(matches!(
            GameModel::from_bytes(&bytes, "h", 30, 5),
            Err(GameModelError::Game { .. })
        ));
        assert!(matches!(
            GameModel::from_bytes(&bytes, "g", 31, 5),
            Err(GameModelError::Shape { .. })
        ));
        assert!(GameModel::from_bytes(&bytes[..bytes.len() - 3], "g", 30, 5).is_err());
    }
}
