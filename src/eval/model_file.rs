//! The on-disk network file: a fixed header (magic, format version, payload
//! length, FNV-1a checksum) in front of a bincode payload. The header lets a
//! truncated, corrupted or foreign file be refused with one clear line
//! before anything is decoded.

use super::encoding::{
    CONTACT_INPUTS, ENCODING_VERSION, FEATURES_PER_SIDE_V1, RACE_FEATURES_PER_SIDE_V2,
    RACE_FEATURES_PER_SIDE_V3, RACE_INPUTS, RAW_PER_SIDE,
};
use super::network::{Mlp, OUTPUTS, ShapeError};
use crate::framed_file::{
    FileError, FrameKind, decode_payload, frame, read_file, unframe_since, write_file,
};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Version of the model file layout (header and payload structure).
/// Version 2 added the optional crashed network, version 3 the optional
/// second hidden layer of each network; files of versions 1 and 2 (every
/// network shipped before them) still load.
pub const FORMAT_VERSION: u32 = 3;
const KIND: FrameKind = FrameKind {
    name: "kotra-ai model",
    magic: b"KOTRANET",
    version: FORMAT_VERSION,
};

/// What a model file carries besides weights.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelMeta {
    /// Input layout the networks were trained on.
    pub encoding_version: u32,
    /// Free text: how it was made.
    pub description: String,
    /// Self-play games behind the weights.
    pub games_trained: u64,
}

/// The networks of one evaluator, by position class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Model {
    pub meta: ModelMeta,
    pub contact: Mlp,
    pub race: Mlp,
    /// Back games and crashed boards, if the model gives them a network of
    /// their own (contact inputs); without one the contact network
    /// evaluates them.
    pub crashed: Option<Mlp>,
}

/// The payload of a version 1 file.
#[derive(Serialize, Deserialize)]
struct ModelV1 {
    meta: ModelMeta,
    contact: MlpV2,
    race: MlpV2,
}

/// The payload of a version 2 file.
#[derive(Serialize, Deserialize)]
struct ModelV2 {
    meta: ModelMeta,
    contact: MlpV2,
    race: MlpV2,
    crashed: Option<MlpV2>,
}

/// A network as files before version 3 held it: one hidden layer.
#[derive(Serialize, Deserialize)]
struct MlpV2 {
    inputs: usize,
    hidden: usize,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: [f32; OUTPUTS],
}

impl From<ModelV1> for ModelV2 {
    fn from(v1: ModelV1) -> ModelV2 {
        ModelV2 {
            meta: v1.meta,
            contact: v1.contact,
            race: v1.race,
            crashed: None,
        }
    }
}

impl From<ModelV1> for Model {
    fn from(v1: ModelV1) -> Model {
        ModelV2::from(v1).into()
    }
}

impl From<ModelV2> for Model {
    fn from(v2: ModelV2) -> Model {
        Model {
            meta: v2.meta,
            contact: v2.contact.into(),
            race: v2.race.into(),
            crashed: v2.crashed.map(Mlp::from),
        }
    }
}

impl From<MlpV2> for Mlp {
    fn from(m: MlpV2) -> Mlp {
        Mlp {
            inputs: m.inputs,
            hidden: m.hidden,
            w1: m.w1,
            b1: m.b1,
            mid: None,
            w2: m.w2,
            b2: m.b2,
        }
    }
}

/// Names a model file in read, write and decode errors.
const WHAT: &str = "model file";

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// Reading, writing, the frame or the payload.
    #[error(transparent)]
    File(#[from] FileError),
    /// A file that was read but is not a usable model: which file, since a
    /// run may load several (start, teacher, the extra sets' teachers).
    #[error("{path}: {error}")]
    Invalid {
        path: PathBuf,
        error: Box<ModelError>,
    },
    #[error("model was trained on input encoding {found}, this build uses {ENCODING_VERSION}")]
    Encoding { found: u32 },
    #[error("{net} network: {error}")]
    Shape {
        net: &'static str,
        error: ShapeError,
    },
}

/// A race network of random weights, salted away from the contact
/// network drawn from the same seed.
fn fresh_race(hidden: usize, mid: usize, seed: u64) -> Mlp {
    Mlp::random_deep(RACE_INPUTS, hidden, mid, seed ^ 0x9e37_79b9_7f4a_7c15)
}

impl Model {
    /// A freshly initialised model with the current encoding.
    pub fn random(contact_hidden: usize, race_hidden: usize, seed: u64) -> Model {
        Model {
            meta: ModelMeta {
                encoding_version: ENCODING_VERSION,
                description: "random initial weights".into(),
                games_trained: 0,
            },
            contact: Mlp::random(CONTACT_INPUTS, contact_hidden, seed),
            race: fresh_race(race_hidden, 0, seed),
            crashed: None,
        }
    }

