//! A batch file: one campaign batch's records in a checksummed frame,
//! named by the hash of its bytes, so that a batch made twice is the same
//! file and a file that was changed no longer matches its name.

use super::DatabaseError;
use super::record::{RECORD_BYTES, Record};
use crate::framed_file::{FrameKind, frame, unframe};
use sha2::{Digest, Sha256};
use std::path::Path;

const BATCH_KIND: FrameKind = FrameKind {
    name: "kotra-ai position batch",
    magic: b"KOTRAPDB",
    version: 1,
};

/// The extension of batch files.
pub const BATCH_EXTENSION: &str = "kpd";

/// Hex digits of the content hash in a batch's name.
const CONTENT_DIGITS: usize = 16;

/// The file's bytes for `records`.
pub fn encode(records: &[Record]) -> Vec<u8> {
    let mut payload = Vec::with_capacity(records.len() * RECORD_BYTES);
    for r in records {
        payload.extend_from_slice(&r.encode());
    }
    frame(&BATCH_KIND, &payload)
}

/// Lowercase hex of the SHA-256 of `bytes`.
pub fn hex_sha256(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// The name of a batch: its seed, the teacher and the settings that
/// labelled it (short hashes, spelled out in the manifest) and its
/// content.
pub fn name(seed: u64, teacher: &str, settings: &str, bytes: &[u8]) -> String {
    format!(
        "b{seed:05}-{}-{}-{}.{BATCH_EXTENSION}",
        &teacher[..8.min(teacher.len())],
        &settings[..8.min(settings.len())],
        &hex_sha256(bytes)[..CONTENT_DIGITS]
    )
}

/// The records of the batch file at `path`, after checking its frame, its
/// name against its content, and every record.
pub fn read(path: &Path) -> Result<Vec<Record>, DatabaseError> {
    let bytes = std::fs::read(path).map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => DatabaseError::MissingBatch(path.to_owned()),
        _ => DatabaseError::Read {
            path: path.to_owned(),
            error,
        },
    })?;
    let bad = |why: String| DatabaseError::Batch {
        path: path.to_owned(),
        why,
    };
    let payload = unframe(&BATCH_KIND, &bytes).map_err(|e| bad(e.to_string()))?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let content = &hex_sha256(&bytes)[..CONTENT_DIGITS];
    if !stem.ends_with(content) {
        return Err(bad(format!(
            "its content hash is {content}, not the one its name ends with"
        )));
    }
    if payload.len() % RECORD_BYTES != 0 {
        return Err(bad(format!(
            "{} bytes of records is not a whole number of {RECORD_BYTES}-byte records",
            payload.len()
        )));
    }
    payload
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, bytes)| {
            Record::decode(bytes.try_into().expect("a whole record"))
                .map_err(|why| bad(format!("record {i}: {why}")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::Position;
    use crate::eval::Probs;
    use crate::train::database::record::Origin;

    fn records() -> Vec<Record> {
        (0..10)
            .map(|i| {
                Record::new(
                    Position::starting(),
                    Origin::ALL[i % Origin::ALL.len()],
                    Probs([0.5, 0.1 * (i % 3) as f32, 0.0, 0.1, 0.01]),
                    0.01 * i as f32,
                )
            })
            .collect()
    }

    #[test]
    fn a_batch_reads_back_and_a_changed_file_is_refused() {
        let dir = std::env::temp_dir().join(format!("kotra-batch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bytes = encode(&records());
        let file = dir.join(name(7, "abcdef0123", "5555aaaa99", &bytes));
        assert!(
            file.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("b00007-abcdef01-5555aaaa-")
        );
        std::fs::write(&file, &bytes).unwrap();
        let back = read(&file).unwrap();
        assert_eq!(back.len(), 10);
        assert_eq!(back[3].origin, Origin::CubeAction);
        assert!((back[9].gap - 0.09).abs() < 1e-4);
        // The same records under another name: refused.
        let renamed = dir.join(name(8, "abcdef0123", "5555aaaa99", b"other"));
        std::fs::write(&renamed, &bytes).unwrap();
        let e = read(&renamed).unwrap_err().to_string();
        assert!(e.contains("content hash"), "{e}");
        // A flipped byte: the frame's checksum says so.
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        std::fs::write(&file, &flipped).unwrap();
        let e = read(&file).unwrap_err().to_string();
        assert!(e.contains("corrupt"), "{e}");
        // A truncated file.
        std::fs::write(&file, &bytes[..bytes.len() - 5]).unwrap();
        assert!(read(&file).is_err());
        let e = read(&dir.join("missing.kpd")).unwrap_err().to_string();
        assert!(e.contains("missing.kpd"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
