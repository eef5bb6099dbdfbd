//! Training checkpoints: never a panic (raw, and re-framed with a correct
//! checksum).
#![no_main]
use kotra::train::checkpoint::Checkpoint;
use libfuzzer_sys::fuzz_target;

#[path = "reframe.rs"]
mod reframe;

fuzz_target!(|data: &[u8]| {
    let _ = Checkpoint::from_bytes(data);
    if let Some(framed) = reframe::with_checksum(data) {
        let _ = Checkpoint::from_bytes(&framed);
    }
});
