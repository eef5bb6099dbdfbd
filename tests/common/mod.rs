//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod server;

use kotra::backgammon::{Dice, MoveList, Position, legal_moves};
use kotra::notation::position_id;
use std::collections::BTreeSet;

pub fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// After-move Position IDs of every legal move (empty for a forfeit).
pub fn after_ids(position: &Position, dice: Dice) -> BTreeSet<String> {
    let mut list = MoveList::new();
    legal_moves(position, dice, &mut list);
    if list.is_forfeit() {
        return BTreeSet::new();
    }
    list.iter()
        .map(|c| position_id::encode(&c.position))
        .collect()
}

/// The `dice` field of a fixture record.
pub fn dice_of(record: &serde_json::Value) -> Dice {
    let d = record["dice"].as_array().expect("dice array");
    Dice::new(d[0].as_u64().unwrap() as u8, d[1].as_u64().unwrap() as u8).expect("dice 1-6")
}
