//! The `kotra-ai` binary: outputs, JSON shapes, and one-line errors with
//! exit code 2 for bad input.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kotra-ai"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs a command that must succeed and print JSON.
fn run_json(args: &[&str]) -> serde_json::Value {
    let o = run(args);
    assert!(o.status.success(), "{o:?}");
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn assert_one_line_error(o: &Output, needle: &str) {
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(needle), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // A cause given once: an error whose message already quotes its
    // source must not also chain it, or `{:#}` says it twice.
    let clauses: Vec<&str> = err.trim_end().split(": ").collect();
    assert!(clauses.windows(2).all(|w| w[0] != w[1]), "{err}");
}

#[test]
fn show_prints_board_pips_and_ids() {
    let o = run(&["show", "4HPwATDgc/ABMA:cAkLAAAAAAAA"]);
    assert!(o.status.success());
    let s = stdout(&o);
    assert!(s.contains("pips 167"), "{s}");
    assert!(s.contains("X rolled 62"), "{s}");
    assert!(
        s.contains("XGID=-b----E-C---eE---c-e----B-:0:0:1:62:0:0"),
        "{s}"
    );
}

#[test]
fn moves_json_lists_every_move_with_its_after_id() {
    let v = run_json(&["moves", "4HPwATDgc/ABMA", "--dice", "31", "--json"]);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 16);
    assert!(
        moves
            .iter()
            .any(|m| m["move"] == "8/5 6/5" && m["position_id"] == "4HPwATCwZ/ABMA"),
        "{v}"
    );
}

#[test]
fn moves_take_xgid_and_its_dice() {
    let v = run_json(&[
        "moves",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
        "--json",
    ]);
    assert!(
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["move"] == "13/11 13/8"),
        "{v}"
    );
}

#[test]
fn analyze_ranks_moves_with_the_shipped_network() {
    let v = run_json(&["analyze", "4HPwATDgc/ABMA", "--dice", "31", "--json"]);
    assert_eq!(v["ply"], 2, "world class unless --ply says otherwise");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 16);
    assert_eq!(moves[0]["move"], "8/5 6/5", "{v}");
    assert_eq!(moves[0]["position_id"], "4HPwATCwZ/ABMA");
    let equities: Vec<f64> = moves
        .iter()
        .map(|m| m["equity"].as_f64().unwrap())
        .collect();
    assert!(
        equities.windows(2).all(|w| w[0] >= w[1]),
        "best first: {equities:?}"
    );
    for m in moves {
        let p: Vec<f64> = m["probs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(p.len(), 5);
        assert!(
            p[1] <= p[0] && p[2] <= p[1] && p[3] <= 1.0 - p[0] && p[4] <= p[3],
            "{p:?}"
        );
        let eq = 2.0 * p[0] - 1.0 + p[1] + p[2] - p[3] - p[4];
        assert!((eq - m["cubeless_equity"].as_f64().unwrap()).abs() < 1e-4);
        // The cube is worth something to the side that does not own it
        // next, so cubeful and cubeless differ, but not by much here.
        assert!((eq - m["equity"].as_f64().unwrap()).abs() < 0.3);
    }
    let text = stdout(&run(&["analyze", "4HPwATDgc/ABMA:cAkLAAAAAAAA"]));
    assert!(
        text.contains("8/5 6/5") || text.contains("legal moves with 62"),
        "{text}"
    );
    // Without dice: the cube decision. The opening position is no double, take.
    let v = run_json(&["analyze", "4HPwATDgc/ABMA", "--json"]);
    assert_eq!(v["ply"], 2);
    let cube = &v["cube"];
    assert_eq!(cube["action"], "no double", "{v}");
    assert_eq!(cube["take"], "take", "{v}");
    assert_eq!(cube["double_pass"], 1.0);
    assert!(v["cubeless_equity"].as_f64().unwrap().abs() < 0.25, "{v}");
    let nd = cube["no_double"].as_f64().unwrap();
    assert!(
        cube["double_take"].as_f64().unwrap() < nd && nd < 1.0,
        "{v}"
    );
    // A last-roll position with 34/36 to win: double, pass.
    let v = run_json(&["analyze", "AQAAIAAAAAAAAA", "--ply", "1", "--json"]);
    assert_eq!(v["cube"]["action"], "double/pass", "{v}");
    assert_eq!(v["cube"]["take"], "pass", "{v}");
}

