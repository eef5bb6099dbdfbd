//! Relabelling: a stored batch's positions searched again, by a newer
//! teacher or deeper, their targets replacing the old ones.
//!
//! New positions cost the selection's 2-ply search of every decision of
//! a teacher game besides their labels; a stored position costs only its
//! label. So once the database's early batches carry labels shallower or
//! older than the teacher's (2-ply labels of networks since surpassed),
//! relabelling them buys deeper targets at a fraction of new positions'
//! price, and keeps the database within its size.
//!
//! A batch is relabelled in chunks of `records_per_chunk` records, each a
//! function of the source batch, the teacher and the settings alone,
//! written to the work folder as soon as it is labelled: a stopped run
//! resumes where it stopped. The finished batch keeps its seed, its
//! positions in their order, their origins and the selection's counts;
//! rolled-out targets are kept as they are (a rollout already looks
//! further than any search), and a searched position of a timing battle
//! is rolled out instead, its origin becoming `timing_rollout`: the
//! search cannot see who cracks first, and the database held far more
//! searched timing battles than rolled-out ones. It is written
//! content-named, then the manifest's entry is replaced, naming what it
//! replaced. The old file stays in the folder, which the manifest no
//! longer names, so a folder trains on the new labels while a recipe that
//! names the old file (each shipped network's does) still reproduces its
//! network. Deleting it is left to whoever keeps the folder: this
//! repository's `scripts/batch_history.py` removes it only once git holds
//! it, and restores it for a recipe.

use super::chunk::Chunk;
use super::selection::{Selection, Selector, TIMING_BATTLE};
use super::{CampaignError, Stopped, load_teacher, stop_asked_in, work_folder};
use crate::eval::game_plan::is_timing_battle;
use crate::seed::splitmix;
use crate::train::database::{BatchEntry, Manifest, Origin, Record, Relabelled, batch, manifest};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What a relabelling run does.
#[derive(Clone, Debug)]
pub struct RelabelOptions {
    pub teacher: PathBuf,
    /// The database folder (its manifest and batch files).
    pub data_dir: PathBuf,
    /// Where unfinished batches' chunks live.
    pub work_dir: PathBuf,
    /// The seeds of the batches to relabel, in this order.
    pub seeds: Vec<u64>,
    /// How targets are searched: its `label_ply` and `prune` (the rest of
    /// a [`Selection`] chooses positions, which relabelling keeps).
    pub selection: Selection,
    pub records_per_chunk: usize,
    /// Whether a searched position of a timing battle
    /// ([`is_timing_battle`]) gets a rollout's target instead (origin
    /// `timing_rollout`), as the selection's timing stratum does.
    pub roll_out_timing: bool,
    /// Stop once this much time has passed (checked between chunks).
    pub minutes: Option<f64>,
    /// A line on stderr per chunk.
    pub verbose: bool,
}

/// What a relabelling run did.
#[derive(Clone, Debug)]
pub struct RelabelReport {
    /// The new entries, in the order written.
    pub batches: Vec<BatchEntry>,
    pub chunks_labelled: u64,
    pub stopped: Stopped,
}

