//! GNU Backgammon's `.sgf` match files (SGF, `GM[6]`): read into the same
//! [`MatchRecord`] a `.mat` gives (so one replay checks both), and written
//! back, optionally with a review's marks, luck and comments where gnubg
//! shows them.
//!
//! The format: one game tree `(;…)` a game. The root node carries
//! `MI[length:N][game:i][ws:a][bs:b]`, the players `PW` (White, our left
//! player 0) and `PB`, the rules `RU[Crawford:CrawfordGame]`, `RU[Jacoby]`,
//! and the result `RE[W+2]` (`R` after the points: resigned). Each later
//! node is one action: `W[43xtmj]` (White rolled 43 and moved checkers
//! between the lettered points), `B[double]`, `W[take]`, `W[drop]`. Points
//! are the letters `a`–`x` counted from White's 1-point (`a`) to its
//! 24-point (`x`), so Black's point `p` is the letter `24 − p`; `y` is the
//! bar and `z` off. A double answered by a double is a beaver.

use super::mat::{Action, GameRecord, MatError, MatchRecord, players_differ};
use super::match_replay::replay;
use crate::backgammon::{Dice, GameResult, MoveList, legal_moves};
use crate::quoted::Quoted;
use std::collections::HashMap;
use std::fmt::Write as _;

/// One SGF node: its line in the file and its properties in order.
struct Node {
    line: usize,
    props: Vec<(String, Vec<String>)>,
}

impl Node {
    fn get(&self, id: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, v)| v.as_slice())
    }
}

fn error(line: usize, game: u32, move_number: u32, what: impl Into<String>) -> MatError {
    MatError {
        line,
        game,
        move_number,
        what: what.into(),
    }
}

/// Splits the text into game trees of nodes. Variations (a tree inside a
/// tree) are refused: a match file has one line of play.
fn trees(text: &str) -> Result<Vec<Vec<Node>>, MatError> {
    let mut out: Vec<Vec<Node>> = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut line = 1;
    let mut depth = 0;
    let line_of = |c: char, line: &mut usize| {
        if c == '\n' {
            *line += 1;
        }
    };
    while let Some((_, c)) = chars.next() {
        line_of(c, &mut line);
        match c {
            '(' => {
                depth += 1;
                if depth > 1 {
                    return Err(error(line, out.len() as u32, 0, "variations are not read"));
                }
                out.push(Vec::new());
            }
            ')' if depth == 1 => depth -= 1,
            ';' if depth == 1 => out.last_mut().expect("inside a tree").push(Node {
                line,
                props: Vec::new(),
            }),
            c if c.is_ascii_uppercase() && depth == 1 => {
                let node = out
                    .last_mut()
                    .and_then(|t| t.last_mut())
                    .ok_or_else(|| error(line, 0, 0, "a property outside a node"))?;
                let mut id = c.to_string();
                while let Some(&(_, c)) = chars.peek() {
                    if !c.is_ascii_uppercase() {
                        break;
                    }
                    id.push(c);
                    chars.next();
                }
                let mut values = Vec::new();
                loop {
                    while let Some(&(_, c)) = chars.peek() {
                        if !c.is_whitespace() {
                            break;
                        }
                        line_of(c, &mut line);
                        chars.next();
                    }
                    if chars.peek().map(|&(_, c)| c) != Some('[') {
                        break;
                    }
                    chars.next();
                    let mut value = String::new();
                    loop {
                        match chars.next() {
                            None => {
                                return Err(error(
                                    line,
                                    0,
                                    0,
                                    format!("{id}: a value never closed"),
                                ));
                            }
                            Some((_, ']')) => break,
                            Some((_, '\\')) => {
                                if let Some((_, e)) = chars.next() {
                                    line_of(e, &mut line);
                                    value.push(e);
                                }
                            }
                            Some((_, c)) => {
                                line_of(c, &mut line);
                                value.push(c);
                            }
                        }
                    }
                    values.push(value);
                }
                if values.is_empty() {
                    return Err(error(line, 0, 0, format!("property {id} has no value")));
                }
                node.props.push((id, values));
            }
            c if c.is_whitespace() || depth == 0 => {}
            c => return Err(error(line, 0, 0, format!("unexpected {c:?}"))),
        }
    }
    if depth != 0 {
        return Err(error(line, out.len() as u32, 0, "a game tree never closed"));
    }
    Ok(out)
}

