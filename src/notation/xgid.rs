//! eXtreme Gammon's XGID, e.g.
//! `XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10`.
//!
//! Fields: 26 board characters (index 0 = top player's bar, 1..24 = the
//! bottom player's points, 25 = bottom player's bar; `A`..`O` = 1..15
//! bottom checkers, `a`..`o` top checkers, `-` empty); log2 of the cube;
//! cube owner (1 bottom, -1 top, 0 centred); player on roll (1 bottom,
//! -1 top); dice (`00` not rolled, `D` double offered); bottom score; top
//! score; Crawford flag in a match, Jacoby (+1) and beavers (+2) in money;
//! match length (0 = money); log2 of the maximum cube.
//!
//! The bottom player is gnubg's player 1 and the top player gnubg's player
//! 0; this mapping was checked against gnubg's own `set gnubgid XGID=...`
//! (see tests/xgid_gnubg.rs).

use crate::backgammon::{CubeOwner, MatchInfo, Position, PositionError, Setup};
use crate::quoted::Quoted;
use thiserror::Error;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum XgidError {
    #[error("XGID needs 9 or 10 fields separated by ':' (found {0})")]
    FieldCount(usize),
    #[error("XGID board must have 26 characters (found {0})")]
    BoardLength(usize),
    #[error("XGID board has an unknown character {0:?} (use - A-O a-o)")]
    BoardChar(char),
    #[error("XGID board: bottom player's checkers on the top player's bar, or the reverse")]
    WrongBar,
    #[error("XGID field {field} is {}: {why}", Quoted(.value))]
    Field {
        field: &'static str,
        value: String,
        why: &'static str,
    },
    /// The message quotes the cause, so it is not chained as a source
    /// too (a chain printer would say it twice).
    #[error("XGID board: {0}")]
    Board(PositionError),
}

impl From<PositionError> for XgidError {
    fn from(e: PositionError) -> XgidError {
        XgidError::Board(e)
    }
}

fn field<T: std::str::FromStr>(
    name: &'static str,
    v: &str,
    why: &'static str,
) -> Result<T, XgidError> {
    v.trim().parse().map_err(|_| XgidError::Field {
        field: name,
        value: v.to_string(),
        why,
    })
}

/// Parses an XGID (with or without the `XGID=` prefix).
pub fn decode(text: &str) -> Result<Setup, XgidError> {
    let body = text.trim();
    let body = body.strip_prefix("XGID=").unwrap_or(body);
    let f: Vec<&str> = body.split(':').collect();
    if !(9..=10).contains(&f.len()) {
        return Err(XgidError::FieldCount(f.len()));
    }
    let chars: Vec<char> = f[0].chars().collect();
    if chars.len() != 26 {
        return Err(XgidError::BoardLength(chars.len()));
    }
    // bottom[i] / top[i]: gnubg-style sides, each in its own numbering.
    let mut bottom = [0u8; 25];
    let mut top = [0u8; 25];
    for (i, &c) in chars.iter().enumerate() {
        let (upper, n) = match c {
            '-' => continue,
            'A'..='O' => (true, c as u8 - b'A' + 1),
            'a'..='o' => (false, c as u8 - b'a' + 1),
            _ => return Err(XgidError::BoardChar(c)),
        };
        match (i, upper) {
            (0, true) | (25, false) => return Err(XgidError::WrongBar),
            (0, false) => top[24] = n,
            (25, true) => bottom[24] = n,
            (p, true) => bottom[p - 1] = n,
            (p, false) => top[24 - p] = n,
        }
    }
    let cube_log: u32 = field("cube", f[1], "log2 of the cube value, 0-15")?;
    if cube_log > 15 {
        return Err(XgidError::Field {
            field: "cube",
            value: f[1].into(),
            why: "log2 of the cube value, 0-15",
        });
    }
    let owner: i32 = field("cube owner", f[2], "1, 0 or -1")?;
    let turn: i32 = field("turn", f[3], "1 (bottom) or -1 (top)")?;
    let to_player = |v: i32, name: &'static str, raw: &str| match v {
        1 => Ok(1u8),
        -1 => Ok(0u8),
        _ => Err(XgidError::Field {
            field: name,
            value: raw.to_string(),
            why: "1 or -1",
        }),
    };
    let on_roll = to_player(turn, "turn", f[3])?;
    let cube_owner = match owner {
        0 => CubeOwner::Centered,
        v => CubeOwner::Player(to_player(v, "cube owner", f[2])?),
    };
    let (dice, doubled) = match f[4] {
        "D" | "B" | "R" => ([0, 0], true),
        d if d.len() == 2 && d.bytes().all(|b| b.is_ascii_digit()) => {
            let b = d.as_bytes();
            let (x, y) = (b[0] - b'0', b[1] - b'0');
            let ok = (x == 0 && y == 0) || ((1..=6).contains(&x) && (1..=6).contains(&y));
            if !ok {
                return Err(XgidError::Field {
                    field: "dice",
                    value: d.into(),
                    why: "00, two dice 1-6, or D",
                });
            }
            ([x, y], false)
        }
        d => {
            return Err(XgidError::Field {
                field: "dice",
                value: d.into(),
                why: "00, two dice 1-6, or D",
            });
        }
    };
    let score_bottom: u32 = field("bottom score", f[5], "a number")?;
    let score_top: u32 = field("top score", f[6], "a number")?;
    let flags: u32 = field("Crawford/Jacoby", f[7], "a number")?;
    let match_length: u32 = field("match length", f[8], "a number (0 = money)")?;
    // The Match ID holds the length and the scores in 15 bits each; a
    // longer match would be written as another.
    if match_length > MAX_MATCH_FIELD
        || score_bottom > MAX_MATCH_FIELD
        || score_top > MAX_MATCH_FIELD
    {
        return Err(XgidError::Field {
            field: "match length or score",
            value: format!("{match_length}, {score_bottom}-{score_top}"),
            why: "at most 32767",
        });
    }
    if match_length > 0 && (score_bottom >= match_length || score_top >= match_length) {
        return Err(XgidError::Field {
            field: "score",
            value: format!("{score_bottom}-{score_top}"),
            why: "each score must be below the match length",
        });
    }
    if match_length > 0 && flags & 1 == 1 && (cube_log > 0 || owner != 0) {
        return Err(XgidError::Field {
            field: "cube",
            value: f[1].into(),
            why: "the cube cannot have been turned in the Crawford game",
        });
    }
    if let Some(raw) = f.get(9) {
        let why = "log2 of the maximum cube, 0-15, at least the cube's";
        let max_log: u32 = field("maximum cube", raw, why)?;
        if max_log > 15 || max_log < cube_log {
            return Err(XgidError::Field {
                field: "maximum cube",
                value: raw.to_string(),
                why,
            });
        }
    }
    let (mover, other) = if on_roll == 1 {
        (&bottom, &top)
    } else {
        (&top, &bottom)
    };
    let position = Position::from_sides(mover, other)?;
    let info = MatchInfo {
        cube_value: 1 << cube_log,
        cube_owner,
        on_roll,
        crawford: match_length > 0 && flags & 1 == 1,
        game_state: 1,
        turn: if doubled { 1 - on_roll } else { on_roll },
        doubled,
        resigned: 0,
        dice,
        match_length,
        score: [score_top, score_bottom],
        jacoby: match_length == 0 && flags & 1 == 1,
    };
    Ok(Setup { position, info })
}

