//! What a hostile probe of the command line and the UBGI engine found
//! (issue "every answer consistent, every input checked"): each test here
//! failed before its fix.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kotra-ai"))
        .args(args)
        .output()
        .unwrap()
}

fn run_json(args: &[&str]) -> serde_json::Value {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {o:?}");
    serde_json::from_slice(&o.stdout).unwrap()
}

fn assert_one_line_error(args: &[&str], needle: &str) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kotra-probe-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The best move's equity and win-gammon chance of a rollout with dice.
fn rollout_best(extra: &[&str]) -> (f64, f64) {
    let mut args = vec![
        "rollout",
        "4P8PAAABAAAAAA",
        "--dice",
        "21",
        "--trials",
        "36",
        "--json",
    ];
    args.extend_from_slice(extra);
    let v = run_json(&args);
    let best = &v["moves"][0];
    let equity = best["cubeful_equity"]["mean"]
        .as_f64()
        .or(best["equity"]["mean"].as_f64())
        .unwrap();
    (equity, best["probs"][1]["mean"].as_f64().unwrap())
}

#[test]
fn a_move_that_ends_the_game_with_a_gammon_rolls_out_as_a_gammon() {
    // The mover bears off its last checker while the opponent has none
    // off: a gammon, worth 2, as analyze says at every ply.
    for ply in ["0", "1", "2"] {
        let v = run_json(&[
            "analyze",
            "4P8PAAABAAAAAA",
            "--dice",
            "21",
            "--ply",
            ply,
            "--json",
        ]);
        assert!(
            (v["moves"][0]["equity"].as_f64().unwrap() - 2.0).abs() < 1e-6,
            "{v}"
        );
    }
    for extra in [
        &[][..],
        &["--no-variance-reduction"],
        &["--truncate", "3"],
        &["--cubeful"],
        &["--ply", "1"],
    ] {
        let (equity, gammons) = rollout_best(extra);
        assert!((equity - 2.0).abs() < 1e-9, "{extra:?}: {equity}");
        assert!((gammons - 1.0).abs() < 1e-9, "{extra:?}: {gammons}");
    }
    let v = run_json(&[
        "rollout",
        "4P8PAAAFAAAAAA",
        "--dice",
        "21",
        "--trials",
        "36",
        "--json",
    ]);
    assert!(
        (v["moves"][0]["equity"]["mean"].as_f64().unwrap() - 2.0).abs() < 1e-9,
        "{v}"
    );
}

#[test]
fn icelandic_rollouts_of_a_last_turn_agree_with_analyze() {
    // White bears off its last stone with any throw: an Úttekt, 2 points.
    let pos = "W: x1 off14; B: m15; W";
    let ice = ["--game", "icelandic-kotra"];
    let with = |rest: &[&str]| -> serde_json::Value {
        let args: Vec<&str> = ice.iter().chain(rest).copied().collect();
        run_json(&args)
    };
    let analyzed = with(&["analyze", pos, "--json"])["equity"]
        .as_f64()
        .unwrap();
    assert!((analyzed - 2.0).abs() < 1e-6, "{analyzed}");
    for ply in ["0", "1"] {
        let v = with(&["rollout", pos, "--trials", "36", "--ply", ply, "--json"]);
        assert!(
            (v["points"]["mean"].as_f64().unwrap() - analyzed).abs() < 1e-9,
            "{v}"
        );
        let v = with(&[
            "rollout", pos, "--dice", "31", "--trials", "36", "--ply", ply, "--json",
        ]);
        assert!(
            (v["moves"][0]["points"]["mean"].as_f64().unwrap() - analyzed).abs() < 1e-9,
            "{v}"
        );
    }
}

#[test]
fn finished_games_are_refused_by_every_analysis() {
    for id in ["4P8PAAAAAAAAAA", "AAAAwP8fAAAAAA"] {
        for args in [
            &["analyze", id][..],
            &["analyze", id, "--ply", "0"],
            &["analyze", id, "--dice", "31"],
            &["rollout", id, "--trials", "36"],
            &["rollout", id, "--dice", "31", "--trials", "36"],
            &["moves", id, "--dice", "31"],
        ] {
            assert_one_line_error(args, "the game is over");
        }
        // Shown, though: the board after a winning move is a valid
        // thing to draw (what a move list links to), not to analyse.
        let o = run(&["show", id]);
        assert!(o.status.success(), "{o:?}");
        assert!(String::from_utf8_lossy(&o.stdout).contains("Game over: "));
    }
    assert_one_line_error(
        &[
            "--game",
            "icelandic-kotra",
            "rollout",
            "W: off15; B: m15; B",
            "--trials",
            "10",
        ],
        "the game is over",
    );
    // Icehouse Kotra: a scored pawn or a whole size scored ends the game
    // (rules §7), though the text does not say who ended it; the rollout
    // gave such a game to the side that lost.
    for finished in [
        "S: Qe7 Db7 stash=0,1,0 scored=0,0,4; N: Qf2 scored=1,3,3; S",
        "S: Db7 scored=0,0,5; N: Qf2 scored=0,3,3; N",
    ] {
        for command in ["analyze", "rollout", "show"] {
            assert_one_line_error(
                &["--game", "icehouse-kotra", command, finished],
                "the game is over",
            );
        }
    }
    let replies = ubgi("ubgi\nposition gnubgid 4P8PAAAAAAAAAA\ngo cube\nquit\n");
    assert!(
        replies
            .iter()
            .any(|l| l.starts_with("error bad_value") && l.contains("the game is over")),
        "{replies:?}"
    );
    assert!(
        !replies.iter().any(|l| l.starts_with("bestcube")),
        "{replies:?}"
    );
}