#[test]
fn analyze_one_ply_agrees_on_the_opening_31() {
    let v = run_json(&[
        "analyze",
        "4HPwATDgc/ABMA",
        "--dice",
        "31",
        "--ply",
        "1",
        "--json",
    ]);
    assert_eq!(v["ply"], 1);
    assert_eq!(v["moves"][0]["move"], "8/5 6/5", "{v}");
}

#[test]
fn a_searching_rollout_reports_its_move_filter() {
    let args = [
        "rollout",
        "AQAAIAAAAAAAAA",
        "--trials",
        "36",
        "--truncate",
        "2",
        "--json",
    ];
    let v = run_json(&[&args[..], &["--ply", "1"]].concat());
    assert_eq!(v["move_filter"], "3:0.06", "{v}");
    assert!(v.get("middle_filter").is_none(), "no 1-ply pass: {v}");
    let v = run_json(&[&args[..], &["--ply", "1", "--filter", "8:0.16"]].concat());
    assert_eq!(v["move_filter"], "8:0.16", "{v}");
    let two_ply = |extra: &[&str]| {
        let mut a = args.to_vec();
        a[3] = "2";
        a.extend(["--ply", "2"]);
        a.extend(extra);
        run_json(&a)
    };
    let v = two_ply(&[]);
    assert_eq!(
        (&v["move_filter"], &v["middle_filter"]),
        (
            &"8:0.16".into(),
            &kotra::rollout::rollout_one_ply_pass(2).to_string().into()
        ),
        "{v}"
    );
    for pass in ["skip", "4:0.1"] {
        assert_eq!(two_ply(&["--middle", pass])["middle_filter"], pass);
        // A roll's candidates rolled out say the same.
        let v = two_ply(&["--middle", pass, "--dice", "31", "--candidates", "2"]);
        assert_eq!(
            (&v["move_filter"], &v["middle_filter"]),
            (&"8:0.16".into(), &pass.into()),
            "{v}"
        );
    }
    assert_one_line_error(
        &run(&[&args[..], &["--ply", "2", "--middle", "0:0.1"]].concat()),
        "skip or a move filter",
    );
    let v = run_json(&args);
    assert!(
        v.get("move_filter").is_none(),
        "0-ply play has no filter: {v}"
    );
    assert_one_line_error(
        &run(&[&args[..], &["--filter", "8"]].concat()),
        "KEEP:WINDOW",
    );
}

#[test]
fn duel_reports_points_per_game_as_json() {
    let v = run_json(&[
        "duel", "--a", "pubeval", "--b", "random", "--games", "40", "--seed", "3", "--json",
    ]);
    assert_eq!(v["games"], 40);
    assert!(v["ppg"].as_f64().unwrap() > 0.5, "{v}");
    assert!(v["se"].as_f64().unwrap() > 0.0);
    let v = run_json(&[
        "duel", "--a", "net", "--b", "random", "--games", "20", "--seed", "3", "--json",
    ]);
    assert!(v["ppg"].as_f64().unwrap() > 0.5, "{v}");
    assert_one_line_error(
        &run(&["duel", "--a", "gnubg", "--b", "random"]),
        "unknown player",
    );
    assert_one_line_error(&run(&["duel", "--a", "net@7", "--b", "random"]), "ply");
    for (flag, filter) in [("--filter-a", "0:0.1"), ("--filter-b", "3")] {
        let args = [
            "duel", "--cube", "--a", "net@1", "--b", "net@1", flag, filter,
        ];
        assert_one_line_error(&run(&args), "KEEP:WINDOW");
    }
    for (cube, flag, value, needle) in [
        (false, "--filter-a", "3:0.06", "--cube"),
        (false, "--prune-b", "5", "--cube"),
        (true, "--prune-a", "x", "--prune-a"),
        (false, "--cube-screen-a", "--games=2", "--cube"),
        (false, "--middle-b", "3:0.06", "--cube"),
        (true, "--middle-a", "3", "--middle-a"),
        (true, "--efficiency-a", "1.5", "cube efficiency"),
        (true, "--efficiency-b", "x", "cube efficiency"),
        (false, "--efficiency-b", "0.7", "--cube"),
        (true, "--stretch-a", "0.9", "log-odds"),
        (true, "--stretch-b", "x", "log-odds"),
        (false, "--stretch-a", "0.03", "--cube"),
    ] {
        let mut args = vec!["duel", "--a", "net@1", "--b", "net@1", flag, value];
        if cube {
            args.push("--cube");
        }
        assert_one_line_error(&run(&args), needle);
    }
}

