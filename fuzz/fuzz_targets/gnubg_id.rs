//! Any position argument (`PositionID:MatchID`, bare Position ID, XGID)
//! through `parse_setup`: never a panic; an accepted setup is in play and
//! round-trips through the gnubg ID and the XGID.
#![no_main]
use kotra::notation::{gnubg_id, parse_setup, xgid};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(setup) = parse_setup(text) {
        assert!(setup.check_in_play().is_ok());
        let id = gnubg_id::encode(&setup);
        assert_eq!(parse_setup(&id).unwrap(), setup, "{text:?} -> {id}");
        let x = xgid::encode(&setup);
        let back = parse_setup(&x).unwrap();
        assert_eq!(back.position, setup.position, "{text:?} -> {x}");
    }
});
