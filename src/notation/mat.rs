//! Jellyfish `.mat` match files, as GNU Backgammon exports them (`export
//! match mat`) and the servers and eXtreme Gammon write them: read and
//! written here, and every game replayed through the rules' referee by
//! [`super::match_replay`], so an illegal move, a cube action out of turn
//! or a score that does not add up is refused with the game and move it is
//! in, never skipped.
//!
//! The format: optional `; [Key "value"]` header lines, ` N point match`
//! (0 for a money session), then per game ` Game n`, a score line
//! `left : a   right : b`, and numbered lines `NNN) left-entry right-entry`.
//! An entry is `DD: move` (a roll with no legal move is the dice alone),
//! ` Doubles => V`, ` Beavers => V`, ` Takes`, ` Drops` or
//! ` Wins P point(s) [and the match]`. Columns vary between writers, so an
//! entry's side is told by where it starts: the right column begins where
//! the score line's right name does (give or take two spaces).

use crate::backgammon::Dice;
use crate::quoted::Quoted;

/// One decision or event of a game, as the file records it.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// `player` rolled `dice` and moved (text as written; empty when the
    /// roll had no legal move).
    Move {
        player: u8,
        dice: Dice,
        text: String,
    },
    Double {
        player: u8,
        value: u32,
    },
    Beaver {
        player: u8,
        value: u32,
    },
    Take {
        player: u8,
    },
    Drop {
        player: u8,
    },
    Win {
        player: u8,
        points: u32,
    },
}

impl Action {
    /// The action as a `.mat` entry says it: `31: 8/5 6/5`, `Doubles => 2`,
    /// `Takes`, `Drops`, `Beavers => 4`, `Wins 2 points`.
    pub fn words(&self) -> String {
        match self {
            Action::Move { dice, text, .. } => format!("{dice}: {text}"),
            Action::Double { value, .. } => format!("Doubles => {value}"),
            Action::Beaver { value, .. } => format!("Beavers => {value}"),
            Action::Take { .. } => "Takes".to_string(),
            Action::Drop { .. } => "Drops".to_string(),
            Action::Win { points, .. } => {
                format!("Wins {points} point{}", if *points == 1 { "" } else { "s" })
            }
        }
    }

    /// Who acts.
    pub fn player(&self) -> u8 {
        match self {
            Action::Move { player, .. }
            | Action::Double { player, .. }
            | Action::Beaver { player, .. }
            | Action::Take { player }
            | Action::Drop { player }
            | Action::Win { player, .. } => *player,
        }
    }
}

/// A game: its number, the score before it (left, right) and its actions
/// with the line each came from.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub number: u32,
    pub score: [u32; 2],
    pub actions: Vec<(usize, u32, Action)>,
}

/// A whole match or money session.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRecord {
    /// 0 for a money session.
    pub length: u32,
    /// Left, right (the left player is player 0).
    pub players: [String; 2],
    pub games: Vec<GameRecord>,
    /// The Jacoby rule held (money only): `.sgf` files say so in `RU`;
    /// `.mat` files cannot, and are read without it.
    pub jacoby: bool,
}

/// What is wrong with a match file, and where.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[error("{}{what}", place(*game, *move_number, *line))]
pub struct MatError {
    pub line: usize,
    /// 0 before the first game.
    pub game: u32,
    /// 0 outside the numbered move lines.
    pub move_number: u32,
    pub what: String,
}

/// Where an error is, as a prefix; line 0 is the whole file (no line to
/// point at), so it is left out.
fn place(game: u32, move_number: u32, line: usize) -> String {
    let at = match (game, move_number) {
        (0, _) => String::new(),
        (g, 0) => format!("game {g}, "),
        (g, m) => format!("game {g}, move {m}, "),
    };
    match line {
        0 => at,
        n => format!("{at}line {n}: "),
    }
}

