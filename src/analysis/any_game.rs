//! The facade for the games played on the shared [`Game`] machinery
//! (traditional Icelandic Kotra and two-player Icehouse Kotra), as the
//! rest of `analysis` is for backgammon: evaluate a position, rank a
//! roll's turns, roll out a position or a roll's best turns, each
//! answered as a plain report (serde) that a front end prints or sends
//! as it is.

use crate::eval::game_net::GameNet;
use crate::game::{After, Game};
use crate::rollout::Estimate;
use crate::rollout::any_game::{GameRollout, GameRolloutSettings, roll_out, roll_out_turns};
use crate::search::any_game::{position_outputs, position_value, turn_outputs, turn_values};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// What the facade needs of a game beyond [`Game`]: its outputs named.
pub trait AnalysedGame: Game {
    /// Named chances from network outputs.
    fn chances(&self, outputs: &[f32]) -> Vec<(String, f32)>;
    /// Why no position can be rolled out under this game's options.
    fn rollout_refusal(&self) -> Option<&'static str> {
        None
    }
}

impl AnalysedGame for crate::icelandic::game::IcelandicKotra {
    fn chances(&self, y: &[f32]) -> Vec<(String, f32)> {
        crate::icelandic::game::win_type_chances(y)
    }
    fn rollout_refusal(&self) -> Option<&'static str> {
        self.options.equalizing_throw.then_some(
            "--equalizing-throw: a position does not record who took the first turn, which the equalizing throw depends on",
        )
    }
}

impl AnalysedGame for crate::icehouse::game::IcehouseKotra {
    fn chances(&self, y: &[f32]) -> Vec<(String, f32)> {
        vec![("win".into(), y[0]), ("lose".into(), 1.0 - y[0])]
    }
}

/// Why the facade refuses a request for these games.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameRequestError {
    #[error("cannot roll out with {0}")]
    CannotRollOut(&'static str),
}

/// A position's value for the side to move, without dice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GamePositionReport {
    #[serde(serialize_with = "as_f64")]
    pub equity: f32,
    pub ply: u8,
    #[serde(serialize_with = "chance_map")]
    pub chances: Vec<(String, f32)>,
}

/// A roll's turns, best first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameMoveReport {
    pub ply: u8,
    pub moves: Vec<GameMoveLine>,
}

/// One turn with its value for the side making it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameMoveLine {
    #[serde(rename = "move")]
    pub text: String,
    #[serde(serialize_with = "as_f64")]
    pub equity: f32,
    /// The chances after it; a turn that ends the game has one entry,
    /// "game over (+N points)", at certainty.
    #[serde(serialize_with = "chance_map")]
    pub chances: Vec<(String, f32)>,
}

/// A rollout's figures for one side: points a game, wins and losses.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GameRolloutFigures {
    #[serde(serialize_with = "estimate")]
    pub points: Estimate,
    #[serde(serialize_with = "estimate")]
    pub wins: Estimate,
    #[serde(serialize_with = "estimate")]
    pub losses: Estimate,
}

impl From<&GameRollout> for GameRolloutFigures {
    fn from(r: &GameRollout) -> GameRolloutFigures {
        GameRolloutFigures {
            points: r.points,
            wins: r.wins,
            losses: r.losses,
        }
    }
}

/// How a rollout was played, beside its figures.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GameRolloutSetup {
    pub trials: u32,
    pub ply: u8,
    pub seed: u64,
    pub variance_reduction: bool,
}

impl From<&GameRolloutSettings> for GameRolloutSetup {
    fn from(s: &GameRolloutSettings) -> GameRolloutSetup {
        GameRolloutSetup {
            trials: s.trials,
            ply: s.ply,
            seed: s.seed,
            variance_reduction: s.variance_reduction,
        }
    }
}

/// A position rolled out for the side to move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GamePositionRollout {
    #[serde(flatten)]
    pub setup: GameRolloutSetup,
    #[serde(flatten)]
    pub figures: GameRolloutFigures,
}

/// A roll's best turns rolled out, best first by points.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameTurnsRollout {
    #[serde(flatten)]
    pub setup: GameRolloutSetup,
    pub moves: Vec<GameTurnRollout>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameTurnRollout {
    #[serde(rename = "move")]
    pub text: String,
    #[serde(flatten)]
    pub figures: GameRolloutFigures,
}

/// The value and chances of `state` for the side to move at `ply`.
pub fn evaluate_game<G: AnalysedGame>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    ply: u8,
) -> GamePositionReport {
    let y = position_outputs(game, net, state, ply);
    GamePositionReport {
        equity: position_value(game, net, state, ply),
        ply,
        chances: game.chances(&y[..game.outputs()]),
    }
}

