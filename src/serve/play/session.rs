//! One session against kotra-ai: a money session or an n-point match,
//! game after game, each game kept by the rules' referee ([`GameState`])
//! and the score by [`MatchState`] (Crawford included). The server rolls
//! the dice and plays kotra-ai's side through the analysis facade at the
//! session's ply. You are player 0 (the left column of the record),
//! kotra-ai player 1.

use crate::analysis::{Analyzer, Equity};
use crate::backgammon::cube::CubeRules;
use crate::backgammon::session::MatchState;
use crate::backgammon::{Dice, GameResult, GameState, MoveList, Phase, Position, Step};
use crate::cube::TakeAnswer;
use crate::notation::mat::{Action, GameRecord, MatchRecord};
use crate::notation::move_text;
use crate::quoted::Quoted;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

pub const YOU: u8 = 0;
pub const ENGINE: u8 = 1;

/// Why an action of yours was refused.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error("not now: {0}")]
    NotNow(String),
    #[error("{0}")]
    Illegal(String),
}

/// A move kotra-ai made since your last action, for the board to replay:
/// the board before it (your view) and its steps in kotra-ai's own
/// numbering (25 its bar, 0 off).
#[derive(Clone, Debug, serde::Serialize)]
pub struct EngineMove {
    pub dice: String,
    pub before: Board,
    pub steps: Vec<[u8; 2]>,
}

/// A board from your side: each side's checkers in its own numbering
/// (index i its point i + 1, index 24 its bar).
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Board {
    pub you: [u8; 25],
    #[serde(rename = "kotra-ai")]
    pub engine: [u8; 25],
}

pub struct Session {
    pub score: MatchState,
    pub state: GameState,
    pub ply: u8,
    rng: SmallRng,
    /// Every game so far, the one in play last.
    games: Vec<GameRecord>,
    /// What kotra-ai did since your last action, in words and moves.
    pub engine_did: Vec<String>,
    pub engine_moves: Vec<EngineMove>,
}

impl Session {
    /// A new session (`length` 0: money) with its first game begun.
    pub fn new(length: u32, ply: u8, seed: u64, analyzer: &Analyzer) -> Session {
        let score = if length == 0 {
            MatchState::money()
        } else {
            MatchState::to(length)
        };
        let mut s = Session {
            score,
            state: GameState::new(CubeRules::default(), true, false),
            ply,
            rng: SmallRng::seed_from_u64(seed),
            games: Vec::new(),
            engine_did: Vec::new(),
            engine_moves: Vec::new(),
        };
        s.begin_game(analyzer);
        s
    }

    /// The next game: the opening roll decides who starts; if kotra-ai
    /// does, it has moved when this returns.
    fn begin_game(&mut self, analyzer: &Analyzer) {
        self.state = GameState::new(
            CubeRules::default(),
            self.score.is_money(),
            self.score.crawford,
        );
        self.games.push(GameRecord {
            number: self.games.len() as u32 + 1,
            score: self.score_u32(),
            actions: Vec::new(),
        });
        loop {
            let (a, b) = (self.die(), self.die());
            if self.state.opening_roll(a, b).unwrap_or(false) {
                break;
            }
        }
        self.engine_turn(analyzer);
    }

    pub fn score_u32(&self) -> [u32; 2] {
        self.score.score.map(|p| p.min(u32::MAX as u64) as u32)
    }

    fn die(&mut self) -> u8 {
        self.rng.random_range(1..=6)
    }

    fn roll_dice(&mut self) -> Dice {
        Dice::new(self.die(), self.die()).expect("dice are 1-6")
    }

    fn record(&mut self, action: Action) {
        let actions = &mut self.games.last_mut().expect("a game is begun").actions;
        let n = actions.len();
        actions.push((n + 1, n as u32 / 2 + 1, action));
    }

    pub fn game_over(&self) -> bool {
        matches!(self.state.phase(), Phase::Over(_))
    }

    pub fn match_over(&self) -> bool {
        self.score.winner().is_some()
    }

    /// The moment as an analysis sees it, from the side on roll.
    pub fn setup(&self) -> crate::backgammon::Setup {
        self.state.setup(self.score.length, self.score_u32())
    }