/// Parses a `.mat` file's text.
pub fn parse(text: &str) -> Result<MatchRecord, MatError> {
    let mut length = None;
    let mut players: Option<[String; 2]> = None;
    let mut games: Vec<GameRecord> = Vec::new();
    // Where the right player's entries start: first the score line's
    // column, then the column of the last move line with two entries (the
    // score line's can be off when a writer padded a name of non-ASCII
    // letters by bytes, or a tab). 0 until the game's score line is read.
    let mut right_col = 0usize;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let expanded = expand_tabs(raw);
        let line = expanded.trim_end();
        let game_no = games.last().map_or(0, |g| g.number);
        let err = |move_number: u32, what: String| MatError {
            line: line_no,
            game: game_no,
            move_number,
            what,
        };
        let trimmed = line.trim_start();
        if let Some(variation) = trimmed
            .strip_prefix("; [Variation \"")
            .and_then(|v| v.strip_suffix("\"]"))
            && !variation.eq_ignore_ascii_case("backgammon")
        {
            return Err(err(
                0,
                format!(
                    "the variation {}: kotra-ai plays standard backgammon only",
                    Quoted(variation)
                ),
            ));
        }
        if trimmed.is_empty() || trimmed.starts_with(';') {
            continue;
        }
        if let Some(n) = trimmed.strip_suffix("point match") {
            let n = n.trim();
            length = Some(
                n.parse::<u32>()
                    .map_err(|_| err(0, format!("bad match length {}", Quoted(n))))?,
            );
            continue;
        }
        if length.is_none() {
            return Err(err(
                0,
                format!("expected \" N point match\", found {}", Quoted(trimmed)),
            ));
        }
        if let Some(n) = trimmed.strip_prefix("Game ") {
            let number = n
                .trim()
                .parse::<u32>()
                .map_err(|_| err(0, format!("bad game number {}", Quoted(n))))?;
            games.push(GameRecord {
                number,
                score: [0, 0],
                actions: Vec::new(),
            });
            right_col = 0;
            continue;
        }
        let Some(game) = games.last_mut() else {
            return Err(err(
                0,
                format!("expected \" Game 1\", found {}", Quoted(trimmed)),
            ));
        };
        if right_col == 0 {
            // The score line: `left : a   right : b`.
            let (names, score, col) = score_line(line).ok_or_else(|| {
                err(
                    0,
                    format!(
                        "expected the score line \"name : score  name : score\", found {}",
                        Quoted(trimmed)
                    ),
                )
            })?;
            match &players {
                None => players = Some(names),
                Some(p) if *p != names => {
                    return Err(err(0, players_differ(&names, p)));
                }
                Some(_) => {}
            }
            game.score = score;
            right_col = col;
            continue;
        }
        // A move line `NNN) left right`, or an unnumbered one (a last `Wins`).
        let (move_number, body_start) = match trimmed.split_once(')') {
            Some((n, _)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
                let at = line.find(')').expect("found above") + 1;
                (
                    n.parse::<u32>()
                        .map_err(|_| err(0, "bad move number".into()))?,
                    at,
                )
            }
            _ => (0, 0),
        };
        let found = entries(line, body_start);
        if let [_, (col, _)] = found.as_slice() {
            right_col = *col;
        }
        for (n, &(col, entry)) in found.iter().enumerate() {
            let player = if n > 0 {
                1
            } else if move_number > 0 {
                // A numbered line's left entry follows its `)` and a
                // space or two; one further along is the right player's.
                u8::from(col > body_start + 3)
            } else {
                // Give or take two spaces: writers pad differently.
                u8::from(col + 2 >= right_col)
            };
            let action = parse_entry(entry, player).map_err(|what| err(move_number, what))?;
            game.actions.push((line_no, move_number, action));
        }
    }
    let length = length.ok_or_else(|| MatError {
        line: 0,
        game: 0,
        move_number: 0,
        what: "no \" N point match\" line".into(),
    })?;
    let players = players.ok_or_else(|| MatError {
        line: 0,
        game: 0,
        move_number: 0,
        what: "no game".into(),
    })?;
    Ok(MatchRecord {
        length,
        players,
        games,
        jacoby: false,
    })
}

