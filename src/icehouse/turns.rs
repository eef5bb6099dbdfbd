//! Legal turns of Icehouse Kotra (§4–§8): one play per die in either
//! order, the entry obligation over the whole turn, as many plays as
//! possible, and a game-ending play that voids the rest.

use super::board::{Cell, SIZES, Seat, final_row, size_letter, square_name};
use super::position::Position;
use rustc_hash::FxHashSet;

/// One play with one die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Play {
    Enter {
        size: u8,
        to: u8,
    },
    Move {
        size: u8,
        from: u8,
        to: u8,
        hit: bool,
    },
    Score {
        size: u8,
        from: u8,
    },
}

impl Play {
    /// `enter Q@e1`, `De3-e5`, `Qc4xf7`, `score Ph8`.
    pub fn text(&self) -> String {
        match *self {
            Play::Enter { size, to } => {
                format!("enter {}@{}", size_letter(size), square_name(to as usize))
            }
            Play::Move {
                size,
                from,
                to,
                hit,
            } => format!(
                "{}{}{}{}",
                size_letter(size),
                square_name(from as usize),
                if hit { 'x' } else { '-' },
                square_name(to as usize)
            ),
            Play::Score { size, from } => {
                format!("score {}{}", size_letter(size), square_name(from as usize))
            }
        }
    }
}

/// The plays of one turn with their dice (at most two), without
/// allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Plays {
    items: [(u8, Play); 2],
    len: u8,
}

impl Default for Play {
    fn default() -> Self {
        Play::Enter { size: 0, to: 0 }
    }
}

impl Plays {
    fn push(&mut self, die: u8, play: Play) {
        self.items[self.len as usize] = (die, play);
        self.len += 1;
    }
}

impl std::ops::Deref for Plays {
    type Target = [(u8, Play)];
    fn deref(&self) -> &[(u8, Play)] {
        &self.items[..self.len as usize]
    }
}

/// One legal turn: the plays with their dice and the position after it
/// (the mover still to move; see [`Position::passed`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub plays: Plays,
    pub position: Position,
}

impl Turn {
    /// The game ended during this turn.
    pub fn ended(&self) -> bool {
        self.position.ended_by.is_some()
    }

    pub fn text(&self) -> String {
        if self.plays.is_empty() {
            return "(turn lost)".into();
        }
        let parts: Vec<String> = self
            .plays
            .iter()
            .map(|(die, p)| format!("[{die}] {}", p.text()))
            .collect();
        parts.join(", ")
    }
}

struct Sequence {
    position: Position,
    plays: Plays,
    entered: bool,
}

/// Every legal turn for the dice. Never empty: a lost or passed turn is one
/// turn without plays.
pub fn legal_turns(pos: &Position, d1: u8, d2: u8) -> Vec<Turn> {
    let mut seqs = Vec::new();
    let orders: &[[u8; 2]] = if d1 == d2 {
        &[[d1, d1]]
    } else {
        &[[d1, d2], [d2, d1]]
    };
    for order in orders {
        dfs(pos, order, Plays::default(), false, &mut seqs);
    }
    if !pos.stash_empty(pos.to_move) {
        seqs.retain(|s| s.entered);
    }
    let ended = |s: &Sequence| s.position.ended_by.is_some();
    let most = seqs
        .iter()
        .filter(|s| !ended(s))
        .map(|s| s.plays.len())
        .max()
        .unwrap_or(0);
    let mut seen = FxHashSet::default();
    let mut turns = Vec::new();
    for s in seqs {
        if (ended(&s) || s.plays.len() == most) && seen.insert(s.position) {
            turns.push(Turn {
                plays: s.plays,
                position: s.position,
            });
        }
    }
    if turns.is_empty() {
        turns.push(Turn {
            plays: Plays::default(),
            position: *pos,
        });
    }
    turns
}

fn dfs(pos: &Position, dice: &[u8], plays: Plays, entered: bool, out: &mut Vec<Sequence>) {
    let Some((&die, rest)) = dice.split_first() else {
        out.push(Sequence {
            position: *pos,
            plays,
            entered,
        });
        return;
    };
    let mut buf = [Play::default(); MAX_PLAYS];
    let n = fill_plays(pos, die, &mut buf);
    if n == 0 {
        out.push(Sequence {
            position: *pos,
            plays,
            entered,
        });
        return;
    }
    for &play in &buf[..n] {
        let mut next = *pos;
        apply(&mut next, play);
        let mut plays = plays;
        plays.push(die, play);
        let entered = entered || matches!(play, Play::Enter { .. });
        if next.ended_by.is_some() {
            out.push(Sequence {
                position: next,
                plays,
                entered,
            });
        } else {
            dfs(&next, rest, plays, entered, out);
        }
    }
}

