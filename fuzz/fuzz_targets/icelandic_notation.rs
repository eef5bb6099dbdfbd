//! Icelandic Kotra positions: never a panic; print then parse is the
//! identity on every accepted position.
#![no_main]
use kotra::icelandic::{parse_position, position_text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(pos) = parse_position(text) {
        let again = position_text(&pos);
        assert_eq!(parse_position(&again).unwrap(), pos, "{text:?} -> {again}");
    }
});
