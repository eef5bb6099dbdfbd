//! Icelandic Kotra as a [`Game`]: network inputs and outputs, results,
//! and the greedy heuristic player.
//!
//! The network predicts the distribution over the win types: outputs 0–8
//! are the chances that the side to move wins by each kind below, 9–17 the
//! same for the other side, 18 and 19 the chances of a win with Mar for
//! each. Equity is the expected points: each kind's value times its chance
//! (the 18 chances normalised to sum to one), plus 2 per Mar.

use super::outcome::WinKind;
use super::play::{Options, play_from, play_game};
use super::position::{POINTS, Position, Side, other_track};
use super::turns::{Turn, legal_turns};
use crate::game::{After, Ended, Game, best_by};

/// Win classes in output order; Jan and Stór jan are worth the same and
/// share a class.
pub const CLASSES: [(&str, f32); 9] = [
    ("uttekt", 2.0),
    ("jan", 15.0),
    ("meistari", 13.0),
    ("stutti_munkur", 7.0),
    ("langi_munkur", 5.0),
    ("half_stutti_munkur", 3.5),
    ("half_langi_munkur", 2.5),
    ("langi_hryggur", 3.0),
    ("litill_meistari", 3.0),
];

/// Network inputs: per point 4 units for each side, 6 per side for bar,
/// off and the rule flags, and both pip counts.
pub const INPUTS: usize = POINTS * 8 + 12 + 2;
/// Network outputs (see the module comment).
pub const OUTPUTS: usize = 20;
const MAR: u16 = 1 << 8;

/// The output class of a win kind.
pub fn class_of(kind: WinKind) -> usize {
    match kind {
        WinKind::Uttekt => 0,
        WinKind::Jan | WinKind::StorJan => 1,
        WinKind::Meistari => 2,
        WinKind::StuttiMunkur => 3,
        WinKind::LangiMunkur => 4,
        WinKind::HalfStuttiMunkur => 5,
        WinKind::HalfLangiMunkur => 6,
        WinKind::LangiHryggur => 7,
        WinKind::LitillMeistari => 8,
    }
}

/// The game with its optional rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct IcelandicKotra {
    pub options: Options,
}

static ROLLS: std::sync::LazyLock<Vec<((u8, u8), u32)>> =
    std::sync::LazyLock::new(|| crate::game::distinct_rolls(6));

fn opening(dice: &mut dyn FnMut() -> (u8, u8)) -> bool {
    loop {
        let (w, b) = dice();
        if w != b {
            return w > b;
        }
    }
}

fn encode_side(side: &Side, points: impl Fn(usize) -> u8, out: &mut [f32]) {
    for t in 1..=POINTS {
        let n = points(t) as f32;
        let o = &mut out[(t - 1) * 4..t * 4];
        o[0] = (n >= 1.0) as u8 as f32;
        o[1] = (n >= 2.0) as u8 as f32;
        o[2] = (n >= 3.0) as u8 as f32;
        o[3] = if n > 3.0 { (n - 3.0) / 4.0 } else { 0.0 };
    }
    let tail = &mut out[POINTS * 4..];
    tail[0] = side.bar as f32 / 4.0;
    tail[1] = side.off as f32 / 15.0;
    tail[2] = side.first_turn as u8 as f32;
    tail[3] = side.unlocked as u8 as f32;
    tail[4] = side.five_out as u8 as f32;
    tail[5] = side.group as u8 as f32;
}

/// Blots of the mover that an opposing stone stands 1 to 6 pips behind.
fn exposed_blots(pos: &Position) -> u32 {
    (2..=POINTS)
        .filter(|&t| pos.mover.at(t) == 1)
        .filter(|&t| {
            let u = other_track(t);
            (1..=6).any(|d| u > d && pos.other.at(u - d) > 0)
        })
        .count() as u32
}

/// Entry points open to the mover should he be hit.
fn own_entries(pos: &Position) -> u32 {
    (1..=6)
        .filter(|&t| pos.mover.at(t) == 0 && pos.other_at(t) <= 1)
        .count() as u32
}

/// Points of two or more the mover holds in the other side's entry
/// quarter (the mover's tracks 13–18).
fn entry_blocks(pos: &Position) -> u32 {
    (13..=18).filter(|&t| pos.mover.at(t) >= 2).count() as u32
}

impl Game for IcelandicKotra {
    type State = Position;
    type Turn = Turn;

