//! The oracle's development set (1500 gnubg self-play decisions, every
//! legal move with gnubg's after-move Position ID and notation).

mod common;

use kotra::backgammon::{MoveList, legal_moves};
use kotra::notation::{gnubg_id, move_text, position_id};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

fn records() -> Vec<Value> {
    common::data("dev-moves.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn legal_move_sets_equal_gnubg() {
    let recs = records();
    assert_eq!(recs.len(), 1500);
    let mut failures = Vec::new();
    for r in &recs {
        let setup = gnubg_id::decode(r["gnubg_id"].as_str().unwrap()).unwrap();
        let dice = common::dice_of(r);
        let expected: BTreeSet<String> = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["after_id"].as_str().unwrap().to_string())
            .collect();
        let got = common::after_ids(&setup.position, dice);
        if got != expected {
            failures.push(format!(
                "{} {}: {} vs gnubg {}",
                r["id"],
                dice,
                got.len(),
                expected.len()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches, first: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}

#[test]
fn move_notation_equals_gnubg() {
    let mut list = MoveList::new();
    let mut failures = Vec::new();
    let mut total = 0;
    for r in &records() {
        let setup = gnubg_id::decode(r["gnubg_id"].as_str().unwrap()).unwrap();
        let dice = common::dice_of(r);
        legal_moves(&setup.position, dice, &mut list);
        let ours: BTreeMap<String, String> = list
            .iter()
            .map(|c| {
                (
                    position_id::encode(&c.position),
                    move_text::format(&setup.position, &c.play),
                )
            })
            .collect();
        for m in r["moves"].as_array().unwrap() {
            total += 1;
            let want = m["move"].as_str().unwrap();
            let got = &ours[m["after_id"].as_str().unwrap()];
            if got != want {
                failures.push(format!("{}: {got} vs gnubg {want}", r["id"]));
            }
            // Parsing gnubg's text finds the same move.
            let found = move_text::find(&setup.position, &list, want).unwrap();
            assert_eq!(
                position_id::encode(&found.position),
                m["after_id"].as_str().unwrap()
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{}/{total} differ, e.g. {:?}",
        failures.len(),
        &failures[..failures.len().min(8)]
    );
}
