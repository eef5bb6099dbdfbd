//! The training campaign: teacher games in the background, session after
//! session, whose selected positions ([`selection`]) go into the
//! repository's position database (`training/data/`, [`crate::train::database`]).
//!
//! A batch is `games_per_batch` games from one seed, played in chunks of
//! `games_per_chunk` written to a work folder outside the repository; a
//! batch whose chunks are all there becomes one content-named batch file
//! in the database and a line of its manifest, and its chunks go. Each
//! chunk is a function of the teacher, the settings, the seed and its
//! number alone (games seeded from those, the searches' sums in a fixed
//! order), so a lost work folder costs only time and a resumed campaign
//! finds what it left. The campaign stops between chunks when its time is
//! up, when a `STOP` file appears in the work folder, or when the
//! database has grown by its quota; it commits nothing itself.

pub mod chunk;
pub mod relabel;
pub mod selection;

use crate::eval::{Evaluator, Model};
use crate::seed::splitmix;
use crate::train::database::{BatchEntry, DatabaseError, Manifest, batch, manifest};
use chunk::Chunk;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rayon::prelude::*;
use selection::{GameYield, Rollouts, Selection, Selector};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The file whose presence in the work folder asks a campaign to stop.
pub const STOP_FILE: &str = "STOP";

/// What a campaign run does.
#[derive(Clone, Debug)]
pub struct CampaignOptions {
    pub teacher: PathBuf,
    /// The database folder (its manifest and batch files).
    pub data_dir: PathBuf,
    /// Where unfinished batches' chunks live.
    pub work_dir: PathBuf,
    pub selection: Selection,
    pub games_per_batch: u64,
    pub games_per_chunk: u64,
    /// Batches take the lowest seed from here on that the manifest does
    /// not hold yet.
    pub first_seed: u64,
    /// Stop once this much time has passed (checked between chunks).
    pub minutes: Option<f64>,
    /// Stop once the batches this run wrote reach this many bytes.
    pub max_new_bytes: u64,
    /// Never let the database's batches grow past this many bytes.
    pub max_total_bytes: u64,
    /// A line on stderr per chunk.
    pub verbose: bool,
}

/// Why a campaign run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    TimeUp,
    Asked,
    SessionQuota,
    /// Its line ("...reached its limit of bytes") is how
    /// scripts/campaign_background.sh knows to relabel instead.
    DatabaseFull,
    /// A relabelling run found every batch it was given relabelled.
    Finished,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stopped::TimeUp => "its time was up",
            Stopped::Asked => "a STOP file asked it to",
            Stopped::SessionQuota => "this run's batches reached their quota of bytes",
            Stopped::DatabaseFull => "the database reached its limit of bytes",
            Stopped::Finished => "every batch it was given is relabelled",
        })
    }
}

/// What a campaign run did.
#[derive(Clone, Debug)]
pub struct CampaignReport {
    pub batches: Vec<BatchEntry>,
    pub chunks_played: u64,
    pub stopped: Stopped,
}

#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    #[error(transparent)]
    Database(#[from] DatabaseError),
    #[error("teacher {path}: {why}")]
    Teacher { path: PathBuf, why: String },
    #[error("cannot write {path}: {error}")]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{0}")]
    Settings(String),
}

/// Runs the campaign until it is told to stop (see the module comment).
pub fn run(opts: &CampaignOptions) -> Result<CampaignReport, CampaignError> {
    check(opts)?;
    let started = Instant::now();
    let (teacher_sha, eval) = load_teacher(&opts.teacher)?;
    let selector = Selector::new(&eval, opts.selection);
    let (settings_sha, work) = work_folder(&opts.work_dir, &teacher_sha, &settings_text(opts));
    let mut report = CampaignReport {
        batches: Vec::new(),
        chunks_played: 0,
        stopped: Stopped::TimeUp,
    };
    let mut new_bytes = 0u64;
    loop {
        if let Some(why) = stop_asked(opts, started) {
            report.stopped = why;
            return Ok(report);
        }
        let manifest = Manifest::load(&opts.data_dir)?;
        if database_bytes(&opts.data_dir, &manifest) >= opts.max_total_bytes {
            report.stopped = Stopped::DatabaseFull;
            return Ok(report);
        }
        if new_bytes >= opts.max_new_bytes {
            report.stopped = Stopped::SessionQuota;
            return Ok(report);
        }
        let seed = (opts.first_seed..)
            .find(|&s| !manifest.has_seed(s))
            .expect("a free seed");
        let seed_dir = work.join(format!("seed-{seed:05}"));
        let chunks = opts.games_per_batch.div_ceil(opts.games_per_chunk);
        for c in 0..chunks {
            let path = chunk_path(&seed_dir, c);
            if Chunk::read(&path).is_ok() {
                continue;
            }
            if let Some(why) = stop_asked(opts, started) {
                report.stopped = why;
                return Ok(report);
            }
            let t = Instant::now();
            let chunk = play_chunk(&selector, opts, seed, c);
            chunk
                .write(&path)
                .map_err(|error| CampaignError::Write { path, error })?;
            report.chunks_played += 1;
            if opts.verbose {
                eprintln!(
                    "campaign: seed {seed} chunk {}/{chunks}: {} positions from {} of {} decisions, {:.1} s",
                    c + 1,
                    chunk.records.len(),
                    chunk.disagreements,
                    chunk.decisions,
                    t.elapsed().as_secs_f64()
                );
            }
        }
        let entry = finish_batch(opts, seed, &seed_dir, chunks, &teacher_sha, &settings_sha)?;
        new_bytes += entry.positions * crate::train::database::RECORD_BYTES as u64;
        if opts.verbose {
            eprintln!(
                "campaign: batch {} written: {} positions from {} games",
                entry.file, entry.positions, entry.games
            );
        }
        report.batches.push(entry);
        let _ = std::fs::remove_dir_all(&seed_dir);
    }
}