/// The names, scores and the right name's column of a score line.
fn score_line(line: &str) -> Option<([String; 2], [u32; 2], usize)> {
    let first = line.find(':')?;
    let left_name = line[..first].trim().to_string();
    let rest = &line[first + 1..];
    let rest_start = rest.len() - rest.trim_start().len();
    let digits = rest[rest_start..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len() - rest_start);
    let left_score = rest[rest_start..rest_start + digits].parse().ok()?;
    let after = &rest[rest_start + digits..];
    let second = after.find(':')?;
    let right_part = &after[..second];
    let right_name = right_part.trim().to_string();
    let right_byte =
        first + 1 + rest_start + digits + (right_part.len() - right_part.trim_start().len());
    // Columns count characters: a name like "Þórður" is wider in bytes.
    let right_col = line[..right_byte].chars().count();
    let right_score = after[second + 1..].trim().parse().ok()?;
    (!left_name.is_empty() && !right_name.is_empty()).then_some((
        [left_name, right_name],
        [left_score, right_score],
        right_col,
    ))
}

/// The line with its tabs expanded to the next multiple of eight
/// columns, as a terminal shows it: some writers separate the two
/// players' columns by tabs.
fn expand_tabs(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\t') {
        return line.into();
    }
    let mut out = String::with_capacity(line.len() + 16);
    let mut col = 0;
    for c in line.chars() {
        if c == '\t' {
            let next = (col / 8 + 1) * 8;
            out.extend(std::iter::repeat_n(' ', next - col));
            col = next;
        } else {
            out.push(c);
            col += 1;
        }
    }
    out.into()
}

/// The entries of a move line after `start`, each with the column it
/// starts at: a new entry begins at a roll (`DD:`) or a cube or result
/// word.
fn entries(line: &str, start: usize) -> Vec<(usize, &str)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let bytes = line.as_bytes();
    let mut i = start;
    while i < line.len() {
        if bytes[i] == b' ' {
            i += 1;
            continue;
        }
        let word_end = line[i..].find(' ').map_or(line.len(), |e| i + e);
        let word = &line[i..word_end];
        let starts_entry = (word.len() == 3
            && word.ends_with(':')
            && word[..2].bytes().all(|b| b.is_ascii_digit()))
            || matches!(word, "Doubles" | "Beavers" | "Takes" | "Drops" | "Wins");
        if starts_entry || out.is_empty() {
            out.push((i, word_end));
        } else if let Some(last) = out.last_mut() {
            last.1 = word_end;
        }
        i = word_end;
    }
    out.into_iter().map(|(a, b)| (a, &line[a..b])).collect()
}

/// Why a game's players are refused: a match file is one pair of
/// players throughout.
pub(super) fn players_differ(names: &[String; 2], first: &[String; 2]) -> String {
    format!(
        "players {} and {} differ from game 1's {} and {}",
        Quoted(&names[0]),
        Quoted(&names[1]),
        Quoted(&first[0]),
        Quoted(&first[1])
    )
}

fn parse_entry(entry: &str, player: u8) -> Result<Action, String> {
    let words: Vec<&str> = entry.split_whitespace().collect();
    let value = |w: Option<&&str>| -> Result<u32, String> {
        w.and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("bad entry {}", Quoted(entry)))
    };
    match words.as_slice() {
        ["Doubles", "=>", v] => Ok(Action::Double {
            player,
            value: value(Some(v))?,
        }),
        ["Beavers", "=>", v] => Ok(Action::Beaver {
            player,
            value: value(Some(v))?,
        }),
        ["Takes"] => Ok(Action::Take { player }),
        ["Drops"] => Ok(Action::Drop { player }),
        ["Wins", p, unit, rest @ ..]
            if matches!(*unit, "point" | "points")
                && (rest.is_empty() || rest == ["and", "the", "match"]) =>
        {
            Ok(Action::Win {
                player,
                points: value(Some(p))?,
            })
        }
        [roll, moves @ ..] if roll.len() == 3 && roll.ends_with(':') => {
            let dice: Dice = roll[..2]
                .parse()
                .map_err(|_| format!("bad dice {}", Quoted(roll)))?;
            Ok(Action::Move {
                player,
                dice,
                text: moves.join(" "),
            })
        }
        _ => Err(format!("cannot read the entry {}", Quoted(entry))),
    }
}

