//! Backgammon training configs: never a panic, and a config that passes
//! `validate` has every measurement interval and rate usable.
#![no_main]
use kotra::train::TrainConfig;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(config) = serde_json::from_str::<TrainConfig>(text) else { return };
    if config.validate().is_ok() {
        assert!(config.measure_every > 0 && config.games_per_step > 0);
        let lr = config.learning_rate_at(config.games / 2);
        assert!(lr.is_finite() && lr > 0.0, "{lr}");
    }
});
