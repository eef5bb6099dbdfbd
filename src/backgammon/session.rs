//! Money sessions and matches: the score, and the Crawford rule.

/// Score keeping across games. `length == 0` is a money session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MatchState {
    pub length: u32,
    /// Points for gnubg players 0 and 1 (money sessions count without limit).
    pub score: [u64; 2],
    /// The game now being played is the Crawford game.
    pub crawford: bool,
    /// The Crawford game has been played (later games are post-Crawford).
    pub crawford_done: bool,
}

impl MatchState {
    pub fn money() -> MatchState {
        MatchState::default()
    }

    pub fn to(length: u32) -> MatchState {
        MatchState {
            length,
            ..MatchState::default()
        }
    }

    pub fn is_money(&self) -> bool {
        self.length == 0
    }

    /// The winner of the match, if it is over.
    pub fn winner(&self) -> Option<u8> {
        if self.is_money() {
            return None;
        }
        (0..2).find(|&p| self.score[p as usize] >= self.length as u64)
    }

    /// Records a finished game. The game after the one in which a player
    /// first reaches match point (one away) is the Crawford game; every game
    /// after that is post-Crawford, when doubling is allowed again.
    pub fn record(&mut self, winner: u8, points: u64) {
        self.score[winner as usize] += points;
        if self.is_money() {
            return;
        }
        if self.crawford {
            self.crawford = false;
            self.crawford_done = true;
        } else if !self.crawford_done && self.score[winner as usize] + 1 == self.length as u64 {
            self.crawford = true;
        }
    }

    pub fn is_post_crawford(&self) -> bool {
        self.crawford_done && !self.crawford
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crawford_then_post_crawford() {
        let mut m = MatchState::to(5);
        m.record(0, 2);
        assert!(!m.crawford);
        m.record(0, 2); // 4-0: player 0 is at match point
        assert!(m.crawford);
        m.record(1, 1); // the Crawford game is over
        assert!(!m.crawford && m.is_post_crawford());
        m.record(1, 2);
        assert!(!m.crawford, "no second Crawford game");
        assert_eq!(m.winner(), None);
        m.record(0, 1);
        assert_eq!(m.winner(), Some(0));
    }

    #[test]
    fn jumping_past_match_point_is_no_crawford() {
        let mut m = MatchState::to(5);
        m.record(1, 4); // 0-4 straight to match point: Crawford
        assert!(m.crawford);
        let mut m = MatchState::to(3);
        m.record(1, 3);
        assert_eq!(m.winner(), Some(1));
    }
}
