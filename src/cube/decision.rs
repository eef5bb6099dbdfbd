//! The cube decision before a roll: compare no double, double/take and
//! double/pass, and say what each side should do.

use std::fmt;

/// The doubler's action, as gnubg and XG name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeAction {
    NoDouble,
    DoubleTake,
    DoublePass,
    /// Playing on for a gammon is worth more than the opponent's pass.
    TooGoodTake,
    TooGoodPass,
}

/// The taker's answer to a double.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakeAnswer {
    Take,
    Pass,
    /// Take and redouble at once, keeping the cube (money, with beavers).
    Beaver,
}

/// A cube decision, equities from the doubler's view in units of the
/// present cube (money-normalised in a match).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeDecision {
    pub no_double: f32,
    pub double_take: f32,
    pub double_pass: f32,
    pub action: CubeAction,
    pub take: TakeAnswer,
}

impl CubeDecision {
    /// Decides from the three equities. `may_double`: the cube is the
    /// doubler's to turn (otherwise the answer is no double whatever the
    /// numbers); `beaver`: the take was found to be worth a beaver (then
    /// `double_take` is the beavered equity).
    pub fn new(
        no_double: f32,
        double_take: f32,
        double_pass: f32,
        may_double: bool,
        beaver: bool,
    ) -> CubeDecision {
        let take = if double_take > double_pass {
            TakeAnswer::Pass
        } else if beaver {
            TakeAnswer::Beaver
        } else {
            TakeAnswer::Take
        };
        let after_double = double_take.min(double_pass);
        let action = if !may_double {
            CubeAction::NoDouble
        } else if after_double > no_double
            || (take == TakeAnswer::Pass && double_pass >= no_double - 1e-5)
        {
            // A pass worth as much as playing on is taken: cash it.
            match take {
                TakeAnswer::Pass => CubeAction::DoublePass,
                _ => CubeAction::DoubleTake,
            }
        } else if no_double > double_pass {
            match take {
                TakeAnswer::Pass => CubeAction::TooGoodPass,
                _ => CubeAction::TooGoodTake,
            }
        } else {
            CubeAction::NoDouble
        };
        CubeDecision {
            no_double,
            double_take,
            double_pass,
            action,
            take,
        }
    }

    /// The best equity the doubler can get.
    pub fn optimal(&self) -> f32 {
        match self.action {
            CubeAction::DoubleTake | CubeAction::DoublePass => {
                self.double_take.min(self.double_pass)
            }
            _ => self.no_double,
        }
    }

    /// Whether the doubler should turn the cube now.
    pub fn should_double(&self) -> bool {
        matches!(self.action, CubeAction::DoubleTake | CubeAction::DoublePass)
    }
}

impl fmt::Display for CubeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CubeAction::NoDouble => "no double",
            CubeAction::DoubleTake => "double/take",
            CubeAction::DoublePass => "double/pass",
            CubeAction::TooGoodTake => "too good/take",
            CubeAction::TooGoodPass => "too good/pass",
        })
    }
}

impl fmt::Display for TakeAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TakeAnswer::Take => "take",
            TakeAnswer::Pass => "pass",
            TakeAnswer::Beaver => "beaver",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_actions() {
        let d = |nd, dt| CubeDecision::new(nd, dt, 1.0, true, false);
        assert_eq!(d(0.3, 0.2).action, CubeAction::NoDouble);
        assert_eq!(d(0.3, 0.2).take, TakeAnswer::Take);
        assert_eq!(d(0.6, 0.8).action, CubeAction::DoubleTake);
        assert_eq!(d(0.8, 1.3).action, CubeAction::DoublePass);
        assert_eq!(d(0.8, 1.3).take, TakeAnswer::Pass);
        assert_eq!(d(1.2, 1.5).action, CubeAction::TooGoodPass);
        assert_eq!(d(1.2, 0.9).action, CubeAction::TooGoodTake);
        assert_eq!(d(0.8, 1.3).optimal(), 1.0);
        // A certain single win: cashing is as good as playing on, so cash.
        assert_eq!(d(1.0, 2.0).action, CubeAction::DoublePass);
        assert_eq!(d(1.2, 1.5).optimal(), 1.2);
        let no_cube = CubeDecision::new(0.6, 0.8, 1.0, false, false);
        assert_eq!(no_cube.action, CubeAction::NoDouble);
        let beaver = CubeDecision::new(-0.3, -0.8, 1.0, true, true);
        assert_eq!(beaver.take, TakeAnswer::Beaver);
        assert_eq!(beaver.action, CubeAction::NoDouble);
        assert_eq!(CubeAction::TooGoodPass.to_string(), "too good/pass");
    }
}
