//! A readable board in the style of gnubg's `show board`: the player on roll
//! is X at the bottom, moving from 24 down to 1 in his own numbering.

use super::{gnubg_id, xgid};
use crate::backgammon::{CubeOwner, Setup, Side};

const ROWS: usize = 5;

/// One column of checkers as `ROWS` cells, the last showing a count when
/// more than `ROWS` checkers stand there.
fn cells(count: u8, mark: char) -> [String; ROWS] {
    let mut out: [String; ROWS] = Default::default();
    for (r, cell) in out.iter_mut().enumerate() {
        *cell = if (r as u8) < count {
            if r == ROWS - 1 && count as usize > ROWS {
                format!("{count:>2}")
            } else {
                format!(" {mark}")
            }
        } else {
            "  ".into()
        };
    }
    out
}

fn column(setup: &Setup, point: usize) -> [String; ROWS] {
    let p = &setup.position;
    if p.mover_at(point) > 0 {
        cells(p.mover_at(point), 'X')
    } else {
        cells(p.opponent_at(point), 'O')
    }
}

fn half(
    setup: &Setup,
    left: [usize; 6],
    right: [usize; 6],
    bar: u8,
    bar_mark: char,
    top: bool,
) -> Vec<String> {
    let l: Vec<_> = left.iter().map(|&pt| column(setup, pt)).collect();
    let r: Vec<_> = right.iter().map(|&pt| column(setup, pt)).collect();
    let b = cells(bar, bar_mark);
    (0..ROWS)
        .map(|row| {
            let k = if top { row } else { ROWS - 1 - row };
            let mut s = String::from(" |");
            for c in &l {
                s.push_str(&c[k]);
                s.push(' ');
            }
            s.push_str(&format!("|{}|", b[k].to_string() + " "));
            for c in &r {
                s.push_str(&c[k]);
                s.push(' ');
            }
            s.push('|');
            s
        })
        .collect()
}

/// The board with IDs, pip counts, who is on roll, cube and score.
pub fn render(setup: &Setup) -> String {
    let p = &setup.position;
    let info = &setup.info;
    let (my_pips, opp_pips) = p.pip_counts();
    let me = info.on_roll;
    let mut out = Vec::new();
    out.push(format!(" Position ID: {}", super::position_id::encode(p)));
    out.push(format!(" Match ID   : {}", info.encode()));
    out.push(format!(" gnubg ID   : {}", gnubg_id::encode(setup)));
    out.push(format!(" {}", xgid::encode(setup)));
    out.push(" +13-14-15-16-17-18------19-20-21-22-23-24-+".into());
    let top = half(
        setup,
        [13, 14, 15, 16, 17, 18],
        [19, 20, 21, 22, 23, 24],
        p.opponent_at(0),
        'O',
        true,
    );
    let bottom = half(
        setup,
        [12, 11, 10, 9, 8, 7],
        [6, 5, 4, 3, 2, 1],
        p.mover_at(25),
        'X',
        false,
    );
    let opp_line = format!(
        "O: player {}  pips {opp_pips}  off {}",
        1 - me,
        p.borne_off(Side::Opponent)
    );
    let my_line = format!(
        "X: player {me}  pips {my_pips}  off {}  (on roll)",
        p.borne_off(Side::Mover)
    );
    for (i, l) in top.into_iter().enumerate() {
        out.push(if i == 0 {
            format!("{l}     {opp_line}")
        } else {
            l
        });
    }
    let cube = match info.cube_owner {
        CubeOwner::Centered => format!("Cube: {} (centred)", info.cube_value),
        CubeOwner::Player(o) if o == me => format!("Cube: {} (X owns)", info.cube_value),
        CubeOwner::Player(_) => format!("Cube: {} (O owns)", info.cube_value),
    };
    out.push(format!(
        " |                  |BAR|                  |     {cube}"
    ));
    let n = bottom.len();
    for (i, l) in bottom.into_iter().enumerate() {
        out.push(if i + 1 == n {
            format!("{l}     {my_line}")
        } else {
            l
        });
    }
    out.push(" +12-11-10--9--8--7-------6--5--4--3--2--1-+".into());
    let finished = crate::backgammon::GameResult::of_finished(p);
    let dice = match (finished, info.rolled()) {
        (Some((mover, result)), _) => {
            let side = if mover { "X" } else { "O" };
            format!("Game over: {side} wins {}", result.words())
        }
        (None, Some(d)) => format!("X rolled {}{}", info.dice[0].max(info.dice[1]), d.low()),
        (None, None) if info.doubled => "O is asked to take or pass a double".into(),
        (None, None) => "X to roll (or double)".into(),
    };
    out.push(format!(" {dice}"));
    if info.is_money() {
        out.push(format!(
            " Money game{}",
            if info.jacoby { ", Jacoby rule" } else { "" }
        ));
    } else {
        out.push(format!(
            " Match to {}: X {} - O {}{}",
            info.match_length,
            info.score[me as usize],
            info.score[1 - me as usize],
            if info.crawford { ", Crawford game" } else { "" }
        ));
    }
    out.join("\n") + "\n"
}