/// Relabels the batches of `opts.seeds` that the teacher has not labelled
/// with these settings yet (see the module comment).
pub fn run(opts: &RelabelOptions) -> Result<RelabelReport, CampaignError> {
    if opts.records_per_chunk == 0 {
        return Err(CampaignError::Settings(
            "records per chunk must be at least 1".into(),
        ));
    }
    if !(2..=3).contains(&opts.selection.label_ply) {
        return Err(CampaignError::Settings(
            "targets are searched at 2 or 3-ply".into(),
        ));
    }
    let started = Instant::now();
    let (teacher_sha, eval) = load_teacher(&opts.teacher)?;
    let selector = Selector::new(&eval, opts.selection);
    let labelling = labelling(opts);
    let (settings_sha, work) = work_folder(&opts.work_dir, &teacher_sha, &settings_text(opts));
    let mut report = RelabelReport {
        batches: Vec::new(),
        chunks_labelled: 0,
        stopped: Stopped::Finished,
    };
    for &seed in &opts.seeds {
        let manifest = Manifest::load(&opts.data_dir)?;
        let old = manifest
            .batches
            .iter()
            .find(|b| b.seed == seed)
            .cloned()
            .ok_or_else(|| {
                CampaignError::Settings(format!("the database has no batch of seed {seed}"))
            })?;
        if old.teacher_sha256 == teacher_sha && old.labelling == labelling {
            continue;
        }
        let records = batch::read(&opts.data_dir.join(&old.file))?;
        let stem = old
            .file
            .trim_end_matches(&format!(".{}", batch::BATCH_EXTENSION));
        let batch_dir = work.join(format!("relabel-{stem}"));
        let chunks = records.len().div_ceil(opts.records_per_chunk);
        for c in 0..chunks {
            let path = chunk_path(&batch_dir, c);
            if Chunk::read(&path).is_ok() {
                continue;
            }
            if let Some(why) = stop_asked_in(&opts.work_dir, opts.minutes, started) {
                report.stopped = why;
                return Ok(report);
            }
            let first = c * opts.records_per_chunk;
            let last = (first + opts.records_per_chunk).min(records.len());
            let chunk = relabel_chunk(&selector, opts, seed, first, &records[first..last]);
            chunk
                .write(&path)
                .map_err(|error| CampaignError::Write { path, error })?;
            report.chunks_labelled += 1;
            if opts.verbose {
                eprintln!(
                    "relabel: seed {seed} chunk {}/{chunks}: {} positions, {:.1} s",
                    c + 1,
                    chunk.records.len(),
                    chunk.seconds
                );
            }
        }
        let entry = finish(opts, &old, &batch_dir, chunks, &teacher_sha, &settings_sha)?;
        if opts.verbose {
            eprintln!(
                "relabel: batch {} written in place of {}: {} positions",
                entry.file, old.file, entry.positions
            );
        }
        report.batches.push(entry);
        let _ = std::fs::remove_dir_all(&batch_dir);
    }
    Ok(report)
}

/// How a relabel finds targets, in words (the manifest's `labelling`).
fn labelling(opts: &RelabelOptions) -> String {
    let searched = opts.selection.labelling();
    if !opts.roll_out_timing {
        return searched;
    }
    format!(
        "{searched}; timing battles ({TIMING_BATTLE}): rolled out ({})",
        opts.selection.rollout_words()
    )
}

/// Everything besides the teacher that a chunk's records depend on.
fn settings_text(opts: &RelabelOptions) -> String {
    format!(
        "relabel: {}, records per chunk {}",
        labelling(opts),
        opts.records_per_chunk
    )
}

fn chunk_path(batch_dir: &Path, c: usize) -> PathBuf {
    batch_dir.join(format!("chunk-{c:05}.bin"))
}

/// `records` (from record `first` of batch `batch_seed`) with new
/// targets, in parallel, gathered in order; rollouts keep theirs. A
/// timing battle's rollout draws its dice from the batch's seed and the
/// record's place in it, so a chunk stays a function of its inputs.
fn relabel_chunk(
    selector: &Selector,
    opts: &RelabelOptions,
    batch_seed: u64,
    first: usize,
    records: &[Record],
) -> Chunk {
    let started = Instant::now();
    let records = records
        .par_iter()
        .enumerate()
        .map(|(k, r)| {
            if r.origin.is_rollout() {
                *r
            } else if opts.roll_out_timing && is_timing_battle(&r.position) {
                let seed = splitmix(batch_seed ^ splitmix((first + k) as u64));
                Record {
                    target: selector.rolled_out_label(&r.position, seed),
                    origin: Origin::TimingRollout,
                    ..*r
                }
            } else {
                Record {
                    target: selector.searched_label(&r.position),
                    ..*r
                }
            }
        })
        .collect();
    Chunk {
        records,
        seconds: started.elapsed().as_secs_f64(),
        ..Chunk::default()
    }
}

