//! A win-chance window `[lo, hi]` of the side on roll (the doubling
//! window of `contact_rollout_window` and a rollout set's
//! `rollout_window`): when it is one, its cache folders' suffix, and
//! whether a win chance lies in it, in one place.

/// Whether `[lo, hi]` is a window: 0 <= lo < hi <= 1.
pub fn is_valid([lo, hi]: [f32; 2]) -> bool {
    0.0 <= lo && lo < hi && hi <= 1.0
}

/// `-wLO-HI`, or nothing without a window.
pub fn suffix(window: Option<[f32; 2]>) -> String {
    window.map_or(String::new(), |[lo, hi]| format!("-w{lo}-{hi}"))
}

/// Whether `win` lies in the window. Callers without a window skip
/// the test (`is_none_or`), so they need not compute `win` at all.
pub fn contains([lo, hi]: [f32; 2], win: f32) -> bool {
    (lo..=hi).contains(&win)
}
