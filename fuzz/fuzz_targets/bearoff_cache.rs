//! Bear-off cache files: never a panic, and nothing but a sound file is
//! taken (raw bytes, and bytes re-framed with a correct checksum whose
//! payload must then pass the tables' own checks).
#![no_main]
use kotra::cube::exact_bearoff::CubefulBearoff;
use kotra::eval::bearoff::BearoffDb;
use kotra::eval::bearoff_two_sided::TwoSidedDb;
use libfuzzer_sys::fuzz_target;

#[path = "reframe.rs"]
mod reframe;

fuzz_target!(|data: &[u8]| {
    for bytes in [Some(data.to_vec()), reframe::with_checksum(data)].into_iter().flatten() {
        assert!(BearoffDb::from_cache_file(&bytes).is_none() || bytes.len() > 1 << 20);
        assert!(TwoSidedDb::from_cache_file(&bytes).is_none() || bytes.len() > 1 << 20);
        assert!(CubefulBearoff::from_cache_file(&bytes).is_none() || bytes.len() > 1 << 20);
    }
});
