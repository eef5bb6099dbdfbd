//! Move filters: how many of one stage's candidates go on to the next,
//! deeper stage of a move ranking, as gnubg's move filters say it.

use std::fmt;
use std::str::FromStr;

/// Keep at most `keep` candidates within `window` (cubeful equity per cube)
/// of the best.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveFilter {
    pub keep: usize,
    pub window: f32,
}

/// Why a filter's text is not `KEEP:WINDOW`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?}: a move filter is KEEP:WINDOW, at least one move within a window of 0 or more, e.g. 8:0.16"
)]
pub struct FilterError(String);

impl MoveFilter {
    /// The filter, or why it keeps nothing or has no window.
    pub fn checked(self) -> Result<MoveFilter, FilterError> {
        if self.keep == 0 || !(self.window.is_finite() && self.window >= 0.0) {
            return Err(FilterError(self.to_string()));
        }
        Ok(self)
    }
}

impl FromStr for MoveFilter {
    type Err = FilterError;

    /// `KEEP:WINDOW`, gnubg's pair of numbers: `8:0.16`.
    fn from_str(text: &str) -> Result<MoveFilter, FilterError> {
        let bad = || FilterError(text.to_string());
        let (keep, window) = text.split_once(':').ok_or_else(bad)?;
        let keep = keep.trim().parse().map_err(|_| bad())?;
        let window = window.trim().parse().map_err(|_| bad())?;
        MoveFilter { keep, window }.checked().map_err(|_| bad())
    }
}

impl fmt::Display for MoveFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.keep, self.window)
    }
}

/// A 1-ply pass between the 0-ply pass and a 2-ply or deeper search:
/// skipped, as gnubg's filters skip it, or ranking the first filter's
/// moves at 1-ply and sending those within its filter on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OnePlyPass {
    Skip,
    Filter(MoveFilter),
}

/// Why a 1-ply pass's text is neither `skip` nor a move filter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: a 1-ply pass is skip or a move filter KEEP:WINDOW, e.g. 5:0.1")]
pub struct OnePlyPassError(String);

impl OnePlyPass {
    /// The pass, or why its filter keeps nothing or has no window.
    pub fn checked(self) -> Result<OnePlyPass, FilterError> {
        match self {
            OnePlyPass::Skip => Ok(self),
            OnePlyPass::Filter(f) => f.checked().map(OnePlyPass::Filter),
        }
    }

    /// Its filter, `None` where the pass is skipped.
    pub fn filter(self) -> Option<MoveFilter> {
        match self {
            OnePlyPass::Skip => None,
            OnePlyPass::Filter(f) => Some(f),
        }
    }
}

impl FromStr for OnePlyPass {
    type Err = OnePlyPassError;

    /// `skip`, or a move filter's `KEEP:WINDOW`.
    fn from_str(text: &str) -> Result<OnePlyPass, OnePlyPassError> {
        if text.trim().eq_ignore_ascii_case("skip") {
            return Ok(OnePlyPass::Skip);
        }
        text.parse()
            .map(OnePlyPass::Filter)
            .map_err(|_| OnePlyPassError(text.to_string()))
    }
}

impl fmt::Display for OnePlyPass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OnePlyPass::Skip => f.write_str("skip"),
            OnePlyPass::Filter(filter) => filter.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filter_reads_back_what_it_writes_and_refuses_the_rest() {
        let f: MoveFilter = "8:0.16".parse().unwrap();
        assert_eq!(
            f,
            MoveFilter {
                keep: 8,
                window: 0.16
            }
        );
        assert_eq!(f.to_string().parse::<MoveFilter>(), Ok(f));
        for bad in [
            "", "8", "0:0.1", "3:-0.1", "3:NaN", "x:0.1", "3:0.1:2", "-1:0.1",
        ] {
            let e = bad.parse::<MoveFilter>().unwrap_err().to_string();
            assert!(e.contains("KEEP:WINDOW"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_one_ply_pass_is_skip_or_a_filter() {
        assert_eq!("skip".parse(), Ok(OnePlyPass::Skip));
        assert_eq!("SKIP".parse::<OnePlyPass>().unwrap().filter(), None);
        let pass: OnePlyPass = "5:0.1".parse().unwrap();
        assert_eq!(
            pass.filter(),
            Some(MoveFilter {
                keep: 5,
                window: 0.1
            })
        );
        for p in [OnePlyPass::Skip, pass] {
            assert_eq!(p.to_string().parse::<OnePlyPass>(), Ok(p));
        }
        for bad in ["", "none", "0:0.1", "5:-1", "skip:1"] {
            let e = bad.parse::<OnePlyPass>().unwrap_err().to_string();
            assert!(e.contains("skip or a move filter"), "{bad}: {e}");
        }
    }
}
