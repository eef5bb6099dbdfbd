//! A match record replayed through the rules' referee ([`GameState`]):
//! every move checked for legality, the cube's values and turns, each
//! `Wins` against the referee's result and each game's score line against
//! the match so far. Whatever reads a match (the review, the web board's
//! replay) walks it through here, so the rules live once.

use crate::backgammon::cube::CubeRules;
use crate::backgammon::{GameState, MoveList, Phase, Position};
use crate::notation::mat::{Action, MatError, MatchRecord};
use crate::notation::move_text;
use crate::quoted::Quoted;

/// One decision a replay met: the position before it (from the view of
/// the player to act) with the cube and score around it.
#[derive(Clone, Debug)]
pub struct Replayed {
    pub game: u32,
    /// The action's place in its game's `actions`: what names it when a
    /// record was built in memory (a duel's) and has no lines.
    pub index: usize,
    pub line: usize,
    pub move_number: u32,
    /// The referee just before the action (for a move, after its roll).
    pub before: GameState,
    pub action: Action,
    /// For a move: the position after it, from the mover's view.
    pub after: Option<Position>,
    /// The match score before this game (left, right) and the match
    /// length (0 for money).
    pub score: [u32; 2],
    pub length: u32,
}

impl Replayed {
    /// The decision as a [`Setup`](crate::backgammon::Setup) (position, cube, score, dice) from
    /// the view of the player on roll, for analysis and for the IDs a
    /// player pastes into `kotra-ai analyze`.
    pub fn setup(&self) -> crate::backgammon::Setup {
        // A move's state is taken after its roll; the Match ID's players
        // are ours: 0 left, 1 right.
        self.before.setup(self.length, self.score)
    }
}

