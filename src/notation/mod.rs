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
    #[error("{path}: {what}")]
    NotText { path: String, what: &'static str },
}

/// How eXtreme Gammon's binary `.xg` files begin (its container's magic
/// number, `RGMH` as stored): named in the error, since XG's users are
/// the ones most likely to hand one over, and XG exports `.mat` too.
const XG_MAGIC: &[u8; 4] = b"RGMH";

/// A match file's text, refused past [`MAX_MATCH_BYTES`] without reading
/// further, and where [`match_text`] finds no text (an XG binary, bytes
/// that are not UTF-8).
pub fn read_match_file(path: &std::path::Path) -> Result<String, ReadMatchError> {
    use std::io::Read as _;
    let shown = || path.display().to_string();
    let io = |cause| ReadMatchError::Io {
        path: shown(),
        cause,
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(MAX_MATCH_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_MATCH_BYTES {
        return Err(ReadMatchError::TooLarge { path: shown() });
    }
    match_text(&bytes)
        .map(str::to_owned)
        .map_err(|what| ReadMatchError::NotText {
            path: shown(),
            what,
        })
}

/// A match file's bytes as text, or why they are not one (an XG binary
/// named as such): the one check behind a file read from disk and a body
/// posted to the server.
pub fn match_text(bytes: &[u8]) -> Result<&str, &'static str> {
    if bytes.starts_with(XG_MAGIC) {
        return Err(
            "an eXtreme Gammon .xg file (binary), which is not read here; \
             export the match from XG as a .mat file",
        );
    }
    std::str::from_utf8(bytes)
        .map_err(|_| "not a text match file (.mat or .sgf; the file is not UTF-8)")
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

    #[test]
    fn a_binary_file_is_refused_in_one_line_and_an_xg_file_by_name() {
        let dir = std::env::temp_dir().join(format!("kotra-binary-match-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let xg = dir.join("match.xg");
        // A container header as XG writes it: the magic, then binary fields.
        let mut bytes = XG_MAGIC.to_vec();
        bytes.extend_from_slice(&[1, 0, 0, 0, 0x28, 0x20, 0, 0, 0xff, 0xfe, 0x80]);
        std::fs::write(&xg, &bytes).unwrap();
        let e = read_match_file(&xg).unwrap_err().to_string();
        assert!(e.starts_with(&xg.display().to_string()), "{e}");
        assert!(
            e.contains("eXtreme Gammon .xg file")
                && e.contains("export the match from XG as a .mat file"),
            "{e}"
        );
        // UTF-16 text (a byte-order mark, then wide characters) is not UTF-8.
        let wide = dir.join("wide.mat");
        std::fs::write(&wide, [0xff, 0xfe, b'3', 0, b' ', 0]).unwrap();
        let e = read_match_file(&wide).unwrap_err().to_string();
        assert!(
            e.contains("not a text match file") && !e.contains('\n'),
            "{e}"
        );
        // The same file as text reads as before.
        let text = dir.join("text.mat");
        std::fs::write(&text, " 1 point match\n").unwrap();
        assert_eq!(read_match_file(&text).unwrap(), " 1 point match\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
