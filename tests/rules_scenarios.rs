//! Scenarios B1–B19 of `docs/rules/backgammon.md` §15. Positions are written as in the
//! rules file: mover's numbering, `point:count`, bar = 25.

use kotra::backgammon::cube::{Answer, Cube, CubeError, CubeRules};
use kotra::backgammon::{
    CubeOwner, Dice, GameError, GameResult, GameState, MoveList, Outcome, Phase, Position,
    legal_moves,
};
use kotra::notation::move_text;

fn pos(me: &[(usize, u8)], opp: &[(usize, u8)]) -> Position {
    let mut mover = [0u8; 25];
    let mut other = [0u8; 25];
    for &(p, n) in me {
        mover[p - 1] = n;
    }
    for &(p, n) in opp {
        // The opponent's own point for the mover's point p is 25 - p.
        if p == 0 {
            other[24] = n;
        } else {
            other[25 - p - 1] = n;
        }
    }
    Position::from_sides(&mover, &other).unwrap()
}

fn moves(p: &Position, a: u8, b: u8) -> Vec<String> {
    let mut list = MoveList::new();
    legal_moves(p, Dice::new(a, b).unwrap(), &mut list);
    if list.is_forfeit() {
        return vec![];
    }
    let mut v: Vec<String> = list.iter().map(|c| move_text::format(p, &c.play)).collect();
    v.sort();
    v
}

#[test]
fn b1_opening_31_uses_both_dice() {
    let p = Position::starting();
    let mut list = MoveList::new();
    legal_moves(&p, Dice::new(3, 1).unwrap(), &mut list);
    assert!(list.iter().all(|c| c.play.pips_moved() == 4));
    assert!(moves(&p, 3, 1).contains(&"8/5 6/5".to_string()));
    // The opening roll is played by the player with the higher die, at once.
    let mut g = GameState::new(CubeRules::default(), true, false);
    assert!(g.opening_roll(3, 1).unwrap());
    assert_eq!(g.on_roll, 0);
    assert_eq!(g.phase(), Phase::ToMove(Dice::new(3, 1).unwrap()));
}

#[test]
fn b2_higher_die_when_only_one_can_be_played() {
    let p = pos(&[(13, 1), (1, 14)], &[(2, 2), (24, 13)]);
    assert_eq!(moves(&p, 6, 5), vec!["13/7"]);
}

#[test]
fn b3_lower_die_when_the_higher_cannot_be_played() {
    let p = pos(&[(13, 1), (1, 14)], &[(7, 2), (2, 2), (24, 11)]);
    assert_eq!(moves(&p, 6, 5), vec!["13/8"]);
}

#[test]
fn b4_doubles_play_as_many_as_possible() {
    let p = pos(&[(13, 1), (1, 14)], &[(5, 2), (24, 13)]);
    assert_eq!(moves(&p, 4, 4), vec!["13/9"]);
}

#[test]
fn b5_partial_entry_forfeits_the_rest() {
    let p = pos(&[(25, 2), (13, 5), (8, 3), (6, 5)], &[(19, 2), (24, 13)]);
    assert_eq!(moves(&p, 6, 4), vec!["bar/21"]);
}

#[test]
fn b6_after_entering_the_other_die_must_be_played() {
    let p = pos(&[(25, 1), (13, 5), (8, 3), (6, 5)], &[(19, 2), (24, 13)]);
    let m = moves(&p, 6, 4);
    assert!(m.contains(&"bar/21 13/7".to_string()), "{m:?}");
    assert!(m.contains(&"bar/15".to_string()), "{m:?}");
    let mut list = MoveList::new();
    legal_moves(&p, Dice::new(6, 4).unwrap(), &mut list);
    for c in &list {
        assert_eq!(c.play.steps().len(), 2);
        assert_eq!(c.play.steps().next().map(|s| s.from), Some(25));
        assert_eq!(c.play.pips_moved(), 10);
    }
}

