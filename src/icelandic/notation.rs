//! A text notation for Icelandic Kotra positions, the one the rules file's
//! test scenarios use:
//!
//! ```text
//! W: a11 g4 G; B: m10 n1 o1 p1 q1 d1 F5; W
//! ```
//!
//! - Each side: `W:` or `B:`, then stone counts as `<letter><count>` (a
//!   bare letter is one stone), `bar<n>`, `off<n>`, and flags: `U` (rule 4
//!   unlocked), `F5` (rule 3: five stones out), `G` (rule 2: the 6-6 group
//!   stands on the 7th point), `first` (the side's first turn is still to
//!   come).
//! - The last part names the side to move, `W` or `B`.
//! - `start` is the starting position with White to move.
//!
//! Printing writes every field in that order, so print then parse is the
//! identity.

use super::position::{POINTS, Position, STONES, Side, letter_of, track_of};
use crate::quoted::Quoted;
use std::fmt::Write;

/// Why a text is not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("expected 'W: ...; B: ...; W|B' (three parts separated by ';'), found {0} part(s)")]
    Parts(usize),
    #[error("side part must start with 'W:' or 'B:', found {}", Quoted(.0))]
    SideLabel(String),
    #[error("both side parts are for the same colour")]
    SameColour,
    #[error("the side to move must be 'W' or 'B', found {}", Quoted(.0))]
    ToMove(String),
    #[error(
        "cannot read {} (expected a letter a-x with a count, bar<n>, off<n>, U, F5, G or first)",
        Quoted(.0)
    )]
    Token(String),
    #[error("{colour} has {count} stones (must be 15)")]
    Count { colour: &'static str, count: u32 },
    #[error("point {0} holds stones of both sides")]
    Shared(char),
    #[error(
        "the 6-6 group flag is set for {0}, but its 7th point does not hold exactly 4 of its stones"
    )]
    Group(&'static str),
}

/// Reads a position.
pub fn parse_position(text: &str) -> Result<Position, NotationError> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("start") {
        return Ok(Position::starting());
    }
    let parts: Vec<&str> = text.split(';').map(str::trim).collect();
    if parts.len() != 3 {
        return Err(NotationError::Parts(parts.len()));
    }
    let (c1, s1) = parse_side(parts[0])?;
    let (c2, s2) = parse_side(parts[1])?;
    if c1 == c2 {
        return Err(NotationError::SameColour);
    }
    let (white, black) = if c1 { (s1, s2) } else { (s2, s1) };
    let white_to_move = match parts[2] {
        "W" | "w" => true,
        "B" | "b" => false,
        other => return Err(NotationError::ToMove(other.into())),
    };
    let pos = if white_to_move {
        Position {
            mover: white,
            other: black,
            white_to_move,
        }
    } else {
        Position {
            mover: black,
            other: white,
            white_to_move,
        }
    };
    for (side, name) in [(&white, "White"), (&black, "Black")] {
        if side.total() != STONES as u32 {
            return Err(NotationError::Count {
                colour: name,
                count: side.total(),
            });
        }
        if side.group && side.at(7) != 4 {
            return Err(NotationError::Group(name));
        }
    }
    for t in 1..=POINTS {
        if pos.mover.at(t) > 0 && pos.other_at(t) > 0 {
            return Err(NotationError::Shared(letter_of(white_to_move, t)));
        }
    }
    Ok(pos)
}

fn parse_side(part: &str) -> Result<(bool, Side), NotationError> {
    let (label, rest) = part
        .split_once(':')
        .ok_or_else(|| NotationError::SideLabel(part.into()))?;
    let white = match label.trim() {
        "W" | "w" => true,
        "B" | "b" => false,
        other => return Err(NotationError::SideLabel(other.into())),
    };
    let mut side = Side {
        points: [0; POINTS],
        bar: 0,
        off: 0,
        first_turn: false,
        unlocked: false,
        five_out: false,
        group: false,
    };
    for token in rest.split_whitespace() {
        let bad = || NotationError::Token(token.into());
        let count = |digits: &str| -> Result<u8, NotationError> {
            if digits.is_empty() {
                return Ok(1);
            }
            match digits.parse::<u8>() {
                Ok(n) if n <= STONES => Ok(n),
                _ => Err(bad()),
            }
        };
        match token {
            "U" => side.unlocked = true,
            "F5" => side.five_out = true,
            "G" => side.group = true,
            "first" => side.first_turn = true,
            _ if token.starts_with("bar") => side.bar = count(&token[3..])?,
            _ if token.starts_with("off") => side.off = count(&token[3..])?,
            _ => {
                let letter = token.as_bytes()[0];
                if !(b'a'..=b'x').contains(&letter) {
                    return Err(bad());
                }
                let track = track_of(white, (letter - b'a') as usize);
                side.points[track - 1] = side.points[track - 1]
                    .checked_add(count(&token[1..])?)
                    .ok_or_else(bad)?;
            }
        }
    }
    Ok((white, side))
}

