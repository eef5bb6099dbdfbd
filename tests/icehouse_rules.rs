//! The test scenarios IT1–IT16 of `docs/rules/icehouse-kotra.md` §10.

use kotra::icehouse::board::parse_square;
use kotra::icehouse::play::play_game;
use kotra::icehouse::turns::{Play, first_player};
use kotra::icehouse::{Position, Seat, Turn, legal_turns, parse_position, position_text};

fn pos(text: &str) -> Position {
    parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn turns(text: &str, d1: u8, d2: u8) -> Vec<Turn> {
    legal_turns(&pos(text), d1, d2)
}

fn texts(list: &[Turn]) -> Vec<String> {
    list.iter().map(Turn::text).collect()
}

fn lost(list: &[Turn]) -> bool {
    list.len() == 1 && list[0].plays.is_empty()
}

fn sq(name: &str) -> u8 {
    parse_square(name).unwrap() as u8
}

#[test]
fn it01_enter_a_pawn_and_a_queen() {
    let list = turns("start", 1, 3);
    assert_eq!(list.len(), 56, "{:?}", texts(&list));
    for t in &list {
        assert!(t.plays.iter().all(|(_, p)| matches!(p, Play::Enter { .. })));
    }
}

#[test]
fn it02_double_four_enters_two_or_enters_and_moves() {
    let list = turns("start", 4, 4);
    assert_eq!(list.len(), 276);
    let moved = list
        .iter()
        .filter(|t| t.plays.iter().any(|(_, p)| matches!(p, Play::Move { .. })))
        .count();
    assert_eq!(moved, 24);
}

const FULL_ROW: &str = "S: Pa1 Pb1 Dc1 Dd1 Qe1 Qf1 Pg1 Ph1 stash=1,3,3; N: ; S";

#[test]
fn it03_vacate_a_square_then_enter_there() {
    let list = turns(FULL_ROW, 2, 3);
    assert_eq!(list.len(), 11, "{:?}", texts(&list));
    for t in &list {
        assert!(t.plays.iter().any(|(_, p)| matches!(p, Play::Enter { .. })));
    }
}

#[test]
fn it04_entry_is_needed_even_when_moves_exist() {
    let list = turns(
        "S: Pa1 Pb1 Dc1 Dd1 Qe1 Qf1 Pg1 Ph1 stash=1,3,3; N: Pc5; S",
        3,
        3,
    );
    assert_eq!(list.len(), 5, "{:?}", texts(&list));
}

#[test]
fn it05_no_possible_entry_loses_the_turn() {
    assert!(lost(&turns("S: Pa2 Dc3 stash=0,0,1; N: ; S", 1, 2)));
}

const BLOCKED_ROW: &str = "S: Ph1 stash=4,5,5; N: Pa1 Pb1 Pc1 Pd1 Pe1 Pf1 Pg1; S";

#[test]
fn it06_it07_entry_never_hits() {
    assert!(lost(&turns(BLOCKED_ROW, 2, 3)));
    let list = turns(BLOCKED_ROW, 1, 3);
    assert_eq!(list.len(), 2, "{:?}", texts(&list));
    for t in &list {
        assert_eq!(t.position.cells[sq("h1") as usize].size(), 3);
    }
}

#[test]
fn it08_pieces_jump_and_hit() {
    let list = turns("S: Dd3 Pd4 Pe5 Qc4; N: Pd5 Df7; S", 2, 3);
    assert_eq!(list.len(), 6, "{:?}", texts(&list));
    let hits: usize = list
        .iter()
        .map(|t| {
            t.plays
                .iter()
                .filter(|(_, p)| matches!(p, Play::Move { hit: true, .. }))
                .count()
        })
        .sum();
    // d3xd5 appears with each of the 2 queen moves; c4xf7 with each of the 3 drone moves.
    assert_eq!(hits, 5);
    let t = list
        .iter()
        .find(|t| t.text().contains("Dd3xd5") && t.text().contains("Qc4xf7"))
        .unwrap();
    assert_eq!(t.position.stash[Seat::North.index()], [1, 1, 0]);
}

const SCORE: &str = "S: Db7 Qe7 stash=0,1,0; N: ; S";

#[test]
fn it09_a_waiting_drone_blocks_drone_scoring() {
    let list = turns(SCORE, 3, 2);
    assert_eq!(list.len(), 8, "{:?}", texts(&list));
    for t in &list {
        assert_eq!(t.position.points(Seat::South), 1);
        assert_eq!(t.position.cells[sq("b7") as usize].size(), 2);
    }
}

#[test]
fn it10_scoring_is_checked_when_it_is_played() {
    let list = turns(SCORE, 4, 2);
    assert_eq!(list.len(), 24, "{:?}", texts(&list));
    let scored_b7: Vec<&Turn> = list
        .iter()
        .filter(|t| {
            t.plays.iter().any(|(_, p)| {
                *p == Play::Score {
                    size: 2,
                    from: sq("b7"),
                }
            })
        })
        .collect();
    assert!(!scored_b7.is_empty());
    for t in scored_b7 {
        assert!(matches!(t.plays[0].1, Play::Enter { .. }), "{}", t.text());
    }
}

const ENDING: &str = "S: Ph8 Qa4 scored=0,0,2; N: Qb2 scored=0,0,3; S";

#[test]
fn it11_the_ender_wins_a_tie() {
    let list = turns(ENDING, 1, 3);
    assert_eq!(list.len(), 3, "{:?}", texts(&list));
    for t in &list {
        let o = t.position.outcome().expect("every turn ends the game");
        assert!(o.is_winner(Seat::South) && !o.is_winner(Seat::North));
        assert_eq!(t.position.points(Seat::South), 3);
    }
}

#[test]
fn it12_a_forced_score_can_lose() {
    let list = turns("S: Ph8 Qa4 scored=0,0,1; N: Qb2 scored=0,0,3; S", 1, 1);
    assert_eq!(list.len(), 1, "{:?}", texts(&list));
    let o = list[0].position.outcome().unwrap();
    assert!(o.is_winner(Seat::North));
}

#[test]
fn it13_all_of_one_size_ends_the_game() {
    let list = turns("S: Qc7 scored=0,0,4; N: Qf2 scored=0,3,3; S", 3, 3);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].plays.len(), 1, "the second 3 is void");
    let o = list[0].position.outcome().unwrap();
    assert_eq!((o.ended_by, o.is_winner(Seat::North)), (Seat::South, true));
}

