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
}
