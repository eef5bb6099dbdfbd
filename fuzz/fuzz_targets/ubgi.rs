//! A whole UBGI conversation: never a panic, every line answered within
//! the protocol (no reply line longer than the cap allows), and the
//! engine stops only at `quit` or the end of input. Searches are kept at
//! the static network so an execution stays short.
#![no_main]
use kotra::eval::{Evaluator, shipped_model};
use kotra::ubgi::Engine;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn evaluator() -> &'static Evaluator {
    static EVAL: OnceLock<Evaluator> = OnceLock::new();
    EVAL.get_or_init(|| Evaluator::new(shipped_model().unwrap()))
}

fuzz_target!(|data: &[u8]| {
    // Deeper searches are correct but slow; the fuzzer is after the parser.
    let text = String::from_utf8_lossy(data).replace("engine.ply", "engine.plyx");
    let mut out = Vec::new();
    Engine::new(evaluator())
        .run(text.as_bytes(), &mut out)
        .unwrap();
    for line in String::from_utf8(out).unwrap().lines() {
        assert!(line.len() < 400, "reply too long: {} bytes", line.len());
    }
});
