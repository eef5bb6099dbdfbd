//! Speed measurements shared by `kotra-ai bench` and the criterion benches.

pub mod analysis;
pub mod eval;
pub mod movegen;
pub mod turns;