/// The point a letter names for `player` (25 the bar, 0 off).
fn point(letter: char, player: u8) -> Option<u8> {
    match letter {
        'y' => Some(25),
        'z' => Some(0),
        'a'..='x' => {
            let i = letter as u8 - b'a';
            Some(if player == 0 { i + 1 } else { 24 - i })
        }
        _ => None,
    }
}

/// The letter of `player`'s point (25 the bar, 0 off).
fn letter(point: u8, player: u8) -> char {
    match point {
        25 => 'y',
        0 => 'z',
        p if player == 0 => (b'a' + p - 1) as char,
        p => (b'a' + 24 - p) as char,
    }
}

fn spelled(point: u8) -> String {
    match point {
        25 => "bar".into(),
        0 => "off".into(),
        p => p.to_string(),
    }
}

/// Reads an `.sgf` file's text.
pub fn parse(text: &str) -> Result<MatchRecord, MatError> {
    let mut length = None;
    let mut players: Option<[String; 2]> = None;
    let mut jacoby = false;
    let mut games = Vec::new();
    for (index, tree) in trees(text)?.into_iter().enumerate() {
        let number = index as u32 + 1;
        let Some(root) = tree.first() else {
            return Err(error(0, number, 0, "an empty game tree"));
        };
        let err = |line, m, what: String| error(line, number, m, what);
        match root.get("GM").and_then(|v| v.first()).map(String::as_str) {
            Some("6") => {}
            other => {
                return Err(err(
                    root.line,
                    0,
                    format!("GM[{}] is not backgammon (GM[6])", other.unwrap_or("")),
                ));
            }
        }
        let (mut len, mut score) = (0u32, [0u32; 2]);
        for field in root.get("MI").unwrap_or(&[]) {
            let (key, value) = field.split_once(':').unwrap_or((field, ""));
            let n = || {
                value
                    .parse::<u32>()
                    .map_err(|_| err(root.line, 0, format!("MI[{field}]: not a number")))
            };
            match key {
                "length" => len = n()?,
                "ws" => score[0] = n()?,
                "bs" => score[1] = n()?,
                _ => {}
            }
        }
        if *length.get_or_insert(len) != len {
            return Err(err(
                root.line,
                0,
                format!("match length {len} in game {number}"),
            ));
        }
        for rule in root.get("RU").unwrap_or(&[]) {
            for part in rule.split(':') {
                match part {
                    "Crawford" | "CrawfordGame" | "" => {}
                    "Jacoby" => jacoby = true,
                    other => {
                        return Err(err(
                            root.line,
                            0,
                            format!(
                                "the rules {}: kotra-ai plays standard backgammon only",
                                Quoted(other)
                            ),
                        ));
                    }
                }
            }
        }
        if ["AE", "AW", "AB"]
            .iter()
            .any(|p| tree.iter().any(|n| n.get(p).is_some()))
        {
            return Err(err(root.line, 0, "edited positions are not read".into()));
        }
        let names = [
            root.get("PW")
                .map_or("White", |v| v[0].as_str())
                .to_string(),
            root.get("PB")
                .map_or("Black", |v| v[0].as_str())
                .to_string(),
        ];
        match &players {
            None => players = Some(names),
            Some(p) if *p != names => {
                return Err(err(root.line, 0, players_differ(&names, p)));
            }
            Some(_) => {}
        }
        let mut actions = Vec::new();
        let mut cube = 1u32;
        let mut pending: Option<u8> = None;
        let mut half_move = 0;
        for node in &tree[1..] {
            let side = [("W", 0u8), ("B", 1u8)]
                .into_iter()
                .find_map(|(id, p)| node.get(id).map(|v| (p, v[0].as_str())));
            let Some((player, value)) = side else {
                // Dice set, comments, analysis: no action.
                continue;
            };
            half_move += 1;
            let bad = |what: String| err(node.line, half_move, what);
            let action = match value {
                "double" => {
                    let beaver = pending.is_some_and(|doubler| doubler != player);
                    pending = Some(player);
                    cube *= 2;
                    if beaver {
                        Action::Beaver {
                            player,
                            value: cube,
                        }
                    } else {
                        Action::Double {
                            player,
                            value: cube,
                        }
                    }
                }
                "take" => {
                    // The doubler's acceptance of a beaver: implied in a
                    // `.mat`, and so in the record.
                    let beavered = matches!(actions.last(), Some((_, _, Action::Beaver { .. })));
                    pending = None;
                    if beavered {
                        continue;
                    }
                    Action::Take { player }
                }
                "drop" => {
                    pending = None;
                    Action::Drop { player }
                }
                roll => {
                    pending = None;
                    read_move(roll, player).map_err(bad)?
                }
            };
            actions.push((node.line, half_move, action));
        }
        if let Some(result) = root.get("RE") {
            let r = &result[0];
            let (who, rest) = r.split_at(r.len().min(2));
            let winner = match who {
                "W+" => 0,
                "B+" => 1,
                _ => return Err(err(root.line, 0, format!("RE[{r}]: not a result"))),
            };
            let points = rest
                .trim_end_matches('R')
                .parse::<u32>()
                .map_err(|_| err(root.line, 0, format!("RE[{r}]: not a result")))?;
            actions.push((
                root.line,
                0,
                Action::Win {
                    player: winner,
                    points,
                },
            ));
        }
        games.push(GameRecord {
            number,
            score,
            actions,
        });
    }
    let players = players.ok_or_else(|| error(0, 0, 0, "no game in the file"))?;
    Ok(MatchRecord {
        length: length.unwrap_or(0),
        players,
        games,
        jacoby,
    })
}

