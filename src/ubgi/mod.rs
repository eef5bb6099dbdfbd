//! The UBGI v0.2 engine behind `kotra-ai ubgi`: a line protocol (like
//! chess's UCI) through which GNU Backgammon's harnesses and other programs
//! ask for moves and cube actions. The contract followed is the oracle's
//! `docs/ubgi.md` (a copy of the oracle's `UBGI.md`): every bad line gets `error <code> <detail>` and the engine
//! carries on; it never exits but on `quit` or the end of its input.

mod keys;

use crate::analysis::{Analyzer, Equity};
use crate::backgammon::{Dice, Setup, SetupStateError};
use crate::eval::Evaluator;
use crate::notation::{SetupError, parse_setup};
use crate::quoted::Quoted;
use keys::{KEYS, Settings};
use std::io::{BufRead, Write};

pub const PROTOCOL: &str = "0.2";

/// Why a command was refused; the protocol's error codes.
#[derive(Debug)]
enum Refusal {
    BadCommand(String),
    BadValue(String),
    BadState(String),
    Unsupported(String),
}

impl Refusal {
    fn line(&self) -> String {
        let (code, detail) = match self {
            Refusal::BadCommand(d) => ("bad_command", d),
            Refusal::BadValue(d) => ("bad_value", d),
            Refusal::BadState(d) => ("bad_state", d),
            Refusal::Unsupported(d) => ("unsupported", d),
        };
        format!("error {code} {}", short(detail))
    }
}

/// The longest command line read; the longest real one (a `position`
/// with an XGID) is under a hundred bytes. A longer line is refused
/// without being held in memory.
pub const MAX_LINE: usize = 4096;

/// The most bytes of an error line's detail, which may repeat the refused
/// input (counted in bytes: 160 characters of a multi-byte script made a
/// 400-byte line).
const DETAIL_BYTES: usize = 200;

/// `text`, cut to at most [`DETAIL_BYTES`] bytes (at a character
/// boundary) with "..." when longer.
fn short(text: &str) -> String {
    if text.len() <= DETAIL_BYTES {
        return text.to_string();
    }
    let mut at = DETAIL_BYTES;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    format!("{}...", &text[..at])
}

/// What [`read_line`] found.
enum Line {
    /// A line (without its newline) is in the buffer.
    Text,
    /// A line longer than [`MAX_LINE`], skipped to its end.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line into `buffer`, holding at most [`MAX_LINE`] bytes of it.
fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> std::io::Result<Line> {
    buffer.clear();
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(match (too_long, buffer.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::End,
                (false, false) => Line::Text,
            });
        }
        let (take, newline) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            if buffer.len() + take > MAX_LINE {
                too_long = true;
                buffer.clear();
            } else {
                buffer.extend_from_slice(&chunk[..take]);
            }
        }
        input.consume(take + usize::from(newline));
        if newline {
            return Ok(if too_long { Line::TooLong } else { Line::Text });
        }
    }
}

/// One engine session: the evaluator, the key values and the situation
/// last set.
pub struct Engine<'a> {
    analyzer: Analyzer<'a>,
    settings: Settings,
    setup: Option<Setup>,
    dice: Option<Dice>,
}

