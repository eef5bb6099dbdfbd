//! A decision to analyse: the board plus the match state around it.

use super::dice::Dice;
use super::position::Position;

/// Who owns the cube, by player (gnubg's index 0 or 1): how a match
/// file, a Match ID and the referee of a whole game record it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeOwner {
    Centered,
    Player(u8),
}

/// Who owns the cube, seen from the side on roll: the view a decision
/// takes (the cube's formulas, the bear-off database's cubeful table). It
/// is [`CubeOwner`] relative to a player; the discriminants are the
/// database's table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Centered = 0,
    Roller = 1,
    Opponent = 2,
}

impl Owner {
    /// `owner` seen from `player`.
    pub fn seen_by(owner: CubeOwner, player: u8) -> Owner {
        match owner {
            CubeOwner::Centered => Owner::Centered,
            CubeOwner::Player(p) if p == player => Owner::Roller,
            CubeOwner::Player(_) => Owner::Opponent,
        }
    }

    /// The same cube seen from the other side.
    pub fn swapped(self) -> Owner {
        match self {
            Owner::Centered => Owner::Centered,
            Owner::Roller => Owner::Opponent,
            Owner::Opponent => Owner::Roller,
        }
    }
}

/// Everything a Match ID records. Players are gnubg's 0 and 1; the Position
/// ID that goes with it is drawn from the view of `on_roll`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchInfo {
    /// Cube value, a power of two.
    pub cube_value: u32,
    pub cube_owner: CubeOwner,
    /// The player on roll (or who rolled): gnubg's "dice owner".
    pub on_roll: u8,
    pub crawford: bool,
    /// 0 none, 1 playing, 2 over, 3 resigned, 4 ended by a dropped cube.
    pub game_state: u8,
    /// The player who must act now (differs from `on_roll` while a double is pending).
    pub turn: u8,
    pub doubled: bool,
    pub resigned: u8,
    /// The dice as rolled, `[0, 0]` before the roll.
    pub dice: [u8; 2],
    /// 0 for money play.
    pub match_length: u32,
    pub score: [u32; 2],
    pub jacoby: bool,
}

impl Default for MatchInfo {
    /// What a bare Position ID means: money, cube 1 centred, player 0 on
    /// roll and to act, no dice, no Jacoby.
    fn default() -> Self {
        MatchInfo {
            cube_value: 1,
            cube_owner: CubeOwner::Centered,
            on_roll: 0,
            crawford: false,
            game_state: 1,
            turn: 0,
            doubled: false,
            resigned: 0,
            dice: [0, 0],
            match_length: 0,
            score: [0, 0],
            jacoby: false,
        }
    }
}

/// A position with its cube, score and dice, as gnubg's combined
/// `PositionID:MatchID` or an XGID describe it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The board from the view of `info.on_roll`.
    pub position: Position,
    pub info: MatchInfo,
}

impl MatchInfo {
    /// The dice, if rolled.
    pub fn rolled(&self) -> Option<Dice> {
        Dice::new(self.dice[0], self.dice[1])
    }

    /// Records `dice` as rolled (high die first, as the IDs write them),
    /// so the IDs and the board drawn from this setup show the roll.
    pub fn set_rolled(&mut self, dice: Dice) {
        self.dice = [dice.high(), dice.low()];
    }

    pub fn is_money(&self) -> bool {
        self.match_length == 0
    }
}

/// Why a setup is not a decision in a game in play.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum SetupStateError {
    #[error(
        "a {0}-point match is longer than kotra-ai analyses (at most {MAX_MATCH_LENGTH} points: the match equity table is extended that far)"
    )]
    MatchTooLong(u32),
    #[error("the game is over: {0} has borne off all 15 checkers")]
    Finished(&'static str),
    #[error("the game state is {0}, not a game in play")]
    NotPlaying(&'static str),
    #[error("a resignation is on offer; only positions in play are analysed")]
    Resigned,
    #[error("the Crawford flag is set in money play")]
    CrawfordInMoney,
    #[error(
        "the Crawford flag is set at {0}-{1} in a {2}-point match: one player, and only one, must be 1-away"
    )]
    CrawfordScore(u32, u32, u32),
    #[error("the cube has been turned or offered in the Crawford game, where nobody may double")]
    CrawfordCube,
    #[error("a double is pending but the player to take already owns the cube")]
    DoubleAgainstOwner,
}

/// The longest match kotra-ai plays, analyses or reviews. The shipped
/// match equity table covers 25 points and is extended to this length
/// (`cube::met`); beyond it a match is refused rather than answered with
/// the table's edge, where every score looked alike.
pub const MAX_MATCH_LENGTH: u32 = 64;

impl Setup {
    /// Checks that the setup is a moment of a game in play that the rules
    /// allow: the Match ID and XGID can spell finished games, resignations
    /// and impossible cube or Crawford states, which no analysis should
    /// answer with a number.
    pub fn check_in_play(&self) -> Result<(), SetupStateError> {
        use super::position::Side;
        self.check_showable()?;
        if self.position.on_board(Side::Mover) == 0 {
            return Err(SetupStateError::Finished("the player on roll"));
        }
        if self.position.on_board(Side::Opponent) == 0 {
            return Err(SetupStateError::Finished("the player not on roll"));
        }
        Ok(())
    }

    /// Checks what [`Setup::check_in_play`] checks but the end of the
    /// game: a board where one side has borne off every checker (the
    /// position after a winning move, which a move list links to) is a
    /// valid thing to show, though not to analyse. Its game state may
    /// then say "game over".
    pub fn check_showable(&self) -> Result<(), SetupStateError> {
        let info = &self.info;
        let finished = self.position.is_game_over();
        if info.match_length > MAX_MATCH_LENGTH {
            return Err(SetupStateError::MatchTooLong(info.match_length));
        }
        match info.game_state {
            1 => {}
            2 if finished => {}
            0 => return Err(SetupStateError::NotPlaying("\"no game\"")),
            2 => return Err(SetupStateError::NotPlaying("\"game over\"")),
            3 => return Err(SetupStateError::NotPlaying("\"resigned\"")),
            _ => return Err(SetupStateError::NotPlaying("\"ended by a dropped cube\"")),
        }
        if info.resigned != 0 {
            return Err(SetupStateError::Resigned);
        }
        if info.crawford {
            let len = info.match_length;
            let [a, b] = info.score;
            if len == 0 {
                return Err(SetupStateError::CrawfordInMoney);
            }
            if (a + 1 == len) == (b + 1 == len) {
                return Err(SetupStateError::CrawfordScore(a, b, len));
            }
            if info.cube_value != 1 || info.cube_owner != CubeOwner::Centered || info.doubled {
                return Err(SetupStateError::CrawfordCube);
            }
        }
        if info.doubled && info.cube_owner == CubeOwner::Player(info.turn) {
            return Err(SetupStateError::DoubleAgainstOwner);
        }
        Ok(())
    }
}