/// A move node's value: the dice, then from-to letter pairs.
fn read_move(value: &str, player: u8) -> Result<Action, String> {
    let bad = || format!("cannot read the move {}", Quoted(value));
    let digits: Vec<u8> = value
        .chars()
        .take(2)
        .map(|c| c.to_digit(10).map(|d| d as u8))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    let [a, b] = digits[..] else {
        return Err(bad());
    };
    let dice = Dice::new(a, b).ok_or_else(bad)?;
    let letters: Vec<char> = value.chars().skip(2).collect();
    if !letters.len().is_multiple_of(2) || letters.len() > 8 {
        return Err(bad());
    }
    let steps: Vec<String> = letters
        .chunks(2)
        .map(|pair| {
            let from = point(pair[0], player).ok_or_else(bad)?;
            let to = point(pair[1], player).ok_or_else(bad)?;
            Ok(format!("{}/{}", spelled(from), spelled(to)))
        })
        .collect::<Result<_, String>>()?;
    Ok(Action::Move {
        player,
        dice,
        text: steps.join(" "),
    })
}

/// What a review says of one action, for the `.sgf` written: gnubg's marks
/// (1 doubtful, 2 bad, 3 very bad) on the checker play and on the cube
/// decision taken with it, the roll's luck, and a comment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Note {
    pub move_mark: Option<u8>,
    pub cube_mark: Option<u8>,
    pub luck: Option<f32>,
    pub comment: Option<String>,
}

/// gnubg's thresholds for a lucky and a very lucky (or unlucky) roll, in
/// normalised equity.
pub const LUCKY: f32 = 0.3;
pub const VERY_LUCKY: f32 = 0.6;

/// Notes keyed by game number and the action's index in its game's
/// `actions` ([`super::match_replay::Replayed::index`]).
pub type Notes = HashMap<(u32, usize), Note>;