    /// Whose decision it is now (the answer to a double is the taker's).
    pub fn turn(&self) -> u8 {
        match self.state.phase() {
            Phase::ToAnswer => self.state.cube.to_answer().unwrap_or(self.state.on_roll),
            _ => self.state.on_roll,
        }
    }

    /// The board from your side.
    pub fn board(&self) -> Board {
        let yours = if self.state.on_roll == YOU {
            self.state.position
        } else {
            self.state.position.swap()
        };
        let (you, engine) = yours.to_sides();
        Board { you, engine }
    }

    /// Plays `target` for the player on roll, recording the move.
    fn play(&mut self, dice: Dice, text: String, target: &Position) {
        let player = self.state.on_roll;
        self.state.play(target).expect("a legal move's result");
        self.record(Action::Move { player, dice, text });
        self.finish_if_over();
    }

    /// The player on roll cannot play `dice`: the turn passes.
    fn forfeit(&mut self, dice: Dice) {
        let player = self.state.on_roll;
        self.state
            .play_chosen(|_, _| 0)
            .expect("a forfeited roll passes");
        self.record(Action::Move {
            player,
            dice,
            text: String::new(),
        });
    }

    /// A game just ended: its record and the score.
    fn finish_if_over(&mut self) {
        if let Phase::Over(o) = self.state.phase() {
            self.record(Action::Win {
                player: o.winner,
                points: o.points as u32,
            });
            self.score.record(o.winner, o.points);
        }
    }

    /// Your action `what`; kotra-ai then acts until it is your turn again.
    pub fn act(
        &mut self,
        what: &str,
        arg: Option<&str>,
        analyzer: &Analyzer,
    ) -> Result<(), PlayError> {
        self.engine_did.clear();
        self.engine_moves.clear();
        if what == "next" {
            if !self.game_over() || self.match_over() {
                return Err(self.not_now());
            }
            self.begin_game(analyzer);
            return Ok(());
        }
        if self.game_over() || self.turn() != YOU {
            return Err(self.not_now());
        }
        match what {
            "roll" => {
                let dice = self.roll_dice();
                self.state.roll(dice).map_err(|_| self.not_now())?;
                let mut list = MoveList::new();
                self.state.legal_moves(&mut list).expect("just rolled");
                if list.is_forfeit() {
                    self.forfeit(dice);
                }
            }
            "move" => {
                let text = arg.ok_or_else(|| PlayError::Illegal("move=... is missing".into()))?;
                let Phase::ToMove(dice) = self.state.phase() else {
                    return Err(self.not_now());
                };
                let mut list = MoveList::new();
                self.state.legal_moves(&mut list).expect("to move");
                let found = move_text::find(&self.state.position, &list, text)
                    .map_err(|e| PlayError::Illegal(format!("{dice}: {e}")))?;
                let formatted = move_text::format(&self.state.position, &found.play);
                let target = found.position;
                self.play(dice, formatted, &target);
            }
            "double" => {
                self.state
                    .double()
                    .map_err(|e| PlayError::Illegal(e.to_string()))?;
                let value = self.state.cube.value as u32 * 2;
                self.record(Action::Double { player: YOU, value });
            }
            "take" | "pass" if self.state.phase() == Phase::ToAnswer => {
                if what == "take" {
                    self.state
                        .take()
                        .map_err(|e| PlayError::Illegal(e.to_string()))?;
                    self.record(Action::Take { player: YOU });
                } else {
                    self.state
                        .pass()
                        .map_err(|e| PlayError::Illegal(e.to_string()))?;
                    self.record(Action::Drop { player: YOU });
                    self.finish_if_over();
                }
            }
            "take" | "pass" => return Err(self.not_now()),
            "resign" => {
                let result = match arg.unwrap_or("single") {
                    "single" | "1" => GameResult::Single,
                    "gammon" | "2" => GameResult::Gammon,
                    "backgammon" | "3" => GameResult::Backgammon,
                    other => {
                        return Err(PlayError::Illegal(format!(
                            "resign {}: single, gammon or backgammon",
                            Quoted(other)
                        )));
                    }
                };
                if !self.accepts_resignation(result, analyzer) {
                    self.engine_did
                        .push(format!("declines your resignation of a {}", words(result)));
                    return Ok(());
                }
                self.state.resign(YOU, result).map_err(|_| self.not_now())?;
                self.engine_did
                    .push(format!("accepts your resignation of a {}", words(result)));
                self.finish_if_over();
            }
            _ => unreachable!("the handler passes known actions only"),
        }
        self.engine_turn(analyzer);
        Ok(())
    }

