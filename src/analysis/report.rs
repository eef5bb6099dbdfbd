//! The facade's reports: plain data for a front end to print, with the
//! JSON shapes `kotra-ai ... --json` documents (README, "Commands").
//! Values keep full precision; the JSON rounds them to six decimals.

use super::explain::{CubeExplanation, Explanation};
use crate::backgammon::Dice;
use crate::cube::{CubeDecision, CubeState};
use crate::eval::Probs;
use crate::rollout::{Estimate, RolloutResult, RolloutSettings};
use crate::search::{MoveFilter, OnePlyPass};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// `v` rounded to six decimals, as the JSON carries it.
fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

fn f32_6<S: Serializer>(v: &f32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(round6(f64::from(*v)))
}

fn probs_6<S: Serializer>(v: &[f32; 5], s: S) -> Result<S::Ok, S::Error> {
    v.map(|p| round6(f64::from(p))).serialize(s)
}

fn display<S: Serializer, T: std::fmt::Display>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

fn option_display<S: Serializer, T: std::fmt::Display>(
    v: &Option<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => s.collect_str(v),
        None => s.serialize_none(),
    }
}

fn option_6<S: Serializer>(v: &Option<f32>, s: S) -> Result<S::Ok, S::Error> {
    v.map(|x| round6(f64::from(x))).serialize(s)
}

fn option3_6<S: Serializer>(v: &Option<[f32; 3]>, s: S) -> Result<S::Ok, S::Error> {
    v.map(|a| a.map(|x| round6(f64::from(x)))).serialize(s)
}

/// The moves of a roll, best first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReport {
    pub ply: u8,
    #[serde(skip)]
    pub dice: Dice,
    /// Money play (equities per unit of the cube) or a match
    /// (money-normalised, with match winning chances).
    #[serde(skip)]
    pub money: bool,
    /// Empty when the roll is forfeited.
    pub moves: Vec<MoveLine>,
}

/// One legal move with its values for the mover.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveLine {
    #[serde(rename = "move")]
    pub text: String,
    /// After the move, from the mover's view.
    pub position_id: String,
    /// Cubeful equity per unit of the cube (money-normalised in a match),
    /// or cubeless equity for a cubeless search.
    #[serde(serialize_with = "f32_6")]
    pub equity: f32,
    /// `equity` less the best move's (0 for the best, negative below).
    #[serde(serialize_with = "f32_6")]
    pub diff: f32,
    #[serde(serialize_with = "f32_6")]
    pub cubeless_equity: f32,
    /// The ply it was last evaluated at (the filters stop most moves early).
    pub ply: u8,
    /// Win, win gammon, win backgammon, lose gammon, lose backgammon.
    #[serde(serialize_with = "probs_6")]
    pub probs: [f32; 5],
    /// Match winning chances after the move (matches only).
    #[serde(serialize_with = "option_6", skip_serializing_if = "Option::is_none")]
    pub mwc: Option<f32>,
    /// Why the best move is ranked above this one (the best: above the
    /// second), for the moves a front end asked to have explained.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Explanation>,
    /// The checker steps, from-to in the mover's numbering (25 the bar, 0
    /// off), in playing order (not in the JSON; the HTTP server's
    /// wildbg-style answers give them).
    #[serde(skip)]
    pub steps: Vec<(u8, u8)>,
}

/// Every legal move of a roll, in the move generator's order (empty when
/// the roll is forfeited).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegalMoves {
    pub moves: Vec<LegalMove>,
}

/// One legal move: how it is written, and the position after it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegalMove {
    #[serde(rename = "move")]
    pub text: String,
    /// After the move, from the mover's view.
    pub position_id: String,
}

/// A cube decision with the probabilities behind it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CubeReport {
    pub ply: u8,
    pub cube: CubeActions,
    #[serde(serialize_with = "f32_6")]
    pub cubeless_equity: f32,
    #[serde(serialize_with = "probs_6")]
    pub probs: [f32; 5],
    /// Match winning chances of the best action (`null` for money).
    #[serde(serialize_with = "option_6")]
    pub mwc: Option<f32>,
    /// No double, double/take, double/pass as match winning chances
    /// (matches only).
    #[serde(serialize_with = "option3_6", skip_serializing_if = "Option::is_none")]
    pub mwc_actions: Option<[f32; 3]>,
    /// Why the action follows, where a front end asked
    /// ([`super::Analyzer::explain_cube`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<CubeExplanation>,
    /// Whether the side on roll may double at all (not in the JSON).
    #[serde(skip)]
    pub may_double: bool,
    #[serde(skip)]
    pub decision: CubeDecision,
}

/// The three equities (the doubler's, per unit of the cube) and the
/// actions they call for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CubeActions {
    #[serde(serialize_with = "f32_6")]
    pub no_double: f32,
    #[serde(serialize_with = "f32_6")]
    pub double_take: f32,
    #[serde(serialize_with = "f32_6")]
    pub double_pass: f32,
    pub action: String,
    pub take: String,
}

