//! One game from the opening roll to the result: whose turn, the dice, the
//! cube, and only legal transitions (a double after rolling, a move that is
//! not legal, an answer nobody asked for are errors, never silent).

use super::cube::{Answer, Cube, CubeError, CubeRules};
use super::{Dice, GameResult, MoveList, Position, legal_moves, with_legal_moves};
use thiserror::Error;

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Each player rolls one die to decide who starts.
    Opening,
    /// The player on roll may double, then rolls.
    ToRoll,
    /// The player on roll must move with these dice.
    ToMove(Dice),
    /// A double (or beaver) waits for an answer.
    ToAnswer,
    Over(Outcome),
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: u8,
    /// `Single` when a double was refused.
    pub result: GameResult,
    pub points: u64,
}

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GameError {
    #[error("not now: the game is in phase {0:?}")]
    WrongPhase(Phase),
    #[error(transparent)]
    Cube(#[from] CubeError),
    #[error("that is not a legal move with {0}")]
    IllegalMove(Dice),
    #[error("dice must be 1-6")]
    BadDie,
}

#[derive(Clone, Debug)]
pub struct GameState {
    /// The board from the view of `on_roll`.
    pub position: Position,
    /// gnubg player index (0 or 1) whose turn it is.
    pub on_roll: u8,
    pub cube: Cube,
    pub rules: CubeRules,
    /// This game is a match's Crawford game: no doubling.
    pub crawford: bool,
    /// Money play (the Jacoby rule only applies there).
    pub money: bool,
    phase: Phase,
}

impl GameState {
    /// The moment as a [`super::Setup`] from the view of the player on
    /// roll (the dice once rolled), at `score` in a `match_length`-point
    /// match (0: money): what an analysis or an ID is made from.
    pub fn setup(&self, match_length: u32, score: [u32; 2]) -> super::Setup {
        let dice = match self.phase {
            Phase::ToMove(d) => [d.high(), d.low()],
            _ => [0, 0],
        };
        super::Setup {
            position: self.position,
            info: super::MatchInfo {
                cube_value: self.cube.value as u32,
                cube_owner: self.cube.owner,
                on_roll: self.on_roll,
                crawford: self.crawford,
                game_state: 1,
                turn: self.on_roll,
                doubled: false,
                resigned: 0,
                dice,
                match_length,
                score,
                jacoby: self.rules.jacoby && self.money,
            },
        }
    }

    pub fn new(rules: CubeRules, money: bool, crawford: bool) -> GameState {
        GameState {
            position: Position::starting(),
            on_roll: 0,
            cube: Cube::default(),
            rules,
            crawford,
            money,
            phase: Phase::Opening,
        }
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// One opening throw: player 0 rolled `die0`, player 1 `die1`. On a tie
    /// the cube may double automatically and the players throw again
    /// (returns false); otherwise the higher die moves first with both dice.
    pub fn opening_roll(&mut self, die0: u8, die1: u8) -> Result<bool, GameError> {
        if self.phase != Phase::Opening {
            return Err(GameError::WrongPhase(self.phase));
        }
        let dice = Dice::new(die0, die1).ok_or(GameError::BadDie)?;
        if die0 == die1 {
            self.cube.automatic_double(&self.rules);
            return Ok(false);
        }
        self.on_roll = if die0 > die1 { 0 } else { 1 };
        self.phase = Phase::ToMove(dice);
        Ok(true)
    }

    pub fn roll(&mut self, dice: Dice) -> Result<(), GameError> {
        if self.phase != Phase::ToRoll {
            return Err(GameError::WrongPhase(self.phase));
        }
        self.phase = Phase::ToMove(dice);
        Ok(())
    }

    /// The legal moves for the dice just rolled.
    pub fn legal_moves(&self, out: &mut MoveList) -> Result<Dice, GameError> {
        let Phase::ToMove(dice) = self.phase else {
            return Err(GameError::WrongPhase(self.phase));
        };
        legal_moves(&self.position, dice, out);
        Ok(dice)
    }

    /// Plays the move that leads to `after` (mover's view), if legal.
    pub fn play(&mut self, after: &Position) -> Result<(), GameError> {
        let Phase::ToMove(dice) = self.phase else {
            return Err(GameError::WrongPhase(self.phase));
        };
        let legal = with_legal_moves(&self.position, dice, |list| {
            list.iter().any(|c| c.position == *after)
        });
        if !legal {
            return Err(GameError::IllegalMove(dice));
        }
        self.advance(after);
        Ok(())
    }

    /// Plays the legal move that `choose` picks (by its index in the list
    /// of the roll's legal moves, given the position before it): legal by
    /// construction, with the moves generated once, so a player loop
    /// (duels, self-play) pays nothing for the referee.
    pub fn play_chosen(
        &mut self,
        choose: impl FnOnce(&Position, &MoveList) -> usize,
    ) -> Result<(), GameError> {
        let Phase::ToMove(dice) = self.phase else {
            return Err(GameError::WrongPhase(self.phase));
        };
        let before = self.position;
        let after = with_legal_moves(&before, dice, |list| {
            let i = choose(&before, list).min(list.len() - 1);
            list.as_slice()[i].position
        });
        self.advance(&after);
        Ok(())
    }

    /// Moves into `after` (a legal move's result): the game ends or the
    /// other side is to roll.
    fn advance(&mut self, after: &Position) {
        if let Some(result) = GameResult::of_mover_win(after) {
            let points = self.cube.points(result, self.rules.jacoby && self.money);
            self.phase = Phase::Over(Outcome {
                winner: self.on_roll,
                result,
                points,
            });
            self.position = *after;
            return;
        }
        self.position = after.swap();
        self.on_roll = 1 - self.on_roll;
        self.phase = Phase::ToRoll;
    }

    /// The player on roll doubles (before rolling).
    pub fn double(&mut self) -> Result<(), GameError> {
        match self.phase {
            Phase::ToRoll => {}
            Phase::ToMove(_) => return Err(CubeError::AlreadyRolled.into()),
            p => return Err(GameError::WrongPhase(p)),
        }
        self.cube.offer(self.on_roll, false, self.crawford)?;
        self.phase = Phase::ToAnswer;
        Ok(())
    }

    fn answered(&mut self, a: Answer) {
        self.phase = match a {
            Answer::Accepted => Phase::ToRoll,
            Answer::Refused { winner, points } => Phase::Over(Outcome {
                winner,
                result: GameResult::Single,
                points,
            }),
        };
    }

    pub fn take(&mut self) -> Result<(), GameError> {
        let who = self.cube.to_answer().ok_or(CubeError::NothingPending)?;
        let a = self.cube.take(who)?;
        self.answered(a);
        Ok(())
    }

    pub fn pass(&mut self) -> Result<(), GameError> {
        let who = self.cube.to_answer().ok_or(CubeError::NothingPending)?;
        let a = self.cube.pass(who)?;
        self.answered(a);
        Ok(())
    }

    /// `player` resigns a `result` and the other side accepts: the game
    /// ends there, scored as if played out to that result with the cube
    /// as it stands (so a gammon resigned under the Jacoby rule with the
    /// cube never turned is worth one point).
    pub fn resign(&mut self, player: u8, result: GameResult) -> Result<(), GameError> {
        if matches!(self.phase, Phase::Opening | Phase::Over(_)) || player > 1 {
            return Err(GameError::WrongPhase(self.phase));
        }
        self.phase = Phase::Over(Outcome {
            winner: 1 - player,
            result,
            points: self.cube.points(result, self.rules.jacoby && self.money),
        });
        Ok(())
    }

    pub fn beaver(&mut self) -> Result<(), GameError> {
        let who = self.cube.to_answer().ok_or(CubeError::NothingPending)?;
        self.cube.beaver(who, &self.rules)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resignation_ends_the_game_for_the_other_side_at_the_cube_value() {
        let mut game = GameState::new(CubeRules::default(), true, false);
        assert!(
            game.resign(0, GameResult::Single).is_err(),
            "not before the opening roll"
        );
        game.opening_roll(3, 1).unwrap();
        game.play_chosen(|_, _| 0).unwrap();
        game.double().unwrap();
        game.take().unwrap();
        game.resign(0, GameResult::Gammon).unwrap();
        let Phase::Over(o) = game.phase() else {
            panic!("the game is over")
        };
        assert_eq!((o.winner, o.result, o.points), (1, GameResult::Gammon, 4));
        assert!(game.resign(1, GameResult::Single).is_err(), "only once");
        // Jacoby: a gammon with the cube never offered is one point.
        let rules = CubeRules {
            jacoby: true,
            ..CubeRules::default()
        };
        let mut game = GameState::new(rules, true, false);
        game.opening_roll(1, 3).unwrap();
        game.resign(1, GameResult::Gammon).unwrap();
        assert!(matches!(
            game.phase(),
            Phase::Over(Outcome {
                winner: 0,
                points: 1,
                ..
            })
        ));
    }

    #[test]
    fn a_chosen_move_is_played_only_when_one_is_due_and_games_end_scored() {
        let mut game = GameState::new(CubeRules::default(), true, false);
        assert_eq!(
            game.play_chosen(|_, _| 0),
            Err(GameError::WrongPhase(Phase::Opening))
        );
        assert_eq!(game.opening_roll(3, 1), Ok(true));
        // The last of the legal moves, whatever index the player asks for.
        let mut seen = 0;
        game.play_chosen(|pos, list| {
            assert_eq!(*pos, Position::starting());
            seen = list.len();
            usize::MAX
        })
        .unwrap();
        assert_eq!(seen, 16);
        assert_eq!(game.phase(), Phase::ToRoll);
        assert_eq!(game.on_roll, 1);
        // Play on with the first legal move of fixed rolls to the end.
        for turn in 0..2000u32 {
            if let Phase::Over(outcome) = game.phase() {
                assert!(outcome.points >= 1 && outcome.points <= 3);
                return;
            }
            game.roll(Dice::new((turn % 6 + 1) as u8, ((turn / 6) % 6 + 1) as u8).unwrap())
                .unwrap();
            game.play_chosen(|_, _| 0).unwrap();
        }
        panic!("the game never ended");
    }
}