#[test]
fn a_duel_with_the_cube_plays_two_networks() {
    // The shipped network against itself on mirrored dice: every pair
    // cancels, cube and all.
    let v = run_json(&[
        "duel", "--cube", "--a", "net", "--b", "net", "--games", "20", "--seed", "3", "--json",
    ]);
    assert_eq!(
        (v["games"].as_u64(), v["ppg"].as_f64()),
        (Some(20), Some(0.0)),
        "{v}"
    );
    assert!(v["luck_adjusted"].is_null(), "{v}");
    // With the luck removed as well: still a tie, and said so in JSON.
    let v = run_json(&[
        "duel", "--cube", "--a", "net", "--b", "net", "--games", "4", "--seed", "3", "--luck",
        "--json",
    ]);
    let adjusted = &v["luck_adjusted"];
    assert_eq!(
        (adjusted["games"].as_u64(), adjusted["ppg"].as_f64()),
        (Some(4), Some(0.0)),
        "{v}"
    );
    // Cubeless too, judged by the shipped network where B is PubEval;
    // only backgammon's duels count the luck.
    let v = run_json(&[
        "duel", "--a", "net", "--b", "pubeval", "--games", "4", "--seed", "3", "--luck", "--json",
    ]);
    let (played, adjusted) = (
        v["ppg"].as_f64().unwrap(),
        v["luck_adjusted"]["ppg"].as_f64(),
    );
    assert!(
        adjusted.is_some_and(|x| x.is_finite() && x != played),
        "{v}"
    );
    assert_one_line_error(
        &run(&[
            "--game",
            "icelandic-kotra",
            "duel",
            "--a",
            "net",
            "--b",
            "net",
            "--luck",
        ]),
        "backgammon",
    );
    // A 1-ply player whose cube turns are screened plays these games as
    // the unscreened one does: the screen skips only hopeless doubles.
    let v = run_json(&[
        "duel",
        "--cube",
        "--a",
        "net@1",
        "--b",
        "net@1",
        "--cube-screen-a",
        "--games",
        "20",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(
        (v["games"].as_u64(), v["ppg"].as_f64()),
        (Some(20), Some(0.0)),
        "{v}"
    );
    let v = run_json(&[
        "duel",
        "--cube",
        "--a",
        "net",
        "--b",
        "net:models/kotra-v1.net",
        "--games",
        "2000",
        "--seed",
        "3",
        "--json",
    ]);
    // The shipped network beats the first TD network. Games with the cube
    // are heavy-tailed (one cube of 64 outweighs dozens of games), so a
    // few dozen games decided nothing: 2,000 put the win three standard
    // errors above zero.
    let (ppg, se) = (v["ppg"].as_f64().unwrap(), v["se"].as_f64().unwrap());
    assert!(ppg > 2.0 * se, "{v}");
    assert_one_line_error(
        &run(&["duel", "--cube", "--a", "net", "--b", "pubeval"]),
        "plays two networks",
    );
    assert_one_line_error(
        &run(&[
            "--game",
            "icehouse-kotra",
            "duel",
            "--cube",
            "--a",
            "net",
            "--b",
            "net",
        ]),
        "for backgammon",
    );
}

#[test]
fn damaged_or_missing_model_files_are_refused_in_one_line() {
    let dir = scratch_dir("models");
    let missing = dir.join("none.net");
    assert_one_line_error(&analyze_with_model(&missing), "cannot read model file");
    let foreign = dir.join("foreign.net");
    std::fs::write(&foreign, b"{\"weights\": []}").unwrap();
    let o = analyze_with_model(&foreign);
    assert_one_line_error(&o, "not a kotra-ai model file");
    // The line names the file once and says what is wrong once.
    let line = String::from_utf8_lossy(&o.stderr);
    assert!(
        line.contains(&format!("{}: not a", foreign.display())),
        "{line}"
    );
    assert_eq!(
        line.matches("not a kotra-ai model file").count(),
        1,
        "{line}"
    );
    let good = std::fs::read("models/kotra.net").unwrap();
    let truncated = dir.join("truncated.net");
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    assert_one_line_error(&analyze_with_model(&truncated), "truncated");
    let spec = format!("net:{}", truncated.display());
    assert_one_line_error(&run(&["duel", "--a", &spec, "--b", "random"]), "truncated");
}

fn analyze_with_model(model: &std::path::Path) -> Output {
    run(&[
        "analyze",
        "4HPwATDgc/ABMA",
        "--dice",
        "31",
        "--model",
        model.to_str().unwrap(),
    ])
}

/// A fresh folder under the target directory for one test.
fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    assert_one_line_error(&run(&["show", "4HPwATDgc/AB"]), "14 characters");
    assert_one_line_error(&run(&["show", "4HPwATDgc/ABMA:cAkLAAAAAA"]), "Match ID");
    assert_one_line_error(
        &run(&[
            "show",
            "XGID=-b----E-C---eE---c-e----B-:0:0:3:52:0:0:0:0:10",
        ]),
        "turn",
    );
    assert_one_line_error(&run(&["moves", "4HPwATDgc/ABMA", "--dice", "71"]), "dice");
    assert_one_line_error(&run(&["moves", "4HPwATDgc/ABMA"]), "--dice");
    assert_one_line_error(&run(&["analyze", "4HPwATDgc/ABMA", "--dice", "07"]), "dice");
    assert_one_line_error(&run(&["analyze", "4HPwATDgc/ABMA", "--ply", "9"]), "--ply");
    assert_one_line_error(
        &run(&["rollout", "4HPwATDgc/ABMA", "--trials", "0"]),
        "--trials",
    );
    assert_one_line_error(
        &run(&["rollout", "4HPwATDgc/ABMA", "--truncate", "0"]),
        "--truncate",
    );
    assert_one_line_error(
        &run(&[
            "rollout",
            "4HPwATDgc/ABMA",
            "--dice",
            "31",
            "--candidates",
            "0",
        ]),
        "--candidates",
    );
    assert_one_line_error(
        &run(&[
            "rollout",
            "4HPwATDgc/ABMA:MAEAAAAAAAAE",
            "--model",
            "/no/such/model.net",
        ]),
        "/no/such/model.net",
    );
    assert_one_line_error(
        &run(&["bench", "movegen", "--positions", "/no/such/file"]),
        "/no/such/file",
    );
}

/// A short rollout of the opening position before the roll.
const OPENING_ROLLOUT: [&str; 6] = [
    "rollout",
    "4HPwATDgc/ABMA",
    "--trials",
    "36",
    "--truncate",
    "4",
];

#[test]
fn rollout_ranks_candidates_with_standard_errors() {
    let args = [
        "rollout",
        "4HPwATDgc/ABMA",
        "--dice",
        "31",
        "--trials",
        "72",
        "--truncate",
        "6",
        "--cubeful",
        "--json",
    ];
    let v = run_json(&args);
    let moves = v["moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{v}");
    assert_eq!(moves[0]["move"], "8/5 6/5", "{v}");
    let e = &moves[0]["cubeful_equity"];
    assert!(
        e["se"].as_f64().unwrap() > 0.0 && e["mean"].as_f64().unwrap() > 0.0,
        "{v}"
    );
    // The same seed gives the same numbers.
    assert_eq!(v, run_json(&args));
    let cube = run_json(&[OPENING_ROLLOUT.as_slice(), &["--cubeful", "--json"]].concat());
    assert_eq!(cube["cube"]["action"], "no double", "{cube}");
}

#[test]
fn a_cubeless_rollout_decides_the_cube_on_its_probabilities() {
    use kotra::backgammon::Position;
    use kotra::notation::position_id;
    let side = |points: &[(usize, u8)]| {
        let mut s = [0u8; 25];
        for &(point, n) in points {
            s[point - 1] = n;
        }
        s
    };
    let rolled = |mover: &[(usize, u8)], opponent: &[(usize, u8)]| {
        let pos = Position::from_sides(&side(mover), &side(opponent)).unwrap();
        let id = position_id::encode(&pos);
        run_json(&["rollout", &id, "--trials", "36", "--json"])
    };
    // Two checkers on the 1-point: the roller is off with any roll. With
    // the other side's fifteen still on its 6-point that is a gammon,
    // too good to double; with two of them off, a single win to cash.
    let gammon = rolled(&[(1, 2)], &[(6, 15)]);
    assert_eq!(gammon["probs"][1]["mean"], 1.0, "{gammon}");
    assert_eq!(gammon["cube"]["action"], "too good/pass", "{gammon}");
    assert_eq!(gammon["cube"]["no_double"], 2.0, "{gammon}");
    let single = rolled(&[(1, 2)], &[(6, 13)]);
    assert_eq!(single["probs"][1]["mean"], 0.0, "{single}");
    assert_eq!(single["cube"]["action"], "double/pass", "{single}");
    assert_eq!(single["cube"]["take"], "pass", "{single}");
    // The opening position is no double, and the decision is the
    // rollout's: another seed, other probabilities, other equities.
    let opening =
        |seed| run_json(&[OPENING_ROLLOUT.as_slice(), &["--seed", seed, "--json"]].concat());
    let (a, b) = (opening("1"), opening("2"));
    assert_eq!(a["cube"]["action"], "no double", "{a}");
    assert_ne!(a["cube"]["no_double"], b["cube"]["no_double"], "{a} {b}");
}

#[test]
fn analyze_in_a_match_speaks_match_winning_chances() {
    // 7-point match, X leads 3-2, X to roll before the opening position.
    let xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:2:0:7:10";
    let v = run_json(&["analyze", xgid, "--json"]);
    let mwc = v["mwc"].as_f64().unwrap();
    assert!(mwc > 0.5 && mwc < 0.7, "leader's chances: {v}");
    assert_eq!(v["cube"]["action"], "no double", "{v}");
    let v = run_json(&[
        "analyze",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:3:2:0:7:10",
        "--json",
    ]);
    let best = &v["moves"][0];
    assert!(best["mwc"].as_f64().unwrap() > 0.5, "{v}");
    // Crawford game, trailer to roll: the cube is dead, never a double.
    let v = run_json(&[
        "analyze",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:2:1:7:10",
        "--json",
    ]);
    assert_eq!(v["cube"]["action"], "no double", "{v}");
}

#[test]
fn a_missing_argument_is_named() {
    assert_one_line_error(&run(&["analyze"]), "<POSITION>");
    assert_one_line_error(&run(&["review"]), "<FILE>");
    assert_one_line_error(
        &run(&["review", "/nonexistent/match.mat"]),
        "cannot read /nonexistent/match.mat",
    );
}

#[test]
fn a_huge_bad_input_is_quoted_by_its_ends_only() {
    // A megabyte line of a match file, and a 100,000-character position:
    // the error names their starts, ends and lengths in one short line.
    let dir = scratch_dir("huge-input");
    let file = dir.join("junk.mat");
    let line = format!("start{}end", "x".repeat(1_000_000));
    std::fs::write(&file, &line).unwrap();
    let o = run(&["review", file.to_str().unwrap()]);
    assert_one_line_error(&o, "(1000008 characters)");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("\"startxxx") && err.contains("xxxend\""),
        "{err}"
    );
    assert!(err.len() < 400, "{} bytes", err.len());
    let position = "A".repeat(100_000);
    let o = run(&["analyze", &position]);
    assert_one_line_error(&o, "(100000 characters)");
    assert!(o.stderr.len() < 400, "{} bytes", o.stderr.len());
}

