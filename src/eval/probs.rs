//! The five cumulative outcome probabilities every evaluator speaks, from
//! one side's point of view, and the cubeless money equity they imply.

use crate::backgammon::GameResult;

/// `[win, win gammon, win backgammon, lose gammon, lose backgammon]`, each
/// cumulative (a backgammon is also a gammon and a win), for the side the
/// probabilities belong to.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Probs(pub [f32; 5]);

impl Probs {
    pub const WIN: usize = 0;
    pub const WIN_GAMMON: usize = 1;
    pub const WIN_BACKGAMMON: usize = 2;
    pub const LOSE_GAMMON: usize = 3;
    pub const LOSE_BACKGAMMON: usize = 4;

    /// The certain outcome of a finished game, for the winner.
    pub fn won(result: GameResult) -> Probs {
        match result {
            GameResult::Single => Probs([1.0, 0.0, 0.0, 0.0, 0.0]),
            GameResult::Gammon => Probs([1.0, 1.0, 0.0, 0.0, 0.0]),
            GameResult::Backgammon => Probs([1.0, 1.0, 1.0, 0.0, 0.0]),
        }
    }

    pub fn win(&self) -> f32 {
        self.0[Self::WIN]
    }

    /// The same outcome seen by the other side.
    #[inline]
    pub fn flip(&self) -> Probs {
        let [w, wg, wbg, lg, lbg] = self.0;
        Probs([1.0 - w, lg, lbg, wg, wbg])
    }

    /// Cubeless money equity: +1/+2/+3 for single/gammon/backgammon wins,
    /// the same negative for losses.
    #[inline]
    pub fn equity(&self) -> f32 {
        let [w, wg, wbg, lg, lbg] = self.0;
        2.0 * w - 1.0 + wg + wbg - lg - lbg
    }

    /// Clamp into a consistent distribution: each value in [0, 1],
    /// backgammon ≤ gammon ≤ win on both sides. Network outputs are
    /// independent sigmoids and can break the order by a hair.
    #[inline]
    pub fn consistent(self) -> Probs {
        let [w, wg, wbg, lg, lbg] = self.0.map(|v| v.clamp(0.0, 1.0));
        let wg = wg.min(w);
        let wbg = wbg.min(wg);
        let lg = lg.min(1.0 - w);
        let lbg = lbg.min(lg);
        Probs([w, wg, wbg, lg, lbg])
    }

    /// Weighted sum, for averaging over rolls.
    pub fn add_scaled(&mut self, other: &Probs, weight: f32) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b * weight;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_twice_is_identity_and_negates_equity() {
        let p = Probs([0.6, 0.2, 0.01, 0.1, 0.005]);
        assert_eq!(p.flip().flip(), p);
        assert!((p.equity() + p.flip().equity()).abs() < 1e-6);
    }

    #[test]
    fn equity_of_certain_results() {
        assert_eq!(Probs::won(GameResult::Single).equity(), 1.0);
        assert_eq!(Probs::won(GameResult::Gammon).equity(), 2.0);
        assert_eq!(Probs::won(GameResult::Backgammon).equity(), 3.0);
        assert_eq!(Probs::won(GameResult::Gammon).flip().equity(), -2.0);
    }

    #[test]
    fn consistent_orders_the_cumulative_values() {
        let p = Probs([0.3, 0.4, 0.5, 0.8, 0.9]).consistent();
        assert_eq!(p.0, [0.3, 0.3, 0.3, 0.7, 0.7]);
    }
}
