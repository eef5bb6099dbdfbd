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
fn analyze_ranks_moves_and_labels_the_evaluator() {
    let v = run_json(&["analyze", "4HPwATDgc/ABMA", "--dice", "31", "--json"]);
    assert_eq!(v["evaluator"], "pubeval");
    assert_eq!(v["moves"][0]["move"], "8/5 6/5");
    let text = stdout(&run(&["analyze", "4HPwATDgc/ABMA", "--dice", "31"]));
    assert!(text.contains("not trained yet"), "{text}");
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
    assert_one_line_error(
        &run(&["bench", "movegen", "--positions", "/no/such/file"]),
        "/no/such/file",
    );
}
