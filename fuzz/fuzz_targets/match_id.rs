//! gnubg Match IDs: never a panic; decode∘encode is the identity on
//! every accepted ID.
#![no_main]
use kotra::backgammon::MatchInfo;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(info) = MatchInfo::decode(text) {
        let again = info.encode();
        assert_eq!(MatchInfo::decode(&again).unwrap(), info, "{text:?} -> {again}");
    }
});
