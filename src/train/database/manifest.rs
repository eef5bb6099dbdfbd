//! `manifest.json`: what the database holds, batch by batch: how many
//! positions of each kind, who labelled them and how, and what it cost.
//! Written atomically after each batch, so it never names a batch file
//! that is not there; a batch file it does not name is ignored.

use super::DatabaseError;
use super::record::Record;
use crate::eval::NetKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

pub const MANIFEST_FILE: &str = "manifest.json";
const FORMAT: &str = "kotra-ai position database 1";

/// The whole database.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub record_bytes: usize,
    pub batches: Vec<BatchEntry>,
}

/// One batch: its file and everything about how it was made.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BatchEntry {
    pub file: String,
    pub seed: u64,
    pub positions: u64,
    /// Positions by the network that learns them: contact, crashed, race.
    pub networks: BTreeMap<String, u64>,
    /// Positions by why they were kept ([`Origin::name`]).
    pub origins: BTreeMap<String, u64>,
    /// The teacher's file as given, and the SHA-256 of its bytes.
    pub teacher: String,
    pub teacher_sha256: String,
    /// How the targets were found, and how positions were chosen.
    pub labelling: String,
    pub selection: String,
    /// Teacher games played, decisions searched, and of those how many
    /// disagreed with the 0-ply choice by the threshold.
    pub games: u64,
    pub decisions: u64,
    pub disagreements: u64,
    /// Seconds of wall time the batch took, on `threads` threads.
    pub wall_seconds: f64,
    pub threads: usize,
    /// The day it was finished (UTC).
    pub created: String,
    /// Where its targets replace an older batch's (the same positions
    /// searched again by another teacher or deeper): what they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relabelled: Option<Relabelled>,
}

/// The batch a relabelled batch replaced, and what the relabelling cost.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Relabelled {
    /// The replaced batch's file, teacher and labelling.
    pub file: String,
    pub teacher_sha256: String,
    pub labelling: String,
    /// Seconds of wall time the new labels took, on the batch's `threads`
    /// threads (`wall_seconds` stays the selection's).
    pub wall_seconds: f64,
    /// The files `file` had itself replaced, oldest first: a batch
    /// relabelled twice still names every file an older recipe trained
    /// on, so `scripts/batch_history.py` can bring each one back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier: Vec<String>,
}

impl Relabelled {
    /// Every file this relabel chain replaced, oldest first.
    pub fn files(&self) -> impl Iterator<Item = &str> {
        self.earlier
            .iter()
            .map(String::as_str)
            .chain(std::iter::once(self.file.as_str()))
    }
}

/// The manifest's name for a network.
pub fn network_name(kind: NetKind) -> &'static str {
    match kind {
        NetKind::Contact => "contact",
        NetKind::Crashed => "crashed",
        NetKind::Race => "race",
    }
}

/// Counts of `records` by network and by origin, as the manifest keeps them.
pub fn counts(records: &[Record]) -> (BTreeMap<String, u64>, BTreeMap<String, u64>) {
    let mut networks = BTreeMap::new();
    let mut origins = BTreeMap::new();
    for r in records {
        *networks
            .entry(network_name(r.kind).to_string())
            .or_insert(0) += 1;
        *origins.entry(r.origin.name().to_string()).or_insert(0) += 1;
    }
    (networks, origins)
}