/// The SHA-256 of the teacher's file, and the teacher.
fn load_teacher(path: &Path) -> Result<(String, Evaluator), CampaignError> {
    let teacher_error = |why: String| CampaignError::Teacher {
        path: path.to_owned(),
        why,
    };
    let bytes = std::fs::read(path).map_err(|e| teacher_error(e.to_string()))?;
    let model = Model::load(path).map_err(|e| teacher_error(e.to_string()))?;
    Ok((batch::hex_sha256(&bytes), Evaluator::new(model)))
}

/// The SHA-256 of `settings`, and the folder in `work_dir` for the chunks
/// of this teacher and these settings (stale temporaries of a killed run
/// cleared).
fn work_folder(work_dir: &Path, teacher_sha: &str, settings: &str) -> (String, PathBuf) {
    let settings_sha = batch::hex_sha256(settings.as_bytes());
    let work = work_dir.join(format!("{}-{}", &teacher_sha[..8], &settings_sha[..8]));
    crate::atomic_file::remove_stale_temporaries(work_dir);
    (settings_sha, work)
}

/// Where chunk `c` of a batch lives in its seed's work folder.
fn chunk_path(seed_dir: &Path, c: u64) -> PathBuf {
    seed_dir.join(format!("chunk-{c:05}.bin"))
}

fn check(opts: &CampaignOptions) -> Result<(), CampaignError> {
    let bad = |why: &str| Err(CampaignError::Settings(why.to_string()));
    let s = &opts.selection;
    if opts.games_per_batch == 0 || opts.games_per_chunk == 0 {
        return bad("games per batch and per chunk must be at least 1");
    }
    if !(s.threshold.is_finite() && s.threshold >= 0.0) {
        return bad("the threshold must be a number 0 or more");
    }
    if !(s.noise.is_finite() && s.noise >= 0.0) {
        return bad("the move noise must be a number 0 or more");
    }
    if !(2..=3).contains(&s.label_ply) {
        return bad("targets are searched at 2 or 3-ply");
    }
    let [lo, hi] = s.cube_window;
    if !(0.0..=1.0).contains(&lo) || !(0.0..=1.0).contains(&hi) || lo > hi {
        return bad("the cube window is two win chances from 0 to 1, the lower first");
    }
    if opts.minutes.is_some_and(|m| !(m.is_finite() && m >= 0.0)) {
        return bad("minutes must be a number 0 or more");
    }
    Ok(())
}

/// Everything besides the teacher that a chunk's records depend on.
fn settings_text(opts: &CampaignOptions) -> String {
    format!(
        "selection {:?}, games per batch {}, games per chunk {}",
        opts.selection, opts.games_per_batch, opts.games_per_chunk
    )
}

fn stop_asked(opts: &CampaignOptions, started: Instant) -> Option<Stopped> {
    stop_asked_in(&opts.work_dir, opts.minutes, started)
}

/// Whether a run working in `work_dir` for at most `minutes` should stop
/// now: a `STOP` file there, or its time up.
fn stop_asked_in(work_dir: &Path, minutes: Option<f64>, started: Instant) -> Option<Stopped> {
    if work_dir.join(STOP_FILE).exists() {
        return Some(Stopped::Asked);
    }
    let time_up = minutes.is_some_and(|m| started.elapsed().as_secs_f64() >= m * 60.0);
    time_up.then_some(Stopped::TimeUp)
}

