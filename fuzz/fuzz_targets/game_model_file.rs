//! The other games' model files: never a panic (raw, and re-framed with a
//! correct checksum).
#![no_main]
use kotra::eval::game_net::GameModel;
use kotra::game::Game;
use kotra::icehouse::game::IcehouseKotra;
use kotra::icelandic::game::IcelandicKotra;
use libfuzzer_sys::fuzz_target;

#[path = "reframe.rs"]
mod reframe;

fn shapes() -> [(&'static str, usize, usize); 2] {
    let ice = IcelandicKotra::default();
    let house = IcehouseKotra;
    [
        (ice.name(), ice.inputs(), ice.outputs()),
        (house.name(), house.inputs(), house.outputs()),
    ]
}

fuzz_target!(|data: &[u8]| {
    for bytes in [Some(data.to_vec()), reframe::with_checksum(data)].into_iter().flatten() {
        for (game, inputs, outputs) in shapes() {
            let _ = GameModel::from_bytes(&bytes, game, inputs, outputs);
        }
    }
});