#[test]
fn it14_north_moves_down_the_board() {
    let list = turns("S: ; N: Qd2 Dg6; N", 4, 2);
    assert_eq!(list.len(), 5, "{:?}", texts(&list));
}

#[test]
fn it15_enter_then_score_or_move() {
    let list = turns("S: Db7 stash=0,1,0; N: ; S", 2, 2);
    assert_eq!(list.len(), 16, "{:?}", texts(&list));
    let scored = list
        .iter()
        .filter(|t| t.position.points(Seat::South) == 1)
        .count();
    assert_eq!(scored, 8);
    for t in &list {
        assert!(matches!(t.plays[0].1, Play::Enter { .. }));
    }
}

#[test]
fn it16_corners_belong_to_two_seats() {
    let four = "S: stash=1,0,0; W: Pa4 stash=1,0,0; N: ; E: ; S";
    let south = turns(four, 1, 3);
    assert!(
        south
            .iter()
            .any(|t| t.position.cells[0].seat() == Some(Seat::South))
    );
    let mut west = pos(four);
    west.to_move = Seat::West;
    let list = legal_turns(&west, 1, 3);
    assert!(
        list.iter()
            .any(|t| t.position.cells[0].seat() == Some(Seat::West))
    );
    let targets: std::collections::BTreeSet<String> = kotra::icehouse::turns::plays_for(&west, 1)
        .into_iter()
        .filter_map(|p| match p {
            Play::Move { from, to, .. } if from == sq("a4") => {
                Some(kotra::icehouse::board::square_name(to as usize))
            }
            _ => None,
        })
        .collect();
    assert_eq!(targets, ["b3", "b4", "b5"].map(String::from).into());
}

#[test]
fn notation_round_trips_and_rejects_bad_input() {
    for text in [FULL_ROW, BLOCKED_ROW, ENDING, "start", "start4", SCORE] {
        let p = pos(text);
        assert_eq!(pos(&position_text(&p)), p, "{text}");
    }
    for bad in [
        "S: Pa1; S",
        "S: Pa1; N: Pa1; S",
        "S: Xa1; N: ; S",
        "S: Pa9; N: ; S",
        "S: ; W: ; S",
        "S: ; N: ; W",
        "S: stash=6,0,0; N: ; S",
        "S: scored=0,0,9; N: ; S",
        "S: stash=1,2; N: ; S",
    ] {
        assert!(parse_position(bad).is_err(), "{bad}");
    }
}

#[test]
fn first_player_has_the_highest_total() {
    // 8 against 8 is rolled again; then 2 against 5.
    let mut rolls = vec![(4u8, 4u8), (4, 4), (1, 1), (2, 3)].into_iter();
    let seat = first_player(&[Seat::South, Seat::North], || rolls.next().unwrap());
    assert_eq!(seat, Seat::North);
    assert_eq!(rolls.next(), None);
}

#[test]
fn random_games_end_and_conserve_pieces() {
    use rand::{RngExt, SeedableRng, rngs::SmallRng};
    for players in [2u8, 4] {
        let mut ended = 0;
        for g in 0..100u64 {
            let mut rng = SmallRng::seed_from_u64(g);
            let mut dice_rng = SmallRng::seed_from_u64(g ^ 0xabc);
            let mut dice = || {
                (
                    dice_rng.random_range(1..=4u8),
                    dice_rng.random_range(1..=4u8),
                )
            };
            let (last, _) = play_game(players, &mut dice, &mut |p, list| {
                assert!(p.is_consistent(), "{}", position_text(p));
                rng.random_range(0..list.len())
            });
            if let Some(o) = last.outcome() {
                ended += 1;
                assert!(o.winners != 0);
            }
        }
        assert!(ended >= 95, "{players} players: {ended} of 100 ended");
    }
}