    fn not_now(&self) -> PlayError {
        let at = if self.match_over() {
            "the match is over".to_string()
        } else if self.game_over() {
            "the game is over (start the next)".to_string()
        } else if self.turn() != YOU {
            "it is kotra-ai's turn".to_string()
        } else {
            format!("the game is at {:?}", self.state.phase())
        };
        PlayError::NotNow(at)
    }

    /// kotra-ai takes a resignation when it gives at least what kotra-ai
    /// expects to win by playing on (its cubeless equity, in cube units).
    fn accepts_resignation(&self, result: GameResult, analyzer: &Analyzer) -> bool {
        let p = analyzer.evaluate(&self.setup());
        let mover = p.equity();
        let engine = if self.state.on_roll == ENGINE {
            mover
        } else {
            -mover
        };
        result.points() as f32 >= engine - 1e-6
    }

    /// kotra-ai acts until it is your turn or the game is over.
    fn engine_turn(&mut self, analyzer: &Analyzer) {
        while !self.game_over() {
            match self.state.phase() {
                Phase::ToRoll if self.state.on_roll == ENGINE => {
                    let may = self
                        .state
                        .cube
                        .can_double(ENGINE, false, self.state.crawford)
                        .is_ok();
                    if may
                        && analyzer
                            .cube_decision(&self.setup(), self.ply)
                            .decision
                            .should_double()
                    {
                        self.state.double().expect("kotra-ai may double");
                        let value = self.state.cube.value as u32 * 2;
                        self.record(Action::Double {
                            player: ENGINE,
                            value,
                        });
                        self.engine_did.push(format!("doubles to {value}"));
                        return;
                    }
                    let dice = self.roll_dice();
                    self.state.roll(dice).expect("kotra-ai is to roll");
                }
                Phase::ToMove(dice) if self.state.on_roll == ENGINE => {
                    let report =
                        analyzer.rank_moves(&self.setup(), dice, self.ply, Equity::Cubeful);
                    let before = self.board();
                    let Some(best) = report.moves.first() else {
                        self.engine_did
                            .push(format!("rolls {dice} and cannot move"));
                        self.forfeit(dice);
                        continue;
                    };
                    let steps: Vec<Step> = best
                        .steps
                        .iter()
                        .map(|&(from, to)| Step { from, to })
                        .collect();
                    let target = self
                        .state
                        .position
                        .apply_play(&crate::backgammon::Play::from_steps(&steps));
                    self.engine_did
                        .push(format!("rolls {dice} and plays {}", best.text));
                    self.engine_moves.push(EngineMove {
                        dice: dice.to_string(),
                        before,
                        steps: best.steps.iter().map(|&(f, t)| [f, t]).collect(),
                    });
                    self.play(dice, best.text.clone(), &target);
                }
                Phase::ToAnswer if self.state.cube.to_answer() == Some(ENGINE) => {
                    // The doubler's view: kotra-ai takes unless passing
                    // costs less.
                    let d = analyzer.cube_decision(&self.setup(), self.ply).decision;
                    if d.take == TakeAnswer::Pass {
                        self.state.pass().expect("kotra-ai answers");
                        self.record(Action::Drop { player: ENGINE });
                        self.engine_did.push("passes".into());
                        self.finish_if_over();
                    } else {
                        self.state.take().expect("kotra-ai answers");
                        self.record(Action::Take { player: ENGINE });
                        self.engine_did.push("takes".into());
                    }
                }
                _ => return,
            }
        }
    }

    /// The game in play (or just over), as its record so far.
    pub fn current_game(&self) -> Option<&GameRecord> {
        self.games.last()
    }

    /// The session so far as a match file holds it.
    pub fn match_record(&self) -> MatchRecord {
        MatchRecord {
            length: self.score.length,
            players: ["you".to_string(), "kotra-ai".to_string()],
            games: self.games.clone(),
            jacoby: false,
        }
    }
}

fn words(result: GameResult) -> &'static str {
    match result {
        GameResult::Single => "single game",
        GameResult::Gammon => "gammon",
        GameResult::Backgammon => "backgammon",
    }
}
