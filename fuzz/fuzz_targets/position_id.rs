//! gnubg Position IDs: never a panic; every accepted ID re-encodes to an
//! ID that decodes to the same position.
#![no_main]
use kotra::notation::position_id;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(pos) = position_id::decode(text) {
        let again = position_id::encode(&pos);
        assert_eq!(position_id::decode(&again).unwrap(), pos, "{text:?} -> {again}");
    }
});