#[test]
fn b7_no_legal_move_forfeits_the_turn() {
    let p = pos(&[(13, 1), (1, 14)], &[(7, 2), (8, 2), (24, 11)]);
    let mut list = MoveList::new();
    legal_moves(&p, Dice::new(6, 5).unwrap(), &mut list);
    assert!(list.is_forfeit());
    assert_eq!(list.as_slice()[0].position, p);
}

#[test]
fn b8_bear_off_only_from_the_highest_point() {
    let p = pos(&[(5, 1), (4, 2), (2, 12)], &[(24, 15)]);
    assert_eq!(moves(&p, 6, 3), vec!["5/2 4/off", "5/off 4/1"]);
}

#[test]
fn b9_last_checker_off_ends_the_game() {
    let p = pos(&[(2, 1)], &[(24, 15)]);
    assert_eq!(moves(&p, 6, 5), vec!["2/off"]);
    let mut list = MoveList::new();
    legal_moves(&p, Dice::new(6, 5).unwrap(), &mut list);
    let after = list.as_slice()[0].position;
    // The loser still has all 15 on his own 1-point: a gammon, not a backgammon.
    assert_eq!(GameResult::of_mover_win(&after), Some(GameResult::Gammon));
}

#[test]
fn b10_bearing_off_is_not_forced() {
    let p = pos(&[(5, 1), (3, 1), (1, 13)], &[(24, 15)]);
    let m = moves(&p, 3, 1);
    assert_eq!(m.len(), 5, "{m:?}");
    assert!(m.contains(&"5/2 3/2".to_string()), "{m:?}");
    assert!(
        m.contains(&"5/1".to_string()),
        "5/4/1 is written 5/1: {m:?}"
    );
}

/// A finished game: the winner (mover) has no checkers left; `loser` is in
/// the winner's numbering.
fn finished(loser: &[(usize, u8)]) -> Position {
    pos(&[], loser)
}

/// A cube of 4 that was offered and taken this game.
fn cube_of_4() -> Cube {
    Cube {
        value: 4,
        owner: CubeOwner::Player(1),
        offered_this_game: true,
        ..Cube::default()
    }
}

#[test]
fn b11_backgammon_with_cube_4_is_12_points() {
    let p = finished(&[(3, 1), (20, 14)]);
    let r = GameResult::of_mover_win(&p).unwrap();
    assert_eq!(r, GameResult::Backgammon);
    assert_eq!(cube_of_4().points(r, false), 12);
}

#[test]
fn b12_gammon_with_cube_4_is_8_points() {
    let p = finished(&[(7, 1), (20, 14)]);
    let r = GameResult::of_mover_win(&p).unwrap();
    assert_eq!(r, GameResult::Gammon);
    assert_eq!(cube_of_4().points(r, false), 8);
}

#[test]
fn b13_jacoby_counts_a_gammon_single_after_automatic_doubles() {
    let rules = CubeRules {
        jacoby: true,
        automatic_doubles: true,
        ..CubeRules::default()
    };
    let mut g = GameState::new(rules, true, false);
    assert!(!g.opening_roll(2, 2).unwrap());
    assert_eq!(g.cube.value, 2);
    assert!(!g.cube.offered_this_game);
    assert_eq!(g.cube.points(GameResult::Gammon, true), 2);
}

#[test]
fn b14_jacoby_off_once_a_double_was_offered() {
    let mut cube = Cube::default();
    cube.offer(0, false, false).unwrap();
    assert_eq!(cube.take(1).unwrap(), Answer::Accepted);
    assert_eq!((cube.value, cube.owner), (2, CubeOwner::Player(1)));
    assert_eq!(cube.points(GameResult::Gammon, true), 4);
}

#[test]
fn b15_refused_redouble_loses_the_old_value() {
    let mut cube = Cube {
        value: 4,
        owner: CubeOwner::Player(0),
        offered_this_game: true,
        ..Cube::default()
    };
    cube.offer(0, false, false).unwrap();
    assert_eq!(
        cube.pass(1).unwrap(),
        Answer::Refused {
            winner: 0,
            points: 4
        }
    );
}

