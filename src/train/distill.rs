//! Distillation: supervised learning of a new contact network from a
//! teacher's search.
//!
//! Self-play learning refines a network only as fast as its games come:
//! each position is seen once, at a learning rate small enough for the
//! noise of fresh targets, and 1-ply targets stopped paying near 6.5 mp.
//! Here the teacher plays `games` noisy games once, every position it
//! rolls from gets its `target_ply`-ply value, and the student makes
//! `epochs` full passes over that fixed set at a decaying learning rate.
//! A student with two hidden layers learns the teacher's 1-ply judgement
//! far better than the teacher's own 0-ply network holds it (kotra-v10 in
//! models/README.md).
//!
//! Phase 1 writes the positions in chunks of `games_per_step` games
//! (`positions/NNNNN.bin`, each written atomically and skipped on
//! resume); phase 2 checkpoints after every epoch. The student keeps the
//! teacher's race network, which it does not train, unless `distill_nets`
//! names it: then the set's race positions train it (with `"race"` alone,
//! the contact network stays the initial model's). With `crashed_net`
//! it has a crashed network of the contact network's shape for back
//! games and crashed boards (`eval::contact_net`), which then learns
//! those positions alone: twice the weights for the contact game at the
//! same cost per evaluation (measured as kotra-v13c in models/README.md:
//! it did not pay). Without it the contact network learns them too.

use super::RolloutPick;
use super::checkpoint::Checkpoint;
use super::dev_set::DevSet;
use super::learner::{AdamPass, Learners};
use super::selfplay::{MovePolicy, Sample, play_games};
use super::{TrainError, TrainOptions, measure, progress_bar};
use crate::backgammon::Position;
use crate::eval::game_plan::GamePlan;
use crate::eval::{Evaluator, Model, NetKind, Probs, contact_net};
use crate::framed_file::{FrameKind, frame, unframe};
use crate::players::duel::splitmix;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::path::Path;
use std::time::Instant;

const CHUNK_KIND: FrameKind = FrameKind {
    name: "kotra-ai training positions",
    magic: b"KOTRAPOS",
    version: 1,
};
/// Bytes per sample: both sides' checkers on points 0..=24, the network,
/// the five target probabilities.
const RECORD: usize = 25 + 25 + 1 + 4 * 5;

/// The student of `teacher`: its race network, a new contact network of
/// `hidden` and `mid` units, no crashed network (the caller adds one).
pub fn student(teacher: &Model, hidden: usize, mid: usize, seed: u64) -> Model {
    let mut m = teacher.clone().with_fresh_contact(hidden, mid, seed);
    m.crashed = None;
    m
}

/// A student that starts from `init`'s networks. Its crashed network is
/// kept only with `crashed_net` (training and evaluation must route
/// alike); the caller adds a fresh one where the config asks and `init`
/// has none, as for a fresh student.
pub fn refined_student(init: &Model, crashed_net: bool) -> Model {
    let mut m = init.clone();
    if !crashed_net {
        m.crashed = None;
    }
    m
}

/// Runs (or continues) a distillation run whose checkpoint is `state`.
pub(super) fn run(
    opts: &TrainOptions,
    teacher_path: &Path,
    mut state: Checkpoint,
    mut learners: Learners,
    dev: Option<&DevSet>,
) -> Result<Checkpoint, TrainError> {
    let cfg = state.config.clone();
    if state.step == 0 {
        // A checkpoint before the teacher's games, so that `--resume`
        // works while they are played (written chunks are kept).
        state.save_all(&opts.out_dir)?;
    }
    // Wall time counts the teacher's games played in this session too.
    let started = Instant::now();
    let base_seconds = state.seconds;
    let (samples, distinct) = positions(opts, teacher_path, &cfg)?;
    state.games_played = cfg.games;
    state.model.meta.games_trained = state.prior_games + cfg.games;
    let epochs = cfg.epochs as u64;
    let bar = progress_bar(opts.progress, epochs, state.step);
    let sizes = format!("{distinct} positions, {} samples a pass", samples.len());
    bar.suspend(|| eprintln!("{sizes}"));
    bar.set_message(sizes);
    while state.step < epochs {
        // From `learning_rate` at the first epoch to `learning_rate_end` at the last.
        let lr = cfg.learning_rate_after(state.step as f64 / (epochs.max(2) - 1) as f64);
        let pass = AdamPass {
            batch: cfg.batch_size,
            epochs: 1,
            lr,
        };
        let loss = learners.train(&samples, pass, splitmix(cfg.seed ^ state.step));
        learners.export(&mut state.model);
        state.step += 1;
        state.seconds = base_seconds + started.elapsed().as_secs_f64();
        state.keep_learners(&learners);
        let mut point = measure(&state, dev, loss);
        // A distillation's curve runs over epochs.
        point.games = state.step;
        // The loss of each network this run trains.
        let losses: Vec<String> = [("loss", point.loss_contact), ("race loss", point.loss_race)]
            .into_iter()
            .filter(|(_, loss)| loss.is_finite())
            .map(|(name, loss)| format!("{name} {loss:.3e}"))
            .collect();
        bar.suspend(|| {
            eprintln!(
                "epoch {}: lr {lr:.2e}, {}, {}",
                state.step,
                losses.join(", "),
                point.strength()
            )
        });
        state.record(point, &opts.out_dir)?;
        state.save_all(&opts.out_dir)?;
        bar.set_position(state.step);
    }
    bar.finish();
    Ok(state)
}