/// The relabelled batch from its chunks: written content-named, entered
/// in the manifest in place of `old` (whose file stays).
fn finish(
    opts: &RelabelOptions,
    old: &BatchEntry,
    batch_dir: &Path,
    chunks: usize,
    teacher_sha: &str,
    settings_sha: &str,
) -> Result<BatchEntry, CampaignError> {
    let mut records = Vec::new();
    let mut seconds = 0.0;
    for c in 0..chunks {
        let path = chunk_path(batch_dir, c);
        let chunk = Chunk::read(&path).map_err(|why| {
            CampaignError::Settings(format!(
                "{}: {why} (delete it to label it again)",
                path.display()
            ))
        })?;
        seconds += chunk.seconds;
        records.extend(chunk.records);
    }
    let bytes = batch::encode(&records);
    let mut entry = BatchEntry {
        file: batch::name(old.seed, teacher_sha, settings_sha, &bytes),
        positions: records.len() as u64,
        teacher: opts.teacher.display().to_string(),
        teacher_sha256: teacher_sha.to_string(),
        labelling: labelling(opts),
        threads: rayon::current_num_threads(),
        created: manifest::today(),
        relabelled: Some(Relabelled {
            file: old.file.clone(),
            teacher_sha256: old.teacher_sha256.clone(),
            labelling: old.labelling.clone(),
            wall_seconds: seconds,
            earlier: old
                .relabelled
                .as_ref()
                .map(|r| r.files().map(str::to_string).collect())
                .unwrap_or_default(),
        }),
        ..old.clone()
    };
    (entry.networks, entry.origins) = manifest::counts(&records);
    let path = opts.data_dir.join(&entry.file);
    crate::atomic_file::write(&path, &bytes)
        .map_err(|error| CampaignError::Write { path, error })?;
    // Read again just before the write: a campaign may have added a batch
    // meanwhile.
    let mut manifest = Manifest::load(&opts.data_dir)?;
    manifest.batches.retain(|b| b.file != old.file);
    manifest.add(entry.clone());
    manifest.save(&opts.data_dir)?;
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::super::STOP_FILE;
    use super::super::tests::{options, temp};
    use super::*;
    use crate::backgammon::Position;
    use crate::eval::{Evaluator, Model, Probs};

    /// A campaign's batch of seed 1 made by one random teacher, and the
    /// options that relabel it with another.
    fn relabel_setup(name: &str) -> (PathBuf, RelabelOptions) {
        let dir = temp(name);
        let campaign = options(&dir);
        super::super::run(&campaign).unwrap();
        let teacher = dir.join("newer.net");
        Model::random(16, 8, 22).save(&teacher).unwrap();
        let opts = RelabelOptions {
            teacher,
            data_dir: campaign.data_dir,
            work_dir: campaign.work_dir,
            seeds: vec![1],
            selection: campaign.selection,
            records_per_chunk: 4,
            roll_out_timing: true,
            minutes: None,
            verbose: false,
        };
        (dir, opts)
    }

    #[test]
    fn a_relabelled_batch_replaces_the_old_one_with_the_new_teachers_targets() {
        let (dir, opts) = relabel_setup("relabel");
        let before = Manifest::load(&opts.data_dir).unwrap().batches[0].clone();
        let old = batch::read(&opts.data_dir.join(&before.file)).unwrap();
        let report = run(&opts).unwrap();
        assert_eq!(report.stopped, Stopped::Finished);
        assert_eq!(report.batches.len(), 1);
        let manifest = Manifest::load(&opts.data_dir).unwrap();
        assert_eq!(manifest.batches.len(), 1);
        let entry = &manifest.batches[0];
        assert_ne!(entry.file, before.file);
        // The folder trains on the new file; the old one stays for the
        // recipes that name it.
        assert_eq!(
            crate::train::database::batch_files(&opts.data_dir).unwrap(),
            vec![opts.data_dir.join(&entry.file)]
        );
        assert_eq!(batch::read(&opts.data_dir.join(&before.file)).unwrap(), old);
        assert_eq!((entry.seed, entry.games), (before.seed, before.games));
        assert_eq!(entry.disagreements, before.disagreements);
        assert_ne!(entry.teacher_sha256, before.teacher_sha256);
        let was = entry.relabelled.as_ref().unwrap();
        assert_eq!(
            (&was.file, &was.teacher_sha256),
            (&before.file, &before.teacher_sha256)
        );
        // The same positions in the same order; every searched target the
        // new teacher's, as stored; rollouts as they were.
        let new = batch::read(&opts.data_dir.join(&entry.file)).unwrap();
        assert_eq!(new.len(), old.len());
        let eval = Evaluator::new(Model::load(&opts.teacher).unwrap());
        let selector = Selector::new(&eval, opts.selection);
        let mut changed = 0;
        for (i, (n, o)) in new.iter().zip(&old).enumerate() {
            assert_eq!((n.position, n.gap), (o.position, o.gap));
            let timing = !o.origin.is_rollout() && is_timing_battle(&o.position);
            let origin = if timing {
                Origin::TimingRollout
            } else {
                o.origin
            };
            assert_eq!(n.origin, origin);
            let expected = if o.origin.is_rollout() {
                o.target
            } else if timing {
                let seed = splitmix(before.seed ^ splitmix(i as u64));
                selector.rolled_out_label(&o.position, seed)
            } else {
                selector.searched_label(&o.position)
            };
            let stored = Record {
                target: expected,
                ..*o
            };
            assert_eq!(n.target, Record::decode(&stored.encode()).unwrap().target);
            changed += usize::from(n.target != o.target);
        }
        assert!(changed > 0);
        // Done once: a second run has nothing to do.
        let again = run(&opts).unwrap();
        assert_eq!((again.batches.len(), again.chunks_labelled), (0, 0));
        assert!(was.earlier.is_empty());
        // A third teacher's relabel names both files it and its
        // predecessor replaced, oldest first.
        let third = RelabelOptions {
            teacher: dir.join("third.net"),
            ..opts.clone()
        };
        Model::random(16, 8, 23).save(&third.teacher).unwrap();
        let twice = run(&third).unwrap();
        let chain = twice.batches[0].relabelled.as_ref().unwrap();
        assert_eq!(
            chain.files().collect::<Vec<_>>(),
            [before.file.as_str(), entry.file.as_str()]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The doubling war's position, a timing battle: both sides prime a
    /// checker of the other's (game_plan's tests spell out its points).
    fn war() -> Position {
        crate::notation::position_id::decode("dnsDAQSwbRsAcA").unwrap()
    }

    #[test]
    fn a_timing_battle_is_rolled_out_unless_asked_to_search_it() {
        let (dir, mut opts) = relabel_setup("relabel-timing");
        opts.selection.rollout_trials = 4;
        // The stored batch with a searched timing battle in front.
        let mut manifest = Manifest::load(&opts.data_dir).unwrap();
        let entry = &mut manifest.batches[0];
        let mut records = batch::read(&opts.data_dir.join(&entry.file)).unwrap();
        assert!(is_timing_battle(&war()));
        records[0] = Record::new(war(), Origin::SearchChoice, Probs::default(), 0.02);
        let bytes = batch::encode(&records);
        entry.file = batch::name(entry.seed, &entry.teacher_sha256, "0", &bytes);
        std::fs::write(opts.data_dir.join(&entry.file), &bytes).unwrap();
        let seed = entry.seed;
        manifest.save(&opts.data_dir).unwrap();
        let copy = |name: &str| {
            let to = dir.join(name);
            std::fs::create_dir_all(&to).unwrap();
            for e in std::fs::read_dir(&opts.data_dir).unwrap().flatten() {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
            RelabelOptions {
                data_dir: to,
                work_dir: dir.join(format!("{name}-work")),
                ..opts.clone()
            }
        };
        let searching = RelabelOptions {
            roll_out_timing: false,
            ..copy("searching")
        };
        let eval = Evaluator::new(Model::load(&opts.teacher).unwrap());
        let selector = Selector::new(&eval, opts.selection);
        let stored = |p: Probs| {
            let r = Record::new(war(), Origin::SearchChoice, p, 0.0);
            Record::decode(&r.encode()).unwrap().target
        };
        let rolled = run(&opts).unwrap().batches.remove(0);
        let first = batch::read(&opts.data_dir.join(&rolled.file)).unwrap()[0];
        assert_eq!(
            (first.position, first.origin),
            (war(), Origin::TimingRollout)
        );
        let rollout = selector.rolled_out_label(&war(), splitmix(seed ^ splitmix(0)));
        assert_eq!(first.target, stored(rollout));
        assert!(
            rolled.labelling.contains("timing battles"),
            "{}",
            rolled.labelling
        );
        assert_eq!(
            rolled.origins["timing_rollout"],
            1 + records
                .iter()
                .filter(|r| r.origin == Origin::TimingRollout)
                .count() as u64
        );
        // Asked to search it, the relabel keeps its origin and searches.
        let searched = run(&searching).unwrap().batches.remove(0);
        let first = batch::read(&searching.data_dir.join(&searched.file)).unwrap()[0];
        assert_eq!(first.origin, Origin::SearchChoice);
        assert_eq!(first.target, stored(selector.searched_label(&war())));
        assert_ne!(first.target, stored(rollout));
        assert_eq!(searched.labelling, opts.selection.labelling());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_relabelling_stops_when_asked_and_resumes_from_its_chunks() {
        let (dir, mut opts) = relabel_setup("relabel-resume");
        let positions = Manifest::load(&opts.data_dir).unwrap().positions() as usize;
        let chunks = positions.div_ceil(opts.records_per_chunk) as u64;
        assert!(chunks >= 2, "{positions} positions");
        opts.minutes = Some(0.0);
        let report = run(&opts).unwrap();
        assert_eq!(
            (report.stopped, report.chunks_labelled),
            (Stopped::TimeUp, 0)
        );
        opts.minutes = None;
        std::fs::write(opts.work_dir.join(STOP_FILE), "").unwrap();
        assert_eq!(run(&opts).unwrap().stopped, Stopped::Asked);
        std::fs::remove_file(opts.work_dir.join(STOP_FILE)).unwrap();
        // A run on a copy labels every chunk; here one is left as by a
        // stopped run, and the resumed run labels only the rest.
        let copy = dir.join("copy");
        std::fs::create_dir_all(&copy).unwrap();
        for e in std::fs::read_dir(&opts.data_dir).unwrap().flatten() {
            std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
        }
        let full = run(&RelabelOptions {
            data_dir: copy,
            work_dir: dir.join("copy-work"),
            ..opts.clone()
        })
        .unwrap();
        assert_eq!(full.chunks_labelled, chunks);
        let source = Manifest::load(&opts.data_dir).unwrap().batches[0].clone();
        let records = batch::read(&opts.data_dir.join(&source.file)).unwrap();
        let teacher_sha = batch::hex_sha256(&std::fs::read(&opts.teacher).unwrap());
        let settings_sha = batch::hex_sha256(settings_text(&opts).as_bytes());
        let eval = Evaluator::new(Model::load(&opts.teacher).unwrap());
        let selector = Selector::new(&eval, opts.selection);
        let stem = source.file.trim_end_matches(".kpd");
        relabel_chunk(
            &selector,
            &opts,
            source.seed,
            0,
            &records[..opts.records_per_chunk],
        )
        .write(&chunk_path(
            &opts
                .work_dir
                .join(format!("{}-{}", &teacher_sha[..8], &settings_sha[..8]))
                .join(format!("relabel-{stem}")),
            0,
        ))
        .unwrap();
        let resumed = run(&opts).unwrap();
        assert_eq!(resumed.chunks_labelled, chunks - 1);
        assert_eq!(resumed.batches[0].file, full.batches[0].file);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_settings_and_a_missing_seed_are_refused() {
        let (dir, opts) = relabel_setup("relabel-bad");
        let e = run(&RelabelOptions {
            records_per_chunk: 0,
            ..opts.clone()
        })
        .unwrap_err();
        assert!(e.to_string().contains("at least 1"), "{e}");
        let mut deep = opts.clone();
        deep.selection.label_ply = 4;
        assert!(run(&deep).unwrap_err().to_string().contains("2 or 3-ply"));
        let e = run(&RelabelOptions {
            seeds: vec![9],
            ..opts.clone()
        })
        .unwrap_err();
        assert!(e.to_string().contains("seed 9"), "{e}");
        let e = run(&RelabelOptions {
            teacher: dir.join("missing.net"),
            ..opts
        })
        .unwrap_err();
        assert!(e.to_string().contains("missing.net"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
