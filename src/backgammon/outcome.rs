//! How a finished game is scored (§10): single game, gammon (hálfkotra),
//! backgammon (kotra).

use super::position::{OPP_BAR, Position, Side};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameResult {
    Single,
    Gammon,
    Backgammon,
}

impl GameResult {
    /// The multiplier of the cube value before the Jacoby rule.
    pub fn points(self) -> u32 {
        match self {
            GameResult::Single => 1,
            GameResult::Gammon => 2,
            GameResult::Backgammon => 3,
        }
    }

    /// If either side of `position` has borne off every checker: whether
    /// it was the mover, and how much that side won.
    pub fn of_finished(position: &Position) -> Option<(bool, GameResult)> {
        GameResult::of_mover_win(position)
            .map(|r| (true, r))
            .or_else(|| GameResult::of_mover_win(&position.swap()).map(|r| (false, r)))
    }

    /// In words, as a player says it: "a single game", "a gammon".
    pub fn words(self) -> &'static str {
        match self {
            GameResult::Single => "a single game",
            GameResult::Gammon => "a gammon",
            GameResult::Backgammon => "a backgammon",
        }
    }

    /// If the mover of `position` has borne off every checker, how much he
    /// won; the loser is the opponent.
    pub fn of_mover_win(position: &Position) -> Option<GameResult> {
        if position.on_board(Side::Mover) != 0 {
            return None;
        }
        if position.borne_off(Side::Opponent) > 0 {
            return Some(GameResult::Single);
        }
        let p = position.raw();
        let trapped = p[OPP_BAR] < 0 || p[1..=6].iter().any(|&v| v < 0);
        Some(if trapped {
            GameResult::Backgammon
        } else {
            GameResult::Gammon
        })
    }
}