/// Replays every game through the referee, calling `visit` with each
/// action before it is applied; checks every move's legality, the cube's
/// values and turns, each `Wins` against the referee's result, and each
/// game's score line against the match so far.
pub fn replay(record: &MatchRecord, mut visit: impl FnMut(&Replayed)) -> Result<(), MatError> {
    if record.length > crate::backgammon::MAX_MATCH_LENGTH {
        return Err(MatError {
            line: 0,
            game: 0,
            move_number: 0,
            what: format!(
                "a {}-point match is longer than kotra-ai reviews (at most {} points)",
                record.length,
                crate::backgammon::MAX_MATCH_LENGTH
            ),
        });
    }
    let mut score = [0u32; 2];
    let money = record.length == 0;
    let mut crawford_done = false;
    for game in &record.games {
        let err = |line: usize, move_number: u32, what: String| MatError {
            line,
            game: game.number,
            move_number,
            what,
        };
        let first_line = game.actions.first().map_or(0, |a| a.0);
        if !money && game.score != score {
            return Err(err(
                first_line,
                0,
                format!(
                    "the score line says {}-{}, the games before add up to {}-{}",
                    game.score[0], game.score[1], score[0], score[1]
                ),
            ));
        }
        let crawford = !money
            && !crawford_done
            && (score[0] + 1 == record.length || score[1] + 1 == record.length);
        crawford_done |= crawford;
        // Money sessions allow beavers (the file shows them when they
        // happen); a `.mat` does not say whether the Jacoby rule held,
        // and a game it would change is caught by its `Wins` line.
        let rules = CubeRules {
            beavers: money,
            jacoby: money && record.jacoby,
            ..CubeRules::default()
        };
        let mut state = GameState::new(rules, money, crawford);
        let mut result = None;
        let mut ended = false;
        for (index, (line, move_number, action)) in game.actions.iter().enumerate() {
            let (line, move_number) = (*line, *move_number);
            let bad = |what: String| err(line, move_number, what);
            // A beaver stands unless the doubler answers it: the files
            // write no `Takes` after `Beavers`.
            if state.phase() == Phase::ToAnswer
                && state.cube.to_answer() == Some(state.on_roll)
                && !matches!(
                    action,
                    Action::Take { .. } | Action::Drop { .. } | Action::Beaver { .. }
                )
            {
                state.take().map_err(|e| bad(e.to_string()))?;
            }
            let to_act = match state.phase() {
                Phase::ToAnswer => state.cube.to_answer().unwrap_or(state.on_roll),
                _ => state.on_roll,
            };
            let mut after = None;
            let mut before = state.clone();
            match action {
                Action::Move { player, dice, text } => {
                    if state.phase() == Phase::Opening {
                        let (d0, d1) = if *player == 0 {
                            (dice.high(), dice.low())
                        } else {
                            (dice.low(), dice.high())
                        };
                        match state.opening_roll(d0, d1) {
                            Ok(true) => {}
                            _ => return Err(bad(format!("the opening roll {dice} is a double"))),
                        }
                    } else {
                        if *player != to_act {
                            return Err(bad(format!("player {player} moves out of turn")));
                        }
                        state
                            .roll(*dice)
                            .map_err(|e| bad(format!("a roll out of turn: {e}")))?;
                    }
                    // A move's decision is taken with the dice known.
                    before = state.clone();
                    let mut list = MoveList::new();
                    let pos = state.position;
                    state
                        .legal_moves(&mut list)
                        .map_err(|e| bad(e.to_string()))?;
                    let target = if text.is_empty() {
                        if !list.is_forfeit() {
                            return Err(bad(format!(
                                "no move written, but {dice} has legal moves"
                            )));
                        }
                        list.as_slice()[0].position
                    } else {
                        move_text::find(&pos, &list, text)
                            .map_err(|_| {
                                bad(format!("{dice}: {} is not a legal move", Quoted(text)))
                            })?
                            .position
                    };
                    after = Some(target);
                    state.play(&target).map_err(|e| bad(e.to_string()))?;
                    if let Phase::Over(o) = state.phase() {
                        result = Some(o);
                    }
                }
                Action::Double { player, value } => {
                    if *player != to_act {
                        return Err(bad(format!("player {player} doubles out of turn")));
                    }
                    state.double().map_err(|e| bad(format!("a double: {e}")))?;
                    let now = state.cube.value * 2;
                    if u64::from(*value) != now {
                        return Err(bad(format!("doubles to {value}, the cube makes it {now}")));
                    }
                }
                Action::Beaver { player, .. } => {
                    if state.cube.to_answer() == Some(state.on_roll) {
                        return Err(bad(
                            "a beaver answered by another beaver (a raccoon): outside the rules kotra-ai plays (docs/rules/backgammon.md, 12.2)".into(),
                        ));
                    }
                    if *player != to_act {
                        return Err(bad(format!("player {player} beavers out of turn")));
                    }
                    state.beaver().map_err(|e| bad(format!("a beaver: {e}")))?;
                }
                Action::Take { player } | Action::Drop { player } => {
                    if *player != to_act || state.phase() != Phase::ToAnswer {
                        return Err(bad(format!("player {player} answers no double")));
                    }
                    let answered = if matches!(action, Action::Take { .. }) {
                        state.take()
                    } else {
                        state.pass()
                    };
                    answered.map_err(|e| bad(e.to_string()))?;
                    if let Phase::Over(o) = state.phase() {
                        result = Some(o);
                    }
                }
                Action::Win { player, points } => {
                    let Some(o) = result.take() else {
                        // The format writes no resignation: a win before
                        // the game is over is the other side resigning a
                        // single game, gammon or backgammon at the cube.
                        let cube = state.cube.value;
                        let resigned = (1..=3).any(|k| k * cube == u64::from(*points));
                        if !resigned {
                            return Err(bad(format!(
                                "a win of {points} before the game is over is no resignation at cube {cube}"
                            )));
                        }
                        score[*player as usize] += points;
                        ended = true;
                        continue;
                    };
                    if o.winner != *player || o.points != u64::from(*points) {
                        return Err(bad(format!(
                            "the file says player {player} wins {points}, the rules say player {} wins {}",
                            o.winner, o.points
                        )));
                    }
                    score[o.winner as usize] += o.points as u32;
                    ended = true;
                    continue;
                }
            }
            visit(&Replayed {
                game: game.number,
                index,
                line,
                move_number,
                before,
                action: action.clone(),
                after,
                score: if money { [0, 0] } else { game.score },
                length: record.length,
            });
        }
        if let Some(o) = result {
            // No `Wins` line: count what the referee says.
            score[o.winner as usize] += o.points as u32;
        } else if !ended && !matches!(state.phase(), Phase::Over(_)) {
            let line = game.actions.last().map_or(0, |a| a.0);
            if game.number as usize != record.games.len() {
                return Err(err(line, 0, "the game stops before it is over".into()));
            }
        }
    }
    Ok(())
}