/// Bytes of the batch files the manifest names.
fn database_bytes(dir: &Path, manifest: &Manifest) -> u64 {
    manifest
        .batches
        .iter()
        .filter_map(|b| std::fs::metadata(dir.join(&b.file)).ok())
        .map(|m| m.len())
        .sum()
}

/// Chunk `c` of the batch of `seed`: its games in parallel, each seeded
/// from the seed and its number in the batch, gathered in order.
fn play_chunk(selector: &Selector, opts: &CampaignOptions, seed: u64, c: u64) -> Chunk {
    let started = Instant::now();
    let first = c * opts.games_per_chunk;
    let last = (first + opts.games_per_chunk).min(opts.games_per_batch);
    let games: Vec<GameYield> = (first..last)
        .into_par_iter()
        .map(|g| {
            let mut rng = SmallRng::seed_from_u64(splitmix(splitmix(seed) ^ splitmix(g)));
            selector.play_game(&mut rng, Rollouts::of_game(&opts.selection, g))
        })
        .collect();
    let mut chunk = Chunk {
        games: last - first,
        ..Chunk::default()
    };
    for g in games {
        chunk.decisions += g.decisions;
        chunk.disagreements += g.disagreements;
        chunk.records.extend(g.records);
    }
    chunk.seconds = started.elapsed().as_secs_f64();
    chunk
}

