//! How positions and moves are written down. The rules never depend on
//! this layer: each notation parses into and prints from the rules' types.

pub mod ascii;
mod base64;
pub mod fibs;
pub mod gnubg_id;
pub mod mat;
pub mod match_id;
pub mod match_replay;
pub mod move_text;
pub mod position_id;
pub mod sgf;
pub mod xgid;

use crate::backgammon::Setup;
use thiserror::Error;

/// Any notation a user may give for a position.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SetupError {
    #[error(transparent)]
    Gnubg(#[from] gnubg_id::GnubgIdError),
    #[error(transparent)]
    Xgid(#[from] xgid::XgidError),
    #[error(transparent)]
    State(#[from] crate::backgammon::SetupStateError),
}

/// Parses `PositionID:MatchID`, a bare `PositionID`, or `XGID=...`, and
/// checks that it is a moment of a game in play
/// ([`Setup::check_in_play`]): every command and the UBGI engine refuse a
/// finished game or an impossible state the same way.
pub fn parse_setup(text: &str) -> Result<Setup, SetupError> {
    let setup = decode_setup(text)?;
    setup.check_in_play()?;
    Ok(setup)
}

/// Reads a setup to show, not to analyse: like [`parse_setup`], but a
/// finished game (one side has borne off all 15) is accepted, so that
/// the position after a winning move can be drawn.
pub fn parse_setup_to_show(text: &str) -> Result<Setup, SetupError> {
    let setup = decode_setup(text)?;
    setup.check_showable()?;
    Ok(setup)
}

/// The setup an ID spells, unchecked: an XGID or gnubg's
/// `PositionID[:MatchID]`.
fn decode_setup(text: &str) -> Result<Setup, SetupError> {
    let t = text.trim();
    if t.starts_with("XGID=") || t.matches(':').count() >= 8 {
        Ok(xgid::decode(t)?)
    } else {
        Ok(gnubg_id::decode(t)?)
    }
}

/// The largest match file read (64 MiB, some hundred thousand games):
/// a reader stops there, so a huge or endless input costs bounded memory.
pub const MAX_MATCH_BYTES: u64 = 64 << 20;

/// Why a match file's text could not be read.
#[derive(Debug, Error)]
pub enum ReadMatchError {
    /// The message quotes the cause, so it is not chained as a source
    /// too (a chain printer would say it twice).
    #[error("cannot read {path}: {cause}")]
    Io { path: String, cause: std::io::Error },
    #[error("{path}: larger than {} MiB, more than any match file", MAX_MATCH_BYTES >> 20)]
    TooLarge { path: String },
}

/// A match file's text, refused past [`MAX_MATCH_BYTES`] without reading
/// further (and if it is not UTF-8).
pub fn read_match_file(path: &std::path::Path) -> Result<String, ReadMatchError> {
    use std::io::Read as _;
    let shown = || path.display().to_string();
    let io = |cause| ReadMatchError::Io {
        path: shown(),
        cause,
    };
    let mut text = String::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(MAX_MATCH_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(io)?;
    if text.len() as u64 > MAX_MATCH_BYTES {
        return Err(ReadMatchError::TooLarge { path: shown() });
    }
    Ok(text)
}

/// Reads a match file's text, `.sgf` or `.mat`, told apart by its first
/// character (an SGF collection opens with `(`).
pub fn parse_match(text: &str) -> Result<mat::MatchRecord, mat::MatError> {
    // Editors on Windows start UTF-8 files with a byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(mat::MatError {
            line: 0,
            game: 0,
            move_number: 0,
            what: "the match file is empty (expected a .mat match or an .sgf game tree)".into(),
        });
    }
    if text.trim_start().starts_with('(') {
        sgf::parse(text)
    } else {
        mat::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_file_says_so_and_a_byte_order_mark_is_skipped() {
        for empty in ["", "\n  \n", "\u{feff}", "\u{feff}\n"] {
            let e = parse_match(empty).unwrap_err().to_string();
            assert_eq!(
                e, "the match file is empty (expected a .mat match or an .sgf game tree)",
                "{empty:?}"
            );
        }
        for file in ["3-pt-102.mat", "3-pt-102.sgf"] {
            let path = std::path::Path::new("tests/data/matches").join(file);
            let text = std::fs::read_to_string(path).unwrap();
            let plain = parse_match(&text).unwrap();
            let marked = parse_match(&format!("\u{feff}{text}")).unwrap();
            assert_eq!(plain, marked, "{file}");
        }
        // An error on a line still names the line.
        let e = parse_match(" 3 point match\n\n Game 1\n nonsense here\n").unwrap_err();
        assert!(e.to_string().contains("line "), "{e}");
    }
}