/// Writes a match in GNU Backgammon's `.mat` layout (the left player's
/// entries from column 5, the right player's from column 33); `parse`
/// reads it back to the same record.
pub fn write(record: &MatchRecord) -> String {
    use std::fmt::Write as _;
    let mut out = format!(" {} point match\n\n", record.length);
    let [p0, p1] = &record.players;
    let mut totals = [0u32; 2];
    let last_game = record.games.last().map(|g| g.number);
    for game in &record.games {
        let _ = writeln!(out, " Game {}", game.number);
        let left = format!("{p0} : {}", game.score[0]);
        let _ = writeln!(out, " {left:<31}{p1} : {}", game.score[1]);
        let mut row: (Option<String>, Option<String>) = (None, None);
        let mut number = 0;
        let mut flush = |out: &mut String, row: &mut (Option<String>, Option<String>)| {
            if row.0.is_some() || row.1.is_some() {
                number += 1;
                let l = row.0.take().unwrap_or_default();
                let r = row.1.take().unwrap_or_default();
                // A long left entry (a double's four steps with hits)
                // pushes the right one along, one space apart at least.
                let _ = writeln!(out, "{:>3}) {l:<27} {r}", number);
            }
        };
        for (_, _, action) in &game.actions {
            let player = action.player();
            let text = match action {
                Action::Move { .. } => action.words(),
                Action::Win { points, .. } => {
                    totals[player as usize] += points;
                    let won_match = Some(game.number) == last_game
                        && record.length > 0
                        && totals[player as usize] >= record.length;
                    let tail = if won_match { " and the match" } else { "" };
                    let text = format!(" {}{tail}", action.words());
                    if player == 1 && row.0.is_some() && row.1.is_none() {
                        row.1 = Some(text);
                        flush(&mut out, &mut row);
                    } else {
                        flush(&mut out, &mut row);
                        let pad = if player == 0 { 5 } else { 33 };
                        let _ = writeln!(out, "{:pad$}{text}", "");
                    }
                    continue;
                }
                _ => format!(" {}", action.words()),
            };
            if player == 0 {
                flush(&mut out, &mut row);
                row.0 = Some(text);
            } else {
                row.1 = Some(text);
                flush(&mut out, &mut row);
            }
        }
        flush(&mut out, &mut row);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::match_replay::replay;

    const SMALL: &str = "; [EventDate \"2026.11.26\"]

 3 point match

 Game 1
 gnubg : 0                      root : 0
  1)                             21: 13/11 24/23 
  2) 52: 13/8 24/22              63: 8/5 11/5 
  3) 53: 13/8 24/21               Doubles => 2
  4)  Drops                       Wins 1 point
";

    #[test]
    fn a_small_match_reads_and_replays() {
        let m = parse(SMALL).unwrap();
        assert_eq!(m.length, 3);
        assert_eq!(m.players, ["gnubg".to_string(), "root".to_string()]);
        assert_eq!(m.games[0].actions.len(), 7);
        assert!(matches!(
            m.games[0].actions[0].2,
            Action::Move { player: 1, .. }
        ));
        let mut moves = 0;
        replay(&m, |r| moves += usize::from(r.after.is_some())).unwrap();
        assert_eq!(moves, 4);
    }

    #[test]
    fn an_illegal_move_names_its_game_and_move() {
        let bad = SMALL.replace("52: 13/8 24/22", "52: 13/8 24/23");
        let e = replay(&parse(&bad).unwrap(), |_| {}).unwrap_err();
        assert_eq!((e.game, e.move_number, e.line), (1, 2, 8));
        assert!(e.to_string().starts_with("game 1, move 2, line 8: "), "{e}");
        let wrong_win = SMALL.replace("Wins 1 point", "Wins 2 points");
        let e = replay(&parse(&wrong_win).unwrap(), |_| {}).unwrap_err();
        assert!(e.what.contains("rules say"), "{e}");
    }
}
