//! `kotra-ai train` end to end on a tiny network: outputs, refusal to
//! overwrite, resume, survival of `kill -9`, and damaged checkpoints.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn kotra() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kotra-ai"))
}

fn run(args: &[&str]) -> Output {
    kotra().args(args).output().unwrap()
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tiny_config(dir: &Path, games: u64) -> PathBuf {
    let path = dir.join("tiny.json");
    std::fs::write(
        &path,
        format!(
            r#"{{"seed": 5, "contact_hidden": 8, "race_hidden": 8, "games": {games},
                "games_per_step": 20, "measure_every": 20, "measure_games": 10}}"#
        ),
    )
    .unwrap();
    path
}

/// `train --config CONFIG --out OUT --quiet`.
fn train_args<'a>(config: &'a Path, out: &'a Path) -> Vec<&'a str> {
    vec![
        "train",
        "--config",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]
}

fn train(config: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = train_args(config, out);
    args.extend_from_slice(&["--dev-set", "tests/data/dev-moves.jsonl"]);
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn trains_measures_and_resumes() {
    let dir = scratch_dir("train-resume");
    let config = tiny_config(&dir, 40);
    let out = dir.join("run");
    let o = train(&config, &out, &[]);
    assert!(o.status.success(), "{o:?}");
    for f in ["checkpoint.bin", "model.net", "curve.csv", "curve.png"] {
        assert!(out.join(f).exists(), "{f} missing");
    }
    let csv = std::fs::read_to_string(out.join("curve.csv")).unwrap();
    assert_eq!(
        csv.lines().count(),
        3,
        "header and two measurements:\n{csv}"
    );
    assert!(csv.lines().nth(2).unwrap().starts_with("40,"), "{csv}");

    // The model it wrote is a working model.
    let o = run(&[
        "analyze",
        "4HPwATDgc/ABMA",
        "--dice",
        "31",
        "--json",
        "--model",
        out.join("model.net").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");

    // A second start over the same folder is refused; --resume continues.
    let o = train(&config, &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
    let o = train(&config, &out, &["--resume", "--games", "60"]);
    assert!(o.status.success(), "{o:?}");
    let csv = std::fs::read_to_string(out.join("curve.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("trained 60 games"));

    // A new run can start from a trained model instead of random weights,
    // and give back games and crashed boards a network of their own.
    let refine = dir.join("refine.json");
    std::fs::write(
        &refine,
        format!(
            r#"{{"init_model": {:?}, "crashed_net": true, "move_noise": 0.2, "weight_average": 0.9, "games": 20, "games_per_step": 20, "measure_every": 20, "measure_games": 10}}"#,
            out.join("model.net")
        ),
    )
    .unwrap();
    let refined = dir.join("refined");
    let o = train(&refine, &refined, &[]);
    assert!(o.status.success(), "{o:?}");
    let o = train(&refine, &refined, &["--resume", "--games", "40"]);
    assert!(o.status.success(), "{o:?}");
    let o = run(&["model", refined.join("model.net").to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("self-play games: 100"), "{text}");
    assert!(text.contains("crashed network: 230-8-5"), "{text}");
    let bad = dir.join("bad-init.json");
    std::fs::write(&bad, r#"{"init_model": "/no/such/model.net"}"#).unwrap();
    let o = train(&bad, &dir.join("bad"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/no/such/model.net"));
}

#[test]
fn distils_a_teachers_search_and_refuses_damaged_positions() {
    let dir = scratch_dir("train-distill");
    let config = dir.join("distill.json");
    std::fs::write(
        &config,
        r#"{"distill_teacher": "models/kotra-v1.net", "target_ply": 1, "move_noise": 0.1,
            "contact_hidden": 16, "contact_mid": 8, "games": 6, "games_per_step": 4,
            "epochs": 2, "learning_rate": 1e-3, "learning_rate_end": 1e-4, "measure_games": 10,
            "hard_plan_weight": 2, "crashed_net": true}"#,
    )
    .unwrap();
    let out = dir.join("run");
    let o = train(&config, &out, &[]);
    assert!(o.status.success(), "{o:?}");
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("distilled 6 games"), "{said}");
    // Hard game plans count twice a pass.
    let (positions, samples) = set_sizes(&o);
    assert!(
        positions > 0 && samples > positions && samples <= 2 * positions,
        "{positions} positions, {samples} samples"
    );
    for chunk in ["00000.bin", "00001.bin"] {
        assert!(
            out.join("positions").join(chunk).exists(),
            "{chunk} missing"
        );
    }
    let csv = std::fs::read_to_string(out.join("curve.csv")).unwrap();
    assert_eq!(
        csv.lines().count(),
        3,
        "header and one row per epoch:\n{csv}"
    );
    // The student: two-layer contact and crashed networks, the teacher's
    // race network (kotra-v1's 198-64-5, widened to encoding version 4's
    // race inputs on load).
    let o = run(&["model", out.join("model.net").to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("contact network: 230-16-8-5"), "{text}");
    assert!(text.contains("race network: 220-64-5"), "{text}");
    assert!(text.contains("crashed network: 230-16-8-5"), "{text}");
    // Resuming a finished run changes nothing.
    let o = train(&config, &out, &["--resume"]);
    assert!(o.status.success(), "{o:?}");
    let again = std::fs::read_to_string(out.join("curve.csv")).unwrap();
    assert_eq!(again, csv);
    // A new run over a damaged chunk of positions says which file, once.
    std::fs::remove_file(out.join("checkpoint.bin")).unwrap();
    let chunk = out.join("positions").join("00001.bin");
    let bytes = std::fs::read(&chunk).unwrap();
    std::fs::write(&chunk, &bytes[..bytes.len() / 2]).unwrap();
    let o = train(&config, &out, &[]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("00001.bin") && err.contains("truncated"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// "N contact positions, M samples a pass" from a distillation's stderr.
fn set_sizes(o: &Output) -> (usize, usize) {
    let told = String::from_utf8_lossy(&o.stderr);
    let sizes: Vec<usize> = told
        .lines()
        .find(|l| l.ends_with("samples a pass"))
        .unwrap_or_else(|| panic!("no sizes line: {told}"))
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    let [positions, samples] = sizes[..] else {
        panic!("{sizes:?}")
    };
    (positions, samples)
}

#[test]
fn an_extra_set_is_the_games_of_its_own_seed_trained_weight_times() {
    let dir = scratch_dir("train-extra-set");
    let distil_by = |teacher: &str, name: &str, seed: u64, extra: &str| {
        let config = dir.join(format!("{name}.json"));
        std::fs::write(
            &config,
            format!(
                r#"{{"distill_teacher": "models/{teacher}.net", "target_ply": 1, "seed": {seed},
                    "move_noise": 0.1, "contact_hidden": 16, "contact_mid": 8, "games": 4,
                    "games_per_step": 4, "epochs": 1, "measure_games": 0{extra}}}"#
            ),
        )
        .unwrap();
        let out = dir.join(name);
        let o = train(&config, &out, &[]);
        assert!(o.status.success(), "{o:?}");
        // No games measured, so no duel figures are reported.
        let said = String::from_utf8_lossy(&o.stdout);
        assert!(said.contains("last measurement: dev "), "{said}");
        assert!(!said.contains("PubEval"), "{said}");
        (out, set_sizes(&o))
    };
    let distil = |name: &str, seed: u64, extra: &str| distil_by("kotra-v1", name, seed, extra);
    let (_, main) = distil("main", 3, "");
    let (alone, extra) = distil("alone", 5, "");
    let (both, sizes) = distil(
        "both",
        3,
        r#", "extra_sets": [{"seed": 5, "games": 4, "target_ply": 1, "weight": 2}]"#,
    );
    assert_eq!(sizes, (main.0 + extra.0, main.1 + 2 * extra.1));
    // The extra set's chunk is the one its seed plays as a main set.
    let chunk =
        |folder: &str, out: &Path| std::fs::read(out.join(folder).join("00000.bin")).unwrap();
    assert_eq!(chunk("positions-5-1-0", &both), chunk("positions", &alone));
    assert_ne!(chunk("positions", &both), chunk("positions", &alone));
    // With a teacher of its own, its games are that teacher's.
    let (by_v2, _) = distil_by("kotra-v2", "by-v2", 5, "");
    let (mixed, _) = distil(
        "mixed",
        3,
        r#", "extra_sets": [{"seed": 5, "games": 4, "target_ply": 1, "teacher": "models/kotra-v2.net"}]"#,
    );
    assert_eq!(chunk("positions-5-1-0", &mixed), chunk("positions", &by_v2));
    assert_ne!(chunk("positions-5-1-0", &mixed), chunk("positions", &alone));
    // A set that repeats another's games is refused.
    let twice = dir.join("twice.json");
    std::fs::write(
        &twice,
        r#"{"distill_teacher": "models/kotra-v1.net", "target_ply": 1, "extra_sets": [
            {"seed": 5, "games": 4, "target_ply": 2}, {"seed": 5, "games": 8, "target_ply": 2}]}"#,
    )
    .unwrap();
    let o = train(&twice, &dir.join("twice"), &[]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("extra_sets[1]"));
}

#[test]
fn resume_without_a_checkpoint_or_from_a_damaged_one_fails_cleanly() {
    let dir = scratch_dir("train-damaged");
    let config = tiny_config(&dir, 20);
    let out = dir.join("run");
    let o = train(&config, &out, &["--resume"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing to resume"));
    assert!(train(&config, &out, &[]).status.success());
    let ckpt = out.join("checkpoint.bin");
    let mut bytes = std::fs::read(&ckpt).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&ckpt, &bytes).unwrap();
    let o = train(&config, &out, &["--resume", "--games", "40"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("corrupt") && err.trim_end().lines().count() == 1,
        "{err}"
    );
    assert!(err.contains("checkpoint.bin: "), "names the file: {err}");
}

#[test]
fn a_run_killed_at_any_moment_resumes() {
    let dir = scratch_dir("train-kill");
    let config = tiny_config(&dir, 1_000_000);
    let out = dir.join("run");
    let mut child = kotra().args(train_args(&config, &out)).spawn().unwrap();
    let started = Instant::now();
    while !out.join("checkpoint.bin").exists() && started.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(50));
    }
    // Let it write a few more checkpoints, then kill it mid-step.
    std::thread::sleep(Duration::from_millis(700));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    // Whatever it was doing, the checkpoint on disk is whole and resumes.
    let o = train(&config, &out, &["--resume", "--games", "1"]);
    assert!(o.status.success(), "{o:?}");
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(
        leftovers.len() <= 2,
        "at most the files in flight are left over"
    );
}

/// The shard commands as a cluster's jobs run them: two shards, one of
/// them twice, a merge, training over the merged chunks; and the errors a
/// user meets (no teacher, a shard missing), each one line.
#[test]
fn shards_played_apart_train_like_one_process() {
    let dir = scratch_dir("train-shards");
    let config = dir.join("distill.json");
    std::fs::write(
        &config,
        r#"{"distill_teacher": "models/kotra-v1.net", "target_ply": 1, "move_noise": 0.1,
            "contact_hidden": 16, "games": 6, "games_per_step": 2, "epochs": 1,
            "measure_games": 10}"#,
    )
    .unwrap();
    let alone = dir.join("alone");
    assert!(train(&config, &alone, &[]).status.success());
    let shared = dir.join("shared");
    let shard = |index: &str| {
        run(&[
            "shard",
            "play",
            "--quiet",
            "--config",
            config.to_str().unwrap(),
            "--index",
            index,
            "--count",
            "2",
            "--dir",
            shared.to_str().unwrap(),
        ])
    };
    let merged = dir.join("merged");
    let merge = || {
        run(&[
            "shard",
            "merge",
            "--config",
            config.to_str().unwrap(),
            "--count",
            "2",
            "--dir",
            shared.to_str().unwrap(),
            "--out",
            merged.to_str().unwrap(),
        ])
    };
    let o = shard("1");
    assert!(o.status.success(), "{o:?}");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "shard 1 of 2: 1 chunks played, 0 found done"
    );
    let o = merge();
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("2 of 3 chunks are not in") && err.contains("shards 0 have not finished"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    for index in ["0", "0"] {
        assert!(shard(index).status.success());
    }
    let o = merge();
    assert!(o.status.success(), "{o:?}");
    assert!(train(&config, &merged, &[]).status.success());
    // The curve differs in its wall-clock column alone.
    for file in ["positions/00000.bin", "positions/00002.bin", "model.net"] {
        let read = |run: &Path| std::fs::read(run.join(file)).unwrap();
        assert!(read(&alone) == read(&merged), "{file} differs");
    }
    let td = tiny_config(&dir, 40);
    let o = run(&[
        "shard",
        "play",
        "--config",
        td.to_str().unwrap(),
        "--index",
        "0",
        "--count",
        "2",
        "--dir",
        shared.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no distill_teacher"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// The data-parallel learner end to end, alone and with each step's
/// games played during the step before's learning: the same model on one
/// thread and on three, and a run stopped part-way and resumed ends where
/// an unbroken one does. Overlapping changes the games (they are one step
/// behind), so the two runs' models differ.
#[test]
fn the_parallel_learner_is_the_same_on_any_thread_count_and_across_a_resume() {
    let mut models = Vec::new();
    for (name, overlap) in [("parallel", false), ("overlap", true)] {
        let dir = scratch_dir(&format!("train-{name}"));
        let config = dir.join("parallel.json");
        std::fs::write(
            &config,
            format!(
                r#"{{"seed": 5, "learner": "parallel", "overlap_play": {overlap},
                    "contact_hidden": 16, "race_hidden": 8, "games": 60,
                    "games_per_step": 20, "measure_every": 60, "measure_games": 10}}"#
            ),
        )
        .unwrap();
        let model_of = |out: &Path| std::fs::read(out.join("model.net")).unwrap();
        let with_threads = |threads: &str, out: &Path, extra: &[&str]| {
            let mut args = train_args(&config, out);
            args.extend_from_slice(extra);
            let o = kotra()
                .args(&args)
                .env("RAYON_NUM_THREADS", threads)
                .output()
                .unwrap();
            assert!(o.status.success(), "{o:?}");
        };
        let one = dir.join("one");
        with_threads("1", &one, &[]);
        let three = dir.join("three");
        with_threads("3", &three, &[]);
        assert!(
            model_of(&one) == model_of(&three),
            "{name}: thread count changed the model"
        );
        // Stopped after one step, then after two (a step's games played
        // ahead are lost with the process and played again on resume).
        let resumed = dir.join("resumed");
        with_threads("2", &resumed, &["--games", "20"]);
        assert!(model_of(&resumed) != model_of(&one));
        with_threads("2", &resumed, &["--resume", "--games", "40"]);
        with_threads("2", &resumed, &["--resume", "--games", "60"]);
        assert!(
            model_of(&resumed) == model_of(&one),
            "{name}: resume changed the model"
        );
        models.push(model_of(&one));
    }
    assert!(models[0] != models[1], "overlap_play changed nothing");
}