/// Room for every play of one die: 24 entries and, for each square, three
/// moves and a score.
const MAX_PLAYS: usize = 24 + 4 * 64;

/// Every play one die allows (§8 `plays`).
pub fn plays_for(pos: &Position, die: u8) -> Vec<Play> {
    let mut buf = [Play::default(); MAX_PLAYS];
    let n = fill_plays(pos, die, &mut buf);
    buf[..n].to_vec()
}

/// [`plays_for`] into a buffer; returns how many.
fn fill_plays(pos: &Position, die: u8, buf: &mut [Play; MAX_PLAYS]) -> usize {
    let seat = pos.to_move;
    let sizes: &[u8] = if die == 4 {
        &SIZES
    } else {
        &SIZES[die as usize - 1..die as usize]
    };
    let mut n = 0;
    let mut out = |play: Play| {
        buf[n] = play;
        n += 1;
    };
    let stash = pos.stash[seat.index()];
    for &size in sizes {
        if stash[size as usize - 1] > 0 {
            for lateral in 0..8 {
                let sq = seat.square(1, lateral);
                if pos.cells[sq].is_empty() {
                    out(Play::Enter { size, to: sq as u8 });
                }
            }
        }
    }
    for (sq, cell) in pos.cells.iter().enumerate() {
        if cell.seat() != Some(seat) || !sizes.contains(&cell.size()) {
            continue;
        }
        let size = cell.size();
        let row = seat.row(sq);
        if row == final_row(size) && stash[size as usize - 1] == 0 {
            out(Play::Score {
                size,
                from: sq as u8,
            });
        }
        let to_row = row + size as usize;
        if to_row > 8 {
            continue;
        }
        let lateral = seat.lateral(sq) as isize;
        for shift in [0, -(size as isize), size as isize] {
            let l = lateral + shift;
            if !(0..8).contains(&l) {
                continue;
            }
            let to = seat.square(to_row, l as usize);
            let target = pos.cells[to];
            if target.seat() == Some(seat) {
                continue;
            }
            out(Play::Move {
                size,
                from: sq as u8,
                to: to as u8,
                hit: !target.is_empty(),
            });
        }
    }
    n
}

/// Makes one play; a score that ends the game records the seat.
fn apply(pos: &mut Position, play: Play) {
    let seat = pos.to_move;
    let i = seat.index();
    match play {
        Play::Enter { size, to } => {
            pos.stash[i][size as usize - 1] -= 1;
            pos.cells[to as usize] = Cell::piece(seat, size);
        }
        Play::Move { size, from, to, .. } => {
            let target = pos.cells[to as usize];
            if let Some(owner) = target.seat() {
                pos.stash[owner.index()][target.size() as usize - 1] += 1;
            }
            pos.cells[from as usize] = Cell::EMPTY;
            pos.cells[to as usize] = Cell::piece(seat, size);
        }
        Play::Score { size, from } => {
            pos.cells[from as usize] = Cell::EMPTY;
            pos.scored[i][size as usize - 1] += 1;
            if size == 1 || pos.scored[i][size as usize - 1] == pos.per_size() {
                pos.ended_by = Some(seat);
            }
        }
    }
}

/// The seat that moves first: each rolls both dice, the highest total
/// starts, tied leaders roll again (the roll is not played).
pub fn first_player(seats: &[Seat], mut roll: impl FnMut() -> (u8, u8)) -> Seat {
    let mut contenders: Vec<Seat> = seats.to_vec();
    loop {
        let totals: Vec<u8> = contenders
            .iter()
            .map(|_| {
                let (a, b) = roll();
                a + b
            })
            .collect();
        let best = *totals.iter().max().expect("at least one seat");
        contenders = contenders
            .iter()
            .zip(&totals)
            .filter(|&(_, &t)| t == best)
            .map(|(&s, _)| s)
            .collect();
        if contenders.len() == 1 {
            return contenders[0];
        }
    }
}