/// One side's stones in letter order, e.g. `a11 g4` (no flags).
pub fn stones_text(side: &Side, white: bool) -> String {
    let mut by_letter = [0u8; POINTS];
    for t in 1..=POINTS {
        by_letter[(letter_of(white, t) as u8 - b'a') as usize] = side.at(t);
    }
    let mut s = String::new();
    for (i, &n) in by_letter.iter().enumerate() {
        if n > 0 {
            let _ = write!(s, "{}{} ", (b'a' + i as u8) as char, n);
        }
    }
    if side.bar > 0 {
        let _ = write!(s, "bar{} ", side.bar);
    }
    if side.off > 0 {
        let _ = write!(s, "off{} ", side.off);
    }
    s.trim_end().to_string()
}

fn side_text(side: &Side, white: bool) -> String {
    let mut s = format!(
        "{}: {}",
        if white { "W" } else { "B" },
        stones_text(side, white)
    );
    for (on, flag) in [
        (side.unlocked, "U"),
        (side.five_out, "F5"),
        (side.group, "G"),
        (side.first_turn, "first"),
    ] {
        if on {
            s.push(' ');
            s.push_str(flag);
        }
    }
    s
}

/// Prints a position in the notation above.
pub fn position_text(pos: &Position) -> String {
    let (white, black) = pos.by_colour();
    format!(
        "{}; {}; {}",
        side_text(white, true),
        side_text(black, false),
        if pos.white_to_move { "W" } else { "B" }
    )
}

/// The board as the rules file draws it, each point showing its stones
/// (`W3`, `B12`), with bar, off and pip counts.
pub fn ascii_board(pos: &Position) -> String {
    let (white, black) = pos.by_colour();
    let cell = |letter_index: usize| -> String {
        let w = white.at(track_of(true, letter_index));
        let b = black.at(track_of(false, letter_index));
        match (w, b) {
            (0, 0) => " .  ".into(),
            (n, 0) => format!("W{n:<3}"),
            (_, n) => format!("B{n:<3}"),
        }
    };
    let row = |letters: &mut dyn Iterator<Item = usize>| -> (String, String) {
        let idx: Vec<usize> = letters.collect();
        let mut names = String::new();
        let mut cells = String::new();
        for (k, &i) in idx.iter().enumerate() {
            if k == 6 {
                names.push_str("|| ");
                cells.push_str("|| ");
            }
            let _ = write!(names, " {:<3}", (b'a' + i as u8) as char);
            cells.push_str(&cell(i));
        }
        (names, cells)
    };
    let (top_names, top_cells) = row(&mut (0..12).rev());
    let (bottom_names, bottom_cells) = row(&mut (12..24));
    let mut out = String::new();
    let _ = writeln!(out, "  Black's side");
    let _ = writeln!(out, "  {}", top_names.trim_end());
    let _ = writeln!(out, "  {}", top_cells.trim_end());
    let _ = writeln!(out);
    let _ = writeln!(out, "  {}", bottom_cells.trim_end());
    let _ = writeln!(out, "  {}", bottom_names.trim_end());
    let _ = writeln!(out, "  White's side");
    for (side, name) in [(white, "White"), (black, "Black")] {
        let _ = writeln!(
            out,
            "  {name}: bar {}, off {}, pips {}",
            side.bar,
            side.off,
            side.pips()
        );
    }
    let _ = write!(
        out,
        "  {} to move",
        if pos.white_to_move { "White" } else { "Black" }
    );
    out
}
