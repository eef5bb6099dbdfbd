//! A fixture for tests/architecture.rs: a loop between two folders.
pub mod plan;
pub mod rules;

pub struct Options {
    pub steps: u32,
}

pub fn progress(done: u32) -> u32 {
    done + 1
}

pub fn run(options: &Options) -> u32 {
    plan::run_plan(options)
}