#[test]
fn impossible_match_states_are_refused_with_the_reason() {
    // 32,768 points does not fit the Match ID's 15 bits.
    assert_one_line_error(
        &[
            "show",
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:32768:10",
        ],
        "at most 32767",
    );
    // A double pending while the player to take already owns the cube.
    assert_one_line_error(&["analyze", "4HPwATDgc/ABMA:ERkAAAAAAAAE"], "owns the cube");
    // Crawford in money play (the Match ID's bit 7; an XGID's flag means
    // Jacoby in money), and at 0-0 of a 7-point match.
    let crawford_money = match_id(CENTRED_ON_ROLL | 1 << 7);
    assert_one_line_error(
        &["analyze", &format!("4HPwATDgc/ABMA:{crawford_money}")],
        "Crawford",
    );
    assert_one_line_error(
        &[
            "analyze",
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:1:7:10",
        ],
        "Crawford",
    );
    // Game states other than playing: over (2) and resigned (3), as
    // gnubg writes them into the Match ID (bits 8-10).
    for state in [2u128, 3, 0] {
        let id = match_id(CENTRED_ON_ROLL & !(1 << 8) | state << 8);
        assert_one_line_error(&["analyze", &format!("4HPwATDgc/ABMA:{id}")], "game state");
    }
    // The Crawford game itself at 6-3 of a 7-point match is fine.
    let o = run(&[
        "show",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:3:1:7:10",
    ]);
    assert!(o.status.success(), "{o:?}");
}

/// A money game's Match ID key: cube 1 centred (3 in bits 4-5), player 1
/// on roll (bit 6) and to act (bit 11), game state 1, playing (bits 8-10).
const CENTRED_ON_ROLL: u128 = (3 << 4) | (1 << 6) | (1 << 8) | (1 << 11);

/// The 12 characters of a Match ID key, as gnubg writes them.
fn match_id(key: u128) -> String {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes = key.to_le_bytes();
    let mut bits = String::new();
    for b in &bytes[..9] {
        bits.push_str(&format!("{b:08b}"));
    }
    bits.as_bytes()
        .chunks(6)
        .map(|c| B64[usize::from_str_radix(std::str::from_utf8(c).unwrap(), 2).unwrap()] as char)
        .collect()
}

#[test]
fn the_match_id_helper_writes_gnubg_ids() {
    // gnubg's Match ID of a money game, player 1 on roll, before the dice.
    assert_eq!(match_id(CENTRED_ON_ROLL), "cAkAAAAAAAAA");
}