#[test]
fn long_matches_are_analysed_like_money_and_longer_ones_refused() {
    // Past the shipped table's 25 points the moves are still told apart
    // (every one was +0.000 when the table was clamped to its edge).
    let v = run_json(&[
        "analyze",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:26:10",
        "--ply",
        "0",
        "--json",
    ]);
    let moves = v["moves"].as_array().unwrap();
    let spread = moves[0]["equity"].as_f64().unwrap() - moves[4]["equity"].as_f64().unwrap();
    assert!(spread > 0.05, "{v}");
    // At 0-0 in a 31- and a 64-point match the opening cube decision is
    // money's, within a few hundredths.
    let cube = |length: &str| {
        let xgid = format!("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:{length}:10");
        run_json(&["analyze", &xgid, "--ply", "0", "--json"])["cube"].clone()
    };
    let money = cube("0");
    for length in ["31", "64"] {
        let c = cube(length);
        assert_eq!(c["action"], money["action"], "{c}");
        for key in ["no_double", "double_take"] {
            let (a, b) = (c[key].as_f64().unwrap(), money[key].as_f64().unwrap());
            assert!(
                (a - b).abs() < 0.03,
                "{length} {key}: {a} against money's {b}"
            );
        }
    }
    // One side 6 points up early in a 31-point match: a lead, not a pass.
    let v = run_json(&[
        "analyze",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:0:0:31:10",
        "--ply",
        "0",
        "--json",
    ]);
    assert_eq!(v["cube"]["action"], "no double", "{v}");
    let mwc = v["mwc"].as_f64().unwrap();
    assert!(mwc > 0.55 && mwc < 0.8, "{v}");
    let o = run(&[
        "analyze",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:65:10",
    ]);
    assert_one_line_error(&o, "at most 64 points");
    // A match file of 99,999 points: refused with its length, not
    // reviewed against the table's edge.
    let text = std::fs::read_to_string("tests/data/matches/3-pt-102.mat").unwrap();
    let long = text.replacen(" 3 point match", " 99999 point match", 1);
    let path = scratch_dir("long-match").join("long.mat");
    std::fs::write(&path, long).unwrap();
    let o = run(&["review", path.to_str().unwrap(), "--ply", "0"]);
    assert_one_line_error(&o, "99999-point match");
    // The same games read as a 31- and a 64-point match review with real
    // numbers (the table's edge once made every error and roll zero), the
    // weaker player still the weaker.
    let text = std::fs::read_to_string("tests/data/matches/7-pt-104.mat").unwrap();
    let rates = |length: &str| {
        let path = scratch_dir("long-match").join(format!("{length}.mat"));
        std::fs::write(
            &path,
            text.replacen(" 7 point match", &format!(" {length} point match"), 1),
        )
        .unwrap();
        let v = run_json(&["review", path.to_str().unwrap(), "--ply", "0", "--json"]);
        let players = v["players"].as_array().unwrap().clone();
        players
            .iter()
            .map(|p| {
                (
                    p["error_rate"].as_f64().unwrap(),
                    p["luck"].as_f64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let seven = rates("7");
    for length in ["31", "64"] {
        let long = rates(length);
        for (p, &(rate, luck)) in long.iter().enumerate() {
            assert!(rate > 1.0 && luck.abs() > 0.05, "{length}: {long:?}");
            assert!(
                (rate / seven[p].0).ln().abs() < 1.0,
                "{length}: {long:?} against 7 points' {seven:?}"
            );
        }
        assert_eq!(long[0].0 > long[1].0, seven[0].0 > seven[1].0);
    }
}

#[test]
fn model_race_from_swaps_only_the_race_network() {
    use kotra::eval::Model;
    let dir = scratch_dir("combine");
    let out = dir.join("combined.net");
    let o = run(&[
        "model",
        "models/kotra-v4.net",
        "--race-from",
        "models/kotra-v2.net",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let combined = Model::load(&out).unwrap();
    let contact_from = Model::load(std::path::Path::new("models/kotra-v4.net")).unwrap();
    let race_from = Model::load(std::path::Path::new("models/kotra-v2.net")).unwrap();
    assert_eq!(combined.contact, contact_from.contact);
    assert_eq!(combined.race, race_from.race);
    assert_ne!(
        combined.race, contact_from.race,
        "the race network did change"
    );
    assert!(combined.meta.description.contains("race network from"));
    assert_one_line_error(
        &run(&[
            "model",
            "--race-from",
            "models/kotra-v4.net",
            "--out",
            dir.join("x.net").to_str().unwrap(),
            dir.join("none.net").to_str().unwrap(),
        ]),
        "cannot read model file",
    );
}

/// The shipped network trained on every batch of the database by name:
/// `model` shows them as a count with the first and last, `--full` as the
/// file holds them.
#[test]
fn model_folds_the_databases_file_names_unless_full() {
    let folded = stdout(&run(&["model"]));
    let full = stdout(&run(&["model", "--full"]));
    let files = |s: &str| s.matches(".kpd").count();
    let batches = files(&full);
    assert!(batches >= 3, "{full}");
    assert_eq!(files(&folded), 2, "{folded}");
    assert!(
        folded.contains(&format!(
            "{batches} files of the position database training/data"
        )),
        "{folded}"
    );
    assert!(
        folded.len() * 5 < full.len(),
        "{} against {}",
        folded.len(),
        full.len()
    );
}

#[test]
fn every_depth_limit_is_the_facades_and_says_so() {
    for (args, words) in [
        (
            &["analyze", "4HPwATDgc/ABMA", "--ply", "4"][..],
            "--ply 4: 0 to 3",
        ),
        (
            &["score", "--ply", "3"][..],
            "--ply 3: a dev-set score is 0 to 2-ply",
        ),
        (
            &["--game", "icelandic-kotra", "analyze", "x", "--ply", "3"][..],
            "--ply 3: icelandic-kotra is analysed 0 to 2-ply",
        ),
        (
            &[
                "--game",
                "icehouse-kotra",
                "--players",
                "4",
                "analyze",
                "x",
                "--ply",
                "2",
            ][..],
            "--ply 2: four-player Icehouse Kotra is analysed 0 to 1-ply",
        ),
    ] {
        assert_one_line_error(&run(args), words);
    }
}

/// One row of `train-pruner`'s table: the name, then each keep's
/// (millipoints lost a roll, share of rolls whose best was dropped).
fn pruner_row(line: &str) -> (String, Vec<(f64, f64)>) {
    let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
    let misses = cells[1..]
        .iter()
        .map(|cell| {
            let (mp, share) = cell.split_once(" mp / ").expect(cell);
            (
                mp.parse().unwrap(),
                share.trim_end_matches('%').parse().unwrap(),
            )
        })
        .collect();
    (cells[0].to_owned(), misses)
}

#[test]
fn train_pruner_reports_every_pre_selection_and_writes_a_network() {
    let dir = scratch_dir("train-pruner");
    let out = dir.join("prune.net");
    let out_arg = out.to_str().unwrap();
    let o = run(&[
        "train-pruner",
        "--batches",
        "2",
        "--positions",
        "2000",
        "--epochs",
        "2",
        "--out",
        out_arg,
    ]);
    assert!(o.status.success(), "{o:?}");
    let table = stdout(&o);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[0],
        "| pre-selection | keep 2 | keep 3 | keep 4 | keep 5 | keep 6 | keep 8 |"
    );
    let rows: Vec<_> = lines[2..].iter().map(|l| pruner_row(l)).collect();
    let names: Vec<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "PubEval",
            "shipped network",
            "network, epoch 1",
            "network, epoch 2"
        ]
    );
    for (name, misses) in &rows {
        assert_eq!(misses.len(), 6, "{name}");
        // Keeping more of a ranking can only drop the best less often.
        assert!(
            misses
                .windows(2)
                .all(|w| w[1].0 <= w[0].0 && w[1].1 <= w[0].1),
            "{name}: {misses:?}"
        );
        assert!(
            misses
                .iter()
                .all(|&(mp, share)| mp >= 0.0 && (0.0..=100.0).contains(&share))
        );
    }
    // The shipped network was distilled for this job; PubEval was not.
    assert!(rows[1].1[2].0 < rows[0].1[2].0, "{rows:?}");
    let written = kotra::eval::prune_net::PruneWeights::load(&out);
    assert!(written.is_ok(), "{:?}", written.err());

    let missing = dir.join("no-such-database");
    assert_one_line_error(
        &run(&[
            "train-pruner",
            "--database",
            missing.to_str().unwrap(),
            "--out",
            out_arg,
        ]),
        "no-such-database",
    );
    assert_one_line_error(
        &run(&["train-pruner", "--batches", "1", "--out", out_arg]),
        "at least two batches",
    );
    for (option, zero) in [("--positions", "0"), ("--epochs", "0")] {
        assert_one_line_error(
            &run(&["train-pruner", option, zero, "--out", out_arg]),
            "must be at least 1",
        );
    }
}
