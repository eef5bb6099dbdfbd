//! A text notation for Icehouse Kotra positions:
//!
//! ```text
//! S: Qe7 Db7 stash=0,1,0 scored=0,0,4; N: Qf2 scored=0,3,3; S
//! ```
//!
//! - One part per seat: `S:`, `N:` (two players) or `S:`, `W:`, `N:`, `E:`
//!   (four), each listing its pieces as size letter (P, D, Q) and square,
//!   then optionally `stash=p,d,q` and `scored=p,d,q` (both default to
//!   0,0,0). Pieces in neither place are out of play, as in the rules
//!   file's test positions.
//! - The last part is the seat to move.
//! - `start` and `start4` are the empty board with full stashes.
//!
//! Printing writes every field, so print then parse is the identity.

use super::board::{Cell, SQUARES, Seat, parse_square, size_letter, square_name};
use super::position::Position;
use crate::quoted::Quoted;
use std::fmt::Write;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("expected 2 or 4 seat parts and the seat to move, separated by ';' (found {0} parts)")]
    Parts(usize),
    #[error("seat part must start with S:, W:, N: or E:, found {}", Quoted(.0))]
    SeatLabel(String),
    #[error("two players are South and North; four are S, W, N and E, each once")]
    Seats,
    #[error("the seat to move must be one of the seats in play, found {}", Quoted(.0))]
    ToMove(String),
    #[error("cannot read {} (expected a piece like Qe7, stash=p,d,q or scored=p,d,q)", Quoted(.0))]
    Token(String),
    #[error("square {0} holds two pieces")]
    Occupied(String),
    #[error("{0} has more than {1} pieces of one size in its stash or scored")]
    TooMany(char, u8),
}

pub fn parse_position(text: &str) -> Result<Position, NotationError> {
    match text.trim() {
        "start" => return Ok(Position::starting(2)),
        "start4" => return Ok(Position::starting(4)),
        _ => {}
    }
    let parts: Vec<&str> = text.split(';').map(str::trim).collect();
    let players = match parts.len() {
        3 => 2,
        5 => 4,
        n => return Err(NotationError::Parts(n)),
    };
    let mut pos = Position::starting(players);
    pos.stash = [[0; 3]; 4];
    let mut seen = 0u8;
    for part in &parts[..parts.len() - 1] {
        let (label, rest) = part
            .split_once(':')
            .ok_or_else(|| NotationError::SeatLabel(part.to_string()))?;
        let seat = label
            .trim()
            .chars()
            .next()
            .filter(|_| label.trim().len() == 1)
            .and_then(Seat::from_letter)
            .ok_or_else(|| NotationError::SeatLabel(label.into()))?;
        if !pos.seats().contains(&seat) || seen & (1 << seat.index()) != 0 {
            return Err(NotationError::Seats);
        }
        seen |= 1 << seat.index();
        for token in rest.split_whitespace() {
            parse_token(&mut pos, seat, token)?;
        }
    }
    let last = parts[parts.len() - 1];
    pos.to_move = last
        .chars()
        .next()
        .filter(|_| last.len() == 1)
        .and_then(Seat::from_letter)
        .filter(|s| pos.seats().contains(s))
        .ok_or_else(|| NotationError::ToMove(last.into()))?;
    // The board itself is not limited: the rules file's own scenarios put
    // seven pawns of one seat on a row to show a blocked entry.
    let n = pos.per_size();
    if let Some(&seat) = pos.seats().iter().find(|s| {
        let i = s.index();
        (0..3).any(|k| pos.stash[i][k] > n || pos.scored[i][k] > n)
    }) {
        return Err(NotationError::TooMany(seat.letter(), n));
    }
    Ok(pos)
}

fn parse_token(pos: &mut Position, seat: Seat, token: &str) -> Result<(), NotationError> {
    let bad = || NotationError::Token(token.into());
    let triple = |text: &str| -> Result<[u8; 3], NotationError> {
        let v: Vec<u8> = text
            .split(',')
            .map(|n| n.parse::<u8>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        <[u8; 3]>::try_from(v).map_err(|_| bad())
    };
    if let Some(t) = token.strip_prefix("stash=") {
        pos.stash[seat.index()] = triple(t)?;
    } else if let Some(t) = token.strip_prefix("scored=") {
        pos.scored[seat.index()] = triple(t)?;
    } else {
        let size = match token.chars().next() {
            Some('P') => 1,
            Some('D') => 2,
            Some('Q') => 3,
            _ => return Err(bad()),
        };
        let sq = parse_square(&token[1..]).ok_or_else(bad)?;
        if !pos.cells[sq].is_empty() {
            return Err(NotationError::Occupied(square_name(sq)));
        }
        pos.cells[sq] = Cell::piece(seat, size);
    }
    Ok(())
}

pub fn position_text(pos: &Position) -> String {
    let mut out = String::new();
    for &seat in pos.seats() {
        let _ = write!(out, "{}:", seat.letter());
        for sq in 0..SQUARES {
            let c = pos.cells[sq];
            if c.seat() == Some(seat) {
                let _ = write!(out, " {}{}", size_letter(c.size()), square_name(sq));
            }
        }
        let [p, d, q] = pos.stash[seat.index()];
        let _ = write!(out, " stash={p},{d},{q}");
        let [p, d, q] = pos.scored[seat.index()];
        let _ = write!(out, " scored={p},{d},{q}; ");
    }
    out.push(pos.to_move.letter());
    out
}

/// The board with rank 8 at the top, each piece as seat and size (`SQ`
/// is South's queen), then stashes and scores.
pub fn ascii_board(pos: &Position) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let _ = write!(out, "  {} ", rank + 1);
        for file in 0..8 {
            let c = pos.cells[rank * 8 + file];
            match c.seat() {
                Some(s) => {
                    let _ = write!(out, " {}{}", s.letter(), size_letter(c.size()));
                }
                None => out.push_str(" . "),
            }
        }
        out.push('\n');
    }
    out.push_str("     a  b  c  d  e  f  g  h\n");
    for &seat in pos.seats() {
        let [p, d, q] = pos.stash[seat.index()];
        let _ = writeln!(
            out,
            "  {}: stash P{p} D{d} Q{q}, points {}",
            seat.letter(),
            pos.points(seat)
        );
    }
    match pos.outcome() {
        Some(o) => {
            let winners: Vec<String> = pos
                .seats()
                .iter()
                .filter(|s| o.is_winner(**s))
                .map(|s| s.letter().to_string())
                .collect();
            let _ = write!(
                out,
                "  game over (ended by {}), won by {}",
                o.ended_by.letter(),
                winners.join(" and ")
            );
        }
        None => {
            let _ = write!(out, "  {} to move", pos.to_move.letter());
        }
    }
    out
}
