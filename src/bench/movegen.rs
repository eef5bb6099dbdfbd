//! Legal-move generation over fixed positions × every roll, by position
//! class (contact / race) and roll kind (mixed / doubles).

use crate::backgammon::{Dice, MoveList, Position, legal_moves};
use crate::notation::position_id;
use std::time::Instant;
use thiserror::Error;

/// The built-in set: 1000 contact and 1000 race positions from gnubg play
/// (benches/positions.txt, made by scripts/make_bench_positions.py).
pub const BUILTIN_SET: &str = include_str!("../../benches/positions.txt");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Contact,
    Race,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollKind {
    Mixed,
    Doubles,
}

#[derive(Debug, Error)]
pub enum LoadError {
    /// The message quotes the cause, so it is not chained as a source too.
    #[error("line {line}: {cause}")]
    BadId {
        line: usize,
        cause: crate::notation::position_id::PositionIdError,
    },
    #[error("no positions in the file")]
    Empty,
}

/// Positions by class. Lines are a Position ID, optionally followed by
/// words (ignored); `#` starts a comment. The class is computed.
pub struct PositionSet {
    pub contact: Vec<Position>,
    pub race: Vec<Position>,
}

impl PositionSet {
    pub fn parse(text: &str) -> Result<PositionSet, LoadError> {
        let mut set = PositionSet {
            contact: Vec::new(),
            race: Vec::new(),
        };
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            let Some(id) = line.split_whitespace().next() else {
                continue;
            };
            let p =
                position_id::decode(id).map_err(|cause| LoadError::BadId { line: i + 1, cause })?;
            if p.has_contact() {
                set.contact.push(p)
            } else {
                set.race.push(p)
            }
        }
        if set.contact.is_empty() && set.race.is_empty() {
            return Err(LoadError::Empty);
        }
        Ok(set)
    }

    pub fn builtin() -> PositionSet {
        PositionSet::parse(BUILTIN_SET).expect("the built-in benchmark set is valid")
    }

    pub fn class(&self, c: Class) -> &[Position] {
        match c {
            Class::Contact => &self.contact,
            Class::Race => &self.race,
        }
    }
}

/// The rolls of one kind.
pub fn rolls(kind: RollKind) -> Vec<Dice> {
    Dice::all_rolls()
        .map(|(d, _)| d)
        .filter(|d| d.is_double() == (kind == RollKind::Doubles))
        .collect()
}

/// One pass: every position with every roll of `kind`. Returns the number
/// of resulting positions (forfeits count one: the unchanged position).
#[inline(never)]
pub fn pass(positions: &[Position], rolls: &[Dice], list: &mut MoveList) -> u64 {
    let mut n = 0u64;
    for p in positions {
        for &d in rolls {
            legal_moves(p, d, list);
            n += list.len() as u64;
        }
    }
    n
}

/// Measured speed of one class × kind.
#[derive(Clone, Debug)]
pub struct Measurement {
    pub class: Class,
    pub kind: RollKind,
    pub positions: usize,
    /// Distinct resulting positions over one pass (to compare with other engines).
    pub results_per_pass: u64,
    pub pairs_per_pass: u64,
    pub ns_per_pair: f64,
    pub ns_per_result: f64,
}

/// Repeats passes for about `seconds` (after a warm-up pass).
pub fn measure(
    set: &PositionSet,
    class: Class,
    kind: RollKind,
    seconds: f64,
) -> Option<Measurement> {
    let positions = set.class(class);
    if positions.is_empty() {
        return None;
    }
    let rolls = rolls(kind);
    let mut list = MoveList::new();
    let results = pass(positions, &rolls, &mut list);
    let start = Instant::now();
    let mut passes = 0u64;
    while passes == 0 || start.elapsed().as_secs_f64() < seconds {
        std::hint::black_box(pass(std::hint::black_box(positions), &rolls, &mut list));
        passes += 1;
    }
    let ns = start.elapsed().as_nanos() as f64 / passes as f64;
    let pairs = (positions.len() * rolls.len()) as u64;
    Some(Measurement {
        class,
        kind,
        positions: positions.len(),
        results_per_pass: results,
        pairs_per_pass: pairs,
        ns_per_pair: ns / pairs as f64,
        ns_per_result: ns / results as f64,
    })
}
