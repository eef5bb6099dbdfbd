//! The doubling cube as a state machine (§11, §12): offers only before the
//! roll by a player with access, take / pass, redoubles without limit,
//! beavers (no raccoons), automatic doubles, and the Jacoby rule.

use super::CubeOwner;
use thiserror::Error;

/// Optional rules, all off by default (§12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeRules {
    pub jacoby: bool,
    pub beavers: bool,
    pub automatic_doubles: bool,
    /// Decision (§12.1): at most this many automatic doubles per game.
    pub auto_double_limit: u32,
}

impl Default for CubeRules {
    fn default() -> Self {
        CubeRules {
            jacoby: false,
            beavers: false,
            automatic_doubles: false,
            auto_double_limit: 1,
        }
    }
}

/// A double waiting for an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pending {
    /// `by` doubled; the cube showed `before` when he offered.
    Double { by: u8, before: u64 },
    /// The doubled player beavered; `doubler` must now take or pass.
    Beaver { doubler: u8, before: u64 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum CubeError {
    #[error("a double can be offered only before rolling")]
    AlreadyRolled,
    #[error("player {0} does not have access to the cube")]
    NoAccess(u8),
    #[error("no doubling in the Crawford game")]
    Crawford,
    #[error("a double is already waiting for an answer")]
    AlreadyPending,
    #[error("there is no double to answer")]
    NothingPending,
    #[error("player {0} is not the one who must answer")]
    NotYourAnswer(u8),
    #[error("beavers are not allowed (or a beaver cannot be beavered)")]
    NoBeaver,
}

/// What answering a double led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Play goes on.
    Accepted,
    /// The game is over: `winner` scores `points` as a single game.
    Refused { winner: u8, points: u64 },
}

/// Cube value, owner and what happened to it this game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cube {
    pub value: u64,
    pub owner: CubeOwner,
    pub offered_this_game: bool,
    pub pending: Option<Pending>,
    pub automatic_doubles: u32,
}

impl Default for Cube {
    fn default() -> Self {
        Cube {
            value: 1,
            owner: CubeOwner::Centered,
            offered_this_game: false,
            pending: None,
            automatic_doubles: 0,
        }
    }
}

impl Cube {
    /// May `player` double now (before his roll, `crawford` if this is the Crawford game)?
    pub fn can_double(&self, player: u8, rolled: bool, crawford: bool) -> Result<(), CubeError> {
        if self.pending.is_some() {
            return Err(CubeError::AlreadyPending);
        }
        if rolled {
            return Err(CubeError::AlreadyRolled);
        }
        if crawford {
            return Err(CubeError::Crawford);
        }
        match self.owner {
            CubeOwner::Player(o) if o != player => Err(CubeError::NoAccess(player)),
            _ => Ok(()),
        }
    }

    pub fn offer(&mut self, player: u8, rolled: bool, crawford: bool) -> Result<(), CubeError> {
        self.can_double(player, rolled, crawford)?;
        self.pending = Some(Pending::Double {
            by: player,
            before: self.value,
        });
        self.offered_this_game = true;
        Ok(())
    }

    /// The player who must answer, if a double is pending.
    pub fn to_answer(&self) -> Option<u8> {
        match self.pending? {
            Pending::Double { by, .. } => Some(1 - by),
            Pending::Beaver { doubler, .. } => Some(doubler),
        }
    }

    fn check_answer(&self, player: u8) -> Result<Pending, CubeError> {
        let p = self.pending.ok_or(CubeError::NothingPending)?;
        if self.to_answer() != Some(player) {
            return Err(CubeError::NotYourAnswer(player));
        }
        Ok(p)
    }

    pub fn take(&mut self, player: u8) -> Result<Answer, CubeError> {
        match self.check_answer(player)? {
            Pending::Double { before, .. } => {
                self.value = before * 2;
                self.owner = CubeOwner::Player(player);
            }
            // The cube already stands at four times and stays with the beaverer.
            Pending::Beaver { .. } => {}
        }
        self.pending = None;
        Ok(Answer::Accepted)
    }

    pub fn pass(&mut self, player: u8) -> Result<Answer, CubeError> {
        let answer = match self.check_answer(player)? {
            Pending::Double { before, .. } => Answer::Refused {
                winner: 1 - player,
                points: before,
            },
            // Refusing a beaver loses the value after the first double.
            Pending::Beaver { before, .. } => Answer::Refused {
                winner: 1 - player,
                points: before * 2,
            },
        };
        self.pending = None;
        Ok(answer)
    }

    /// Accept and immediately redouble, keeping the cube (§12.2).
    pub fn beaver(&mut self, player: u8, rules: &CubeRules) -> Result<(), CubeError> {
        let Pending::Double { by, before } = self.check_answer(player)? else {
            return Err(CubeError::NoBeaver);
        };
        if !rules.beavers {
            return Err(CubeError::NoBeaver);
        }
        self.value = before * 4;
        self.owner = CubeOwner::Player(player);
        self.pending = Some(Pending::Beaver {
            doubler: by,
            before,
        });
        Ok(())
    }

    /// A tied opening roll under automatic doubles; false once the limit is reached.
    pub fn automatic_double(&mut self, rules: &CubeRules) -> bool {
        if rules.automatic_doubles && self.automatic_doubles < rules.auto_double_limit {
            self.value *= 2;
            self.automatic_doubles += 1;
            true
        } else {
            false
        }
    }

    /// Points for a game won outright with `result`, under the Jacoby rule
    /// when `jacoby` applies (money play).
    pub fn points(&self, result: super::GameResult, jacoby: bool) -> u64 {
        let multiplier = if jacoby && !self.offered_this_game {
            1
        } else {
            result.points() as u64
        };
        self.value * multiplier
    }
}
