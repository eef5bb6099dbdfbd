//! The cases the mask-based paths track by hand: blots hit (and not hit
//! again), bearing off beside an opponent's checker on his bar, and the
//! bar itself; each checked against the literal reference, set and count.

use super::super::dice::Dice;
use super::super::position::{OPP_BAR, Position, Side};
use super::{MoveList, legal_moves, legal_moves_reference};
use std::collections::BTreeSet;

/// `me` and `opp` as (point in the mover's numbering, count); 25 is the
/// mover's bar, 0 the opponent's.
fn position(me: &[(usize, u8)], opp: &[(usize, u8)]) -> Position {
    let (mut mover, mut other) = ([0u8; 25], [0u8; 25]);
    for &(p, n) in me {
        mover[p - 1] = n;
    }
    for &(p, n) in opp {
        other[if p == 0 { 24 } else { 24 - p }] = n;
    }
    Position::from_sides(&mover, &other).unwrap()
}

/// The fast generator's results, checked against the reference's.
fn agreed(p: &Position, hi: u8, lo: u8) -> Vec<Position> {
    let dice = Dice::new(hi, lo).unwrap();
    let (mut fast, mut slow) = (MoveList::new(), MoveList::new());
    legal_moves(p, dice, &mut fast);
    legal_moves_reference(p, dice, &mut slow);
    let a: BTreeSet<_> = fast.iter().map(|c| c.position).collect();
    let b: BTreeSet<_> = slow.iter().map(|c| c.position).collect();
    assert_eq!(a, b, "{hi}-{lo}");
    assert_eq!(a.len(), fast.len(), "duplicates with {hi}-{lo}");
    fast.iter().map(|c| c.position).collect()
}

fn opponent_on_bar(p: &Position) -> i8 {
    -p.raw()[OPP_BAR]
}

#[test]
fn a_double_hits_each_blot_once() {
    // Two blots two pips apart in front of two checkers: 2-2 can hit both,
    // and a checker passing a point it already hit on hits nothing more.
    let p = position(&[(13, 2), (6, 13)], &[(11, 1), (9, 1), (1, 13)]);
    let results = agreed(&p, 2, 2);
    let most = results.iter().map(opponent_on_bar).max().unwrap();
    assert_eq!(most, 2);
    assert!(results.iter().any(|q| opponent_on_bar(q) == 0));
}

#[test]
fn bearing_off_leaves_the_opponents_bar_alone() {
    // The opponent has one checker on his bar (a "blot" there to a mask):
    // no bear-off may touch it.
    let p = position(&[(6, 2), (4, 3), (2, 1)], &[(0, 1), (20, 14)]);
    for (hi, lo) in [(6, 6), (5, 5), (1, 1), (6, 5), (6, 1), (3, 2)] {
        for q in agreed(&p, hi, lo) {
            assert_eq!(opponent_on_bar(&q), 1, "{hi}-{lo}");
        }
    }
}

#[test]
fn the_last_checker_outside_comes_home_and_bears_off() {
    // One checker on the bar, the rest home: enter, then bear off with the
    // other die, or hit on entering.
    let p = position(&[(25, 1), (6, 4), (5, 10)], &[(22, 1), (1, 14)]);
    for (hi, lo) in [(3, 6), (6, 3), (3, 3), (5, 4), (6, 6)] {
        agreed(&p, hi, lo);
    }
    assert!(agreed(&p, 6, 3).iter().any(|q| opponent_on_bar(q) == 1));
}

#[test]
fn doubles_bear_off_only_with_three_or_fewer_checkers_outside() {
    // The doubles search skips the bear-off's tests when four or more
    // checkers are outside: the four steps are used up bringing them home.
    // Either side of that line, with the last steps reaching home exactly.
    let four_out = position(&[(7, 4), (1, 11)], &[(24, 2), (20, 13)]);
    for die in 1..=6 {
        let results = agreed(&four_out, die, die);
        assert!(results.iter().all(|q| q.borne_off(Side::Mover) == 0));
    }
    let three_out = position(&[(7, 3), (1, 12)], &[(24, 2), (20, 13)]);
    let results = agreed(&three_out, 1, 1);
    assert!(results.iter().any(|q| q.borne_off(Side::Mover) == 1));
    let on_bar = position(&[(25, 1), (8, 3), (1, 11)], &[(24, 2), (20, 13)]);
    for die in 1..=6 {
        agreed(&on_bar, die, die);
    }
}

