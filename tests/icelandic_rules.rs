//! The test scenarios T1–T39 of `docs/rules/icelandic-kotra.md` §10,
//! each as written there (positions in the file's own notation).

use kotra::icelandic::notation::stones_text;
use kotra::icelandic::play::{bonus_throws, next_game_starter, opening_roll, play_from};
use kotra::icelandic::turns::From;
use kotra::icelandic::{
    Options, Position, Turn, TurnRules, WinKind, legal_turns, parse_position, position_text,
};
use std::collections::BTreeSet;

fn pos(text: &str) -> Position {
    parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn turns(text: &str, d1: u8, d2: u8) -> Vec<Turn> {
    legal_turns(&pos(text), d1, d2, TurnRules::default())
}

/// "a10 c e" -> "a10 c1 e1", the form `stones_text` prints.
fn norm(stones: &str) -> String {
    stones
        .split_whitespace()
        .map(|t| {
            if t.len() == 1 {
                format!("{t}1")
            } else {
                t.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The mover's stones after each turn.
fn results(list: &[Turn]) -> BTreeSet<String> {
    list.iter()
        .map(|t| stones_text(&t.position.mover, t.position.white_to_move))
        .collect()
}

fn expect(list: &[Turn], expected: &[&str]) {
    let want: BTreeSet<String> = expected.iter().map(|s| norm(s)).collect();
    assert_eq!(results(list), want, "turns: {:?}", texts(list));
    assert_eq!(list.len(), expected.len());
}

fn texts(list: &[Turn]) -> Vec<String> {
    list.iter()
        .map(|t| t.text(t.position.white_to_move))
        .collect()
}

/// The turn whose steps, in the mover's letters, are exactly `steps` in
/// some order.
fn find<'a>(list: &'a [Turn], steps: &[&str]) -> Option<&'a Turn> {
    let want: BTreeSet<String> = steps.iter().map(|s| s.to_string()).collect();
    list.iter().find(|t| {
        let got: BTreeSet<String> = t
            .steps
            .iter()
            .map(|s| s.text(t.position.white_to_move).replace('*', ""))
            .collect();
        got == want && got.len() == t.steps.len()
    })
}

const START: &str = "W: a15 first; B: m15 first; W";

#[test]
fn t01_opening_roll_only_decides_who_starts() {
    let mut dice = [4u8, 2].into_iter();
    assert!(opening_roll(|| dice.next().unwrap()));
    assert_eq!(dice.next(), None, "the 4 and 2 are not played");
    let mut dice = [3u8, 3, 1, 5].into_iter();
    assert!(!opening_roll(|| dice.next().unwrap()), "3-3 rolls again");
}

#[test]
fn t02_first_throw_non_double() {
    expect(&turns(START, 3, 5), &["a13 d f", "a14 i"]);
}

#[test]
fn t03_t04_first_throw_doubles_move_one_stone() {
    expect(&turns(START, 2, 2), &["a14 i"]);
    expect(&turns(START, 1, 1), &["a14 e"]);
}

#[test]
fn t05_first_throw_six_six_makes_the_group() {
    let list = turns(START, 6, 6);
    expect(&list, &["a11 g4"]);
    assert!(list[0].position.mover.group);
}

#[test]
fn t06_t07_t08_first_throw_doubles_stop_at_rule_3() {
    expect(&turns(START, 5, 5), &["a14 k"]);
    expect(&turns(START, 3, 3), &["a14 j"]);
    expect(&turns(START, 4, 4), &["a14 i"]);
}

#[test]
fn t09_black_first_throw_cannot_cross() {
    expect(&turns("W: a13 d f; B: m15 first; B", 5, 5), &["m14 w"]);
}

#[test]
fn t10_the_fifth_stone_out_opens_the_crossing_mid_turn() {
    let list = turns("W: a11 c e h k; B: t8 u7; W", 6, 2);
    expect(
        &list,
        &[
            "a10 c e h i k",
            "a10 c e g j k",
            "a10 c e g h m",
            "a11 g h i k",
            "a11 e i j k",
        ],
    );
    assert!(find(&list, &["a-g(6)", "k-m(2)"]).is_some());
    for t in &list {
        let text = t.text(true);
        assert!(!text.contains("k-q") && !text.contains("h-n"), "{text}");
        assert!(!text.starts_with("k-m"), "k-m before a-g: {text}");
    }
}

#[test]
fn t11_no_stacking_before_the_twelfth_point() {
    expect(
        &turns("W: a12 c e g; B: m15; W", 2, 4),
        &["a12 e g i", "a12 c g k"],
    );
}

#[test]
fn t12_stacking_once_unlocked() {
    let list = turns("W: a12 c e g U; B: m15; W", 2, 4);
    assert_eq!(list.len(), 11, "{:?}", texts(&list));
    let r = results(&list);
    assert!(r.contains(&norm("a10 c2 e2 g")));
    assert!(r.contains(&norm("a12 g3")));
}

#[test]
fn t13_landing_on_l_unlocks_at_once() {
    let list = turns("W: a11 c e g j; B: m15; W", 2, 5);
    let r = results(&list);
    assert!(r.contains(&norm("a10 c2 e j l")), "{r:?}");
    assert!(r.contains(&norm("a11 c e l2")), "{r:?}");
    for t in &list {
        let s = stones_text(&t.position.mover, true);
        if s.contains("c2") {
            assert!(t.steps[0].text(true) == "g-l(5)", "{}", t.text(true));
        }
    }
}

#[test]
fn t14_the_six_six_group_is_hit_as_one() {
    let text = "W: a11 g4 G; B: m10 n o p q d F5; B";
    let list = turns(text, 3, 1);
    for steps in [["d-g(3)", "g-h(1)"], ["d-g(3)", "q-r(1)"]] {
        let t = find(&list, &steps).unwrap_or_else(|| panic!("{steps:?} in {:?}", texts(&list)));
        assert_eq!(t.position.other.bar, 4);
        assert_eq!(t.position.other.at(7), 0);
        assert!(!t.position.other.group);
        assert_eq!(t.win, None, "b-f are free: no jan");
    }
    let past = find(&list, &["d-e(1)", "e-h(3)"]).expect("d-e e-h");
    assert_eq!(past.position.other.bar, 0);
    assert_eq!(past.position.other.at(7), 4);
}

#[test]
fn t15_hitting_the_group_can_win_by_jan() {
    let text = "W: a11 g4 G; B: m6 n o p q c2 e2 d F5; B";
    let list = turns(text, 3, 1);
    for steps in [["d-g(3)", "q-r(1)"], ["d-g(3)", "g-h(1)"]] {
        let t = find(&list, &steps).unwrap();
        let win = t.win.expect("jan");
        assert_eq!(win.kind, WinKind::Jan);
        assert!(!win.mar);
        assert_eq!(win.half_points(), 30);
    }
    let t = find(&list, &["d-g(3)", "e-f(1)"]).unwrap();
    assert_eq!(t.win, None);
}

#[test]
fn t16_a_broken_group_is_a_normal_closed_point() {
    let list = turns("W: a11 g3 h; B: m10 n o p q d F5; B", 3, 3);
    for t in &list {
        assert!(!t.text(false).contains("d-g"), "{}", t.text(false));
    }
}

const BLOCK: &str = "W: s2 t2 u2 v2 w2 x2 o3 U F5; B: q g3 h3 i3 j3 k2 U F5; B";

#[test]
fn t17_a_six_point_block_can_be_hit() {
    let list = turns(BLOCK, 3, 1);
    let hits_t: Vec<&Turn> = list
        .iter()
        .filter(|t| {
            t.steps
                .iter()
                .any(|s| s.text(false) == "q-t*(3)" && s.hits == 2)
        })
        .collect();
    assert!(!hits_t.is_empty());
    let via_r = find(&list, &["q-r(1)", "r-u(3)"]).unwrap();
    assert_eq!(via_r.position.other.bar, 2);
    for t in &list {
        let text = t.text(false);
        assert!(!text.contains("q-t*(3) t-u"), "block broken: {text}");
    }
}

#[test]
fn t18_a_five_point_block_cannot() {
    let list = turns(
        "W: s2 t2 u2 v2 w2 x o4 U F5; B: q g3 h3 i3 j3 k2 U F5; B",
        3,
        1,
    );
    for t in &list {
        assert_eq!(t.position.other.bar, 0, "{}", t.text(false));
        assert!(!t.text(false).contains("q-t") && !t.text(false).contains("r-u"));
    }
}

#[test]
fn t19_hitting_into_a_block_wins_by_jan() {
    let list = turns("W: b x14 U F5; B: m2 n3 o3 p3 q2 r2 U F5; W", 6, 5);
    // Both orders reach the same position, listed once.
    let t = find(&list, &["b-g(5)", "g-m(6)"])
        .or_else(|| find(&list, &["b-h(6)", "h-m(5)"]))
        .unwrap_or_else(|| panic!("{:?}", texts(&list)));
    assert_eq!(t.position.other.bar, 2);
    assert_eq!(
        t.win.map(|w| (w.kind, w.half_points())),
        Some((WinKind::Jan, 30))
    );
}

const ENTRY: &str = "W: bar a10 e s3 U F5; B: b2 c f2 m10 U F5; W";

#[test]
fn t20_no_entry_forfeits_the_throw() {
    let list = turns(ENTRY, 2, 5);
    assert_eq!(list.len(), 1);
    assert!(list[0].steps.is_empty());
    assert_eq!(list[0].position.mover, pos(ENTRY).mover);
}

#[test]
fn t21_entering_then_any_legal_step() {
    let list = turns(ENTRY, 3, 4);
    assert_eq!(list.len(), 8, "{:?}", texts(&list));
    for t in &list {
        let first = t.steps[0];
        assert_eq!(first.from, From::Bar);
        match first.die {
            3 => assert_eq!(first.hits, 1),
            4 => assert_eq!(first.hits, 0),
            d => panic!("entered with {d}"),
        }
    }
}

#[test]
fn t22_a_stone_left_on_the_bar_loses_the_rest() {
    let list = turns("W: bar2 a9 e s3 U F5; B: b2 c f2 m10 U F5; W", 3, 3);
    expect(&list, &["a9 c e s3 bar1"]);
    assert_eq!(list[0].steps.len(), 1);
}

#[test]
fn t23_closing_entry_points_wins_by_jan() {
    let text = "W: bar a9 e h s3 U F5; B: b2 c2 d2 f m8 U F5; B";
    let list = turns(text, 2, 1);
    for steps in [["f-h(2)", "m-n(1)"], ["f-h(2)", "h-i(1)"]] {
        let t = find(&list, &steps).unwrap();
        assert_eq!(t.win.map(|w| w.kind), Some(WinKind::Jan), "{steps:?}");
        assert!(!t.win.unwrap().mar);
    }
    assert_eq!(find(&list, &["f-h(2)", "b-c(1)"]).unwrap().win, None);
}

#[test]
fn t24_no_entry_point_at_all_is_stor_jan() {
    let text = "W: bar a9 e h s3 U F5; B: b2 c3 d2 f m7 U F5; B";
    let list = turns(text, 3, 5);
    let t = find(&list, &["c-f(3)", "m-r(5)"]).unwrap();
    let win = t.win.unwrap();
    assert_eq!(win.kind, WinKind::StorJan);
    assert_eq!(win.half_points(), 30);
}

#[test]
fn t25_t26_the_higher_die_when_only_one_can_be_played() {
    let list = turns("W: b x14 U F5; B: m2 o3 p3 q3 r2 s2 U F5; W", 6, 5);
    assert_eq!(texts(&list), vec!["b-h(6)"]);
    let list = turns("W: b x14 U F5; B: h2 m2 o3 p3 q3 r2 U F5; W", 6, 5);
    assert_eq!(texts(&list), vec!["b-g(5)"]);
}

#[test]
fn t27_both_dice_bear_off_from_the_rearmost_point() {
    expect(
        &turns("W: u3 v4 w4 x4 U F5; B: m15 U F5; W", 6, 5),
        &["u1 v4 w4 x4 off2"],
    );
}

#[test]
fn t28_a_high_die_moves_up_while_a_stone_is_further_back() {
    let list = turns("W: s v4 w5 x5 U F5; B: m15 U F5; W", 5, 1);
    expect(&list, &["v3 w6 x6", "v4 w4 x7", "v4 w5 x5 off1"]);
}

#[test]
fn t29_no_bearing_off_before_every_stone_is_home() {
    let list = turns("W: r s2 t3 u3 v3 w2 x U F5; B: m15 U F5; W", 1, 6);
    // r-s s-off and r-x x-off reach the same position, listed once.
    assert!(
        find(&list, &["r-s(1)", "s-off(6)"])
            .or_else(|| find(&list, &["r-x(6)", "x-off(1)"]))
            .is_some()
    );
    assert!(find(&list, &["r-x(6)", "t-u(1)"]).is_some());
    for t in &list {
        assert!(!t.text(true).contains("r-off"), "{}", t.text(true));
    }
}

#[test]
fn t30_an_intermediate_landing_hits() {
    let list = turns("W: a11 c f i j U F5; B: d m14 U F5; W", 3, 4);
    let t = find(&list, &["a-d(3)", "d-h(4)"]).unwrap();
    assert_eq!(t.steps.iter().find(|s| s.die == 3).unwrap().hits, 1);
    assert_eq!(t.position.other.bar, 1);
}

fn win_of(list: &[Turn], steps: &[&str]) -> (WinKind, u32) {
    let t = find(list, steps).unwrap_or_else(|| panic!("{steps:?} in {:?}", texts(list)));
    let w = t.win.expect("a win");
    (w.kind, w.half_points())
}

#[test]
fn t31_half_monk_with_a_die_unplayed() {
    let list = turns("W: s v4 w5 x5 U F5; B: m15 U F5; W", 6, 3);
    assert_eq!(win_of(&list, &["s-v(3)"]), (WinKind::HalfStuttiMunkur, 7));
    let off = find(&list, &["s-off(6)", "v-off(3)"]).unwrap();
    assert_eq!(off.win, None);
}

#[test]
fn t32_monk_with_the_last_die_is_full() {
    let list = turns("W: s u v3 w5 x5 U F5; B: m15 U F5; W", 3, 1);
    assert_eq!(
        win_of(&list, &["s-v(3)", "u-v(1)"]),
        (WinKind::StuttiMunkur, 14)
    );
}

#[test]
fn t33_half_long_monk() {
    let list = turns("W: s t2 u3 v3 w3 x3 U F5; B: m15 U F5; W", 1, 6);
    assert_eq!(win_of(&list, &["s-t(1)"]), (WinKind::HalfLangiMunkur, 5));
}

#[test]
fn t34_t35_meistari_and_langi_hryggur_are_never_halved() {
    let list = turns("W: w x14 U F5; B: m15 U F5; W", 1, 2);
    assert_eq!(win_of(&list, &["w-x(1)"]), (WinKind::Meistari, 26));
    let list = turns("W: r s2 t3 u3 v3 w3 U F5; B: m15 U F5; W", 1, 2);
    assert_eq!(win_of(&list, &["r-s(1)"]), (WinKind::LangiHryggur, 6));
}

#[test]
fn t36_litill_meistari_is_optional() {
    let text = "W: w8 x7 U F5; B: m15 U F5; W";
    let on = TurnRules {
        little_master: true,
        ..TurnRules::default()
    };
    let list = legal_turns(&pos(text), 1, 2, on);
    assert_eq!(list.len(), 3, "{:?}", texts(&list));
    assert_eq!(win_of(&list, &["w-x(1)"]), (WinKind::LitillMeistari, 6));
    assert!(find(&list, &["w-off(2)", "x-off(1)"]).is_some());
    assert!(find(&list, &["w-off(2)", "w-x(1)"]).is_some());
    let list = turns(text, 1, 2);
    assert!(list.iter().all(|t| t.win.is_none() && t.steps.len() == 2));
    expect(&list, &["w7 x6 off2", "w6 x8 off1"]);
}

#[test]
fn t37_mar_for_a_hit_in_the_winning_turn() {
    let list = turns("W: t off14 U F5; B: w m14 U F5; W", 3, 2);
    let t = find(&list, &["t-w(3)", "w-off(2)"]).unwrap();
    let w = t.win.unwrap();
    assert_eq!((w.kind, w.mar, w.half_points()), (WinKind::Uttekt, true, 8));
    assert_eq!(win_of(&list, &["t-v(2)", "v-off(3)"]), (WinKind::Uttekt, 4));
}

/// Picks the turn that bears off most, then the first.
fn most_off(_: &Position, list: &[Turn]) -> usize {
    (0..list.len())
        .max_by_key(|&i| (list[i].position.mover.off, std::cmp::Reverse(i)))
        .unwrap()
}

#[test]
fn t38_bonus_throws_score_a_monk_in_full() {
    let options = Options {
        bonus_throws: Some(5),
        ..Options::default()
    };
    let mut rolls = vec![(1u8, 2u8), (6, 6), (5, 5), (6, 5), (4, 6), (1, 1)].into_iter();
    let start = pos("W: x off14 U F5; B: h j5 k5 l4 U F5; W");
    let record = play_from(
        &options,
        start,
        true,
        &mut || rolls.next().unwrap(),
        &mut most_off,
    );
    assert_eq!(record.win.map(|w| w.kind), Some(WinKind::Uttekt));
    assert_eq!(record.white_half_points, 4);
    assert_eq!(record.bonus, Some(WinKind::StuttiMunkur));
    assert_eq!(record.black_half_points, 14, "full value, no halving");
    assert_eq!(rolls.next(), Some((1, 1)), "the fifth throw is not taken");

    // The same throws with nothing formed: the loser scores nothing.
    let loser = pos("W: off15 U F5; B: h j5 k5 l4 U F5; B");
    let mut rolls = vec![(6u8, 6u8); 5].into_iter();
    let got = bonus_throws(
        &loser,
        5,
        &options,
        &mut || rolls.next().unwrap(),
        &mut most_off,
    );
    assert_eq!(got, None);
}

#[test]
fn t39_the_equalizing_throw_can_draw() {
    let options = Options {
        equalizing_throw: true,
        ..Options::default()
    };
    let start = pos("W: x off14 U F5; B: k l2 off12 U F5; W");
    let mut rolls = vec![(1u8, 1u8), (2, 2)].into_iter();
    let record = play_from(
        &options,
        start,
        true,
        &mut || rolls.next().unwrap(),
        &mut most_off,
    );
    assert_eq!(record.win, None, "a draw");
    assert_eq!((record.white_half_points, record.black_half_points), (4, 4));

    let mut rolls = vec![(1u8, 1u8), (2, 2)].into_iter();
    let record = play_from(
        &options,
        start,
        false,
        &mut || rolls.next().unwrap(),
        &mut most_off,
    );
    assert_eq!(record.win.map(|w| w.kind), Some(WinKind::Uttekt));
    assert_eq!((record.white_half_points, record.black_half_points), (4, 0));
}

#[test]
fn notation_round_trips_and_rejects_bad_input() {
    for text in [
        START,
        BLOCK,
        ENTRY,
        "W: x off14 U F5; B: k l2 off12 U F5; W",
    ] {
        let p = pos(text);
        assert_eq!(pos(&position_text(&p)), p, "{text}");
    }
    for bad in [
        "W: a15; B: m14; W",
        "W: a15; W: m15; W",
        "W: a15; B: m15",
        "W: a15; B: a15; W",
        "W: a15; B: m15 z3; W",
        "W: a11 g4 G; B: m15; X",
        "W: a12 g3 G; B: m15; W",
    ] {
        let err = parse_position(bad).expect_err(bad);
        assert!(!err.to_string().is_empty());
    }
}

/// Random games keep 15 stones a side and never share a point.
#[test]
fn random_games_conserve_stones() {
    use rand::{RngExt, SeedableRng, rngs::SmallRng};
    let mut rng = SmallRng::seed_from_u64(5);
    let options = Options::default();
    let mut ended = 0;
    for _ in 0..200 {
        let mut dice_rng = SmallRng::seed_from_u64(rng.random());
        let mut dice = || {
            (
                dice_rng.random_range(1..=6u8),
                dice_rng.random_range(1..=6u8),
            )
        };
        let mut pick_rng = SmallRng::seed_from_u64(rng.random());
        let record =
            kotra::icelandic::play::play_game(&options, true, &mut dice, &mut |p, list| {
                assert!(p.is_consistent(), "{}", position_text(p));
                for t in list {
                    assert!(t.position.is_consistent(), "{}", position_text(&t.position));
                }
                pick_rng.random_range(0..list.len())
            });
        if record.win.is_some() {
            ended += 1;
        }
    }
    assert!(ended >= 190, "{ended} of 200 random games finished");
}

#[test]
fn several_games_in_a_row_the_plain_winner_starts() {
    let options = Options::default();
    // Black wins by jan (T23's position): Black starts the next game.
    let text = "W: bar a9 e h s3 U F5; B: b2 c2 d2 f m8 U F5; B";
    let mut rolls = vec![(2u8, 1u8)].into_iter();
    let mut pick = |_: &Position, list: &[Turn]| list.iter().position(|t| t.win.is_some()).unwrap();
    let record = play_from(
        &options,
        pos(text),
        true,
        &mut || rolls.next().unwrap(),
        &mut pick,
    );
    assert_eq!(record.win.map(|w| w.kind), Some(WinKind::Jan));
    assert_eq!(next_game_starter(&record), Some(false));
    // A special win (Meistari, T34) leaves it to the opening roll.
    let mut rolls = vec![(1u8, 2u8)].into_iter();
    let record = play_from(
        &options,
        pos("W: w x14 U F5; B: m15 U F5; W"),
        true,
        &mut || rolls.next().unwrap(),
        &mut pick,
    );
    assert_eq!(record.win.map(|w| w.kind), Some(WinKind::Meistari));
    assert_eq!(next_game_starter(&record), None);
}
