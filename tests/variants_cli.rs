//! `kotra-ai --game icelandic-kotra|icehouse-kotra ...`: the shared
//! commands on the two other games, their JSON, training with resume, and
//! one-line errors.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kotra-ai"))
        .args(args)
        .output()
        .unwrap()
}

fn ok_stdout(args: &[&str]) -> String {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {o:?}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok_stdout(args)).unwrap()
}

fn one_line_error(args: &[&str], needle: &str) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(needle), "{err}");
}

const ICE: &[&str] = &["--game", "icelandic-kotra"];
const HOUSE: &[&str] = &["--game", "icehouse-kotra"];

fn with(game: &[&str], rest: &[&str]) -> Vec<String> {
    game.iter().chain(rest).map(|s| s.to_string()).collect()
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn show_and_moves_follow_the_rules_files() {
    let s = ok_stdout(&args(&with(ICE, &["show", "start"])));
    assert!(
        s.contains("W15") && s.contains("B15") && s.contains("pips 360"),
        "{s}"
    );
    // T2 of the Icelandic rules: exactly two results.
    let v = json(&args(&with(
        ICE,
        &["moves", "start", "--dice", "35", "--json"],
    )));
    assert_eq!(v["moves"].as_array().unwrap().len(), 2);
    // IT1 of the Icehouse rules: 56 results.
    let v = json(&args(&with(
        HOUSE,
        &["moves", "start", "--dice", "13", "--json"],
    )));
    assert_eq!(v["moves"].as_array().unwrap().len(), 56);
}

#[test]
fn analyze_ranks_turns_and_shows_win_type_chances() {
    let v = json(&args(&with(
        ICE,
        &["analyze", "start", "--dice", "35", "--json"],
    )));
    assert_eq!(v["ply"], 1, "1-ply unless --ply says otherwise");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    let chances = moves[0]["chances"].as_object().unwrap();
    let total: f64 = chances
        .iter()
        .filter(|(k, _)| !k.contains("mar"))
        .map(|(_, p)| p.as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-3, "{chances:?}");
    assert!(moves[0]["equity"].as_f64().unwrap() >= moves[1]["equity"].as_f64().unwrap());

    // A won position: Meistari is one step away (T34).
    let won = "W: w x14 U F5; B: m15 U F5; W";
    let v = json(&args(&with(
        ICE,
        &["analyze", won, "--dice", "12", "--json"],
    )));
    assert_eq!(v["moves"][0]["equity"].as_f64().unwrap(), 13.0);

    let v = json(&args(&with(HOUSE, &["analyze", "start", "--json"])));
    assert_eq!(v["ply"], 1);
    let p = v["chances"]["win"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p));
    let v = json(&args(&with(
        HOUSE,
        &["analyze", "start", "--dice", "44", "--ply", "1", "--json"],
    )));
    assert_eq!(v["moves"].as_array().unwrap().len(), 276);
}

#[test]
fn trained_networks_beat_random_and_the_heuristic() {
    for game in [ICE, HOUSE] {
        for (b, floor) in [("random", 0.0), ("heuristic", 0.0)] {
            let v = json(&args(&with(
                game,
                &[
                    "duel", "--a", "net", "--b", b, "--games", "60", "--seed", "3", "--json",
                ],
            )));
            assert_eq!(v["games"], 60);
            let ppg = v["ppg"].as_f64().unwrap();
            assert!(
                ppg > floor + 2.0 * v["se"].as_f64().unwrap(),
                "{game:?} vs {b}: {v}"
            );
        }
    }
}

#[test]
fn four_player_search_reports_a_win_share() {
    let v = json(&[
        "--game",
        "icehouse-kotra",
        "--players",
        "4",
        "duel",
        "--a",
        "heuristic",
        "--b",
        "random",
        "--games",
        "8",
        "--json",
    ]);
    let share = v["win_share"].as_f64().unwrap();
    assert!(share > 0.5, "{v}");
    let s = ok_stdout(&[
        "--game",
        "icehouse-kotra",
        "--players",
        "4",
        "analyze",
        "start4",
        "--dice",
        "13",
    ]);
    assert_eq!(s.matches("<- max-n choice").count(), 1, "{s}");
    let v = json(&[
        "--game",
        "icehouse-kotra",
        "--players",
        "4",
        "moves",
        "start4",
        "--dice",
        "13",
        "--json",
    ]);
    // A pawn and a queen on two different squares of South's first row.
    assert_eq!(v["moves"].as_array().unwrap().len(), 56);
    assert!(v["maxn_choice"].as_u64().unwrap() < 56);
    // Each after-position has the next seat (West, after South) to move.
    for m in v["moves"].as_array().unwrap() {
        let after = m["position"].as_str().unwrap();
        assert!(after.ends_with("; W"), "{after}");
    }
    // Four-player analysis has no network and one search depth beyond
    // the greedy one: --model and deeper --ply are refused, --ply 0 is
    // the greedy choice.
    let four_analyze = |rest: &[&str]| -> Vec<String> {
        let head = [
            "--game",
            "icehouse-kotra",
            "--players",
            "4",
            "analyze",
            "start4",
            "--dice",
            "13",
        ];
        head.iter().chain(rest).map(|s| s.to_string()).collect()
    };
    one_line_error(&args(&four_analyze(&["--model", "Cargo.toml"])), "--model");
    one_line_error(&args(&four_analyze(&["--ply", "2"])), "--ply");
    let s = ok_stdout(&args(&four_analyze(&["--ply", "0"])));
    assert_eq!(s.matches("<- greedy choice").count(), 1, "{s}");
}

