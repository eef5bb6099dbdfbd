//! Seeds: every game, trial and training step draws its own generator from
//! a hash of (run seed, index), so results depend on the seed alone and
//! never on how work is split among threads. Used at every layer, so it
//! sits below them all.

/// A well-mixed 64-bit hash for deriving independent seeds (SplitMix64's
/// finaliser).
pub fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