/// The whole set of samples (a hard position repeated, see [`copies`])
/// and the number of distinct positions trained on: chunks already on disk
/// are read, the rest played by the teacher and written. The main set's
/// chunks get their rollouts and siblings; then come the `extra_sets`.
fn positions(
    opts: &TrainOptions,
    teacher_path: &Path,
    cfg: &super::TrainConfig,
) -> Result<(Vec<Sample>, usize), TrainError> {
    let teacher = Evaluator::new(Model::load(teacher_path)?);
    let main_set = TeacherSet {
        dir: opts.out_dir.join("positions"),
        seed: cfg.seed,
        games: cfg.games,
        search: cfg.target_search(),
    };
    let extra_sets: Vec<(TeacherSet, usize, Option<Evaluator>)> = cfg
        .extra_sets
        .iter()
        .map(|set| {
            let teacher_set = TeacherSet {
                dir: opts.out_dir.join(set.folder()),
                seed: set.seed,
                games: set.games,
                search: set.target_search(),
            };
            let own_teacher = set
                .teacher
                .as_deref()
                .map(|path| Model::load(path).map(Evaluator::new))
                .transpose()?;
            Ok((teacher_set, set.weight as usize, own_teacher))
        })
        .collect::<Result<_, TrainError>>()?;
    let bar = crate::progress::bar(
        opts.progress,
        cfg.games + cfg.extra_sets.iter().map(|s| s.games).sum::<u64>(),
        "{elapsed_precise} [{bar:30}] {pos}/{len} teacher games ({per_sec}, eta {eta}) {msg}",
    );
    let mut all = Vec::new();
    let mut distinct = 0;
    for c in 0..main_set.chunks(cfg) {
        let chunk = main_set.chunk(c, &teacher, cfg)?;
        let chunk = if cfg.race_rollout_trials > 0 {
            with_race_rollouts(chunk, &opts.out_dir, c, &teacher, cfg)?
        } else {
            chunk
        };
        let (chunk, rolled) = if cfg.contact_rollout_trials > 0 {
            with_contact_rollouts(chunk, &opts.out_dir, c, &teacher, cfg)?
        } else {
            (chunk, Vec::new())
        };
        let siblings = if cfg.sibling_moves > 0 {
            siblings_of(&chunk, &opts.out_dir, c, &teacher, cfg)?
        } else {
            Vec::new()
        };
        distinct += add_trained(&mut all, chunk, &rolled, 1, cfg);
        distinct += add_trained(&mut all, siblings, &[], 1, cfg);
        bar.inc(main_set.games_in(c, cfg));
        bar.set_message(format!("{distinct} positions"));
    }
    for (set, weight, own_teacher) in &extra_sets {
        for c in 0..set.chunks(cfg) {
            let chunk = set.chunk(c, own_teacher.as_ref().unwrap_or(&teacher), cfg)?;
            distinct += add_trained(&mut all, chunk, &[], *weight, cfg);
            bar.inc(set.games_in(c, cfg));
            bar.set_message(format!("{distinct} positions"));
        }
    }
    for dir in &cfg.banked_rollouts {
        for chunk in banked_chunks(dir)? {
            let rolled: Vec<usize> = (0..chunk.len()).collect();
            distinct += add_trained(&mut all, chunk, &rolled, 1, cfg);
        }
        bar.set_message(format!("{distinct} positions"));
    }
    bar.finish_and_clear();
    Ok((all, distinct))
}

