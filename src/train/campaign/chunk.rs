//! A chunk of a batch in the campaign's work folder: a few teacher games'
//! selected records and their counts, written atomically as soon as they
//! are played, so a stopped or killed campaign loses at most the chunk in
//! flight and finds the rest when it resumes.

use crate::framed_file::{FrameKind, frame, unframe};
use crate::train::database::{RECORD_BYTES, Record};
use std::path::Path;

const CHUNK_KIND: FrameKind = FrameKind {
    name: "kotra-ai campaign chunk",
    magic: b"KOTRACHK",
    version: 1,
};

/// Bytes of the counts before the records.
const COUNTS: usize = 4 * 8;

/// What a chunk's games gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chunk {
    pub games: u64,
    pub decisions: u64,
    pub disagreements: u64,
    pub seconds: f64,
    pub records: Vec<Record>,
}

impl Chunk {
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let mut payload = Vec::with_capacity(COUNTS + self.records.len() * RECORD_BYTES);
        for n in [self.games, self.decisions, self.disagreements] {
            payload.extend_from_slice(&n.to_le_bytes());
        }
        payload.extend_from_slice(&self.seconds.to_le_bytes());
        for r in &self.records {
            payload.extend_from_slice(&r.encode());
        }
        crate::atomic_file::write(path, &frame(&CHUNK_KIND, &payload))
    }

    /// The chunk at `path`; an unreadable one is an error the caller
    /// answers by playing it again.
    pub fn read(path: &Path) -> Result<Chunk, String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        let payload = unframe(&CHUNK_KIND, &bytes).map_err(|e| e.to_string())?;
        if payload.len() < COUNTS || !(payload.len() - COUNTS).is_multiple_of(RECORD_BYTES) {
            return Err(format!("{} bytes is not a chunk", payload.len()));
        }
        let word = |i: usize| {
            u64::from_le_bytes(payload[8 * i..8 * i + 8].try_into().expect("eight bytes"))
        };
        let records = payload[COUNTS..]
            .chunks_exact(RECORD_BYTES)
            .map(|b| Record::decode(b.try_into().expect("a whole record")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Chunk {
            games: word(0),
            decisions: word(1),
            disagreements: word(2),
            seconds: f64::from_bits(word(3)),
            records,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::Position;
    use crate::eval::Probs;
    use crate::train::database::Origin;

    #[test]
    fn a_chunk_reads_back_and_a_damaged_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("kotra-chunk-{}", std::process::id()));
        let path = dir.join("c.bin");
        let chunk = Chunk {
            games: 3,
            decisions: 90,
            disagreements: 7,
            seconds: 12.5,
            // As stored: the quanta make a fresh record's values inexact.
            records: vec![
                Record::decode(
                    &Record::new(
                        Position::starting(),
                        Origin::Sibling,
                        Probs([0.5, 0.125, 0.0, 0.25, 0.0]),
                        0.02,
                    )
                    .encode(),
                )
                .unwrap(),
            ],
        };
        chunk.write(&path).unwrap();
        assert_eq!(Chunk::read(&path).unwrap(), chunk);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(Chunk::read(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
