//! Who chooses the moves in a duel or a training measurement: our network
//! at some ply, PubEval, or a random mover, all behind one trait.

pub mod any_game;
pub mod cubeful;
pub mod duel;
pub mod four_player;

pub use duel::{DuelResult, duel, duel_reporting};

use crate::backgammon::{MoveList, Position};
use crate::eval::{Evaluator, Model, ModelError, pubeval};
use rand::RngExt;
use rand::rngs::SmallRng;
use std::path::Path;
use std::sync::Arc;

/// Something that picks one of the legal moves.
pub trait Player: Sync {
    /// The index in `list` (never empty) of the move to play from `pos`.
    fn choose(&self, pos: &Position, list: &MoveList, rng: &mut SmallRng) -> usize;
}

/// Our network, choosing by cubeless equity at a fixed ply.
pub struct NetPlayer {
    pub eval: Arc<Evaluator>,
    pub ply: u8,
}

impl Player for NetPlayer {
    fn choose(&self, _pos: &Position, list: &MoveList, _rng: &mut SmallRng) -> usize {
        crate::search::best_index(&self.eval, list, self.ply)
    }
}

/// Tesauro's PubEval: highest linear score.
pub struct PubEvalPlayer;

impl Player for PubEvalPlayer {
    fn choose(&self, pos: &Position, list: &MoveList, _rng: &mut SmallRng) -> usize {
        let race = !pos.has_contact();
        let mut best = (0, f32::NEG_INFINITY);
        for (i, c) in list.iter().enumerate() {
            let s = pubeval::score(&c.position, race);
            if s > best.1 {
                best = (i, s);
            }
        }
        best.0
    }
}

/// Uniformly random among the distinct legal moves.
pub struct RandomPlayer;

impl Player for RandomPlayer {
    fn choose(&self, _pos: &Position, list: &MoveList, rng: &mut SmallRng) -> usize {
        rng.random_range(0..list.len())
    }
}

/// Why a player description cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    #[error(
        "unknown player '{0}' (expected net, net:PATH, pubeval or random, optionally with @PLY for nets)"
    )]
    Unknown(String),
    #[error("bad ply in '{0}' (expected @0 to @3)")]
    Ply(String),
    #[error(
        "a duel with the cube plays two networks: '{0}' is not net or net:PATH (either with @PLY)"
    )]
    CubeNeedsNet(String),
    #[error(
        "unknown player '{0}' (expected net, net:PATH, heuristic or random, optionally with @PLY for nets)"
    )]
    UnknownForGame(String),
    #[error("bad ply in '{0}' (expected @0 to @2)")]
    GamePly(String),
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error(transparent)]
    GameModel(#[from] crate::eval::game_net::GameModelError),
}

/// Parses `net`, `net@1`, `net:PATH`, `net:PATH@2`, `pubeval`, `random`;
/// `shipped` supplies the default network.
pub fn parse_player(
    spec: &str,
    shipped: impl FnOnce() -> Result<Model, ModelError>,
) -> Result<Box<dyn Player>, PlayerError> {
    match spec {
        "pubeval" => return Ok(Box::new(PubEvalPlayer)),
        "random" => return Ok(Box::new(RandomPlayer)),
        _ => {}
    }
    let (eval, ply) = net_player(spec, shipped, PlayerError::Unknown)?;
    Ok(Box::new(NetPlayer {
        eval: Arc::new(eval),
        ply,
    }))
}

/// The network and ply of a player with the cube (`net`, `net@1`,
/// `net:PATH`, `net:PATH@2`); `shipped` supplies the default network.
pub fn parse_cubeful_player(
    spec: &str,
    shipped: impl FnOnce() -> Result<Model, ModelError>,
) -> Result<(Evaluator, u8), PlayerError> {
    net_player(spec, shipped, PlayerError::CubeNeedsNet)
}

/// The network and ply `net[:PATH][@PLY]` names; a spec that is not a
/// network is refused with `not_net`.
fn net_player(
    spec: &str,
    shipped: impl FnOnce() -> Result<Model, ModelError>,
    not_net: fn(String) -> PlayerError,
) -> Result<(Evaluator, u8), PlayerError> {
    let (path, ply) = match net_spec(spec, 3) {
        Ok(parsed) => parsed,
        Err(NetSpecError::NotNet) => return Err(not_net(spec.into())),
        Err(NetSpecError::Ply) => return Err(PlayerError::Ply(spec.into())),
    };
    let model = match path {
        None => shipped()?,
        Some(p) => Model::load(Path::new(p))?,
    };
    Ok((Evaluator::new(model), ply))
}

/// Why a player description is not `net[:PATH][@PLY]`.
pub(crate) enum NetSpecError {
    NotNet,
    Ply,
}

/// Splits `net`, `net@1`, `net:PATH`, `net:PATH@2` into the model path
/// (`None`: the shipped network) and the ply (at most `max_ply`).
pub(crate) fn net_spec(spec: &str, max_ply: u8) -> Result<(Option<&str>, u8), NetSpecError> {
    let rest = spec.strip_prefix("net").ok_or(NetSpecError::NotNet)?;
    let (rest, ply) = match rest.rsplit_once('@') {
        Some((r, p)) => match p.parse::<u8>() {
            Ok(n) if n <= max_ply => (r, n),
            _ => return Err(NetSpecError::Ply),
        },
        None => (rest, 0),
    };
    match rest {
        "" => Ok((None, ply)),
        path if path.starts_with(':') && path.len() > 1 => Ok((Some(&path[1..]), ply)),
        _ => Err(NetSpecError::NotNet),
    }
}
