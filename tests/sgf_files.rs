//! The `.sgf` reader and writer on files GNU Backgammon saved of the
//! fixture matches (`scripts/gnubg_sgf_fixtures.py`: each .mat imported
//! into gnubg and saved as .sgf), on our own written files, and on bad
//! input.

use kotra::notation::mat::{self, Action, MatchRecord};
use kotra::notation::match_replay::replay;
use kotra::notation::{gnubg_id, parse_match, position_id, sgf};

fn matches_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/matches")
}

/// Every decision of a record as the referee saw it: the game, the
/// position and cube before it (as a gnubg ID), what was done (a move by
/// the position it led to). Line numbers and move spellings left out.
fn trace(record: &MatchRecord) -> Vec<(u32, String, String)> {
    let mut out = Vec::new();
    replay(record, |r| {
        let what = match &r.action {
            Action::Move { player, dice, .. } => format!(
                "{player} {dice} {}",
                position_id::encode(&r.after.expect("a move's position"))
            ),
            other => format!("{other:?}"),
        };
        // gnubg marks a money session imported from a .mat as played
        // under the Jacoby rule (a .mat cannot say): the IDs compared
        // leave that bit out.
        let mut setup = r.setup();
        setup.info.jacoby = false;
        out.push((r.game, gnubg_id::encode(&setup), what));
    })
    .unwrap();
    out
}

fn wins(record: &MatchRecord) -> Vec<(u32, Action)> {
    record
        .games
        .iter()
        .flat_map(|g| {
            g.actions
                .iter()
                .filter(|a| matches!(a.2, Action::Win { .. }))
                .map(move |a| (g.number, a.2.clone()))
        })
        .collect()
}

#[test]
fn gnubg_sgf_files_replay_to_the_same_games_as_their_mat() {
    let mut files = 0;
    for entry in std::fs::read_dir(matches_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "sgf") {
            continue;
        }
        files += 1;
        let from_sgf = sgf::parse(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let from_mat =
            mat::parse(&std::fs::read_to_string(path.with_extension("mat")).unwrap()).unwrap();
        assert_eq!(from_sgf.players, from_mat.players);
        assert_eq!(from_sgf.length, from_mat.length);
        assert_eq!(from_sgf.games.len(), from_mat.games.len());
        assert_eq!(trace(&from_sgf), trace(&from_mat), "{}", path.display());
        assert_eq!(wins(&from_sgf), wins(&from_mat), "{}", path.display());
        // parse_match tells the two formats apart by their text.
        let sniffed = parse_match(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(sniffed, from_sgf);
    }
    assert_eq!(files, 8);
}

#[test]
fn a_written_sgf_reads_back_to_the_same_games() {
    for name in [
        "7-pt-104.mat",
        "9-pt-106.mat",
        "money-201.mat",
        "money-202.mat",
    ] {
        let record =
            mat::parse(&std::fs::read_to_string(matches_dir().join(name)).unwrap()).unwrap();
        let text = sgf::write(&record, &sgf::Notes::new()).unwrap();
        let back = sgf::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(trace(&back), trace(&record), "{name}");
        assert_eq!(wins(&back), wins(&record), "{name}");
        assert_eq!(back.players, record.players);
        // Written again, the same text.
        assert_eq!(sgf::write(&back, &sgf::Notes::new()).unwrap(), text);
        // The Crawford game is named as gnubg names it.
        let gnubg =
            std::fs::read_to_string(matches_dir().join(name.replace(".mat", ".sgf"))).unwrap();
        assert_eq!(
            text.matches("RU[Crawford:CrawfordGame]").count(),
            gnubg.matches("RU[Crawford:CrawfordGame]").count(),
            "{name}"
        );
    }
}

#[test]
fn a_review_writes_its_marks_luck_and_alternatives_into_the_sgf() {
    let dir = std::env::temp_dir().join(format!("kotra-sgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("review.sgf");
    let input = matches_dir().join("7-pt-104.sgf");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_kotra-ai"))
        .args(["review", input.to_str().unwrap(), "--ply", "0", "--json"])
        .arg("--sgf")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let count = |p: &str| text.matches(p).count();
    let decisions = v["decisions"].as_array().unwrap();
    let marked = |kinds: &[&str], no_double: bool, mark: &str| {
        decisions
            .iter()
            .filter(|d| kinds.contains(&d["kind"].as_str().unwrap()))
            .filter(|d| (d["played"] == "no double") == no_double)
            .filter(|d| d["mark"] == mark)
            .count()
    };
    let moves = ["checker", "double", "take"];
    assert_eq!(count("DO[]"), marked(&moves, false, "doubtful"));
    assert_eq!(count("BM[1]"), marked(&moves, false, "bad"));
    assert_eq!(count("BM[2]"), marked(&moves, false, "very bad"));
    assert_eq!(
        count("DC[]") + count("BC[1]") + count("BC[2]"),
        decisions
            .iter()
            .filter(|d| d["played"] == "no double" && !d["mark"].is_null())
            .count()
    );
    assert!(count("BM[") > 0 && count("DO[]") > 0);
    let lucky = decisions.iter().filter(|d| !d["luck"].is_null()).count();
    assert_eq!(count("LU["), lucky);
    // The file is the same match, and a comment names the best moves.
    let back = sgf::parse(&text).unwrap();
    let original =
        mat::parse(&std::fs::read_to_string(matches_dir().join("7-pt-104.mat")).unwrap()).unwrap();
    assert_eq!(trace(&back), trace(&original));
    assert!(text.contains("C[kotra-ai 0-ply: "));
    assert!(text.contains("\n1. "));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_sgf_files_are_refused_with_game_move_and_line() {
    let good = std::fs::read_to_string(matches_dir().join("3-pt-102.sgf")).unwrap();
    let cases: [(String, &str); 8] = [
        (good.replace("GM[6]", "GM[1]"), "not backgammon"),
        (
            good.replace(";B[53lolq]", ";B[53lolq](;W[11])"),
            "variations",
        ),
        (good.replace("RU[Crawford]", "RU[Nackgammon]"), "Nackgammon"),
        (
            good.replace(";B[53lolq]", ";B[53lolz]"),
            "game 1, move 2, line 3",
        ),
        (
            good.replace(";B[53lolq]", ";B[5!lolq]"),
            "cannot read the move",
        ),
        (
            good.replace(";B[53lolq]", ";B[53lolq]AB[aa]"),
            "edited positions",
        ),
        (good.replacen(")", "", 1), "never closed"),
        (good.replace("RE[W+3]", "RE[W+2]"), "wins 2"),
    ];
    for (text, expected) in cases {
        let err = sgf::parse(&text)
            .and_then(|r| replay(&r, |_| {}).map(|_| r))
            .expect_err(expected)
            .to_string();
        assert!(err.contains(expected), "{expected}: {err}");
        assert_eq!(err.lines().count(), 1);
    }
}