    fn name(&self) -> &'static str {
        "icelandic-kotra"
    }

    fn rolls(&self) -> &'static [((u8, u8), u32)] {
        &ROLLS
    }

    fn die_faces(&self) -> u8 {
        6
    }

    fn start(&self, dice: &mut dyn FnMut() -> (u8, u8)) -> Position {
        let mut p = Position::starting();
        p.white_to_move = opening(dice);
        p
    }

    fn seat(&self, state: &Position) -> usize {
        if state.white_to_move { 0 } else { 1 }
    }

    fn turns(&self, state: &Position, (d1, d2): (u8, u8)) -> Vec<Turn> {
        legal_turns(state, d1, d2, self.options.turn_rules())
    }

    fn after(&self, _state: &Position, turn: &Turn) -> After<Position> {
        match turn.win {
            Some(win) => After::Ended(Ended {
                points: win.points(),
                class: class_of(win.kind) as u16 | if win.mar { MAR } else { 0 },
            }),
            None => After::Next(turn.position.swapped()),
        }
    }

    fn turn_text(&self, state: &Position, turn: &Turn) -> String {
        turn.text(state.white_to_move)
    }

    fn state_text(&self, state: &Position) -> String {
        super::notation::position_text(state)
    }

    fn play(
        &self,
        dice: &mut dyn FnMut() -> (u8, u8),
        choose: &mut crate::game::Chooser<'_, Self>,
    ) -> f32 {
        let white_starts = opening(dice);
        play_game(&self.options, white_starts, dice, choose).white_net()
    }

    /// A position does not record who took the game's first turn, which
    /// only the equalizing throw (§8.2) asks: from a position the side to
    /// move counts as the first player (the command line refuses rollouts
    /// with that option rather than guess).
    fn play_on(
        &self,
        pos: Position,
        dice: &mut dyn FnMut() -> (u8, u8),
        choose: &mut crate::game::Chooser<'_, Self>,
    ) -> f32 {
        let white = pos.white_to_move;
        let net = play_from(&self.options, pos, white, dice, choose).white_net();
        if white { net } else { -net }
    }

    fn inputs(&self) -> usize {
        INPUTS
    }

    fn outputs(&self) -> usize {
        OUTPUTS
    }

    fn encode(&self, pos: &Position, out: &mut [f32]) {
        let half = POINTS * 4 + 6;
        encode_side(&pos.mover, |t| pos.mover.at(t), &mut out[..half]);
        encode_side(&pos.other, |t| pos.other_at(t), &mut out[half..2 * half]);
        out[2 * half] = pos.mover.pips() as f32 / 200.0;
        out[2 * half + 1] = pos.other.pips() as f32 / 200.0;
    }

    fn equity(&self, y: &[f32]) -> f32 {
        let total: f32 = y[..18].iter().sum();
        if total < 1e-6 {
            return 0.0;
        }
        let mut e = 0.0;
        for (k, &(_, v)) in CLASSES.iter().enumerate() {
            e += (y[k] - y[9 + k]) * v;
        }
        e / total + 2.0 * (y[18] - y[19])
    }

    /// Normalised over the win types as [`win_type_chances`] is.
    fn win_loss(&self, y: &[f32]) -> (f32, f32) {
        let total = win_type_total(y);
        (
            y[..9].iter().sum::<f32>() / total,
            y[9..18].iter().sum::<f32>() / total,
        )
    }

    /// The win types' chances summed to one, as [`Game::equity`] and
    /// [`win_type_chances`] read them.
    fn normalise(&self, y: &mut [f32]) {
        let total: f32 = y[..18].iter().sum();
        if total >= 1e-6 {
            y[..18].iter_mut().for_each(|v| *v /= total);
        }
    }

    fn flip(&self, y: &mut [f32]) {
        for k in 0..9 {
            y.swap(k, 9 + k);
        }
        y.swap(18, 19);
    }

    fn target(&self, end: &Ended, out: &mut [f32]) {
        out.fill(0.0);
        out[(end.class & 0xff) as usize] = 1.0;
        if end.class & MAR != 0 {
            out[18] = 1.0;
        }
    }

    fn draw_target(&self, out: &mut [f32]) {
        out.fill(0.0);
    }

    /// Greedy on one turn: a win, the biggest first; otherwise the race
    /// (the other side's pips minus ours, so a hit counts what it costs
    /// him), 8 per opposing stone on the bar (each threatens a jan), 2 per
    /// point we hold in his entry quarter, 3 each for rules 3 and 4
    /// opened, and per blot of ours that an opposing stone stands 1–6 pips
    /// behind a penalty of 4, or 10 when we have at most one entry point
    /// of our own left.
    fn heuristic(&self, _state: &Position, turns: &[Turn]) -> usize {
        let score = |t: &Turn| -> f32 {
            if let Some(w) = t.win {
                return 1000.0 + w.points();
            }
            let p = &t.position;
            let risk = if own_entries(p) <= 1 { 10.0 } else { 4.0 };
            p.other.pips() as f32 - p.mover.pips() as f32
                + 8.0 * p.other.bar as f32
                + 2.0 * entry_blocks(p) as f32
                + 3.0 * (p.mover.unlocked as u8 + p.mover.five_out as u8) as f32
                - risk * exposed_blots(p) as f32
        };
        best_by(turns, score)
    }
}

/// The sum of the 18 win-type outputs, which the chances are normalised
/// by (never zero).
fn win_type_total(y: &[f32]) -> f32 {
    y[..18].iter().sum::<f32>().max(1e-6)
}

/// The network's chances by win type: `win <kind>` for the side to move,
/// `lose <kind>` for the other side (normalised to sum to one), then the
/// chances of a win with Mar for each side.
pub fn win_type_chances(y: &[f32]) -> Vec<(String, f32)> {
    let total = win_type_total(y);
    let mut out = Vec::with_capacity(OUTPUTS);
    for (k, (name, _)) in CLASSES.iter().enumerate() {
        out.push((format!("win {name}"), y[k] / total));
    }
    for (k, (name, _)) in CLASSES.iter().enumerate() {
        out.push((format!("lose {name}"), y[9 + k] / total));
    }
    out.push(("win with mar".into(), y[18]));
    out.push(("lose with mar".into(), y[19]));
    out
}
