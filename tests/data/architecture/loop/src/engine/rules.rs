//! Imports nothing: in no loop.
pub fn legal(steps: u32) -> bool {
    steps < 100
}