#[test]
fn the_vector_count_outside_home_is_the_positions() {
    // Along random games, and with the bar and points 7, 15, 16 and 24
    // loaded (the edges of the two halves and of the counted slots).
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};
    let slot_by_slot = |p: &Position| {
        p.raw()[7..=25]
            .iter()
            .map(|&v| v.max(0) as u32)
            .sum::<u32>()
    };
    let mut rng = SmallRng::seed_from_u64(5);
    let mut list = MoveList::new();
    let mut p = Position::starting();
    for _turn in 0..400 {
        assert_eq!(p.outside_home(), slot_by_slot(&p));
        let dice = Dice::new(rng.random_range(1..=6), rng.random_range(1..=6)).unwrap();
        legal_moves(&p, dice, &mut list);
        p = list.as_slice()[rng.random_range(0..list.len())]
            .position
            .swap();
        if p.on_board(Side::Opponent) == 0 {
            p = Position::starting();
        }
    }
    for (me, outside) in [
        (&[(25, 2), (7, 3), (6, 10)][..], 5),
        (&[(15, 4), (16, 4), (1, 7)][..], 8),
        (&[(24, 1), (6, 14)][..], 1),
        (&[(6, 15)][..], 0),
    ] {
        assert_eq!(position(me, &[(3, 15)]).outside_home(), outside);
    }
}

#[test]
fn both_compilations_give_the_same_list() {
    // Along random games (contact, races, bear-offs, the bar), the baseline
    // and the bit-instruction compilations write the same candidates in the
    // same order: the source is one, only the instructions differ.
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};
    if !super::has_bit_instructions() {
        return;
    }
    let mut rng = SmallRng::seed_from_u64(17);
    let (mut portable, mut bits) = (MoveList::new(), MoveList::new());
    let mut compared = 0;
    for _game in 0..40 {
        let mut p = Position::starting();
        for _turn in 0..200 {
            let (hi, lo) = (rng.random_range(1..=6usize), rng.random_range(1..=6usize));
            let dice = Dice::new(hi as u8, lo as u8).unwrap();
            super::legal_moves_compiled(false, &p, dice, &mut portable);
            super::legal_moves_compiled(true, &p, dice, &mut bits);
            assert_eq!(portable.as_slice(), bits.as_slice(), "{hi}-{lo}");
            compared += 1;
            let pick = rng.random_range(0..bits.len());
            p = bits.as_slice()[pick].position.swap();
            if p.on_board(super::Side::Opponent) == 0 {
                break;
            }
        }
    }
    assert!(compared > 2000, "{compared}");
}

#[test]
fn a_list_that_starts_empty_grows_to_the_same_candidates() {
    // The generators write some steps without checking each time for room
    // (room for a node's sources is made once); a list with no capacity
    // at all makes every such check grow it.
    let big = position(
        &[(24, 2), (13, 5), (8, 3), (6, 5)],
        &[(1, 2), (12, 5), (17, 3), (19, 5)],
    );
    let home = position(
        &[(6, 3), (5, 3), (4, 3), (3, 2), (2, 2), (1, 2)],
        &[(24, 15)],
    );
    for p in [big, home] {
        for (dice, _) in Dice::all_rolls() {
            let mut roomy = MoveList::new();
            let mut empty = MoveList {
                items: Vec::new(),
                level: 0,
            };
            legal_moves(&p, dice, &mut roomy);
            legal_moves(&p, dice, &mut empty);
            assert_eq!(roomy.as_slice(), empty.as_slice(), "{dice}");
        }
    }
}

#[test]
fn bear_off_sources_are_the_general_ones_when_all_are_home() {
    use super::sources::DieSteps;
    let open = (1u32 << 26) - 1;
    for die in 1..=6 {
        let steps = DieSteps::new(open, die);
        // Every set of occupied home points, none (all off) included.
        for home in 0..64u32 {
            let occupied = home << 1;
            for top in 1..=25 {
                assert_eq!(
                    steps.sources_home(occupied, top),
                    steps.sources(occupied, top),
                    "die {die}, points {occupied:#b}, top {top}"
                );
            }
        }
    }
}
