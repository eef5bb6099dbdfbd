//! Playing a money game against kotra-ai: the server holds each game and
//! its referee ([`GameState`]), rolls the dice, and plays kotra-ai's side
//! (cube and checkers) through the analysis facade at the game's ply. You
//! are player 0 (the left column of the record), kotra-ai player 1.
//!
//! - `POST /api/play[?ply=1][&seed=S]`: a new game (the opening roll
//!   decides who starts; if kotra-ai does, it has moved already);
//! - `GET /api/play/{id}`: where the game stands, from your side;
//! - `POST /api/play/{id}/roll`, `/move?move=8/5 6/5`, `/double`, `/take`,
//!   `/pass`: your actions; kotra-ai answers at once;
//! - `GET /api/play/{id}/record.mat` and `record.sgf`: the game so far.
//!
//! At most [`MAX_GAMES`] games are held; the oldest goes first.

use super::{ApiError, AppState, Cost, checked_ply, job};
use crate::analysis::{Analyzer, Equity};
use crate::backgammon::cube::CubeRules;
use crate::backgammon::{CubeOwner, Dice, GameState, MoveList, Phase};
use crate::cube::TakeAnswer;
use crate::notation::mat::{Action, GameRecord, MatchRecord};
use crate::notation::{gnubg_id, move_text, sgf};
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Games held at once; a new one past this drops the oldest.
pub const MAX_GAMES: usize = 1000;

const YOU: u8 = 0;
const ENGINE: u8 = 1;

/// One game against kotra-ai.
pub struct Game {
    state: GameState,
    ply: u8,
    rng: SmallRng,
    /// The record so far, as a `.mat` would hold it.
    actions: Vec<(usize, u32, Action)>,
    /// What kotra-ai did since your last action, in words.
    engine_did: Vec<String>,
}

/// The games the server holds, by id.
#[derive(Default)]
pub struct Games {
    next: Mutex<u64>,
    held: Mutex<BTreeMap<u64, Arc<Mutex<Game>>>>,
}

impl Games {
    fn insert(&self, game: Game) -> u64 {
        let id = {
            let mut next = self.next.lock().expect("not poisoned");
            *next += 1;
            *next
        };
        let mut held = self.held.lock().expect("not poisoned");
        while held.len() >= MAX_GAMES {
            held.pop_first();
        }
        held.insert(id, Arc::new(Mutex::new(game)));
        id
    }

    fn get(&self, id: u64) -> Result<Arc<Mutex<Game>>, ApiError> {
        self.held
            .lock()
            .expect("not poisoned")
            .get(&id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(&format!("/api/play/{id}")))
    }
}

impl Game {
    fn new(ply: u8, seed: u64) -> Game {
        let rules = CubeRules::default();
        let mut game = Game {
            state: GameState::new(rules, true, false),
            ply,
            rng: SmallRng::seed_from_u64(seed),
            actions: Vec::new(),
            engine_did: Vec::new(),
        };
        loop {
            let (a, b) = (game.die(), game.die());
            if game.state.opening_roll(a, b).unwrap_or(false) {
                break;
            }
        }
        game
    }

    fn die(&mut self) -> u8 {
        self.rng.random_range(1..=6)
    }

    fn record(&mut self, action: Action) {
        let n = self.actions.len();
        self.actions.push((n + 1, n as u32 / 2 + 1, action));
    }

    fn over(&self) -> bool {
        matches!(self.state.phase(), Phase::Over(_))
    }