/// Writes the match as gnubg's `.sgf`: one game tree a game, every action a
/// node, with `notes` where a review gave them. The record is replayed to
/// find each move's checker steps and which games were resigned.
pub fn write(record: &MatchRecord, notes: &Notes) -> Result<String, MatError> {
    let mut nodes: HashMap<(u32, usize), String> = HashMap::new();
    let mut ended: HashMap<u32, bool> = HashMap::new();
    replay(record, |r| {
        let key = (r.game, r.index);
        let value = match &r.action {
            Action::Move { player, dice, .. } => {
                let mut list = MoveList::new();
                let pos = &r.before.position;
                legal_moves(pos, *dice, &mut list);
                let after = r.after.expect("a move has its position after");
                let play = list
                    .iter()
                    .find(|c| c.position == after)
                    .map(|c| c.play)
                    .unwrap_or_default();
                ended.insert(r.game, GameResult::of_mover_win(&after).is_some());
                let mut v = format!("{}{}", dice.high(), dice.low());
                for s in play.steps() {
                    v.push(letter(s.from, *player));
                    v.push(letter(s.to, *player));
                }
                v
            }
            Action::Double { .. } | Action::Beaver { .. } => "double".into(),
            Action::Take { .. } => "take".into(),
            Action::Drop { .. } => {
                ended.insert(r.game, true);
                "drop".into()
            }
            Action::Win { .. } => return,
        };
        nodes.insert(key, value);
    })?;
    let mut out = String::new();
    let esc = |s: &str| s.replace('\\', "\\\\").replace(']', "\\]");
    let mut crawford_done = false;
    for game in &record.games {
        let crawford = record.length > 0
            && !crawford_done
            && game.score.iter().any(|&s| s + 1 == record.length);
        crawford_done |= crawford;
        let _ = write!(
            out,
            "(;FF[4]GM[6]CA[UTF-8]AP[kotra-ai:{}]MI[length:{}][game:{}][ws:{}][bs:{}]PW[{}]PB[{}]",
            env!("CARGO_PKG_VERSION"),
            record.length,
            game.number - 1,
            game.score[0],
            game.score[1],
            esc(&record.players[0]),
            esc(&record.players[1]),
        );
        let mut rules = Vec::new();
        if record.length > 0 {
            rules.push(if crawford {
                "Crawford:CrawfordGame"
            } else {
                "Crawford"
            });
        } else if record.jacoby {
            rules.push("Jacoby");
        }
        if !rules.is_empty() {
            let _ = write!(out, "RU[{}]", rules.join(":"));
        }
        if let Some(Action::Win { player, points }) = game
            .actions
            .iter()
            .map(|a| &a.2)
            .find(|a| matches!(a, Action::Win { .. }))
        {
            let side = if *player == 0 { 'W' } else { 'B' };
            let resigned = if ended.get(&game.number) == Some(&true) {
                ""
            } else {
                "R"
            };
            let _ = write!(out, "RE[{side}+{points}{resigned}]");
        }
        out.push('\n');
        for (i, (_, _, action)) in game.actions.iter().enumerate() {
            let player = action.player();
            let Some(value) = nodes.get(&(game.number, i)) else {
                continue;
            };
            let side = if player == 0 { 'W' } else { 'B' };
            let _ = write!(out, ";{side}[{value}]");
            if let Some(note) = notes.get(&(game.number, i)) {
                write_note(&mut out, note, player, &esc);
            }
            out.push('\n');
            // gnubg writes the doubler's acceptance of a beaver; `.mat`
            // files leave it out.
            let answered = matches!(
                game.actions.get(i + 1).map(|a| &a.2),
                Some(Action::Take { .. } | Action::Drop { .. })
            );
            if matches!(action, Action::Beaver { .. }) && !answered {
                let doubler = if player == 0 { 'B' } else { 'W' };
                let _ = writeln!(out, ";{doubler}[take]");
            }
        }
        out.push_str(")\n");
    }
    Ok(out)
}

fn write_note(out: &mut String, note: &Note, player: u8, esc: &dyn Fn(&str) -> String) {
    match note.move_mark {
        Some(1) => out.push_str("DO[]"),
        Some(m @ 2..) => {
            let _ = write!(out, "BM[{}]", m - 1);
        }
        _ => {}
    }
    match note.cube_mark {
        Some(1) => out.push_str("DC[]"),
        Some(m @ 2..) => {
            let _ = write!(out, "BC[{}]", m - 1);
        }
        _ => {}
    }
    if let Some(luck) = note.luck {
        let _ = write!(out, "LU[{luck:+.6}]");
        // gnubg's lucky and very lucky rolls: good for White or Black.
        let good_for_white = (luck > 0.0) == (player == 0);
        let side = if good_for_white { "GW" } else { "GB" };
        match luck.abs() {
            l if l >= VERY_LUCKY => {
                let _ = write!(out, "{side}[2]");
            }
            l if l >= LUCKY => {
                let _ = write!(out, "{side}[1]");
            }
            _ => {}
        }
    }
    if let Some(c) = &note.comment {
        let _ = write!(out, "C[{}]", esc(c));
    }
}