impl CubeReport {
    pub fn new(ply: u8, d: CubeDecision, probs: Probs, state: &CubeState) -> CubeReport {
        let matchplay = !state.is_money();
        CubeReport {
            ply,
            cube: CubeActions {
                no_double: d.no_double,
                double_take: d.double_take,
                double_pass: d.double_pass,
                action: d.action.to_string(),
                take: d.take.to_string(),
            },
            cubeless_equity: probs.equity(),
            probs: probs.0,
            mwc: matchplay.then(|| state.denormalise(d.optimal())),
            mwc_actions: matchplay
                .then(|| [d.no_double, d.double_take, d.double_pass].map(|v| state.denormalise(v))),
            explanation: None,
            may_double: state.roller_may_double(),
            decision: d,
        }
    }
}

/// A mean and its standard error, six decimals in the JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate6(pub Estimate);

impl From<Estimate> for Estimate6 {
    fn from(e: Estimate) -> Estimate6 {
        Estimate6(e)
    }
}

impl Serialize for Estimate6 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("mean", &round6(self.0.mean))?;
        m.serialize_entry("se", &round6(self.0.se))?;
        m.end()
    }
}

/// One candidate move rolled out.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateRollout {
    pub text: String,
    /// After the move, from the mover's view.
    pub position_id: String,
    /// For the mover.
    pub result: RolloutResult,
}

impl CandidateRollout {
    /// What candidates are ranked by: cubeful equity if rolled out with
    /// the cube, else cubeless.
    pub fn key(&self) -> f64 {
        self.value().mean
    }

    /// The equity that ranks it.
    pub fn value(&self) -> Estimate {
        *self.result.cubeful.first().unwrap_or(&self.result.cubeless)
    }
}

impl Serialize for CandidateRollout {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let cubeful = self.result.cubeful.first();
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("move", &self.text)?;
        m.serialize_entry("position_id", &self.position_id)?;
        m.serialize_entry("equity", &Estimate6(self.result.cubeless))?;
        m.serialize_entry("probs", &self.result.probs.map(Estimate6))?;
        if let Some(c) = cubeful {
            m.serialize_entry("cubeful_equity", &Estimate6(*c))?;
        }
        m.end()
    }
}

/// The candidate moves of a roll rolled out, best first, with the
/// settings they were played with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MovesRollout {
    #[serde(serialize_with = "display")]
    pub dice: Dice,
    pub trials: u32,
    pub seed: u64,
    pub ply: u8,
    /// A searching play's move filter (ply 1 and deeper).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "option_display"
    )]
    pub move_filter: Option<MoveFilter>,
    /// A 2-ply play's 1-ply pass.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "option_display"
    )]
    pub middle_filter: Option<OnePlyPass>,
    pub moves: Vec<CandidateRollout>,
}

/// A position rolled out for the side on roll, with its cube decision.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionRollout {
    pub settings: RolloutSettings,
    pub result: RolloutResult,
    pub cube: Option<RolledCube>,
}

impl PositionRollout {
    pub(super) fn new(
        settings: &RolloutSettings,
        result: RolloutResult,
        cube: Option<RolledCube>,
    ) -> PositionRollout {
        PositionRollout {
            settings: *settings,
            result,
            cube,
        }
    }
}

/// A rollout's cube decision.
#[derive(Clone, Debug, PartialEq)]
pub enum RolledCube {
    /// Played inside the trials (money): no double and double/take rolled
    /// out over the same dice, double/pass exact.
    InTrials {
        no_double: Estimate6,
        double_take: Estimate6,
        double_pass: f32,
        action: String,
        take: String,
    },
    /// The cube model's decision on the rolled-out probabilities.
    FromProbs(CubeReport),
}

impl Serialize for RolledCube {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RolledCube::FromProbs(report) => report.cube.serialize(s),
            RolledCube::InTrials {
                no_double,
                double_take,
                double_pass,
                action,
                take,
            } => {
                let mut m = s.serialize_map(Some(5))?;
                m.serialize_entry("no_double", no_double)?;
                m.serialize_entry("double_take", double_take)?;
                m.serialize_entry("double_pass", &f64::from(*double_pass))?;
                m.serialize_entry("action", action)?;
                m.serialize_entry("take", take)?;
                m.end()
            }
        }
    }
}

impl Serialize for PositionRollout {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("trials", &self.settings.trials)?;
        m.serialize_entry("seed", &self.settings.seed)?;
        m.serialize_entry("ply", &self.settings.ply)?;
        if let Some(filter) = self.settings.searching_filter() {
            m.serialize_entry("move_filter", &filter.to_string())?;
        }
        if let Some(pass) = self.settings.one_ply_pass() {
            m.serialize_entry("middle_filter", &pass.to_string())?;
        }
        m.serialize_entry("equity", &Estimate6(self.result.cubeless))?;
        m.serialize_entry("probs", &self.result.probs.map(Estimate6))?;
        if let Some(c) = &self.cube {
            m.serialize_entry("cube", c)?;
        }
        m.end()
    }
}