impl Manifest {
    /// The manifest in `dir`, or an empty one where the folder has none.
    pub fn load(dir: &Path) -> Result<Manifest, DatabaseError> {
        let path = dir.join(MANIFEST_FILE);
        let bad = |why: String| DatabaseError::Manifest {
            path: path.clone(),
            why,
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Manifest::empty());
            }
            Err(e) => return Err(bad(e.to_string())),
        };
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        if manifest.format != FORMAT {
            return Err(bad(format!(
                "format {:?}, this build reads {FORMAT:?}",
                manifest.format
            )));
        }
        Ok(manifest)
    }

    pub fn empty() -> Manifest {
        Manifest {
            format: FORMAT.to_string(),
            record_bytes: super::record::RECORD_BYTES,
            batches: Vec::new(),
        }
    }

    /// Writes the manifest into `dir`, atomically.
    pub fn save(&self, dir: &Path) -> Result<(), DatabaseError> {
        let path = dir.join(MANIFEST_FILE);
        let mut text = serde_json::to_string_pretty(self).expect("a manifest serialises");
        text.push('\n');
        crate::atomic_file::write(&path, text.as_bytes())
            .map_err(|error| DatabaseError::Write { path, error })
    }

    /// Adds `entry`, replacing one of the same file (a batch made again).
    pub fn add(&mut self, entry: BatchEntry) {
        self.batches.retain(|b| b.file != entry.file);
        self.batches.push(entry);
        self.batches
            .sort_by(|a, b| a.seed.cmp(&b.seed).then(a.file.cmp(&b.file)));
    }

    pub fn has_seed(&self, seed: u64) -> bool {
        self.batches.iter().any(|b| b.seed == seed)
    }

    pub fn positions(&self) -> u64 {
        self.batches.iter().map(|b| b.positions).sum()
    }

    /// Sums of every count over the batches: by network, by origin.
    pub fn totals(&self) -> (BTreeMap<String, u64>, BTreeMap<String, u64>) {
        let mut networks = BTreeMap::new();
        let mut origins = BTreeMap::new();
        for b in &self.batches {
            for (k, v) in &b.networks {
                *networks.entry(k.clone()).or_insert(0) += v;
            }
            for (k, v) in &b.origins {
                *origins.entry(k.clone()).or_insert(0) += v;
            }
        }
        (networks, origins)
    }

    /// Batches and positions by the depth of the search that labelled
    /// them (the leading `N-ply` of `labelling`; 0 where it names none),
    /// and how many of each depth were relabelled: what a campaign
    /// reader checks before listing the deep batches at a weight of
    /// their own.
    pub fn label_depths(&self) -> BTreeMap<u8, LabelDepth> {
        let mut depths: BTreeMap<u8, LabelDepth> = BTreeMap::new();
        for b in &self.batches {
            let d = depths.entry(label_ply(&b.labelling)).or_default();
            d.batches += 1;
            d.positions += b.positions;
            d.relabelled += u64::from(b.relabelled.is_some());
        }
        depths
    }
}

/// [`Manifest::label_depths`]' counts for one depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabelDepth {
    pub batches: u64,
    pub positions: u64,
    pub relabelled: u64,
}

/// The search depth a batch's `labelling` starts with ("3-ply cubeless
/// …"), or 0 where it starts otherwise.
fn label_ply(labelling: &str) -> u8 {
    labelling
        .split_once("-ply")
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or(0)
}

/// The UTC day of `unix_seconds` as YYYY-MM-DD (civil from days, the
/// proleptic Gregorian calendar).
pub fn utc_day(unix_seconds: u64) -> String {
    let days = (unix_seconds / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Today's UTC day.
pub fn today() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_day(now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_civil_dates() {
        assert_eq!(utc_day(0), "1970-01-01");
        assert_eq!(utc_day(951_782_400), "2000-02-29");
        assert_eq!(utc_day(1_795_910_400), "2026-11-29");
        assert_eq!(utc_day(1_795_910_399), "2026-11-28");
    }

    #[test]
    fn a_manifest_saves_loads_and_replaces_a_batch_made_again() {
        let dir = std::env::temp_dir().join(format!("kotra-manifest-{}", std::process::id()));
        assert_eq!(Manifest::load(&dir).unwrap(), Manifest::empty());
        let mut m = Manifest::empty();
        for (seed, file, positions) in [(2, "b2", 5), (1, "b1", 7), (2, "b2", 6)] {
            m.add(BatchEntry {
                file: file.into(),
                seed,
                positions,
                networks: [("contact".to_string(), positions)].into(),
                ..Default::default()
            });
        }
        assert_eq!(m.batches.len(), 2);
        assert_eq!(m.positions(), 13);
        assert!(m.has_seed(1) && !m.has_seed(3));
        assert_eq!(m.totals().0["contact"], 13);
        assert_eq!(m.label_depths().keys().collect::<Vec<_>>(), [&0]);
        m.save(&dir).unwrap();
        assert_eq!(Manifest::load(&dir).unwrap(), m);
        std::fs::write(dir.join(MANIFEST_FILE), "{\"format\": \"other\"}").unwrap();
        let e = Manifest::load(&dir).unwrap_err().to_string();
        assert!(e.contains("manifest.json"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn label_depths_count_batches_by_the_ply_their_labelling_names() {
        let batch = |labelling: &str, positions, relabelled: bool| BatchEntry {
            labelling: labelling.into(),
            positions,
            relabelled: relabelled.then(Relabelled::default),
            ..Default::default()
        };
        let m = Manifest {
            batches: vec![
                batch("2-ply cubeless money search", 10, false),
                batch("3-ply cubeless money search", 20, true),
                batch("3-ply cubeless money search", 30, false),
                batch("rolled out", 5, false),
                batch("12-ply", 1, false),
            ],
            ..Manifest::empty()
        };
        let d = m.label_depths();
        assert_eq!(d.keys().copied().collect::<Vec<_>>(), [0, 2, 3, 12]);
        let three = LabelDepth {
            batches: 2,
            positions: 50,
            relabelled: 1,
        };
        assert_eq!(d[&3], three);
        assert_eq!((d[&2].batches, d[&2].relabelled), (1, 0));
        assert_eq!(d[&0].positions, 5);
    }
}
