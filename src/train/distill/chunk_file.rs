//! The chunk files of a distillation: a teacher's positions with their
//! targets, a run's rollout and sibling caches, and the rollouts an earlier
//! run banked, all in one framed record format.

use crate::backgammon::Position;
use crate::eval::{NetKind, Probs};
use crate::framed_file::{FrameKind, frame, unframe};
use crate::train::TrainError;
use crate::train::selfplay::Sample;
use std::path::Path;

const CHUNK_KIND: FrameKind = FrameKind {
    name: "kotra-ai training positions",
    magic: b"KOTRAPOS",
    version: 1,
};
/// Bytes per sample: both sides' checkers on points 0..=24, the network,
/// the five target probabilities.
const RECORD: usize = 25 + 25 + 1 + 4 * 5;

/// The chunks of rollout targets in `dir` (`banked_rollouts`), in the
/// order of their file names; a folder without any is refused, since a
/// mistyped path would otherwise train without them unnoticed.
pub(super) fn banked_chunks(dir: &Path) -> Result<Vec<Vec<Sample>>, TrainError> {
    let bad = |why: String| TrainError::BankedRollouts {
        path: dir.to_owned(),
        why,
    };
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| bad(e.to_string()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "bin"))
        .collect();
    if files.is_empty() {
        return Err(bad("no chunk files (*.bin) in it".into()));
    }
    files.sort();
    files.iter().map(|path| read_chunk(path)).collect()
}

pub(super) fn create_dir(dir: &Path) -> Result<(), TrainError> {
    std::fs::create_dir_all(dir).map_err(|error| TrainError::Write {
        path: dir.to_owned(),
        error,
    })
}

fn kind_code(kind: NetKind) -> u8 {
    match kind {
        NetKind::Contact => 0,
        NetKind::Race => 1,
        NetKind::Crashed => 2,
    }
}

pub(super) fn write_chunk(path: &Path, samples: &[Sample]) -> Result<(), TrainError> {
    let mut payload = Vec::with_capacity(samples.len() * RECORD);
    for s in samples {
        let (mover, opponent) = s.position.to_sides();
        payload.extend_from_slice(&mover);
        payload.extend_from_slice(&opponent);
        payload.push(kind_code(s.kind));
        for v in s.target.0 {
            payload.extend_from_slice(&v.to_le_bytes());
        }
    }
    crate::atomic_file::write(path, &frame(&CHUNK_KIND, &payload)).map_err(|error| {
        TrainError::Write {
            path: path.to_owned(),
            error,
        }
    })
}

pub(super) fn read_chunk(path: &Path) -> Result<Vec<Sample>, TrainError> {
    let bytes = std::fs::read(path).map_err(|e| TrainError::Positions {
        path: path.to_owned(),
        why: e.to_string(),
    })?;
    decode_chunk(path, &bytes)
}

/// The samples of a chunk file's `bytes` (read from `path`, which errors name).
pub(super) fn decode_chunk(path: &Path, bytes: &[u8]) -> Result<Vec<Sample>, TrainError> {
    let bad = |why: String| TrainError::Positions {
        path: path.to_owned(),
        why,
    };
    let payload = unframe(&CHUNK_KIND, bytes).map_err(|e| bad(e.to_string()))?;
    if !payload.len().is_multiple_of(RECORD) {
        return Err(bad("not a whole number of records".into()));
    }
    payload
        .chunks_exact(RECORD)
        .map(|r| {
            let side = |b: &[u8]| -> [u8; 25] { b.try_into().expect("25 bytes") };
            let position = Position::from_sides(&side(&r[..25]), &side(&r[25..50]))
                .map_err(|e| bad(e.to_string()))?;
            let kind = match r[50] {
                0 => NetKind::Contact,
                1 => NetKind::Race,
                2 => NetKind::Crashed,
                k => return Err(bad(format!("unknown network {k}"))),
            };
            let mut target = [0f32; 5];
            for (v, b) in target.iter_mut().zip(r[51..].chunks_exact(4)) {
                *v = f32::from_le_bytes(b.try_into().expect("4 bytes"));
            }
            Ok(Sample {
                position,
                kind,
                target: Probs(target),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Evaluator, Model};
    use crate::train::selfplay::{MovePolicy, TargetSearch, play_games};

    #[test]
    fn chunks_round_trip_and_damage_is_refused() {
        let eval = Evaluator::new(Model::random(16, 8, 3));
        let samples = play_games(
            &eval,
            2,
            9,
            0.7,
            MovePolicy::greedy(),
            TargetSearch::plain(1),
        );
        assert!(samples.len() > 10);
        let dir = std::env::temp_dir().join(format!("kotra-distill-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("00000.bin");
        write_chunk(&path, &samples).unwrap();
        let back = read_chunk(&path).unwrap();
        assert_eq!(back.len(), samples.len());
        for (a, b) in back.iter().zip(&samples) {
            assert_eq!(
                (a.position, a.kind, a.target),
                (b.position, b.kind, b.target)
            );
        }
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        let err = read_chunk(&path).unwrap_err().to_string();
        assert!(err.contains("truncated"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