#[test]
fn b16_refused_beaver_loses_twice_the_old_value() {
    let rules = CubeRules {
        beavers: true,
        ..CubeRules::default()
    };
    let mut cube = Cube::default();
    cube.offer(0, false, false).unwrap();
    cube.beaver(1, &rules).unwrap();
    assert_eq!((cube.value, cube.owner), (4, CubeOwner::Player(1)));
    assert_eq!(
        cube.pass(0).unwrap(),
        Answer::Refused {
            winner: 1,
            points: 2
        }
    );
}

#[test]
fn b17_accepted_beaver_leaves_cube_4_with_the_beaverer() {
    let rules = CubeRules {
        beavers: true,
        ..CubeRules::default()
    };
    let mut g = GameState::new(rules, true, false);
    g.opening_roll(4, 1).unwrap();
    let mut list = MoveList::new();
    g.legal_moves(&mut list).unwrap();
    let first = list.as_slice()[0].position;
    g.play(&first).unwrap(); // player 0 moved; player 1 to roll
    assert_eq!(g.on_roll, 1);
    g.double().unwrap(); // player 1 doubles
    g.beaver().unwrap(); // player 0 beavers
    assert_eq!(
        g.beaver(),
        Err(GameError::Cube(CubeError::NoBeaver)),
        "no raccoons"
    );
    g.take().unwrap(); // player 1 accepts
    assert_eq!((g.cube.value, g.cube.owner), (4, CubeOwner::Player(0)));
    assert_eq!(g.phase(), Phase::ToRoll);
    assert_eq!(g.on_roll, 1, "the original doubler now rolls");
    assert_eq!(
        g.double(),
        Err(GameError::Cube(CubeError::NoAccess(1))),
        "only the beaverer may redouble"
    );
}

#[test]
fn b18_automatic_doubles_stop_at_the_limit() {
    let rules = CubeRules {
        automatic_doubles: true,
        auto_double_limit: 1,
        ..CubeRules::default()
    };
    let mut g = GameState::new(rules, true, false);
    assert!(!g.opening_roll(4, 4).unwrap());
    assert_eq!((g.cube.value, g.cube.owner), (2, CubeOwner::Centered));
    assert!(!g.opening_roll(2, 2).unwrap());
    assert_eq!(g.cube.value, 2, "the second tie is simply rolled again");
    assert!(g.opening_roll(3, 5).unwrap());
    assert_eq!(g.on_roll, 1, "the player who rolled 5 starts");
    assert_eq!(g.phase(), Phase::ToMove(Dice::new(5, 3).unwrap()));
}

#[test]
fn b19_no_double_after_rolling() {
    let mut g = GameState::new(CubeRules::default(), true, false);
    g.opening_roll(6, 2).unwrap();
    assert_eq!(g.double(), Err(GameError::Cube(CubeError::AlreadyRolled)));
    let mut cube = Cube::default();
    assert_eq!(cube.offer(0, true, false), Err(CubeError::AlreadyRolled));
}

#[test]
fn a_whole_game_ends_with_a_scored_outcome() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    for _ in 0..50 {
        let mut g = GameState::new(CubeRules::default(), true, false);
        while !g
            .opening_roll(rng.random_range(1..=6), rng.random_range(1..=6))
            .unwrap()
        {}
        let mut list = MoveList::new();
        let mut turns = 0;
        loop {
            g.legal_moves(&mut list).unwrap();
            let pick = list.as_slice()[rng.random_range(0..list.len())].position;
            g.play(&pick).unwrap();
            turns += 1;
            if let Phase::Over(Outcome { points, result, .. }) = g.phase() {
                assert_eq!(points, result.points() as u64);
                break;
            }
            g.roll(Dice::new(rng.random_range(1..=6), rng.random_range(1..=6)).unwrap())
                .unwrap();
            assert!(turns < 2000);
        }
        assert_eq!(
            g.play(&Position::starting()),
            Err(GameError::WrongPhase(g.phase()))
        );
    }
}
