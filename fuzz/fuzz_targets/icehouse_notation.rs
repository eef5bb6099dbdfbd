//! Icehouse Kotra positions (two and four seats): never a panic; print
//! then parse is the identity on every accepted position.
#![no_main]
use kotra::icehouse::{parse_position, position_text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(pos) = parse_position(text) {
        let again = position_text(&pos);
        assert_eq!(parse_position(&again).unwrap(), pos, "{text:?} -> {again}");
    }
});