/// The largest match length or score a Match ID can carry (15 bits).
const MAX_MATCH_FIELD: u32 = (1 << 15) - 1;

/// Writes a setup as an XGID.
pub fn encode(setup: &Setup) -> String {
    let info = &setup.info;
    let (mover, other) = setup.position.to_sides();
    let (bottom, top) = if info.on_roll == 1 {
        (mover, other)
    } else {
        (other, mover)
    };
    let letter = |n: u8, base: u8| if n == 0 { '-' } else { (base + n - 1) as char };
    let mut board = String::with_capacity(26);
    board.push(letter(top[24], b'a'));
    for p in 1..=24 {
        if bottom[p - 1] > 0 {
            board.push(letter(bottom[p - 1], b'A'));
        } else {
            board.push(letter(top[24 - p], b'a'));
        }
    }
    board.push(letter(bottom[24], b'A'));
    let side = |p: u8| if p == 1 { 1 } else { -1 };
    let owner = match info.cube_owner {
        CubeOwner::Centered => 0,
        CubeOwner::Player(p) => side(p),
    };
    let dice = if info.doubled {
        "D".to_string()
    } else {
        format!("{}{}", info.dice[0], info.dice[1])
    };
    let flags = if info.match_length > 0 {
        info.crawford as u32
    } else {
        info.jacoby as u32
    };
    format!(
        "XGID={}:{}:{}:{}:{}:{}:{}:{}:{}:10",
        board,
        info.cube_value.max(1).trailing_zeros(),
        owner,
        side(info.on_roll),
        dice,
        info.score[1],
        info.score[0],
        flags,
        info.match_length
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_position_reads_and_writes_back() {
        let x = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10";
        let s = decode(x).unwrap();
        assert_eq!(s.position, Position::starting());
        assert_eq!(s.info.dice, [5, 2]);
        assert_eq!(s.info.on_roll, 1);
        assert_eq!(encode(&s), x);
    }

    #[test]
    fn errors_name_the_field() {
        let e = decode("XGID=-b----E-C---eE---c-e----B-:0:0:2:52:0:0:0:0:10").unwrap_err();
        assert!(e.to_string().contains("turn"), "{e}");
        assert!(decode("XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:0:0:10").is_err());
        assert!(decode("XGID=-b----E-C---eE---c-e----B-:0:0:1").is_err());
        let e = decode("XGID=-b----E-C---eE---c-e---PB-:0:0:1:52:0:0:0:0:10").unwrap_err();
        assert!(e.to_string().contains("'P'"), "{e}");
        // The tenth field, the maximum cube: a number, 0-15, not below the cube.
        for bad in ["abc", "16", "-1", ""] {
            let e = decode(&format!(
                "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:{bad}"
            ))
            .unwrap_err();
            assert!(e.to_string().contains("maximum cube"), "{bad}: {e}");
        }
        let e = decode("XGID=-b----E-C---eE---c-e----B-:3:0:1:52:0:0:0:0:2").unwrap_err();
        assert!(e.to_string().contains("maximum cube"), "{e}");
        assert!(decode("XGID=-b----E-C---eE---c-e----B-:3:0:1:52:0:0:0:0:3").is_ok());
        assert!(decode("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0").is_ok());
    }
}
