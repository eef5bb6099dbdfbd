//! XGIDs: never a panic; an accepted XGID re-encodes to one that decodes
//! to the same setup.
#![no_main]
use kotra::notation::xgid;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(setup) = xgid::decode(text) {
        let again = xgid::encode(&setup);
        assert_eq!(xgid::decode(&again).unwrap(), setup, "{text:?} -> {again}");
    }
});