/// Every turn of `roll` ranked at `ply`, best first.
pub fn rank_game_turns<G: AnalysedGame>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    roll: (u8, u8),
    ply: u8,
) -> GameMoveReport {
    let turns = game.turns(state, roll);
    let values = turn_values(game, net, state, &turns, ply);
    let moves = best_first(&values)
        .into_iter()
        .map(|i| {
            let chances = match game.after(state, &turns[i]) {
                After::Ended(end) => vec![(format!("game over ({:+} points)", end.points), 1.0)],
                After::Next(_) => {
                    let y = turn_outputs(game, net, state, &turns[i], ply);
                    game.chances(&y[..game.outputs()])
                }
            };
            GameMoveLine {
                text: game.turn_text(state, &turns[i]),
                equity: values[i],
                chances,
            }
        })
        .collect();
    GameMoveReport { ply, moves }
}

/// `state` rolled out for the side to move; `progress` hears of each
/// finished trial.
pub fn roll_out_game<G: AnalysedGame>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    settings: &GameRolloutSettings,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<GamePositionRollout, GameRequestError> {
    refuse_rollout(game)?;
    let r = roll_out(game, net, state, settings, progress);
    Ok(GamePositionRollout {
        setup: settings.into(),
        figures: (&r).into(),
    })
}

/// The best `candidates` turns of `roll` at 0-ply, best first: what
/// [`roll_out_game_turns`] rolls out (a front end counts them first, for
/// its progress); refused, before any work, where the game's options
/// cannot roll out.
pub fn best_turns<G: AnalysedGame>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    roll: (u8, u8),
    candidates: usize,
) -> Result<Vec<G::Turn>, GameRequestError> {
    refuse_rollout(game)?;
    let turns = game.turns(state, roll);
    let mut order = best_first(&turn_values(game, net, state, &turns, 0));
    order.truncate(candidates);
    Ok(order.into_iter().map(|i| turns[i].clone()).collect())
}

/// `turns` (from [`best_turns`]) each rolled out with the same dice from
/// the view of the side making it, best first.
pub fn roll_out_game_turns<G: AnalysedGame>(
    game: &G,
    net: &GameNet,
    state: &G::State,
    turns: &[G::Turn],
    settings: &GameRolloutSettings,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<GameTurnsRollout, GameRequestError> {
    refuse_rollout(game)?;
    let rolled = roll_out_turns(game, net, state, turns, settings, progress);
    let mut moves: Vec<GameTurnRollout> = turns
        .iter()
        .zip(&rolled)
        .map(|(t, r)| GameTurnRollout {
            text: game.turn_text(state, t),
            figures: r.into(),
        })
        .collect();
    moves.sort_by(|a, b| b.figures.points.mean.total_cmp(&a.figures.points.mean));
    Ok(GameTurnsRollout {
        setup: settings.into(),
        moves,
    })
}

/// What a game's options cannot roll out, refused.
fn refuse_rollout<G: AnalysedGame>(game: &G) -> Result<(), GameRequestError> {
    match game.rollout_refusal() {
        Some(why) => Err(GameRequestError::CannotRollOut(why)),
        None => Ok(()),
    }
}

/// The indices of `values`, highest value first (ties in list order).
fn best_first(values: &[f32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    order
}

/// An `f32` written as the `f64` it widens to (the digits the command
/// line has always printed for these games).
fn as_f64<S: Serializer>(v: &f32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(f64::from(*v))
}

/// Named chances as a JSON object, in the game's order.
fn chance_map<S: Serializer>(chances: &[(String, f32)], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(chances.len()))?;
    for (name, p) in chances {
        map.serialize_entry(name, &f64::from(*p))?;
    }
    map.end()
}

fn estimate<S: Serializer>(e: &Estimate, s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(2))?;
    map.serialize_entry("mean", &e.mean)?;
    map.serialize_entry("se", &e.se)?;
    map.end()
}

/// Four-player Icehouse Kotra's turns of a roll, in the rules' order,
/// with the share of the wins each leaves the mover and the turn chosen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FourPlayerReport {
    /// 0: the greedy choice; 1: max-n, one reply of the next seat deep.
    pub ply: u8,
    pub moves: Vec<FourPlayerLine>,
    /// The index of the chosen turn (`choice`, and as `maxn_choice` for
    /// the readers that know it by that name).
    pub choice: usize,
    pub maxn_choice: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FourPlayerLine {
    #[serde(rename = "move")]
    pub text: String,
    #[serde(serialize_with = "as_f64")]
    pub share: f32,
}

/// Four-player Icehouse Kotra's analysis of `position` with `dice`: no
/// network, the greedy shares at 0-ply and max-n over them at 1-ply.
pub fn rank_four_player_turns(
    position: &crate::icehouse::Position,
    dice: (u8, u8),
    ply: u8,
) -> FourPlayerReport {
    use crate::icehouse::maxn::{greedy_choice, maxn_choice, shares};
    let turns = crate::icehouse::legal_turns(position, dice.0, dice.1);
    let choice = if ply == 0 {
        greedy_choice(position, &turns)
    } else {
        maxn_choice(position, &turns)
    };
    let me = position.to_move.index();
    FourPlayerReport {
        ply,
        moves: turns
            .iter()
            .map(|t| FourPlayerLine {
                text: t.text(),
                share: shares(&t.position)[me],
            })
            .collect(),
        choice,
        maxn_choice: choice,
    }
}
