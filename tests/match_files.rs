//! The `.mat` reader on matches GNU Backgammon played and exported
//! (`scripts/gnubg_matches.py`, tests/data/matches/), and on hand-made
//! files for the format's quirks and for bad input.

use kotra::notation::mat::{Action, parse, write};
use kotra::notation::match_replay::replay;

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/matches")
            .join(name),
    )
    .unwrap()
}

#[test]
fn every_gnubg_match_replays_to_its_end_with_the_score_adding_up() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/matches");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "mat") {
            continue;
        }
        files += 1;
        let record = parse(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (mut moves, mut cube_actions, mut wins) = (0, 0, [0u32; 2]);
        replay(&record, |r| match &r.action {
            Action::Move { .. } => moves += 1,
            _ => cube_actions += 1,
        })
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for game in &record.games {
            for (_, _, a) in &game.actions {
                if let Action::Win { player, points } = a {
                    wins[*player as usize] += points;
                }
            }
        }
        assert!(moves > 10, "{}", path.display());
        if record.length > 0 {
            // The match is won: one player reached the length.
            assert!(
                wins.iter().any(|&w| w >= record.length),
                "{}: {wins:?}",
                path.display()
            );
        }
    }
    assert!(files >= 8, "{files} fixtures");
}

#[test]
fn a_money_session_carries_beavers_and_a_match_its_crawford_game() {
    let money = parse(&fixture("money-201.mat")).unwrap();
    assert_eq!(money.length, 0);
    assert!(
        money.games[0]
            .actions
            .iter()
            .any(|(_, _, a)| matches!(a, Action::Beaver { value: 4, .. }))
    );
    replay(&money, |_| {}).unwrap();
    // The 7-point match reaches a Crawford game; the referee refuses a
    // double in it, so the replay passing means none was offered there.
    let seven = parse(&fixture("7-pt-104.mat")).unwrap();
    let mut crawford_games = std::collections::BTreeSet::new();
    replay(&seven, |r| {
        if r.before.crawford {
            crawford_games.insert(r.game);
        }
    })
    .unwrap();
    assert_eq!(crawford_games.len(), 1, "{crawford_games:?}");
}

const QUIRKS: &str = "; [Site \"somewhere\"]
; [Event \"hand-made\"]

 5 point match

 Game 1
 Alice : 0                          Bob : 0
  1)                                 31: 8/5 6/5
  2) 64: 24/18 13/9                  66: 24/18(2) 13/7*(2)
  3) 21: 25/23* 24/23                 Doubles => 2
  4)  Takes                          54: 13/8 13/9
";

#[test]
fn quirks_of_the_writers_are_read() {
    // The right-hand player starts; `(2)` repeats; `25` for the bar, `*`
    // hits; a game left unfinished at the end of the file is accepted
    // (a match in progress).
    let m = parse(QUIRKS).unwrap();
    assert_eq!(m.players, ["Alice".to_string(), "Bob".to_string()]);
    let mut positions = Vec::new();
    replay(&m, |r| positions.extend(r.after)).unwrap();
    assert_eq!(positions.len(), 5);
}

