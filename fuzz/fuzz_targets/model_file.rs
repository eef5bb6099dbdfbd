//! Backgammon model files: never a panic, both for the raw bytes and for
//! the bytes wrapped in a frame with a correct checksum, so that the
//! decoder and the shape checks behind the frame are reached too.
#![no_main]
use kotra::eval::Model;
use libfuzzer_sys::fuzz_target;

#[path = "reframe.rs"]
mod reframe;

fuzz_target!(|data: &[u8]| {
    let _ = Model::from_bytes(data);
    if let Some(framed) = reframe::with_checksum(data) {
        if let Ok(model) = Model::from_bytes(&framed) {
            let _ = Model::from_bytes(&model.to_bytes()).unwrap();
        }
    }
});