#[test]
fn a_zero_filled_bear_off_cache_is_rebuilt() {
    let dir = scratch("cache");
    let analyze = || {
        let o = Command::new(env!("CARGO_BIN_EXE_kotra-ai"))
            .args(["analyze", "EwAAsAEAAAAAAA", "--ply", "0", "--json"])
            .env("KOTRA_CACHE_DIR", &dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{o:?}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["probs"][0].as_f64().unwrap()
    };
    let fresh = analyze();
    assert!((fresh - 0.88).abs() < 0.01, "{fresh}");
    let mut damaged = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let mut bytes = std::fs::read(&path).unwrap();
        // Keep the frame's header, zero the tables.
        bytes[28..].fill(0);
        std::fs::write(&path, &bytes).unwrap();
        damaged += 1;
    }
    assert!(damaged >= 1);
    assert_eq!(analyze(), fresh);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_training_configs_and_overwrites_are_refused() {
    let dir = scratch("train");
    for (body, needle) in [
        (r#"{"measure_every": 0, "games": 10}"#, "measure_every"),
        (r#"{"learning_rate": 1e30, "games": 10}"#, "learning_rate"),
    ] {
        let config = dir.join("c.json");
        std::fs::write(&config, body).unwrap();
        let out = dir.join("run");
        assert_one_line_error(
            &[
                "train",
                "--config",
                config.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
            needle,
        );
    }
    let config = dir.join("g.json");
    std::fs::write(
        &config,
        r#"{"hidden":16,"games":10,"round_games":10,"lambda":0.7,"lr":1e30,"batch":64,"explore":0.0,"seed":3}"#,
    )
    .unwrap();
    assert_one_line_error(
        &[
            "--game",
            "icehouse-kotra",
            "train",
            "--config",
            config.to_str().unwrap(),
            "--out",
            dir.join("v").to_str().unwrap(),
        ],
        "lr",
    );
    // A finished run of either variant is not overwritten without --resume.
    std::fs::write(
        &config,
        r#"{"hidden":8,"games":4,"round_games":2,"lambda":0.7,"lr":0.001,"batch":16,"explore":0.0,"seed":3}"#,
    )
    .unwrap();
    let out = dir.join("v");
    let train = [
        "--game",
        "icehouse-kotra",
        "train",
        "--quiet",
        "--config",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    assert!(run(&train).status.success());
    let model = std::fs::read(out.join("model.net")).unwrap();
    assert_one_line_error(&train, "--resume");
    assert_eq!(std::fs::read(out.join("model.net")).unwrap(), model);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn ubgi(input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kotra-ai"))
        .arg("ubgi")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn ubgi_caps_line_length_and_echoes_a_short_prefix() {
    let huge = format!("position gnubgid {}\n", "A".repeat(5_000_000));
    let long_id = format!("position gnubgid {}\n", "B".repeat(3_000));
    let replies = ubgi(&format!("ubgi\n{huge}{long_id}isready\nquit\n"));
    let errors: Vec<_> = replies.iter().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 2, "{replies:?}");
    assert!(errors[0].contains("longer than"), "{}", errors[0]);
    for e in &errors {
        assert!(e.len() < 300, "{} bytes", e.len());
    }
    assert_eq!(replies.last().unwrap(), "readyok");
}

#[test]
fn the_command_line_as_people_type_it() {
    // Parser errors in one line, negative numbers and dashes read as values.
    assert_one_line_error(&["analyze", "4HPwATDgc/ABMA", "--bogus"], "--bogus");
    assert_one_line_error(&["analyze"], "required");
    assert_one_line_error(&["analyze", "4HPwATDgc/ABMA", "--dice", "-31"], "--dice");
    assert_one_line_error(&["analyze", "4HPwATDgc/ABMA", "--ply", "-1"], "--ply");
    assert_one_line_error(
        &["duel", "--a", "net", "--b", "random", "--games", "-5"],
        "--games",
    );
    let o = run(&["show", "-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"]);
    assert!(o.status.success(), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("rolled 52"));
    // Icelandic rules belong to Icelandic Kotra only.
    assert_one_line_error(
        &["--little-master", "show", "4HPwATDgc/ABMA"],
        "--little-master",
    );
    assert_one_line_error(
        &[
            "--game",
            "icehouse-kotra",
            "--bonus-throws",
            "5",
            "show",
            "start",
        ],
        "--bonus-throws",
    );
    // A measurement needs a finite, positive duration.
    for seconds in ["inf", "nan", "0", "-1"] {
        assert_one_line_error(&["bench", "eval", "--seconds", seconds], "--seconds");
    }
    // Help still prints whole, with exit 0.
    let o = run(&["analyze", "--help"]);
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("--ply"));
}

#[test]
fn tables_have_headers_and_percentages_never_print_negative() {
    // A bear-off the side on roll wins for sure: its losing chances are 0.
    for args in [
        &["analyze", "EwAAsAEAAAAAAA"][..],
        &["analyze", "EwAAsAEAAAAAAA", "--dice", "66"],
        &["rollout", "EwAAsAEAAAAAAA", "--trials", "36"],
        &[
            "rollout",
            "EwAAsAEAAAAAAA",
            "--dice",
            "66",
            "--trials",
            "36",
        ],
    ] {
        let o = run(args);
        assert!(o.status.success(), "{args:?}: {o:?}");
        let s = String::from_utf8_lossy(&o.stdout);
        assert!(!s.contains("-0.0") && !s.contains("-0.1"), "{args:?}: {s}");
        assert!(s.contains("win") && s.contains("lbg"), "{args:?}: {s}");
    }
    // The model's description names no folder of the training machine.
    let o = run(&["model"]);
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(!s.contains("/work/") && !s.contains("/tmp/"), "{s}");
}

/// Inputs the fuzzers (fuzz/) crashed on, kept as regression tests: a
/// model file whose weight array does not fit its sizes (a slice out of
/// range while upgrading its encoding), a game model whose length field
/// asked for exabytes (the process aborted), and UBGI lines of multi-byte
/// garbage whose echo made a 406-byte error line.
#[test]
fn what_the_fuzzers_found_is_refused_cleanly() {
    let data = |name: &str| {
        std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/fuzz-crashes")
                .join(name),
        )
        .unwrap()
    };
    assert!(kotra::eval::Model::from_bytes(&data("model_file.bin")).is_err());
    let game_model = data("game_model_file.bin");
    for (game, inputs, outputs) in [("icelandic-kotra", 206, 20), ("icehouse-kotra", 396, 1)] {
        assert!(
            kotra::eval::game_net::GameModel::from_bytes(&game_model, game, inputs, outputs)
                .is_err()
        );
    }
    let text = String::from_utf8_lossy(&data("ubgi.txt")).replace("engine.ply", "engine.plyx");
    for line in ubgi(&text) {
        assert!(line.len() < 300, "{} bytes: {line}", line.len());
    }
}