    /// This model with new random weights for its contact network:
    /// `hidden` units and, unless `mid` is 0, a second layer of `mid`.
    pub fn with_fresh_contact(mut self, hidden: usize, mid: usize, seed: u64) -> Model {
        self.contact = Mlp::random_deep(CONTACT_INPUTS, hidden, mid, seed);
        self
    }

    /// This model with its contact network widened to `hidden` first-layer
    /// units, evaluating exactly as before ([`Mlp::widened`]).
    pub fn with_wider_contact(mut self, hidden: usize, seed: u64) -> Model {
        self.contact = self.contact.widened(hidden, seed);
        self
    }

    /// This model with new random weights for its race network, of
    /// `hidden` and `mid` units.
    pub fn with_fresh_race(mut self, hidden: usize, mid: usize, seed: u64) -> Model {
        self.race = fresh_race(hidden, mid, seed);
        self
    }

    /// An older model in today's encoding: each network gets the inputs
    /// added since its version with zero weights, so it evaluates exactly
    /// as before, and training can start from it and learn to use them
    /// (version 2 added contact features, versions 3 and 4 race features).
    fn upgraded(mut self) -> Model {
        let version = self.meta.encoding_version;
        let contact_v1 = RAW_PER_SIDE + FEATURES_PER_SIDE_V1;
        let race_v2 = RAW_PER_SIDE + RACE_FEATURES_PER_SIDE_V2;
        let race_v3 = RAW_PER_SIDE + RACE_FEATURES_PER_SIDE_V3;
        if version == 1 && self.contact.inputs == 2 * contact_v1 {
            widen_inputs(&mut self.contact, contact_v1, CONTACT_INPUTS / 2);
            self.meta.encoding_version = 2;
        }
        if self.meta.encoding_version == 2 && self.race.inputs == 2 * race_v2 {
            widen_inputs(&mut self.race, race_v2, race_v3);
            self.meta.encoding_version = 3;
        }
        if self.meta.encoding_version == 3 && self.race.inputs == 2 * race_v3 {
            widen_inputs(&mut self.race, race_v3, RACE_INPUTS / 2);
            self.meta.encoding_version = 4;
        }
        self
    }

    pub fn validate(&self) -> Result<(), ModelError> {
        if self.meta.encoding_version != ENCODING_VERSION {
            return Err(ModelError::Encoding {
                found: self.meta.encoding_version,
            });
        }
        self.contact
            .validate(CONTACT_INPUTS)
            .map_err(|error| ModelError::Shape {
                net: "contact",
                error,
            })?;
        self.race
            .validate(RACE_INPUTS)
            .map_err(|error| ModelError::Shape { net: "race", error })?;
        match &self.crashed {
            Some(net) => net
                .validate(CONTACT_INPUTS)
                .map_err(|error| ModelError::Shape {
                    net: "crashed",
                    error,
                }),
            None => Ok(()),
        }
    }

    /// This model with `other`'s race network (`other_name` goes into the
    /// description). Both encodings are today's, so the race inputs agree.
    pub fn with_race_from(&self, other: &Model, other_name: &str) -> Model {
        let mut m = self.clone();
        m.race = other.race.clone();
        m.meta.description = format!(
            "{}; race network from {other_name} ({})",
            self.meta.description, other.meta.description
        );
        m
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        frame(&KIND, &self.payload())
    }

    /// The model encoded, before its frame.
    fn payload(&self) -> Vec<u8> {
        bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("a model always serialises")
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        fn decode<T: serde::de::DeserializeOwned>(payload: &[u8]) -> Result<T, ModelError> {
            Ok(decode_payload(WHAT, payload)?)
        }
        let model: Model = match unframe_since(&KIND, 1, bytes).map_err(FileError::from)? {
            (1, payload) => decode::<ModelV1>(payload)?.into(),
            (2, payload) => decode::<ModelV2>(payload)?.into(),
            (_, payload) => decode(payload)?,
        };
        let model = model.upgraded();
        model.validate()?;
        Ok(model)
    }

    pub fn load(path: &Path) -> Result<Model, ModelError> {
        let bytes = read_file(WHAT, path)?;
        Model::from_bytes(&bytes).map_err(|error| ModelError::Invalid {
            path: path.to_owned(),
            error: Box::new(error),
        })
    }

    /// Writes atomically (temp file and rename).
    pub fn save(&self, path: &Path) -> Result<(), ModelError> {
        Ok(write_file(WHAT, &KIND, path, &self.payload())?)
    }
}