/// The chunks of rollout targets in `dir` (`banked_rollouts`), in the
/// order of their file names; a folder without any is refused, since a
/// mistyped path would otherwise train without them unnoticed.
fn banked_chunks(dir: &Path) -> Result<Vec<Vec<Sample>>, TrainError> {
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

/// Teacher games played from one seed, with one search for the targets,
/// `games_per_step` to a chunk file in `dir`.
struct TeacherSet {
    dir: std::path::PathBuf,
    seed: u64,
    games: u64,
    search: super::selfplay::TargetSearch,
}

impl TeacherSet {
    fn chunks(&self, cfg: &super::TrainConfig) -> u64 {
        self.games.div_ceil(cfg.games_per_step)
    }

    fn games_in(&self, c: u64, cfg: &super::TrainConfig) -> u64 {
        cfg.games_per_step.min(self.games - c * cfg.games_per_step)
    }

    /// Chunk `c`: read where an earlier run wrote it, otherwise played by
    /// the teacher from the set's seed and written (atomically).
    fn chunk(
        &self,
        c: u64,
        teacher: &Evaluator,
        cfg: &super::TrainConfig,
    ) -> Result<Vec<Sample>, TrainError> {
        create_dir(&self.dir)?;
        let path = self.dir.join(format!("{c:05}.bin"));
        if path.exists() {
            return read_chunk(&path);
        }
        let policy = MovePolicy {
            exploration: cfg.exploration,
            noise: cfg.move_noise,
        };
        let seed = splitmix(self.seed ^ splitmix(c.wrapping_add(1 << 41)));
        let samples = play_games(
            teacher,
            self.games_in(c, cfg),
            seed,
            cfg.lambda,
            policy,
            self.search,
        );
        write_chunk(&path, &samples)?;
        Ok(samples)
    }
}

/// Appends the samples of `chunk` that the run trains to `all`, each as
/// often as it counts per epoch (`weight` times, the rolled-out ones, at
/// the ascending indices `rolled`, `rollout_weight` times more), and
/// returns how many positions that was.
fn add_trained(
    all: &mut Vec<Sample>,
    chunk: Vec<Sample>,
    rolled: &[usize],
    weight: usize,
    cfg: &super::TrainConfig,
) -> usize {
    let mut added = 0;
    for (i, s) in chunk.into_iter().enumerate() {
        if !cfg.distill_nets.trains(s.kind) {
            continue;
        }
        let s = Sample {
            kind: student_net(&s, cfg),
            ..s
        };
        let rollout_weight = if rolled.binary_search(&i).is_ok() {
            cfg.rollout_weight as usize
        } else {
            1
        };
        all.extend(std::iter::repeat_n(
            s,
            weight * rollout_weight * copies(&s.position, cfg),
        ));
        added += 1;
    }
    added
}

/// `chunk` (number `c`) with its race positions' targets replaced by
/// rollouts of `race_rollout_trials` trials ([`Rollouts::of`]).
fn with_race_rollouts(
    chunk: Vec<Sample>,
    out_dir: &Path,
    c: u64,
    teacher: &Evaluator,
    cfg: &super::TrainConfig,
) -> Result<Vec<Sample>, TrainError> {
    let (race, mut rest): (Vec<Sample>, Vec<Sample>) =
        chunk.into_iter().partition(|s| s.kind == NetKind::Race);
    let rollouts = Rollouts {
        dir: out_dir.join(format!("race-rollouts-{}", cfg.race_rollout_trials)),
        trials: cfg.race_rollout_trials,
        seed: splitmix(cfg.seed ^ splitmix(c.wrapping_add(3 << 41))),
        what: "race positions",
    };
    rest.extend(rollouts.of(&race, c, teacher)?);
    Ok(rest)
}

/// `chunk` (number `c`) with the targets of `contact_rollouts_per_chunk`
/// of its contact positions, drawn by the seed, replaced by rollouts of
/// `contact_rollout_trials` trials ([`Rollouts::of`]); and their
/// indices, ascending.
fn with_contact_rollouts(
    mut chunk: Vec<Sample>,
    out_dir: &Path,
    c: u64,
    teacher: &Evaluator,
    cfg: &super::TrainConfig,
) -> Result<(Vec<Sample>, Vec<usize>), TrainError> {
    let window = cfg.contact_rollout_window;
    let k = cfg.contact_rollouts_per_chunk;
    let (chosen, seed) = match cfg.contact_rollout_pick {
        RolloutPick::Random => draw_contact(&chunk, c, 5, k, window, cfg),
        RolloutPick::Disagreement => (
            most_disagreeing(&chunk, k, window, teacher),
            contact_seed(c, 5, cfg),
        ),
    };
    let picked: Vec<Sample> = chosen.iter().map(|&i| chunk[i]).collect();
    // Another window or another way of picking chooses other positions:
    // another cache.
    let mut drawn_from = window.map_or(String::new(), |[lo, hi]| format!("-w{lo}-{hi}"));
    if cfg.contact_rollout_pick == RolloutPick::Disagreement {
        drawn_from += "-disagreement";
    }
    let rollouts = Rollouts {
        dir: out_dir.join(format!(
            "contact-rollouts-{}-{}{drawn_from}",
            cfg.contact_rollout_trials, cfg.contact_rollouts_per_chunk
        )),
        trials: cfg.contact_rollout_trials,
        seed: splitmix(seed),
        what: "chosen contact positions",
    };
    for (&i, rolled) in chosen.iter().zip(rollouts.of(&picked, c, teacher)?) {
        chunk[i] = rolled;
    }
    Ok((chunk, chosen))
}

/// The siblings ([`super::siblings`]) of `siblings_per_chunk` contact
/// positions of `chunk` (number `c`), drawn by the seed: read from the
/// cache where an earlier run wrote them, otherwise searched by the
/// teacher and written there (atomically). The cache file holds the
/// drawn positions first, so that a cache of another draw is refused.
fn siblings_of(
    chunk: &[Sample],
    out_dir: &Path,
    c: u64,
    teacher: &Evaluator,
    cfg: &super::TrainConfig,
) -> Result<Vec<Sample>, TrainError> {
    let (chosen, seed) = draw_contact(chunk, c, 7, cfg.siblings_per_chunk, None, cfg);
    let k = chosen.len();
    let origins: Vec<Sample> = chosen.iter().map(|&i| chunk[i]).collect();
    let dir = out_dir.join(format!(
        "siblings-{}-{}",
        cfg.sibling_moves, cfg.siblings_per_chunk
    ));
    create_dir(&dir)?;
    let path = dir.join(format!("{c:05}.bin"));
    if path.exists() {
        let mut cached = read_chunk(&path)?;
        if cached.len() < k
            || cached[..k]
                .iter()
                .zip(&origins)
                .any(|(a, b)| a.position != b.position)
        {
            return Err(TrainError::Positions {
                path,
                why: "its positions are not the chunk's drawn sibling origins".into(),
            });
        }
        return Ok(cached.split_off(k));
    }
    let sibs = super::siblings::siblings(
        teacher,
        &origins,
        cfg.sibling_moves as usize,
        cfg.target_search(),
        splitmix(seed),
    );
    let mut file = origins;
    file.extend_from_slice(&sibs);
    write_chunk(&path, &file)?;
    Ok(sibs)
}

/// Up to `k` of `chunk`'s contact positions (number `c`), with a win
/// chance in `window` where one is given, drawn by the config's seed
/// salted by `salt` (one salt per use, so that the draws are
/// independent): their indices, ascending, and the draw's seed.
fn draw_contact(
    chunk: &[Sample],
    c: u64,
    salt: u64,
    k: u32,
    window: Option<[f32; 2]>,
    cfg: &super::TrainConfig,
) -> (Vec<usize>, u64) {
    let contact = eligible_contact(chunk, window);
    let seed = contact_seed(c, salt, cfg);
    let mut rng = SmallRng::seed_from_u64(seed);
    let k = (k as usize).min(contact.len());
    let mut chosen: Vec<usize> = rand::seq::index::sample(&mut rng, contact.len(), k)
        .into_iter()
        .map(|j| contact[j])
        .collect();
    chosen.sort_unstable();
    (chosen, seed)
}

/// The indices of `chunk`'s contact positions whose target gives the side
/// on roll a win chance in `window` (all of them without one).
fn eligible_contact(chunk: &[Sample], window: Option<[f32; 2]>) -> Vec<usize> {
    let in_window = |s: &Sample| window.is_none_or(|[lo, hi]| (lo..=hi).contains(&s.target.win()));
    (0..chunk.len())
        .filter(|&i| chunk[i].kind != NetKind::Race && in_window(&chunk[i]))
        .collect()
}

/// The seed of chunk `c`'s draw for the use `salt`.
fn contact_seed(c: u64, salt: u64, cfg: &super::TrainConfig) -> u64 {
    splitmix(cfg.seed ^ splitmix(c.wrapping_add(salt << 41)))
}

/// Up to `k` of `chunk`'s eligible contact positions ([`eligible_contact`])
/// whose target equity is furthest from `teacher`'s static equity (the
/// earlier of equals first): their indices, ascending.
fn most_disagreeing(
    chunk: &[Sample],
    k: u32,
    window: Option<[f32; 2]>,
    teacher: &Evaluator,
) -> Vec<usize> {
    let mut scored: Vec<(f32, usize)> = eligible_contact(chunk, window)
        .into_iter()
        .map(|i| {
            let s = &chunk[i];
            (
                (teacher.probs(&s.position).equity() - s.target.equity()).abs(),
                i,
            )
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut chosen: Vec<usize> = scored.iter().take(k as usize).map(|&(_, i)| i).collect();
    chosen.sort_unstable();
    chosen
}

/// Where and how one kind of rollout target is made.
struct Rollouts {
    /// The cache folder. Its name carries the trial count (and for
    /// contact positions how many a chunk has): rollouts of another
    /// length are other targets, never to be read back as these.
    dir: std::path::PathBuf,
    trials: u32,
    seed: u64,
    /// The positions' description, for the error a stale cache gets.
    what: &'static str,
}

impl Rollouts {
    /// `samples` (of chunk `c`) with rollout targets, read from the cache
    /// where an earlier run wrote them and otherwise rolled out by
    /// `teacher` at 0-ply and written there (atomically, so a kill loses
    /// at most the chunk in flight).
    fn of(
        &self,
        samples: &[Sample],
        c: u64,
        teacher: &Evaluator,
    ) -> Result<Vec<Sample>, TrainError> {
        create_dir(&self.dir)?;
        let path = self.dir.join(format!("{c:05}.bin"));
        if path.exists() {
            let rolled = read_chunk(&path)?;
            if rolled.len() != samples.len()
                || rolled
                    .iter()
                    .zip(samples)
                    .any(|(a, b)| a.position != b.position)
            {
                return Err(TrainError::Positions {
                    path,
                    why: format!("its positions are not the chunk's {}", self.what),
                });
            }
            return Ok(rolled);
        }
        let rolled =
            super::rollout_targets::rolled_out_all(teacher, samples, self.trials, self.seed);
        write_chunk(&path, &rolled)?;
        Ok(rolled)
    }
}

/// The student network a sample trains: the one that will evaluate its
/// position (the student has a crashed network when `crashed_net`).
fn student_net(s: &Sample, cfg: &super::TrainConfig) -> NetKind {
    match s.kind {
        NetKind::Race => NetKind::Race,
        _ => contact_net(&s.position, cfg.crashed_net),
    }
}

/// How many times a position is seen per epoch: `hard_plan_weight` for
/// back games, holding games and crashed boards, where the network errs
/// most (with kotra-v10 as teacher they were 64% of the contact
/// positions, so the weight buys more passes over them, not coverage).
fn copies(pos: &Position, cfg: &super::TrainConfig) -> usize {
    if GamePlan::of(pos).is_hard() {
        cfg.hard_plan_weight as usize
    } else {
        1
    }
}

fn create_dir(dir: &Path) -> Result<(), TrainError> {
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

fn write_chunk(path: &Path, samples: &[Sample]) -> Result<(), TrainError> {
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

fn read_chunk(path: &Path) -> Result<Vec<Sample>, TrainError> {
    let bad = |why: String| TrainError::Positions {
        path: path.to_owned(),
        why,
    };
    let bytes = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
    let payload = unframe(&CHUNK_KIND, &bytes).map_err(|e| bad(e.to_string()))?;
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
    use crate::train::selfplay::TargetSearch;

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

    #[test]
    fn hard_positions_count_hard_plan_weight_times_and_go_to_their_network() {
        let mut cfg = super::super::TrainConfig {
            distill_teacher: Some("teacher.net".into()),
            target_ply: 1,
            hard_plan_weight: 3.0,
            ..Default::default()
        };
        cfg.validate().unwrap();
        // Seven checkers on the 1- to 3-points with a checker still back.
        let crashed = Position::from_points(&[(24, 1), (3, 3), (2, 3), (1, 2), (6, 6)], &[(6, 15)]);
        assert!(GamePlan::of(&crashed).is_hard());
        assert_eq!(copies(&crashed, &cfg), 3);
        assert_eq!(copies(&Position::starting(), &cfg), 1);
        let sample = |position, kind| Sample {
            position,
            kind,
            target: Probs([0.5, 0.1, 0.0, 0.1, 0.0]),
        };
        let crashed = sample(crashed, NetKind::Contact);
        let opening = sample(Position::starting(), NetKind::Contact);
        assert_eq!(student_net(&crashed, &cfg), NetKind::Contact);
        cfg.crashed_net = true;
        cfg.validate().unwrap();
        assert_eq!(student_net(&crashed, &cfg), NetKind::Crashed);
        assert_eq!(student_net(&opening, &cfg), NetKind::Contact);
        let race = Position::from_points(&[(8, 15)], &[(6, 15)]);
        assert_eq!(
            student_net(&sample(race, NetKind::Race), &cfg),
            NetKind::Race
        );
        for bad in [0.5, 1.5] {
            cfg.hard_plan_weight = bad;
            assert!(cfg.validate().is_err(), "{bad}");
        }
    }

    #[test]
    fn distill_nets_picks_the_networks_and_its_fields_are_checked() {
        use crate::train::config::DistillNets;
        let parse = |json: &str| serde_json::from_str::<crate::train::TrainConfig>(json).unwrap();
        let cfg = parse(r#"{"distill_teacher": "t.net", "target_ply": 1, "distill_nets": "race"}"#);
        assert_eq!(cfg.distill_nets, DistillNets::Race);
        assert!(cfg.validate().is_err(), "race alone needs init_model");
        let mut cfg = parse(
            r#"{"distill_teacher": "t.net", "init_model": "t.net", "target_ply": 1, "distill_nets": "race", "race_rollout_trials": 36}"#,
        );
        cfg.validate().unwrap();
        assert!(
            cfg.distill_nets.trains(NetKind::Race) && !cfg.distill_nets.trains(NetKind::Contact)
        );
        cfg.distill_nets = DistillNets::Contact;
        assert!(
            cfg.validate().is_err(),
            "rollouts for a race network not trained"
        );
        cfg.distill_nets = DistillNets::Both;
        cfg.race_mid = 64;
        cfg.validate().unwrap();
        cfg.race_mid = 12;
        assert!(cfg.validate().is_err(), "race_mid is a multiple of 8");
        cfg.race_mid = 64;
        cfg.distill_nets = DistillNets::Contact;
        cfg.race_rollout_trials = 0;
        assert!(
            cfg.validate().is_err(),
            "a fresh race network that nothing trains"
        );
        let fresh = Model::random(16, 8, 3).with_fresh_race(32, 16, 4);
        assert_eq!(
            (fresh.race.hidden, fresh.race.mid.as_ref().map(|m| m.units)),
            (32, Some(16))
        );
        fresh.validate().unwrap();
        assert!(!DistillNets::Contact.trains(NetKind::Race));
        assert!(DistillNets::Contact.trains(NetKind::Crashed));
        assert!(
            DistillNets::Both.trains(NetKind::Race) && DistillNets::Both.trains(NetKind::Contact)
        );
    }

    #[test]
    fn race_rollouts_are_cached_beside_the_positions_and_checked_against_them() {
        let eval = Evaluator::new(Model::random(16, 8, 21));
        let mut chunk = play_games(
            &eval,
            3,
            22,
            0.7,
            MovePolicy::greedy(),
            TargetSearch::plain(1),
        );
        let race = chunk.iter().filter(|s| s.kind == NetKind::Race).count();
        assert!(race > 0, "three games reach a race");
        let cfg = crate::train::TrainConfig {
            distill_teacher: Some("t.net".into()),
            init_model: Some("t.net".into()),
            target_ply: 1,
            distill_nets: crate::train::config::DistillNets::Race,
            race_rollout_trials: 36,
            ..Default::default()
        };
        cfg.validate().unwrap();
        let dir = std::env::temp_dir().join(format!("kotra-race-rollouts-{}", std::process::id()));
        let first = with_race_rollouts(chunk.clone(), &dir, 4, &eval, &cfg).unwrap();
        assert_eq!(first.len(), chunk.len());
        let rolled: Vec<&Sample> = first.iter().filter(|s| s.kind == NetKind::Race).collect();
        assert_eq!(rolled.len(), race);
        for s in &rolled {
            let [w, wg, wbg, lg, lbg] = s.target.0;
            assert!(wbg <= wg && wg <= w && lbg <= lg && lg <= 1.0 - w, "{s:?}");
        }
        assert!(
            rolled.iter().any(|s| chunk
                .iter()
                .any(|c| c.position == s.position && c.target != s.target)),
            "the targets are the rollouts', not the search's"
        );
        let again = with_race_rollouts(chunk.clone(), &dir, 4, &eval, &cfg).unwrap();
        assert!(
            first
                .iter()
                .zip(&again)
                .all(|(a, b)| a.position == b.position && a.target == b.target)
        );
        // Another chunk's positions under this chunk's cache are refused.
        chunk.retain(|s| s.kind != NetKind::Race || s.position != rolled[0].position);
        let err = with_race_rollouts(chunk, &dir, 4, &eval, &cfg)
            .unwrap_err()
            .to_string();
        assert!(err.contains("not the chunk's race positions"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_window_draws_rollouts_among_the_positions_it_holds() {
        let (eval, chunk) = two_game_chunk();
        let wins: Vec<f32> = chunk
            .iter()
            .filter(|s| s.kind != NetKind::Race)
            .map(|s| s.target.win())
            .collect();
        let mut sorted = wins.clone();
        sorted.sort_by(f32::total_cmp);
        // The middle third of this chunk's win chances.
        let (lo, hi) = (sorted[sorted.len() / 3], sorted[2 * sorted.len() / 3]);
        let inside = wins.iter().filter(|&&w| (lo..=hi).contains(&w)).count();
        assert!(
            inside > 4 && inside < wins.len(),
            "{inside} of {}",
            wins.len()
        );
        let cfg = crate::train::TrainConfig {
            contact_rollout_window: Some([lo, hi]),
            ..contact_rollout_config(4, 4)
        };
        cfg.validate().unwrap();
        let dir = std::env::temp_dir().join(format!("kotra-window-{}", std::process::id()));
        let (_, chosen) = with_contact_rollouts(chunk.clone(), &dir, 2, &eval, &cfg).unwrap();
        assert_eq!(chosen.len(), 4);
        for &i in &chosen {
            let w = chunk[i].target.win();
            assert!(
                chunk[i].kind != NetKind::Race && (lo..=hi).contains(&w),
                "{w}"
            );
        }
        // Its cache is its own: the window is in the folder's name.
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, [format!("contact-rollouts-4-4-w{lo}-{hi}")]);
        std::fs::remove_dir_all(&dir).unwrap();
        for bad in [[0.6, 0.5], [-0.1, 0.5], [0.5, 1.5], [f32::NAN, 0.5]] {
            let cfg = crate::train::TrainConfig {
                contact_rollout_window: Some(bad),
                ..cfg.clone()
            };
            assert!(cfg.validate().is_err(), "{bad:?}");
        }
        let no_rollouts = crate::train::TrainConfig {
            contact_rollout_trials: 0,
            contact_rollouts_per_chunk: 0,
            ..cfg
        };
        assert!(no_rollouts.validate().is_err());
    }

    #[test]
    fn disagreement_rolls_out_where_static_and_search_values_differ_most() {
        let (eval, chunk) = two_game_chunk();
        let gap = |s: &Sample| (eval.probs(&s.position).equity() - s.target.equity()).abs();
        let cfg = crate::train::TrainConfig {
            contact_rollout_pick: RolloutPick::Disagreement,
            ..contact_rollout_config(4, 5)
        };
        cfg.validate().unwrap();
        let dir = std::env::temp_dir().join(format!("kotra-disagree-{}", std::process::id()));
        let (rolled, chosen) = with_contact_rollouts(chunk.clone(), &dir, 2, &eval, &cfg).unwrap();
        assert_eq!(chosen.len(), 5);
        assert!(chosen.windows(2).all(|w| w[0] < w[1]));
        // Every contact position left out is no further apart than every
        // one chosen, and the chosen ones got rollout targets.
        let least_chosen = chosen
            .iter()
            .map(|&i| gap(&chunk[i]))
            .fold(f32::INFINITY, f32::min);
        for (i, s) in chunk.iter().enumerate() {
            if s.kind != NetKind::Race && !chosen.contains(&i) {
                assert!(
                    gap(s) <= least_chosen,
                    "position {i}: {} > {least_chosen}",
                    gap(s)
                );
            }
        }
        assert!(chosen.iter().any(|&i| rolled[i].target != chunk[i].target));
        // The random draw picks others, and each has a cache of its own.
        let random = crate::train::TrainConfig {
            contact_rollout_pick: RolloutPick::Random,
            ..cfg.clone()
        };
        let (_, drawn) = with_contact_rollouts(chunk.clone(), &dir, 2, &eval, &random).unwrap();
        assert_ne!(drawn, chosen);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["contact-rollouts-4-5", "contact-rollouts-4-5-disagreement"]
        );
        std::fs::remove_dir_all(&dir).unwrap();
        let no_rollouts = crate::train::TrainConfig {
            contact_rollout_trials: 0,
            contact_rollouts_per_chunk: 0,
            ..cfg
        };
        assert!(no_rollouts.validate().is_err());
    }

    #[test]
    fn banked_rollouts_train_as_the_runs_own_rolled_out_positions() {
        let (eval, chunk) = two_game_chunk();
        let cfg = crate::train::TrainConfig {
            rollout_weight: 5,
            ..contact_rollout_config(4, 3)
        };
        let dir = std::env::temp_dir().join(format!("kotra-banked-{}", std::process::id()));
        // Two chunks of an earlier run's cache, written out of order, and
        // a file that is not a chunk.
        for c in [3, 1] {
            with_contact_rollouts(chunk.clone(), &dir, c, &eval, &cfg).unwrap();
        }
        let bank = dir.join("contact-rollouts-4-3");
        std::fs::write(bank.join("notes.txt"), "not a chunk").unwrap();
        let banked = crate::train::TrainConfig {
            banked_rollouts: vec![bank.clone()],
            ..cfg.clone()
        };
        banked.validate().unwrap();
        let chunks = banked_chunks(&bank).unwrap();
        assert_eq!(chunks.len(), 2);
        let expected = read_chunk(&bank.join("00001.bin")).unwrap();
        let same = |a: &[Sample], b: &[Sample]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x.position == y.position && x.target == y.target)
        };
        assert!(same(&chunks[0], &expected), "read in file-name order");
        assert!(chunks.iter().flatten().all(|s| s.kind != NetKind::Race));
        // Each banked position counts rollout_weight times (times its
        // hard-plan copies), as the run's own rolled-out ones do.
        let mut all = Vec::new();
        let rolled: Vec<usize> = (0..expected.len()).collect();
        add_trained(&mut all, expected.clone(), &rolled, 1, &banked);
        let weights: usize = expected
            .iter()
            .map(|s| 5 * copies(&s.position, &banked))
            .sum();
        assert_eq!(all.len(), weights);
        // A missing or empty folder is an error, not a run without them.
        assert!(matches!(
            banked_chunks(&dir.join("missing")),
            Err(TrainError::BankedRollouts { .. })
        ));
        let empty = dir.join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        assert!(matches!(
            banked_chunks(&empty),
            Err(TrainError::BankedRollouts { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
        // They are contact targets of a distillation.
        let not_distilled = crate::train::TrainConfig {
            banked_rollouts: vec![bank],
            ..Default::default()
        };
        assert!(not_distilled.validate().is_err());
    }

    /// A 1-ply distillation whose chunks each roll out `per_chunk` contact
    /// positions of `trials` trials: what the contact rollout tests vary.
    fn contact_rollout_config(trials: u32, per_chunk: u32) -> crate::train::TrainConfig {
        crate::train::TrainConfig {
            distill_teacher: Some("t.net".into()),
            target_ply: 1,
            contact_rollout_trials: trials,
            contact_rollouts_per_chunk: per_chunk,
            ..Default::default()
        }
    }

    /// A random network and the samples of two of its games with 1-ply
    /// targets: the chunk the rollout and sibling caches are tested on.
    fn two_game_chunk() -> (Evaluator, Vec<Sample>) {
        let eval = Evaluator::new(Model::random(16, 8, 23));
        let chunk = play_games(
            &eval,
            2,
            24,
            0.7,
            MovePolicy::greedy(),
            TargetSearch::plain(1),
        );
        (eval, chunk)
    }

    #[test]
    fn chosen_contact_positions_get_cached_rollouts_and_their_weight() {
        let (eval, chunk) = two_game_chunk();
        let cfg = crate::train::TrainConfig {
            rollout_weight: 3,
            ..contact_rollout_config(8, 5)
        };
        cfg.validate().unwrap();
        let dir =
            std::env::temp_dir().join(format!("kotra-contact-rollouts-{}", std::process::id()));
        let (first, chosen) = with_contact_rollouts(chunk.clone(), &dir, 2, &eval, &cfg).unwrap();
        assert_eq!(first.len(), chunk.len());
        assert_eq!(chosen.len(), 5);
        assert!(chosen.windows(2).all(|w| w[0] < w[1]));
        for (i, (a, b)) in first.iter().zip(&chunk).enumerate() {
            assert_eq!(a.position, b.position);
            if chosen.contains(&i) {
                assert_ne!(a.kind, NetKind::Race);
            } else {
                assert_eq!(a.target, b.target, "only the chosen positions change");
            }
        }
        assert!(
            chosen.iter().any(|&i| first[i].target != chunk[i].target),
            "the chosen targets are the rollouts'"
        );
        // The rolled-out positions count rollout_weight times as often.
        let mut all = Vec::new();
        let trained = add_trained(&mut all, first.clone(), &chosen, 1, &cfg);
        let count = |i: usize| {
            all.iter()
                .filter(|s| s.position == first[i].position)
                .count()
        };
        let plain = (0..first.len())
            .find(|&i| {
                first[i].kind != NetKind::Race
                    && !GamePlan::of(&first[i].position).is_hard()
                    && first
                        .iter()
                        .filter(|s| s.position == first[i].position)
                        .count()
                        == 1
            })
            .expect("a plain contact position seen once");
        assert_eq!(count(plain), 1);
        for &i in &chosen {
            if first
                .iter()
                .filter(|s| s.position == first[i].position)
                .count()
                == 1
            {
                assert_eq!(count(i), 3 * copies(&first[i].position, &cfg));
            }
        }
        assert_eq!(
            trained,
            first.iter().filter(|s| s.kind != NetKind::Race).count()
        );
        // Read back, not rolled again: the same targets.
        let (again, same) = with_contact_rollouts(chunk.clone(), &dir, 2, &eval, &cfg).unwrap();
        assert_eq!(same, chosen);
        assert!(again.iter().zip(&first).all(|(a, b)| a.target == b.target));
        // Another draw of positions (another seed) under this cache is refused.
        let other = crate::train::TrainConfig {
            seed: 2,
            ..cfg.clone()
        };
        let err = with_contact_rollouts(chunk, &dir, 2, &eval, &other)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("not the chunk's chosen contact positions"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        // The two fields go together, with a whole-number weight.
        for bad in [
            crate::train::TrainConfig {
                contact_rollouts_per_chunk: 0,
                ..cfg.clone()
            },
            crate::train::TrainConfig {
                rollout_weight: 0,
                ..cfg.clone()
            },
            crate::train::TrainConfig {
                distill_nets: crate::train::config::DistillNets::Race,
                init_model: Some("t.net".into()),
                ..cfg.clone()
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn siblings_are_cached_with_their_origins() {
        let (eval, chunk) = two_game_chunk();
        let cfg = crate::train::TrainConfig {
            distill_teacher: Some("t.net".into()),
            target_ply: 1,
            siblings_per_chunk: 6,
            sibling_moves: 2,
            ..Default::default()
        };
        cfg.validate().unwrap();
        let dir = std::env::temp_dir().join(format!("kotra-siblings-{}", std::process::id()));
        let first = siblings_of(&chunk, &dir, 3, &eval, &cfg).unwrap();
        assert!(!first.is_empty() && first.len() <= 12, "{}", first.len());
        assert!(first.iter().all(|s| s.kind != NetKind::Race));
        // Read back, not searched again.
        let again = siblings_of(&chunk, &dir, 3, &eval, &cfg).unwrap();
        assert!(
            again
                .iter()
                .zip(&first)
                .all(|(a, b)| a.position == b.position && a.target == b.target)
                && again.len() == first.len()
        );
        // Another draw (another seed) under this cache is refused.
        let other = crate::train::TrainConfig {
            seed: 2,
            ..cfg.clone()
        };
        let err = siblings_of(&chunk, &dir, 3, &eval, &other)
            .unwrap_err()
            .to_string();
        assert!(err.contains("drawn sibling origins"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
        // The two fields go together, with search targets.
        for bad in [
            crate::train::TrainConfig {
                sibling_moves: 0,
                ..cfg.clone()
            },
            crate::train::TrainConfig {
                target_ply: 0,
                ..cfg.clone()
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_student_keeps_the_teachers_race_network() {
        let teacher = Model::random(16, 8, 4);
        let s = student(&teacher, 32, 8, 5);
        assert_eq!(s.race, teacher.race);
        assert_eq!(s.contact.hidden, 32);
        assert_eq!(s.contact.mid.as_ref().map(|m| m.units), Some(8));
        assert!(s.crashed.is_none());
        s.validate().unwrap();
    }

    #[test]
    fn a_refined_student_starts_from_its_initial_networks() {
        let mut init = Model::random(16, 8, 6).with_fresh_contact(24, 8, 7);
        init.crashed = Some(init.contact.clone());
        let s = refined_student(&init, false);
        assert_eq!((&s.contact, &s.race), (&init.contact, &init.race));
        assert!(s.crashed.is_none());
        assert_eq!(refined_student(&init, true).crashed, init.crashed);
        let cfg = crate::train::TrainConfig {
            distill_teacher: Some("teacher.net".into()),
            init_model: Some("init.net".into()),
            target_ply: 1,
            ..Default::default()
        };
        cfg.validate().unwrap();
    }
}