    /// Plays `target` for the player on roll, recording the move.
    fn play(&mut self, dice: Dice, text: String, target: &crate::backgammon::Position) {
        let player = self.state.on_roll;
        self.state.play(target).expect("a legal move's result");
        self.record(Action::Move { player, dice, text });
        self.record_result();
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

    fn record_result(&mut self) {
        if let Phase::Over(o) = self.state.phase() {
            self.record(Action::Win {
                player: o.winner,
                points: o.points as u32,
            });
        }
    }

    /// kotra-ai acts until it is your turn or the game is over.
    fn engine_turn(&mut self, analyzer: &Analyzer) {
        while !self.over() {
            match self.state.phase() {
                Phase::ToRoll if self.state.on_roll == ENGINE => {
                    let setup = self.state.setup(0, [0, 0]);
                    let may = self.state.cube.can_double(ENGINE, false, false).is_ok();
                    if may
                        && analyzer
                            .cube_decision(&setup, self.ply)
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
                    let dice = Dice::new(self.die(), self.die()).expect("dice are 1-6");
                    self.state.roll(dice).expect("kotra-ai is to roll");
                }
                Phase::ToMove(dice) if self.state.on_roll == ENGINE => {
                    let setup = self.state.setup(0, [0, 0]);
                    let report = analyzer.rank_moves(&setup, dice, self.ply, Equity::Cubeful);
                    let (text, target) = match report.moves.first() {
                        Some(best) => (
                            best.text.clone(),
                            crate::notation::position_id::decode(&best.position_id)
                                .expect("our own ID"),
                        ),
                        None => (String::new(), self.state.position),
                    };
                    self.engine_did
                        .push(format!("rolls {dice} and plays {}", or_no_move(&text)));
                    if report.moves.is_empty() {
                        self.forfeit(dice);
                    } else {
                        self.play(dice, text, &target);
                    }
                }
                Phase::ToAnswer if self.state.cube.to_answer() == Some(ENGINE) => {
                    // The doubler's view: kotra-ai takes unless passing
                    // costs less.
                    let setup = self.state.setup(0, [0, 0]);
                    let d = analyzer.cube_decision(&setup, self.ply).decision;
                    if d.take == TakeAnswer::Pass {
                        self.state.pass().expect("kotra-ai answers");
                        self.record(Action::Drop { player: ENGINE });
                        self.engine_did.push("passes".into());
                        self.record_result();
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

    /// Where the game stands, from your side.
    fn view(&self, id: u64) -> Value {
        let state = &self.state;
        let yours = if state.on_roll == YOU {
            state.position
        } else {
            state.position.swap()
        };
        let (me, opponent) = yours.to_sides();
        let mut legal = Vec::new();
        let (phase, dice) = match state.phase() {
            Phase::Opening => ("opening", None),
            Phase::ToRoll => ("to_roll", None),
            Phase::ToMove(d) => {
                if state.on_roll == YOU {
                    let mut list = MoveList::new();
                    if state.legal_moves(&mut list).is_ok() && !list.is_forfeit() {
                        legal = list
                            .iter()
                            .map(|c| move_text::format(&state.position, &c.play))
                            .collect();
                    }
                }
                ("to_move", Some(d.to_string()))
            }
            Phase::ToAnswer => ("to_answer", None),
            Phase::Over(_) => ("over", None),
        };
        let owner = match state.cube.owner {
            CubeOwner::Centered => "centred",
            CubeOwner::Player(p) if p == YOU => "you",
            CubeOwner::Player(_) => "kotra-ai",
        };
        let result = match state.phase() {
            Phase::Over(o) => json!({
                "winner": if o.winner == YOU { "you" } else { "kotra-ai" },
                "points": o.points,
            }),
            _ => Value::Null,
        };
        let turn = match state.phase() {
            Phase::ToAnswer => state.cube.to_answer().unwrap_or(state.on_roll),
            _ => state.on_roll,
        };
        json!({
            "id": id,
            "ply": self.ply,
            "phase": phase,
            "turn": if turn == YOU { "you" } else { "kotra-ai" },
            "dice": dice,
            "board": { "mover": me, "opponent": opponent },
            "cube": { "value": state.cube.value, "owner": owner },
            "legal_moves": legal,
            "kotra_ai_did": self.engine_did,
            "result": result,
            "gnubg_id": (!self.over()).then(|| gnubg_id::encode(&state.setup(0, [0, 0]))),
        })
    }

    fn match_record(&self) -> MatchRecord {
        MatchRecord {
            length: 0,
            players: ["you".to_string(), "kotra-ai".to_string()],
            games: vec![GameRecord {
                number: 1,
                score: [0, 0],
                actions: self.actions.clone(),
            }],
            jacoby: false,
        }
    }
}

fn or_no_move(text: &str) -> &str {
    if text.is_empty() { "no move" } else { text }
}

#[derive(Deserialize)]
pub struct NewGame {
    ply: Option<u8>,
    seed: Option<u64>,
}

pub async fn new_game(
    State(state): State<Arc<AppState>>,
    q: Result<Query<NewGame>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let q = q.map_err(|e| ApiError::bad(e.body_text()))?.0;
    let ply = checked_ply(q.ply.map_or(1, i64::from))?;
    let seed = q.seed.unwrap_or_else(rand::random);
    let st = state.clone();
    job(&state, Cost::of_ply(ply), move |analyzer| {
        let mut game = Game::new(ply, seed);
        game.engine_turn(analyzer);
        let id = st.games.insert(game);
        let view = st.games.get(id)?.lock().expect("not poisoned").view(id);
        Ok(view)
    })
    .await
    .map(Json)
}

pub async fn show(
    State(state): State<Arc<AppState>>,
    Path(id): Path<u64>,
) -> Result<Json<Value>, ApiError> {
    let game = state.games.get(id)?;
    let view = game.lock().expect("not poisoned").view(id);
    Ok(Json(view))
}

#[derive(Deserialize)]
pub struct MoveQuery {
    #[serde(rename = "move")]
    text: Option<String>,
}

/// Your action `what` (roll, move, double, take, pass), then kotra-ai's.
pub async fn act(
    State(state): State<Arc<AppState>>,
    Path((id, what)): Path<(u64, String)>,
    q: Result<Query<MoveQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let q = q.map_err(|e| ApiError::bad(e.body_text()))?.0;
    let game = state.games.get(id)?;
    let ply = game.lock().expect("not poisoned").ply;
    job(&state, Cost::of_ply(ply), move |analyzer| {
        let mut g = game.lock().expect("not poisoned");
        g.engine_did.clear();
        let not_now =
            |g: &Game| ApiError::bad(format!("not now: the game is at {}", g.view(id)["phase"]));
        let yours = |g: &Game| {
            let turn = match g.state.phase() {
                Phase::ToAnswer => g.state.cube.to_answer(),
                _ => Some(g.state.on_roll),
            };
            turn == Some(YOU)
        };
        if g.over() || !yours(&g) {
            return Err(not_now(&g));
        }
        match what.as_str() {
            "roll" => {
                let dice = Dice::new(g.die(), g.die()).expect("dice are 1-6");
                g.state.roll(dice).map_err(|_| not_now(&g))?;
                let mut list = MoveList::new();
                g.state.legal_moves(&mut list).expect("just rolled");
                if list.is_forfeit() {
                    g.forfeit(dice);
                }
            }
            "move" => {
                let text = q
                    .text
                    .as_deref()
                    .ok_or_else(|| ApiError::bad("move=... is missing"))?;
                let Phase::ToMove(dice) = g.state.phase() else {
                    return Err(not_now(&g));
                };
                let mut list = MoveList::new();
                g.state.legal_moves(&mut list).expect("to move");
                let target = move_text::find(&g.state.position, &list, text)
                    .map_err(|e| ApiError::bad(format!("{dice}: {e}")))?
                    .position;
                let formatted = move_text::format(
                    &g.state.position,
                    &list
                        .iter()
                        .find(|c| c.position == target)
                        .expect("found")
                        .play,
                );
                g.play(dice, formatted, &target);
            }
            "double" => {
                g.state.double().map_err(|e| ApiError::bad(e.to_string()))?;
                let value = g.state.cube.value as u32 * 2;
                g.record(Action::Double { player: YOU, value });
            }
            "take" | "pass" if g.state.phase() == Phase::ToAnswer => {
                if what == "take" {
                    g.state.take().map_err(|e| ApiError::bad(e.to_string()))?;
                    g.record(Action::Take { player: YOU });
                } else {
                    g.state.pass().map_err(|e| ApiError::bad(e.to_string()))?;
                    g.record(Action::Drop { player: YOU });
                    g.record_result();
                }
            }
            "take" | "pass" => return Err(not_now(&g)),
            other => return Err(ApiError::not_found(&format!("/api/play/{id}/{other}"))),
        }
        g.engine_turn(analyzer);
        Ok(g.view(id))
    })
    .await
    .map(Json)
}

/// The game so far as `.mat` or `.sgf`.
pub async fn record(
    State(state): State<Arc<AppState>>,
    Path((id, file)): Path<(u64, String)>,
) -> Result<String, ApiError> {
    let game = state.games.get(id)?;
    let record = game.lock().expect("not poisoned").match_record();
    match file.as_str() {
        "record.mat" => Ok(crate::notation::mat::write(&record)),
        "record.sgf" => sgf::write(&record, &Default::default()).map_err(ApiError::internal),
        other => Err(ApiError::not_found(&format!("/api/play/{id}/{other}"))),
    }
}
