//! The FIBS client-protocol board line (`board:You:Opponent:...`), written
//! from the view of the player on roll: "You" play X (colour 1, direction
//! -1, home 0, bar 25), opponent checkers negative, the opponent's bar in
//! slot 0 and yours in slot 25, which is exactly our internal layout.

use crate::backgammon::{CubeOwner, Setup, Side};

pub fn encode(setup: &Setup) -> String {
    let p = &setup.position;
    let info = &setup.info;
    let me = info.on_roll as usize;
    let board: Vec<String> = p.raw().iter().map(|v| v.to_string()).collect();
    let (d0, d1) = (info.dice[0], info.dice[1]);
    let may_double = |who: usize| match info.cube_owner {
        CubeOwner::Centered => 1,
        CubeOwner::Player(o) => u8::from(o as usize == who),
    };
    let crawford_blocks = info.crawford as u8;
    let fields = [
        "You".to_string(),
        "Opponent".to_string(),
        info.match_length.to_string(),
        info.score[me].to_string(),
        info.score[1 - me].to_string(),
        board.join(":"),
        "1".into(), // turn: you (colour 1)
        d0.to_string(),
        d1.to_string(),
        "0".into(),
        "0".into(),
        info.cube_value.to_string(),
        (may_double(me) * (1 - crawford_blocks)).to_string(),
        (may_double(1 - me) * (1 - crawford_blocks)).to_string(),
        u8::from(info.doubled).to_string(),
        "1".into(),  // colour
        "-1".into(), // direction
        "0".into(),  // home
        "25".into(), // bar
        p.borne_off(Side::Mover).to_string(),
        p.borne_off(Side::Opponent).to_string(),
        p.mover_at(25).to_string(),
        p.opponent_at(0).to_string(),
        "0".into(), // can move: not computed here
        "0".into(),
        u8::from(info.crawford).to_string(),
        "0".into(),
    ];
    format!("board:{}", fields.join(":"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::gnubg_id;

    #[test]
    fn starting_board_line() {
        let s = gnubg_id::decode("4HPwATDgc/ABMA").unwrap();
        let line = encode(&s);
        assert!(
            line.starts_with(
                "board:You:Opponent:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
            ),
            "{line}"
        );
        assert_eq!(line.split(':').count(), 53);
    }
}