impl<'a> Engine<'a> {
    pub fn new(eval: &'a Evaluator) -> Engine<'a> {
        Engine {
            analyzer: Analyzer::new(eval),
            settings: Settings::default(),
            setup: None,
            dice: None,
        }
    }

    /// Reads commands until `quit` or the end of input, answering each.
    pub fn run(&mut self, mut input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
        let mut buffer = Vec::with_capacity(256);
        loop {
            let reply = match read_line(&mut input, &mut buffer)? {
                Line::End => break,
                Line::TooLong => vec![format!(
                    "error bad_value the line is longer than {MAX_LINE} bytes"
                )],
                Line::Text => match std::str::from_utf8(&buffer).map(str::trim) {
                    // Bytes that are not UTF-8: refuse the line, keep going.
                    Err(_) => vec!["error bad_value the line is not UTF-8".into()],
                    Ok("") => continue,
                    Ok("quit") => break,
                    Ok(line) => self.handle(line).unwrap_or_else(|r| vec![r.line()]),
                },
            };
            for line in reply {
                writeln!(output, "{line}")?;
            }
            output.flush()?;
        }
        Ok(())
    }

    fn handle(&mut self, line: &str) -> Result<Vec<String>, Refusal> {
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or("");
        let args: Vec<&str> = words.collect();
        match (command, args.as_slice()) {
            ("ubgi", []) => {
                let mut out = vec![
                    "id name kotra-ai".to_string(),
                    "id author the kotra-ai developers".to_string(),
                    format!("proto {PROTOCOL}"),
                ];
                out.extend(KEYS.iter().map(|k| k.line()));
                out.push("ubgiok".into());
                Ok(out)
            }
            ("isready", []) => Ok(vec!["readyok".into()]),
            ("keys", []) => Ok(KEYS.iter().map(|k| k.line()).collect()),
            ("set", [key, value]) => {
                self.settings.set(key, value).map_err(Refusal::BadValue)?;
                self.analyzer
                    .set_preselection(self.settings.preselect, self.settings.prune());
                Ok(vec![])
            }
            ("set", _) => Err(Refusal::BadValue("usage: set <key> <value>".into())),
            ("get", [key]) => {
                let value = self.settings.get(key).map_err(Refusal::BadValue)?;
                Ok(vec![format!("value {key} {value}")])
            }
            ("newgame", []) => {
                self.setup = None;
                self.dice = None;
                Ok(vec![])
            }
            ("position", [kind, id]) => self.position(kind, id),
            ("position", _) => Err(Refusal::BadValue(
                "usage: position gnubgid <PositionID:MatchID> | position xgid <XGID>".into(),
            )),
            ("dice", [a, b]) => {
                let die = |s: &str| s.parse::<u8>().ok();
                let dice = die(a)
                    .zip(die(b))
                    .and_then(|(a, b)| Dice::new(a, b))
                    .ok_or_else(|| {
                        Refusal::BadValue(format!("dice {a} {b}: each must be 1 to 6"))
                    })?;
                self.dice = Some(dice);
                Ok(vec![])
            }
            ("go", ["chequer" | "checker"]) => self.go_chequer(),
            ("go", ["cube"]) => self.go_cube(),
            ("go", _) => Err(Refusal::BadValue("usage: go chequer | go cube".into())),
            _ => Err(Refusal::BadCommand(format!(
                "{} (or its arguments)",
                Quoted(command)
            ))),
        }
    }

    /// A refused position forgets the one before it (and its dice): the
    /// controller meant to leave it, so a `go` then answers `bad_state`
    /// instead of analysing a position nobody asked about.
    fn position(&mut self, kind: &str, id: &str) -> Result<Vec<String>, Refusal> {
        self.setup = None;
        self.dice = None;
        let text = match kind {
            "gnubgid" => id.to_string(),
            "xgid" if id.starts_with("XGID=") => id.to_string(),
            "xgid" => format!("XGID={id}"),
            _ => {
                return Err(Refusal::BadValue(format!(
                    "unknown position kind {}",
                    Quoted(kind)
                )));
            }
        };
        let setup = parse_setup(&text).map_err(|e| match e {
            SetupError::State(SetupStateError::Resigned) => {
                Refusal::Unsupported("resignations".into())
            }
            e => Refusal::BadValue(e.to_string()),
        })?;
        self.dice = setup.info.rolled();
        self.setup = Some(setup);
        Ok(vec![])
    }

    fn setup(&self) -> Result<&Setup, Refusal> {
        self.setup
            .as_ref()
            .ok_or_else(|| Refusal::BadState("no position yet".into()))
    }

    fn go_chequer(&mut self) -> Result<Vec<String>, Refusal> {
        let setup = self.setup()?;
        if setup.info.doubled {
            return Err(Refusal::BadState("a double is pending: go cube".into()));
        }
        let dice = self
            .dice
            .ok_or_else(|| Refusal::BadState("no dice: send dice <d1> <d2>".into()))?;
        let equity = if self.settings.cubeful {
            Equity::Cubeful
        } else {
            // Cubeless play ranks by cubeless equity at every stage, so
            // the best of the deepest stage is the move (a 0-ply value
            // left over from the first filter is never compared with a
            // deeper one).
            Equity::Cubeless
        };
        let report = self
            .analyzer
            .rank_moves(setup, dice, self.settings.ply - 1, equity);
        let Some(best) = report.moves.first() else {
            return Ok(vec!["bestmove pass".into()]);
        };
        Ok(vec![
            format!(
                "info equity {:.5} ply {} candidates {}",
                best.equity,
                best.ply,
                report.moves.len()
            ),
            format!("bestmove {}", best.text),
        ])
    }

    fn go_cube(&mut self) -> Result<Vec<String>, Refusal> {
        let setup = self.setup()?;
        let info = &setup.info;
        if info.rolled().is_some() && !info.doubled {
            return Err(Refusal::BadState("the dice are rolled: go chequer".into()));
        }
        // Decisions are taken from the doubler's view: the side on roll.
        let report = self.analyzer.cube_decision(setup, self.settings.ply - 1);
        let d = &report.decision;
        let info_line = format!(
            "info nd {:.5} dt {:.5} dp {:.5} action {} response {}",
            d.no_double, d.double_take, d.double_pass, d.action, d.take
        );
        let answer = if info.doubled {
            match d.take {
                crate::cube::TakeAnswer::Pass => "bestcube pass",
                _ => "bestcube take",
            }
        } else if report.may_double && d.should_double() {
            "bestcube double"
        } else {
            "bestcube nodouble"
        };
        Ok(vec![info_line, answer.into()])
    }
}