/// Gives `net`, whose inputs are two side blocks of `old_side`, side
/// blocks of `new_side`: the inputs appended to each block get zero weights.
fn widen_inputs(net: &mut Mlp, old_side: usize, new_side: usize) {
    let h = net.hidden;
    // A file whose weight array does not fit its own sizes is left as it
    // is, for `validate` to refuse.
    if net.w1.len() != net.inputs * h {
        return;
    }
    let mut w1 = vec![0f32; 2 * new_side * h];
    for side in 0..2 {
        let from = &net.w1[side * old_side * h..(side + 1) * old_side * h];
        w1[side * new_side * h..][..old_side * h].copy_from_slice(from);
    }
    net.w1 = w1;
    net.inputs = 2 * new_side;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Widening adds units the layer above does not hear: the reference
    /// pass gives the same bits, the fast evaluator the same values, and
    /// the new units are not all alike (training can tell them apart).
    #[test]
    fn a_widened_contact_network_evaluates_as_before() {
        let shipped = Model::load(std::path::Path::new("models/kotra.net")).unwrap();
        for model in [shipped, Model::random(16, 8, 3)] {
            let wide = model
                .clone()
                .with_wider_contact(model.contact.hidden + 64, 9);
            wide.validate().unwrap();
            assert_eq!(wide.contact.hidden, model.contact.hidden + 64);
            let new_row = &wide.contact.w1[model.contact.hidden..wide.contact.hidden];
            assert!(new_row.iter().any(|&w| w != new_row[0]));
            let (narrow_eval, wide_eval) = (
                crate::eval::Evaluator::new(model.clone()),
                crate::eval::Evaluator::new(wide.clone()),
            );
            let mut pos = crate::backgammon::Position::starting();
            let mut input = vec![0f32; crate::eval::encoding::CONTACT_INPUTS];
            for step in 0..40u8 {
                let dice = crate::backgammon::Dice::new(step % 6 + 1, (step / 6) % 6 + 1).unwrap();
                let mut list = crate::backgammon::MoveList::new();
                crate::backgammon::legal_moves(&pos, dice, &mut list);
                let next = list.as_slice()[step as usize % list.len()].position.swap();
                if !next.has_contact() {
                    break;
                }
                pos = next;
                crate::eval::encoding::encode(&pos, crate::eval::NetKind::Contact, &mut input);
                assert_eq!(model.contact.forward(&input), wide.contact.forward(&input));
                let (a, b) = (narrow_eval.probs(&pos), wide_eval.probs(&pos));
                for (x, y) in a.0.iter().zip(b.0) {
                    assert!((x - y).abs() < 2e-3, "{pos:?}: {a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn round_trip_and_every_kind_of_damage() {
        let model = Model::random(16, 8, 3);
        let bytes = model.to_bytes();
        assert_eq!(Model::from_bytes(&bytes).unwrap(), model);

        assert!(matches!(
            Model::from_bytes(b"hello world, not a net"),
            Err(ModelError::File(FileError::Frame(
                crate::framed_file::FrameError::Magic { .. }
            )))
        ));
        assert!(matches!(
            Model::from_bytes(&bytes[..bytes.len() - 10]),
            Err(ModelError::File(FileError::Frame(
                crate::framed_file::FrameError::Truncated { .. }
            )))
        ));

        let mut old = model.clone();
        old.meta.encoding_version = 0;
        assert!(matches!(
            Model::from_bytes(&old.to_bytes()),
            Err(ModelError::Encoding { found: 0 })
        ));
    }

    #[test]
    fn version_one_files_evaluate_as_before() {
        use crate::backgammon::Position;
        use crate::eval::encoding::{NetKind, encode};
        let v1_inputs = 2 * (RAW_PER_SIDE + FEATURES_PER_SIDE_V1);
        let mut v1 = Model::random(16, 8, 5);
        v1.meta.encoding_version = 1;
        v1.contact = Mlp::random(v1_inputs, 16, 6);
        v1.race = Mlp::random(2 * (RAW_PER_SIDE + RACE_FEATURES_PER_SIDE_V2), 8, 8);
        let upgraded = Model::from_bytes(&v1.to_bytes()).unwrap();
        assert_eq!(upgraded.meta.encoding_version, ENCODING_VERSION);
        assert_eq!(upgraded.contact.inputs, CONTACT_INPUTS);
        let pos = Position::starting();
        let mut x = vec![0f32; CONTACT_INPUTS];
        encode(&pos, NetKind::Contact, &mut x);
        let side = CONTACT_INPUTS / 2;
        let keep = RAW_PER_SIDE + FEATURES_PER_SIDE_V1;
        let old_x: Vec<f32> = [&x[..keep], &x[side..side + keep]].concat();
        assert_ne!(
            x[keep..side].iter().sum::<f32>(),
            0.0,
            "new features are live"
        );
        let (a, b) = (upgraded.contact.forward(&x), v1.contact.forward(&old_x));
        for k in 0..5 {
            assert!((a[k] - b[k]).abs() < 1e-6, "{a:?} {b:?}");
        }

        // A version-1 file whose contact net has some other shape is not
        // guessed at.
        let mut old = model_with_version(1);
        old.contact = Mlp::random(CONTACT_INPUTS, 16, 7);
        assert!(matches!(
            Model::from_bytes(&old.to_bytes()),
            Err(ModelError::Encoding { found: 1 })
        ));
    }

    #[test]
    fn version_two_and_three_race_networks_evaluate_as_before() {
        race_network_of_version_evaluates_as_before(2, RACE_FEATURES_PER_SIDE_V2);
        race_network_of_version_evaluates_as_before(3, RACE_FEATURES_PER_SIDE_V3);
    }

    fn race_network_of_version_evaluates_as_before(version: u32, features: usize) {
        use crate::backgammon::Position;
        use crate::eval::encoding::{NetKind, encode};
        let old_side = RAW_PER_SIDE + features;
        let mut old = Model::random(16, 8, 5);
        old.meta.encoding_version = version;
        old.race = Mlp::random(2 * old_side, 8, 6);
        let upgraded = Model::from_bytes(&old.to_bytes()).unwrap();
        assert_eq!(upgraded.meta.encoding_version, ENCODING_VERSION);
        assert_eq!(upgraded.race.inputs, RACE_INPUTS);
        assert_eq!(
            upgraded.contact, old.contact,
            "the contact network is as it was"
        );
        // A race with checkers still outside one home board, so that the
        // new inputs are live (the other side is home: the bear-off
        // features); an older version's inputs were each side's point units
        // and its first race features.
        let pos = Position::from_points(&[(9, 5), (6, 5), (3, 5)], &[(6, 3), (5, 6), (2, 6)]);
        let mut x = vec![0f32; RACE_INPUTS];
        encode(&pos, NetKind::Race, &mut x);
        let side = RACE_INPUTS / 2;
        let new_features = x[old_side..side].iter().chain(&x[side + old_side..]);
        assert_ne!(new_features.sum::<f32>(), 0.0, "new features are live");
        let old_x: Vec<f32> = [&x[..old_side], &x[side..side + old_side]].concat();
        let (a, b) = (upgraded.race.forward(&x), old.race.forward(&old_x));
        for k in 0..5 {
            assert!((a[k] - b[k]).abs() < 1e-6, "{a:?} {b:?}");
        }
    }

    #[test]
    fn older_formats_load_and_deep_and_crashed_networks_round_trip() {
        let model = Model::random(16, 8, 9);
        let old = |m: &Mlp| MlpV2 {
            inputs: m.inputs,
            hidden: m.hidden,
            w1: m.w1.clone(),
            b1: m.b1.clone(),
            w2: m.w2.clone(),
            b2: m.b2,
        };
        let v1 = ModelV1 {
            meta: model.meta.clone(),
            contact: old(&model.contact),
            race: old(&model.race),
        };
        let payload = bincode::serde::encode_to_vec(&v1, bincode::config::standard()).unwrap();
        let old_kind = FrameKind { version: 1, ..KIND };
        assert_eq!(
            Model::from_bytes(&frame(&old_kind, &payload)).unwrap(),
            model
        );

        let mut with_crashed = model.clone();
        with_crashed.crashed = Some(Mlp::random(CONTACT_INPUTS, 16, 10));
        let v2 = ModelV2 {
            meta: model.meta.clone(),
            contact: old(&model.contact),
            race: old(&model.race),
            crashed: with_crashed.crashed.as_ref().map(old),
        };
        let payload = bincode::serde::encode_to_vec(&v2, bincode::config::standard()).unwrap();
        let v2_kind = FrameKind { version: 2, ..KIND };
        assert_eq!(
            Model::from_bytes(&frame(&v2_kind, &payload)).unwrap(),
            with_crashed
        );
        let bytes = with_crashed.to_bytes();
        assert_eq!(Model::from_bytes(&bytes).unwrap(), with_crashed);

        let mut deep = with_crashed.clone();
        deep.contact = Mlp::random_deep(CONTACT_INPUTS, 16, 8, 11);
        assert_eq!(Model::from_bytes(&deep.to_bytes()).unwrap(), deep);
        deep.contact.mid.as_mut().unwrap().b.push(0.5);
        assert!(matches!(
            Model::from_bytes(&deep.to_bytes()),
            Err(ModelError::Shape { net: "contact", .. })
        ));

        with_crashed.crashed = Some(Mlp::random(RACE_INPUTS, 16, 10));
        assert!(matches!(
            Model::from_bytes(&with_crashed.to_bytes()),
            Err(ModelError::Shape { net: "crashed", .. })
        ));
    }

    fn model_with_version(version: u32) -> Model {
        let mut m = Model::random(16, 8, 8);
        m.meta.encoding_version = version;
        m
    }
}
