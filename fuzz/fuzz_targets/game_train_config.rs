//! The other games' training configs: never a panic, and an accepted one
//! has a usable learning rate and sizes.
#![no_main]
use kotra::train::any_game::GameTrainConfig;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(config) = serde_json::from_str::<GameTrainConfig>(text) else { return };
    if config.validate().is_ok() {
        assert!(config.lr.is_finite() && config.lr > 0.0 && config.hidden > 0);
    }
});
