//! Whole games of Icelandic Kotra: the opening roll (§3), turns until a
//! win, and the optional endings of §8.1 (bonus throws) and §8.2 (the
//! equalizing throw). Dice and choices come from the caller, so duels can
//! mirror dice and tests can script them.

use super::outcome::{Win, WinKind};
use super::position::Position;
use super::turns::{Turn, TurnRules, legal_turns};

/// A game longer than this many turns is scored as a draw. Mutual blocks
/// under rules 3 and 4 can in principle stall a game; in self-play no game
/// has come near.
pub const MAX_TURNS: u32 = 3000;

/// The optional rules, all off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Lítill meistari (8 on track 24, 7 on track 23) wins 3.
    pub little_master: bool,
    /// §8.1: extra throws for a loser with nothing off (5, 7 or 13).
    pub bonus_throws: Option<u8>,
    /// §8.2: one more turn for the second player after an Úttekt.
    pub equalizing_throw: bool,
}

impl Options {
    pub fn turn_rules(&self) -> TurnRules {
        TurnRules {
            little_master: self.little_master,
            bonus_throws: false,
        }
    }
}

/// How a game ended, in half points for each colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub white_half_points: u32,
    pub black_half_points: u32,
    /// The winning turn's win; `None` for a draw.
    pub win: Option<Win>,
    pub winner_white: bool,
    /// The pattern the loser made in his bonus throws, if any.
    pub bonus: Option<WinKind>,
    pub turns: u32,
}

impl GameRecord {
    /// White's points minus Black's, in points.
    pub fn white_net(&self) -> f32 {
        (self.white_half_points as f32 - self.black_half_points as f32) / 2.0
    }
}

/// §8.3, several games in a row: after a win by Úttekt, Jan or Stór jan
/// its winner starts the next game without an opening roll (`Some(true)`
/// for White); after any other result, a draw included, the opening roll
/// decides (`None`).
pub fn next_game_starter(previous: &GameRecord) -> Option<bool> {
    match previous.win {
        Some(w) if w.kind == WinKind::Uttekt || w.kind.is_jan() => Some(previous.winner_white),
        _ => None,
    }
}

/// The opening roll: one die each, ties rolled again; the higher die
/// starts (the dice are not played). Returns whether White starts.
pub fn opening_roll(mut die: impl FnMut() -> u8) -> bool {
    loop {
        let (w, b) = (die(), die());
        if w != b {
            return w > b;
        }
    }
}

/// Plays a game from the start. `dice` yields each throw; `choose` picks
/// the index of a turn among the legal ones (never empty).
pub fn play_game(
    options: &Options,
    white_starts: bool,
    dice: &mut dyn FnMut() -> (u8, u8),
    choose: &mut dyn FnMut(&Position, &[Turn]) -> usize,
) -> GameRecord {
    let mut pos = Position::starting();
    if !white_starts {
        pos.white_to_move = false;
    }
    play_from(options, pos, white_starts, dice, choose)
}

/// Plays on from `pos`; `white_started` says who took the game's first
/// turn (it matters for the equalizing throw).
pub fn play_from(
    options: &Options,
    mut pos: Position,
    white_started: bool,
    dice: &mut dyn FnMut() -> (u8, u8),
    choose: &mut dyn FnMut(&Position, &[Turn]) -> usize,
) -> GameRecord {
    let rules = options.turn_rules();
    for turn_no in 1..=MAX_TURNS {
        let (d1, d2) = dice();
        let turns = legal_turns(&pos, d1, d2, rules);
        let chosen = &turns[choose(&pos, &turns).min(turns.len() - 1)];
        if let Some(win) = chosen.win {
            return settle(
                options,
                chosen.position,
                win,
                white_started,
                turn_no,
                dice,
                choose,
            );
        }
        pos = chosen.position.swapped();
    }
    GameRecord {
        white_half_points: 0,
        black_half_points: 0,
        win: None,
        winner_white: false,
        bonus: None,
        turns: MAX_TURNS,
    }
}

/// The end of a game won by the mover of `after`, with §8.2 and §8.1.
fn settle(
    options: &Options,
    after: Position,
    win: Win,
    white_started: bool,
    turns: u32,
    dice: &mut dyn FnMut() -> (u8, u8),
    choose: &mut dyn FnMut(&Position, &[Turn]) -> usize,
) -> GameRecord {
    let winner_white = after.white_to_move;
    let mut winner = win.half_points();
    let mut loser = 0;
    let mut record_win = Some(win);
    let mut bonus = None;
    if win.kind == WinKind::Uttekt {
        let loser_pos = after.swapped();
        if options.equalizing_throw
            && winner_white == white_started
            && equalizing_turn_draws(&loser_pos, options, dice(), choose)
        {
            winner = 4;
            loser = 4;
            record_win = None;
        } else if let Some(n) = options.bonus_throws
            && loser_pos.mover.off == 0
        {
            bonus = bonus_throws(&loser_pos, n, options, dice, choose);
            loser = bonus.map_or(0, WinKind::half_points);
        }
    }
    let (white_half_points, black_half_points) = if winner_white {
        (winner, loser)
    } else {
        (loser, winner)
    };
    GameRecord {
        white_half_points,
        black_half_points,
        win: record_win,
        winner_white,
        bonus,
        turns,
    }
}

/// §8.2: the second player's extra turn; true if it bears off all his
/// remaining stones (a draw).
pub fn equalizing_turn_draws(
    loser: &Position,
    options: &Options,
    (d1, d2): (u8, u8),
    choose: &mut dyn FnMut(&Position, &[Turn]) -> usize,
) -> bool {
    let turns = legal_turns(loser, d1, d2, options.turn_rules());
    let chosen = &turns[choose(loser, &turns).min(turns.len() - 1)];
    chosen.position.mover.off == 15
}

/// §8.1: the loser's `n` throws alone, without bearing off. The first
/// Langi munkur, Stutti munkur or Meistari ends them; its full value is
/// his score.
pub fn bonus_throws(
    loser: &Position,
    n: u8,
    options: &Options,
    dice: &mut dyn FnMut() -> (u8, u8),
    choose: &mut dyn FnMut(&Position, &[Turn]) -> usize,
) -> Option<WinKind> {
    let rules = TurnRules {
        little_master: options.little_master,
        bonus_throws: true,
    };
    let mut pos = *loser;
    for _ in 0..n {
        let (d1, d2) = dice();
        let turns = legal_turns(&pos, d1, d2, rules);
        let chosen = &turns[choose(&pos, &turns).min(turns.len() - 1)];
        if let Some(win) = chosen.win
            && !win.kind.is_jan()
        {
            return Some(win.kind);
        }
        pos = chosen.position;
    }
    None
}