#[test]
fn names_of_any_letters_and_tab_separated_columns_read_the_same() {
    // The same match as gnubg wrote it, with Icelandic names padded by
    // characters or by bytes (a C writer's `%-28s`), and with a tab
    // between the columns: every action goes to the same player.
    let original = fixture("3-pt-102.mat");
    let reference = parse(&original).unwrap();
    let renamed = |by_bytes: bool| {
        original
            .lines()
            .map(|line| {
                let Some(right) = line.find("root :") else {
                    return line.to_string();
                };
                let score = |part: &str| part.rsplit(':').next().unwrap().trim().to_string();
                let (left, right) = (&line[..right], &line[right..]);
                let mut l = format!(" Þórður Ívar : {}", score(left));
                let width = |t: &str| if by_bytes { t.len() } else { t.chars().count() };
                while width(&l) < 33 {
                    l.push(' ');
                }
                format!("{l}Jón Þór : {}", score(right))
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let tabbed: String = original
        .lines()
        .map(|line| match line.find(')') {
            Some(at) if line.len() > 33 && line[..at].trim().parse::<u32>().is_ok() => {
                format!("{}\t{}", line[..33].trim_end(), &line[33..])
            }
            _ => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    for (what, text) in [
        ("padded by characters", renamed(false)),
        ("padded by bytes", renamed(true)),
        ("tab-separated", tabbed),
    ] {
        let m = parse(&text).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(m.games.len(), reference.games.len(), "{what}");
        for (g, r) in m.games.iter().zip(&reference.games) {
            let actions: Vec<_> = g.actions.iter().map(|a| &a.2).collect();
            let expected: Vec<_> = r.actions.iter().map(|a| &a.2).collect();
            assert_eq!(actions, expected, "{what}, game {}", g.number);
        }
        if what != "tab-separated" {
            assert_eq!(
                m.players,
                ["Þórður Ívar".to_string(), "Jón Þór".to_string()]
            );
        }
        replay(&m, |_| {}).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
}

#[test]
fn bad_files_are_refused_with_game_move_and_line() {
    let cases: &[(&str, &str, &str)] = &[
        // An illegal move.
        (
            "2) 64: 24/18 13/9",
            "2) 64: 24/18 13/8",
            "game 1, move 2, line 9",
        ),
        // A double out of turn: Alice has just moved, Bob is on roll.
        (
            "3) 21: 25/23* 24/23                 Doubles => 2",
            "3) 21: 25/23* 24/23\n  4)  Doubles => 2",
            "out of turn",
        ),
        // A cube value that does not follow.
        ("Doubles => 2", "Doubles => 4", "the cube makes it 2"),
        // A score line that does not add up with the games before.
        (
            " Alice : 0                          Bob : 0",
            " Alice : 1                          Bob : 0",
            "add up",
        ),
        // Not a match file at all.
        (" 5 point match", " five point match", "match length"),
        // Another game on the same board.
        (
            "; [Site \"somewhere\"]",
            "; [Site \"somewhere\"]\n; [Variation \"Nackgammon\"]",
            "Nackgammon",
        ),
    ];
    // gnubg allows raccoons by default; the rules here do not
    // (docs/rules/backgammon.md, 12.2).
    let raccoon = fixture("money-201.mat").replacen(
        "Beavers => 4\n",
        "Beavers => 4\n 18)  Beavers => 8\n",
        1,
    );
    let e = parse(&raccoon)
        .and_then(|m| replay(&m, |_| {}))
        .unwrap_err();
    assert!(e.to_string().contains("raccoon"), "{e}");
    for (from, to, needle) in cases {
        let text = QUIRKS.replace(from, to);
        let e = parse(&text).and_then(|m| replay(&m, |_| {})).expect_err(to);
        assert!(e.to_string().contains(needle), "{to}: {e}");
    }
}

#[test]
fn a_written_match_reads_back_the_same_and_replays() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/matches");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "mat") {
            continue;
        }
        let record = parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let again = parse(&write(&record)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // The same games, players and actions (line numbers aside).
        assert_eq!(again.length, record.length);
        assert_eq!(again.players, record.players);
        assert_eq!(again.games.len(), record.games.len());
        for (a, b) in again.games.iter().zip(&record.games) {
            assert_eq!(a.score, b.score, "{}", path.display());
            let actions = |g: &kotra::notation::mat::GameRecord| -> Vec<Action> {
                g.actions.iter().map(|x| x.2.clone()).collect()
            };
            assert_eq!(
                actions(a),
                actions(b),
                "{} game {}",
                path.display(),
                a.number
            );
        }
        replay(&again, |_| {}).unwrap();
    }
}

#[test]
fn a_duel_saves_its_games_as_a_session_that_replays_to_its_result() {
    let dir = std::env::temp_dir().join(format!("kotra-duel-mat-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_kotra-ai"))
        .args([
            "duel", "--a", "net", "--b", "pubeval", "--games", "20", "--seed", "4",
        ])
        .args(["--json", "--save-games", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let record = parse(&std::fs::read_to_string(dir.join("duel.mat")).unwrap()).unwrap();
    assert_eq!(record.length, 0);
    assert_eq!(record.players, ["net".to_string(), "pubeval".to_string()]);
    assert_eq!(record.games.len(), 20);
    replay(&record, |_| {}).unwrap();
    // A's points over the session are the duel's ppg times its games.
    let mut net = 0i64;
    for game in &record.games {
        for (_, _, a) in &game.actions {
            if let Action::Win { player, points } = a {
                net += if *player == 0 {
                    *points as i64
                } else {
                    -(*points as i64)
                };
            }
        }
    }
    assert!((net as f64 / 20.0 - v["ppg"].as_f64().unwrap()).abs() < 1e-9);
    // The same session as gnubg's .sgf: the same games, action for action.
    let sgf = kotra::notation::sgf::parse(&std::fs::read_to_string(dir.join("duel.sgf")).unwrap())
        .unwrap();
    assert_eq!(sgf.games.len(), 20);
    let actions = |r: &kotra::notation::mat::MatchRecord| -> Vec<Action> {
        r.games
            .iter()
            .flat_map(|g| g.actions.iter().map(|a| a.2.clone()))
            .filter(|a| !matches!(a, Action::Move { .. }))
            .collect()
    };
    assert_eq!(actions(&sgf), actions(&record));
    let mut moves = [0, 0];
    replay(&sgf, |r| moves[0] += usize::from(r.after.is_some())).unwrap();
    replay(&record, |r| moves[1] += usize::from(r.after.is_some())).unwrap();
    assert_eq!(moves[0], moves[1]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The binary run with `args`.
fn run(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_kotra-ai"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn review_judges_every_decision_and_names_bad_files() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/matches/7-pt-104.mat");
    let o = run(&["review", path.to_str().unwrap(), "--ply", "0", "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let record = parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let (mut moves, mut doubles, mut answers) = (0, 0, 0);
    replay(&record, |r| match r.action {
        Action::Move { .. } => moves += 1,
        Action::Double { .. } => doubles += 1,
        Action::Take { .. } | Action::Drop { .. } | Action::Beaver { .. } => answers += 1,
        Action::Win { .. } => {}
    })
    .unwrap();
    let decisions = v["decisions"].as_array().unwrap();
    let of_kind = |k: &'static str| decisions.iter().filter(move |d| d["kind"] == k);
    assert_eq!(of_kind("checker").count(), moves);
    // Played and best read alike: one notation (the file writes `25/23`
    // and `2/0`), the same text exactly when the same position follows,
    // and the positions after both given, so a board can show them.
    let mut differently_written = 0;
    for d in of_kind("checker").filter(|d| d["played_position_id"].is_string()) {
        let played = d["played"].as_str().unwrap();
        assert!(!played.contains("25/") && !played.contains("/0"), "{d}");
        let same = d["played_position_id"] == d["best_position_id"];
        assert_eq!(played == d["best"], same, "{d}");
        if same {
            assert_eq!(d["loss"].as_f64().unwrap(), 0.0, "{d}");
        }
        let line = d["line"].as_u64().unwrap() as usize;
        let file_line = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .nth(line - 1)
            .unwrap()
            .to_string();
        differently_written += usize::from(!file_line.contains(played));
    }
    assert!(differently_written > 10, "{differently_written}");
    // Every marked error says why the best is best: a checker play why
    // the best beats the played move, a cube decision why its action
    // follows, in the words of the action the verdict calls best; no
    // unmarked decision carries one.
    let (mut explained, mut cube_explained) = (0, 0);
    for d in decisions {
        let marked = d["mark"].is_string();
        let marked_move = d["kind"] == "checker" && marked;
        assert_eq!(d["explanation"].is_object(), marked, "{d}");
        if marked && !marked_move {
            let e = &d["explanation"];
            let sentence = e["sentence"].as_str().unwrap();
            assert!(e["taker_chances"].is_number(), "{d}");
            let best = d["best"].as_str().unwrap();
            let words: &[&str] = match best {
                "no double" => &["no double"],
                "double/take" => &["double, take"],
                "double/pass" => &["double, pass"],
                "pass" => &["(the answer: pass)"],
                "take" => &["(the answer: take)", "(the answer: beaver)"],
                _ => &["too good to double"],
            };
            assert!(
                words.iter().any(|w| sentence.contains(w)),
                "{best}: {sentence}"
            );
            cube_explained += 1;
        }
        if marked_move {
            let e = &d["explanation"];
            assert_eq!(e["against"], d["played"], "{d}");
            let sentence = e["sentence"].as_str().unwrap();
            let best = d["best"].as_str().unwrap();
            let played = d["played"].as_str().unwrap();
            assert!(sentence.starts_with(&format!("{best} is ")), "{sentence}");
            assert!(
                sentence.contains(&format!("better than {played}")),
                "{sentence}"
            );
            explained += 1;
        }
    }
    assert!(explained > 5, "{explained}");
    assert!(cube_explained > 0, "{cube_explained}");
    assert_eq!(of_kind("take").count(), answers);
    // Every double is judged; a chance to double not taken only when close.
    assert_eq!(
        of_kind("double")
            .filter(|d| d["played"] == "double")
            .count(),
        doubles
    );
    for d in of_kind("double").filter(|d| d["played"] == "no double") {
        let e: Vec<f64> = serde_json::from_value(d["cube_equities"].clone()).unwrap();
        assert!(e[1].min(e[2]) > e[0] - 0.16, "{d}");
        let missed = (e[1].min(e[2]) - e[0]).max(0.0);
        let loss = d["loss"].as_f64().unwrap();
        assert!(loss <= missed + 1e-6, "{d}");
        assert_eq!(d["cube_error"] == "missed double", loss > 0.0, "{d}");
    }
    // The answer loses what the worse of take and pass costs the taker.
    for d in of_kind("take") {
        let e: Vec<f64> = serde_json::from_value(d["cube_equities"].clone()).unwrap();
        let chosen = if d["played"] == "pass" { e[2] } else { e[1] };
        let loss = d["loss"].as_f64().unwrap();
        assert!((loss - (chosen - e[1].min(e[2]))).abs() < 1e-5, "{d}");
    }
    // gnubg 1.07 analysing this match at 0-ply counts 24 and 10 close or
    // actual cube decisions: the same rule counts ours.
    let cube_counts: Vec<u64> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["cube_decisions"].as_u64().unwrap())
        .collect();
    assert!(
        cube_counts[0].abs_diff(24) <= 4 && cube_counts[1].abs_diff(10) <= 3,
        "{cube_counts:?}"
    );
    for (p, player) in v["players"].as_array().unwrap().iter().enumerate() {
        assert_eq!(player["name"], record.players[p].as_str());
        let counted: Vec<&serde_json::Value> = decisions
            .iter()
            .filter(|d| d["player"] == p && d["counted"] == true)
            .collect();
        assert_eq!(
            player["decisions"].as_u64().unwrap() as usize,
            counted.len()
        );
        // The error rate is the counted decisions' mean loss in mEMG; the
        // PR half of it.
        let lost: f64 = counted.iter().map(|d| d["loss"].as_f64().unwrap()).sum();
        let rate = player["error_rate"].as_f64().unwrap();
        assert!(
            (rate - 1000.0 * lost / counted.len() as f64).abs() < 1e-2,
            "{rate}"
        );
        assert!((player["pr"].as_f64().unwrap() - rate / 2.0).abs() < 1e-2);
        // Luck: one roll each move.
        let lucky: Vec<f64> = decisions
            .iter()
            .filter(|d| d["player"] == p && !d["luck"].is_null())
            .map(|d| d["luck"].as_f64().unwrap())
            .collect();
        assert_eq!(player["rolls"].as_u64().unwrap() as usize, lucky.len());
        let luck: f64 = lucky.iter().sum();
        assert!((player["luck"].as_f64().unwrap() - luck).abs() < 1e-3);
    }
    // The match's winner ends with all the match winning chances; luck
    // moves the adjusted results by equal and opposite amounts.
    let players = v["players"].as_array().unwrap();
    let result = |p: usize, k: &str| players[p][k].as_f64().unwrap();
    assert_eq!((result(0, "result"), result(1, "result")), (0.0, 1.0));
    let shift = |p| result(p, "luck_adjusted") - result(p, "result");
    assert!((shift(0) + shift(1)).abs() < 1e-5);
    // One summary a game, whose counts add up to the match's.
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), record.games.len());
    for p in 0..2 {
        let sum: u64 = games
            .iter()
            .map(|g| g["players"][p]["decisions"].as_u64().unwrap())
            .sum();
        assert_eq!(sum, players[p]["decisions"].as_u64().unwrap());
    }
    // Every loss is non-negative and a best play loses nothing.
    assert!(decisions.iter().all(|d| d["loss"].as_f64().unwrap() >= 0.0));
    assert!(
        of_kind("checker")
            .filter(|d| d["played"] == d["best"])
            .all(|d| d["loss"].as_f64().unwrap() == 0.0)
    );
    // The same answer on one thread.
    let one = std::process::Command::new(env!("CARGO_BIN_EXE_kotra-ai"))
        .args(["review", path.to_str().unwrap(), "--ply", "0", "--json"])
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    assert_eq!(one.stdout, o.stdout);
    // Other marks: fewer errors marked; thresholds not increasing refused.
    let o = run(&[
        "review",
        path.to_str().unwrap(),
        "--ply",
        "0",
        "--json",
        "--marks",
        "0.2,0.3,0.4",
    ]);
    let loose: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let marked = |v: &serde_json::Value| {
        v["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| !d["mark"].is_null())
            .count()
    };
    assert!(marked(&loose) < marked(&v), "{}", marked(&loose));
    let o = run(&["review", path.to_str().unwrap(), "--marks", "0.1,0.05,0.2"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr)
            .trim_end()
            .lines()
            .count(),
        1
    );
    // An endless input is refused after a bounded read.
    #[cfg(unix)]
    {
        let o = run(&["review", "/dev/zero", "--ply", "0"]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("larger than 64 MiB"), "{err}");
    }
    // A bad file: one line naming the file, the game, the move and the line.
    let dir = std::env::temp_dir().join(format!("kotra-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.mat");
    std::fs::write(
        &bad,
        QUIRKS.replace("2) 64: 24/18 13/9", "2) 64: 24/18 13/8"),
    )
    .unwrap();
    let o = run(&["review", bad.to_str().unwrap(), "--ply", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("bad.mat: game 1, move 2, line 9"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn several_matches_are_reviewed_in_one_run_one_json_line_each() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/matches");
    let files: Vec<String> = ["1-pt-101.mat", "3-pt-102.sgf"]
        .iter()
        .map(|f| data.join(f).to_str().unwrap().to_string())
        .collect();
    let alone: Vec<Vec<u8>> = files
        .iter()
        .map(|f| {
            let o = run(&["review", f, "--ply", "0", "--json"]);
            assert!(o.status.success(), "{o:?}");
            o.stdout
        })
        .collect();
    // Both at once: each line is that file's review alone, in the order given.
    let o = run(&["review", &files[1], &files[0], "--ply", "0", "--json"]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(o.stdout, [alone[1].clone(), alone[0].clone()].concat());
    // A missing file among them is named in one line and fails the run.
    let missing = data.join("no-such-match.mat");
    let o = run(&["review", &files[0], missing.to_str().unwrap(), "--ply", "0"]);
    assert!(!o.status.success());
    // (Where stderr is not a terminal the first file's progress is
    // logged as a line before it.)
    let err = String::from_utf8_lossy(&o.stderr);
    let last = err.trim_end().lines().last().unwrap_or_default();
    assert!(
        last.starts_with("kotra-ai: ") && last.contains("no-such-match.mat"),
        "{err}"
    );
    // --sgf writes one match: with two files it is refused before any work.
    let out = std::env::temp_dir().join(format!("kotra-two-{}.sgf", std::process::id()));
    let o = run(&[
        "review",
        &files[0],
        &files[1],
        "--sgf",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--sgf writes one match"), "{err}");
    assert!(!out.exists());
}
