//! Text from the input, quoted in an error message.
//!
//! An error quotes what it could not read (a line of a match file, an
//! ID, a query parameter) so that the reader can find it. The input may be
//! anything, a megabyte line included, and the error is one line on a
//! terminal or a 400 answer: so a long quote keeps its start and its end
//! and says how long the whole is, instead of echoing all of it back.

use std::fmt;

/// The most characters quoted whole.
const WHOLE: usize = 80;
/// Of a longer text, the characters shown from its start and its end.
const HEAD: usize = 48;
const TAIL: usize = 16;

/// `text` as `{:?}` would quote it, its middle left out where it is
/// longer than [`WHOLE`] characters: `"abc…xyz" (1234 characters)`.
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0;
        let count = text.chars().count();
        if count <= WHOLE {
            return write!(f, "{text:?}");
        }
        let head_end = text.char_indices().nth(HEAD).map_or(text.len(), |(i, _)| i);
        let tail_start = text
            .char_indices()
            .nth(count - TAIL)
            .map_or(text.len(), |(i, _)| i);
        write!(
            f,
            "\"{}…{}\" ({count} characters)",
            text[..head_end].escape_debug(),
            text[tail_start..].escape_debug()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_as_debug_quotes_it() {
        for text in ["", "31", "8/5 6/5", "tab\there \"quoted\"", "ünïcode"] {
            assert_eq!(Quoted(text).to_string(), format!("{text:?}"));
        }
        let edge = "x".repeat(WHOLE);
        assert_eq!(Quoted(&edge).to_string(), format!("{edge:?}"));
    }

    #[test]
    fn long_text_keeps_its_ends_and_says_its_length() {
        let text = format!(
            "{}{}{}",
            "a".repeat(60),
            "b".repeat(1_000_000),
            "c".repeat(20)
        );
        let shown = Quoted(&text).to_string();
        let expected = format!(
            "\"{}…{}\" (1000080 characters)",
            "a".repeat(HEAD),
            "c".repeat(TAIL)
        );
        assert_eq!(shown, expected);
        assert!(shown.len() < 100);
    }

    #[test]
    fn long_text_is_cut_between_characters_and_escaped() {
        let text = format!("{}\n{}", "é".repeat(100), "ß".repeat(100));
        let shown = Quoted(&text).to_string();
        assert!(
            shown.starts_with(&format!("\"{}…", "é".repeat(HEAD))),
            "{shown}"
        );
        assert!(shown.ends_with(&format!("{}\" (201 characters)", "ß".repeat(TAIL))));
        let newline = format!("{}\n", "x".repeat(200));
        assert!(Quoted(&newline).to_string().contains("\\n\""));
    }
}
