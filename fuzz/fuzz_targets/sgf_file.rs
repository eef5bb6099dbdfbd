//! `.sgf` game records (gnubg's, and what the server's review reads from
//! any upload): never a panic, reading or replaying; a record that reads
//! is replayed through the referee whatever it holds, and written back.
#![no_main]
use kotra::notation::match_replay::replay;
use kotra::notation::sgf::{parse, write};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(record) = parse(text) {
        if replay(&record, |_| {}).is_ok() {
            let _ = write(&record, &Default::default());
        }
    }
});