/// The batch of `seed` from its chunks: each position once (the first
/// time it was selected), written content-named into the database, then
/// entered in the manifest.
fn finish_batch(
    opts: &CampaignOptions,
    seed: u64,
    seed_dir: &Path,
    chunks: u64,
    teacher_sha: &str,
    settings_sha: &str,
) -> Result<BatchEntry, CampaignError> {
    let mut records = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut entry = BatchEntry {
        seed,
        teacher: opts.teacher.display().to_string(),
        teacher_sha256: teacher_sha.to_string(),
        labelling: opts.selection.labelling(),
        selection: opts.selection.selection(),
        threads: rayon::current_num_threads(),
        created: manifest::today(),
        ..BatchEntry::default()
    };
    for c in 0..chunks {
        let path = chunk_path(seed_dir, c);
        let chunk = Chunk::read(&path).map_err(|why| {
            CampaignError::Settings(format!(
                "{}: {why} (delete it to play it again)",
                path.display()
            ))
        })?;
        entry.games += chunk.games;
        entry.decisions += chunk.decisions;
        entry.disagreements += chunk.disagreements;
        entry.wall_seconds += chunk.seconds;
        records.extend(
            chunk
                .records
                .into_iter()
                .filter(|r| seen.insert(r.position)),
        );
    }
    let bytes = batch::encode(&records);
    entry.file = batch::name(seed, teacher_sha, settings_sha, &bytes);
    entry.positions = records.len() as u64;
    (entry.networks, entry.origins) = manifest::counts(&records);
    let path = opts.data_dir.join(&entry.file);
    crate::atomic_file::write(&path, &bytes)
        .map_err(|error| CampaignError::Write { path, error })?;
    // Read again just before the write: another process may have added a
    // batch meanwhile.
    let mut manifest = Manifest::load(&opts.data_dir)?;
    manifest.add(entry.clone());
    manifest.save(&opts.data_dir)?;
    Ok(entry)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::train::database::Origin;

    pub(in crate::train::campaign) fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("kotra-campaign-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// A small random teacher (its searches take milliseconds) saved in `dir`.
    pub(in crate::train::campaign) fn options(dir: &Path) -> CampaignOptions {
        let teacher = dir.join("teacher.net");
        std::fs::create_dir_all(dir).unwrap();
        Model::random(16, 8, 21).save(&teacher).unwrap();
        CampaignOptions {
            teacher,
            data_dir: dir.join("data"),
            work_dir: dir.join("work"),
            selection: Selection {
                // Every disagreement, so that a few games keep something;
                // the selection's own labels, the cheapest.
                threshold: 0.0,
                label_ply: 2,
                // A random teacher's games wander for hundreds of turns;
                // thirty show every kind of record.
                max_turns: 30,
                ..Selection::default()
            },
            games_per_batch: 3,
            games_per_chunk: 2,
            first_seed: 1,
            minutes: None,
            max_new_bytes: 1,
            max_total_bytes: u64::MAX,
            verbose: false,
        }
    }

    #[test]
    fn a_batch_is_written_named_by_content_and_entered_in_the_manifest() {
        let dir = temp("batch");
        let opts = options(&dir);
        let report = run(&opts).unwrap();
        assert_eq!(report.stopped, Stopped::SessionQuota);
        assert_eq!((report.batches.len(), report.chunks_played), (1, 2));
        let manifest = Manifest::load(&opts.data_dir).unwrap();
        // (Not whole entries: JSON may not give a float back to its last bit.)
        assert_eq!(manifest.batches.len(), 1);
        assert_eq!(manifest.batches[0].file, report.batches[0].file);
        let entry = &manifest.batches[0];
        assert_eq!((entry.seed, entry.games), (1, 3));
        assert!(entry.decisions > 0 && entry.disagreements > 0);
        let records = batch::read(&opts.data_dir.join(&entry.file)).unwrap();
        assert_eq!(records.len() as u64, entry.positions);
        assert_eq!(
            manifest::counts(&records),
            (entry.networks.clone(), entry.origins.clone())
        );
        // Each kept checker decision gives its two choices.
        let count = |o: Origin| records.iter().filter(|r| r.origin == o).count();
        assert!(count(Origin::SearchChoice) > 0);
        assert!(records.iter().all(|r| r.gap >= 0.0));
        // The chunks went with the batch; a second run takes the next seed.
        assert!(
            !opts
                .work_dir
                .read_dir()
                .unwrap()
                .flatten()
                .any(|e| { e.path().read_dir().is_ok_and(|mut d| d.next().is_some()) })
        );
        let again = run(&opts).unwrap();
        assert_eq!(again.batches[0].seed, 2);
        assert_eq!(Manifest::load(&opts.data_dir).unwrap().batches.len(), 2);
        // The same seed and settings elsewhere: the same file, byte for byte.
        let other = CampaignOptions {
            data_dir: dir.join("data2"),
            work_dir: dir.join("work2"),
            ..opts.clone()
        };
        let repeat = run(&other).unwrap();
        assert_eq!(repeat.batches[0].file, entry.file);
        assert_eq!(
            std::fs::read(other.data_dir.join(&entry.file)).unwrap(),
            std::fs::read(opts.data_dir.join(&entry.file)).unwrap()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_campaign_stops_when_asked_and_resumes_from_its_chunks() {
        let dir = temp("resume");
        let mut opts = options(&dir);
        opts.minutes = Some(0.0);
        let report = run(&opts).unwrap();
        assert_eq!((report.stopped, report.chunks_played), (Stopped::TimeUp, 0));
        opts.minutes = None;
        std::fs::create_dir_all(&opts.work_dir).unwrap();
        std::fs::write(opts.work_dir.join(STOP_FILE), "").unwrap();
        let report = run(&opts).unwrap();
        assert_eq!((report.stopped, report.chunks_played), (Stopped::Asked, 0));
        std::fs::remove_file(opts.work_dir.join(STOP_FILE)).unwrap();
        // A chunk left by a stopped run is used, not played again.
        let full = run(&CampaignOptions {
            data_dir: dir.join("full"),
            work_dir: dir.join("full-work"),
            ..opts.clone()
        })
        .unwrap();
        let eval = Evaluator::new(Model::load(&opts.teacher).unwrap());
        let selector = Selector::new(&eval, opts.selection);
        let teacher_sha = batch::hex_sha256(&std::fs::read(&opts.teacher).unwrap());
        let settings_sha = batch::hex_sha256(settings_text(&opts).as_bytes());
        let seed_dir = opts
            .work_dir
            .join(format!("{}-{}", &teacher_sha[..8], &settings_sha[..8]))
            .join("seed-00001");
        play_chunk(&selector, &opts, 1, 0)
            .write(&chunk_path(&seed_dir, 0))
            .unwrap();
        let resumed = run(&opts).unwrap();
        assert_eq!(resumed.chunks_played, 1);
        assert_eq!(resumed.batches[0].file, full.batches[0].file);
        // The database's limit stops a run before it plays.
        opts.max_total_bytes = 1;
        assert_eq!(run(&opts).unwrap().stopped, Stopped::DatabaseFull);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_settings_and_a_missing_teacher_are_refused() {
        let dir = temp("bad");
        let opts = options(&dir);
        let mut bad = opts.clone();
        bad.games_per_chunk = 0;
        assert!(run(&bad).unwrap_err().to_string().contains("at least 1"));
        let mut bad = opts.clone();
        bad.selection.cube_window = [0.9, 0.5];
        assert!(run(&bad).unwrap_err().to_string().contains("cube window"));
        let mut bad = opts.clone();
        bad.selection.threshold = f32::NAN;
        assert!(run(&bad).is_err());
        let mut bad = opts.clone();
        bad.selection.label_ply = 4;
        assert!(run(&bad).unwrap_err().to_string().contains("2 or 3-ply"));
        let mut bad = opts.clone();
        bad.teacher = dir.join("missing.net");
        let e = run(&bad).unwrap_err().to_string();
        assert!(e.contains("missing.net"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
