//! `.mat` match files: never a panic, reading or replaying; a file that
//! reads is replayed through the referee whatever it holds.
#![no_main]
use kotra::notation::mat::parse;
use kotra::notation::match_replay::replay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(record) = parse(text) {
        let _ = replay(&record, |_| {});
    }
});