#[test]
fn training_writes_a_model_and_resumes() {
    let dir = std::env::temp_dir().join(format!("kotra-variant-train-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let config = dir.join("config.json");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        &config,
        r#"{"hidden":16,"games":20,"round_games":10,"lambda":0.7,"lr":0.001,"batch":64,"explore":0.0,"seed":3}"#,
    )
    .unwrap();
    let cfg = config.to_str().unwrap();
    let s = ok_stdout(&args(&with(
        HOUSE,
        &["train", "--config", cfg, "--out", out, "--quiet"],
    )));
    assert!(s.contains("trained 20 games"), "{s}");
    let s = ok_stdout(&args(&with(
        HOUSE,
        &[
            "train", "--resume", "--games", "30", "--out", out, "--quiet",
        ],
    )));
    assert!(s.contains("trained 30 games"), "{s}");
    let model = dir.join("model.net");
    let net = format!("net:{}", model.display());
    let v = json(&args(&with(
        HOUSE,
        &[
            "duel", "--a", &net, "--b", "random", "--games", "2", "--json",
        ],
    )));
    assert_eq!(v["games"], 2);
    // The model is for Icehouse Kotra: Icelandic Kotra refuses it in one line.
    one_line_error(
        &args(&with(ICE, &["duel", "--a", &net, "--b", "random"])),
        "not icelandic-kotra",
    );
    std::fs::write(&model, b"KOTRAGAM garbage").unwrap();
    one_line_error(
        &args(&with(HOUSE, &["duel", "--a", &net, "--b", "random"])),
        "model",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    one_line_error(&args(&with(ICE, &["show", "W: a14; B: m15; W"])), "15");
    one_line_error(
        &args(&with(ICE, &["moves", "start", "--dice", "37"])),
        "--dice",
    );
    one_line_error(
        &args(&with(HOUSE, &["moves", "start", "--dice", "15"])),
        "--dice",
    );
    one_line_error(&args(&with(HOUSE, &["show", "S: Pz9; N: ; S"])), "Pz9");
    one_line_error(
        &args(&with(ICE, &["duel", "--a", "pubeval", "--b", "random"])),
        "unknown player",
    );
    one_line_error(&args(&with(ICE, &["score"])), "backgammon only");
    one_line_error(&["--players", "4", "show", "start"], "--players");
}

#[test]
fn rollouts_play_positions_and_turns_out_reproducibly() {
    let position = json(&args(&with(
        ICE,
        &["rollout", "start", "--trials", "72", "--json"],
    )));
    assert_eq!(position["trials"], 72);
    // Luck adjustment pays here only for searching trials.
    assert_eq!(position["variance_reduction"], false);
    let share = |v: &serde_json::Value, k: &str| v[k]["mean"].as_f64().unwrap();
    let (wins, losses) = (share(&position, "wins"), share(&position, "losses"));
    assert!(wins > 0.0 && losses > 0.0 && wins + losses <= 1.0 + 1e-9);
    assert!(position["points"]["se"].as_f64().unwrap() > 0.0);
    // The same seed gives the same figures, another seed others.
    let again = json(&args(&with(
        ICE,
        &["rollout", "start", "--trials", "72", "--json"],
    )));
    assert_eq!(position, again);
    let other = json(&args(&with(
        ICE,
        &[
            "rollout", "start", "--trials", "72", "--seed", "2", "--json",
        ],
    )));
    assert_ne!(position, other);
    // With dice: the best turns at 0-ply, ranked by their rollouts.
    let turns = json(&args(&with(
        HOUSE,
        &[
            "rollout",
            "start",
            "--dice",
            "44",
            "--trials",
            "16",
            "--candidates",
            "3",
            "--json",
        ],
    )));
    let moves = turns["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    let points: Vec<f64> = moves
        .iter()
        .map(|m| m["points"]["mean"].as_f64().unwrap())
        .collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
    // What a rollout cannot do for these games is refused in one line.
    one_line_error(
        &args(&with(
            &["--game", "icelandic-kotra", "--equalizing-throw"],
            &["rollout", "start"],
        )),
        "first turn",
    );
    one_line_error(
        &args(&with(HOUSE, &["rollout", "start", "--cubeful"])),
        "--cubeful",
    );
    one_line_error(
        &args(&with(HOUSE, &["rollout", "start", "--trials", "0"])),
        "--trials",
    );
}
