//! The cubeful search: agreement with the plain search, reproducibility
//! whatever the thread count, filters, and hand-checked cube decisions.

use kotra::backgammon::{Dice, MoveList, Position, legal_moves};
use kotra::cube::{CubeAction, CubeState, Owner, Stakes, TakeAnswer};
use kotra::eval::{Evaluator, shipped_model};
use kotra::notation::position_id;
use kotra::search::{SearchSettings, Searcher};
use rand::{RngExt, SeedableRng};

fn eval() -> Evaluator {
    Evaluator::new(shipped_model().unwrap())
}

fn position(id: &str) -> Position {
    position_id::decode(id).unwrap()
}

/// Mover with one checker on `mine`, opponent one checker on `theirs`
/// (each in its own numbering), every other checker off.
fn last_checkers(mine: usize, theirs: usize) -> Position {
    let (mut me, mut opp) = ([0u8; 25], [0u8; 25]);
    me[mine - 1] = 1;
    opp[theirs - 1] = 1;
    Position::from_sides(&me, &opp).unwrap()
}

const MIDDLE: &str = "4HPwATDgc/ABMA";
const CONTACT: [&str; 3] = ["4HPwATDgc/ABMA", "jGfkASjg8wcBAQ", "sNvBAQDg2+ABEA"];

#[test]
fn cubeless_probabilities_match_the_plain_search() {
    let eval = eval();
    let searcher = Searcher::new(&eval).with_prune(0);
    for id in CONTACT {
        let pos = position(id);
        let mut list = MoveList::new();
        legal_moves(&pos, Dice::new(4, 2).unwrap(), &mut list);
        for c in list.iter().take(4) {
            let plain = kotra::search::after_move(&eval, &c.position, 1);
            let mut v = [0f32];
            let state = CubeState::money().swapped();
            let p = searcher
                .evaluate(&c.position.swap(), &[state], 1, &mut v)
                .flip();
            for k in 0..5 {
                assert!(
                    (p.0[k] - plain.0[k]).abs() < 1e-5,
                    "{id}: {:?} v {:?}",
                    p,
                    plain
                );
            }
        }
    }
}

#[test]
fn same_answer_on_any_thread_count() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let eval = eval();
            let searcher = Searcher::new(&eval);
            let pos = position(CONTACT[1]);
            let mut list = MoveList::new();
            legal_moves(&pos, Dice::new(6, 3).unwrap(), &mut list);
            let ranked =
                searcher.rank_moves(&list, &CubeState::money(), &SearchSettings::world_class(2));
            let cube = searcher.cube_decision(&pos, &CubeState::money(), 2);
            (ranked, cube)
        })
    };
    assert_eq!(run(1), run(4));
}

#[test]
fn filters_keep_the_best_and_rank_every_move_once() {
    let eval = eval();
    let searcher = Searcher::new(&eval);
    let pos = position(MIDDLE);
    let mut list = MoveList::new();
    legal_moves(&pos, Dice::new(3, 1).unwrap(), &mut list);
    let ranked = searcher.rank_moves(&list, &CubeState::money(), &SearchSettings::world_class(2));
    let mut seen: Vec<usize> = ranked.iter().map(|r| r.index).collect();
    seen.sort();
    assert_eq!(seen, (0..list.len()).collect::<Vec<_>>());
    assert_eq!(ranked[0].ply, 2);
    assert!(ranked.iter().filter(|r| r.ply == 2).count() <= 8);
    assert_eq!(
        kotra::notation::move_text::format(&pos, &list.as_slice()[ranked[0].index].play),
        "8/5 6/5"
    );
    // Moves left at 0-ply are all worse than the window allowed.
    let best0 = ranked.iter().map(|r| r.equity).fold(f32::MIN, f32::max);
    assert_eq!(best0, ranked[0].equity);
}

#[test]
fn last_roll_cube_decisions() {
    let eval = eval();
    let searcher = Searcher::new(&eval);
    // One checker on the 4-point against one on the 1-point: 34/36 to win.
    for ply in [0, 1, 2] {
        let a = searcher.cube_decision(&last_checkers(4, 1), &CubeState::money(), ply);
        assert!((a.probs.win() - 34.0 / 36.0).abs() < 1e-4, "{:?}", a.probs);
        assert_eq!(a.decision.action, CubeAction::DoublePass, "ply {ply}");
        assert_eq!(a.decision.take, TakeAnswer::Pass);
    }
    // On the 8-point: 17/36 to win, no double and a take.
    let a = searcher.cube_decision(&last_checkers(8, 1), &CubeState::money(), 1);
    assert!((a.probs.win() - 17.0 / 36.0).abs() < 1e-4);
    assert_eq!(a.decision.action, CubeAction::NoDouble);
    assert_eq!(a.decision.take, TakeAnswer::Take);
    // At 1-ply the last roll is exact: double/take is worth 2 × (2p − 1).
    let p = 17.0 / 36.0;
    assert!((a.decision.double_take - 2.0 * (2.0 * p - 1.0)).abs() < 1e-4);
}

#[test]
fn no_double_in_the_crawford_game_nor_with_the_opponents_cube() {
    let eval = eval();
    let searcher = Searcher::new(&eval);
    let crawford = CubeState {
        value: 1,
        owner: Owner::Centered,
        stakes: Stakes::Match {
            me_away: 3,
            opp_away: 1,
            crawford: true,
            post_crawford: false,
        },
    };
    let strong = last_checkers(4, 1);
    assert_eq!(
        searcher
            .cube_decision(&strong, &crawford, 0)
            .decision
            .action,
        CubeAction::NoDouble
    );
    let theirs = CubeState {
        owner: Owner::Opponent,
        value: 2,
        ..CubeState::money()
    };
    assert_eq!(
        searcher.cube_decision(&strong, &theirs, 1).decision.action,
        CubeAction::NoDouble
    );
}

#[test]
fn pruning_keeps_the_answer_on_clear_decisions() {
    let eval = eval();
    for id in CONTACT {
        let pos = position(id);
        let mut list = MoveList::new();
        legal_moves(&pos, Dice::new(5, 2).unwrap(), &mut list);
        let settings = SearchSettings::world_class(2);
        let full =
            Searcher::new(&eval)
                .with_prune(0)
                .rank_moves(&list, &CubeState::money(), &settings);
        let pruned = Searcher::new(&eval).rank_moves(&list, &CubeState::money(), &settings);
        // The same move, or one the full search holds as good: where every
        // move leaves the opponent a double/pass (sNvBAQDg2+ABEA with 52 for
        // some networks) all tie at -1 and either order is right.
        let pruned_choice = full.iter().find(|m| m.index == pruned[0].index).unwrap();
        assert!(
            pruned_choice.equity >= full[0].equity - 0.005,
            "{id}: pruning chose a move the full search holds {:.3} worse",
            full[0].equity - pruned_choice.equity
        );
        assert!((full[0].equity - pruned[0].equity).abs() < 0.05, "{id}");
        // Pruning only drops replies from consideration: never a crash, and
        // the 0-ply layer is untouched.
        let zero = SearchSettings::world_class(0);
        assert_eq!(
            Searcher::new(&eval)
                .with_prune(0)
                .rank_moves(&list, &CubeState::money(), &zero),
            Searcher::new(&eval).rank_moves(&list, &CubeState::money(), &zero)
        );
    }
}

/// dev-m-1337 (gnubg's best: 3/off 1/off): every 31 leaves the opponent a
/// plain double/pass, so all are worth −1 cubeful at any ply, and the one
/// that keeps the most winning chances (two checkers off, six left) must
/// come first. Before the roller's cube action counted at 0-ply, the
/// 0-ply filter ranked it last and dropped it.
#[test]
fn moves_that_leave_a_double_pass_are_worth_minus_one_and_tie_on_chances() {
    let eval = eval();
    let pos = position("PwAAgK4FAAAAAA");
    let mut list = MoveList::new();
    legal_moves(&pos, Dice::new(3, 1).unwrap(), &mut list);
    for ply in [0, 2] {
        let ranked = Searcher::new(&eval).rank_moves(
            &list,
            &CubeState::money(),
            &SearchSettings::world_class(ply),
        );
        assert_eq!(ranked.len(), list.len());
        for r in &ranked {
            assert!((r.equity + 1.0).abs() < 1e-6, "ply {ply}: {r:?}");
        }
        assert_eq!(
            ranked[0].position.on_board(kotra::backgammon::Side::Mover),
            6,
            "ply {ply}: {:?}",
            ranked[0]
        );
    }
}

#[test]
fn a_cubeless_search_ranks_by_the_plain_searchs_equity() {
    // Every move kept at every stage and every reply seen: a cubeless
    // 2-ply ranking is the plain search's 2-ply equity of each move, with
    // no cube action in the tree (a cubeful one differs: the side ahead
    // may double on the way).
    let eval = eval();
    let searcher = Searcher::new(&eval).with_prune(0).with_cubeless(true);
    let cubeful = Searcher::new(&eval).with_prune(0);
    let mut settings = SearchSettings::world_class(2);
    settings.first.keep = 64;
    settings.first.window = 10.0;
    settings.deep = settings.first;
    let mut differs = false;
    for id in CONTACT {
        let pos = position(id);
        let mut list = MoveList::new();
        legal_moves(&pos, Dice::new(4, 2).unwrap(), &mut list);
        let ranked = searcher.rank_moves(&list, &CubeState::money(), &settings);
        assert_eq!(ranked.len(), list.len());
        assert!(ranked.windows(2).all(|w| w[0].equity >= w[1].equity));
        for r in &ranked {
            assert_eq!(r.ply, 2);
            let plain = kotra::search::after_move(&eval, &r.position, 2).equity();
            assert!(
                (r.equity - plain).abs() < 1e-4,
                "{id}: {} v {plain}",
                r.equity
            );
        }
        let full = cubeful.rank_moves(&list, &CubeState::money(), &settings);
        differs |= full
            .iter()
            .zip(&ranked)
            .any(|(a, b)| (a.equity - b.equity).abs() > 1e-3);
    }
    assert!(differs, "the cubeful values are another measure");
}

/// A review decides the cube of the position after each played move, a
/// node the ranking before it walked at the same depth: the kept node must
/// give exactly what a fresh searcher's walk gives, for every move the
/// ranking walked at 2-ply, and the ranking's values must not depend on
/// what an earlier cube decision left behind either.
#[test]
fn kept_nodes_answer_as_a_fresh_walk_does() {
    let eval = eval();
    for id in CONTACT {
        let pos = position(id);
        let mut list = MoveList::new();
        legal_moves(&pos, Dice::new(6, 3).unwrap(), &mut list);
        let settings = SearchSettings::world_class(2);
        let searcher = Searcher::new(&eval);
        let ranked = searcher.rank_moves(&list, &CubeState::money(), &settings);
        let walked: Vec<_> = ranked.iter().filter(|r| r.ply == 2).collect();
        assert!(!walked.is_empty());
        for r in walked {
            let next = r.position.swap();
            let kept = searcher.cube_decision(&next, &CubeState::money(), 2);
            let fresh = Searcher::new(&eval).cube_decision(&next, &CubeState::money(), 2);
            assert_eq!(kept, fresh, "{id}: the cube after {:?}", r.index);
        }
        let again = searcher.rank_moves(&list, &CubeState::money(), &settings);
        assert_eq!(again, ranked, "{id}: ranked again");
    }
}

/// A searching rollout meets a node three times: the move before walks it
/// at 1-ply below each candidate, the cube decision before the roll walks
/// it again, and the roll's luck weighs each roll's reply. What the
/// searcher kept from the first walk must give exactly what a fresh
/// searcher gives the second and third time.
#[test]
fn kept_replies_answer_as_a_fresh_walk_does() {
    let eval = eval();
    let owned = CubeState {
        value: 2,
        owner: Owner::Roller,
        ..CubeState::money()
    };
    for id in CONTACT {
        let pos = position(id);
        let mut list = MoveList::new();
        legal_moves(&pos, Dice::new(6, 3).unwrap(), &mut list);
        let searcher = Searcher::new(&eval);
        let ranked =
            searcher.rank_moves(&list, &CubeState::money(), &SearchSettings::world_class(1));
        let walked: Vec<_> = ranked.iter().filter(|r| r.ply == 1).collect();
        assert!(walked.len() >= 2, "{id}");
        for r in walked {
            let next = r.position.swap();
            let fresh = Searcher::new(&eval);
            assert_eq!(
                searcher.reply_probs(&next),
                fresh.reply_probs(&next),
                "{id}"
            );
            for state in [CubeState::money(), owned] {
                assert_eq!(
                    searcher.cube_decision(&next, &state, 1),
                    fresh.cube_decision(&next, &state, 1),
                    "{id}: the cube after {:?}",
                    r.index
                );
                for (dice, _) in Dice::all_rolls() {
                    assert_eq!(
                        searcher.roll_luck(&next, dice, &state, false),
                        fresh.roll_luck(&next, dice, &state, false),
                        "{id}: {dice:?}"
                    );
                }
            }
        }
    }
}

/// A wider pre-selection where replies are searched deeper changes only
/// those nodes: a 1-ply search has none, the same width everywhere is the
/// default search, and the leaves' replies (what a rollout's luck weighs)
/// are the default's; at 2-ply it changes some value.
#[test]
fn the_upper_pre_selection_changes_only_the_upper_nodes() {
    let eval = eval();
    let money = CubeState::money();
    let mut changed = 0;
    for id in CONTACT {
        let pos = position(id);
        let mut list = MoveList::new();
        legal_moves(&pos, Dice::new(5, 2).unwrap(), &mut list);
        let rank = |searcher: &Searcher, ply| {
            searcher.rank_moves(&list, &money, &SearchSettings::world_class(ply))
        };
        let wide = Searcher::new(&eval).with_upper_prune(Some(0));
        let default = rank(&Searcher::new(&eval), 2);
        assert_eq!(rank(&wide, 1), rank(&Searcher::new(&eval), 1), "{id}");
        assert_eq!(
            rank(&Searcher::new(&eval).with_upper_prune(Some(4)), 2),
            default,
            "{id}"
        );
        assert_eq!(
            rank(
                &Searcher::new(&eval).with_prune(0).with_upper_prune(Some(0)),
                2
            ),
            rank(&Searcher::new(&eval).with_prune(0), 2),
            "{id}"
        );
        let upper = rank(&wide, 2);
        changed += upper
            .iter()
            .filter(|u| u.ply == 2)
            .filter(|u| {
                let d = default.iter().find(|d| d.index == u.index).unwrap();
                d.ply == 2 && d.equity != u.equity
            })
            .count();
        for r in upper.iter().filter(|r| r.ply == 2) {
            let next = r.position.swap();
            assert_eq!(
                wide.reply_probs(&next),
                Searcher::new(&eval).reply_probs(&next),
                "{id}"
            );
        }
    }
    assert!(
        changed > 0,
        "every reply weighed above the leaves changed no value"
    );
}

/// The choice alone (`best_move`, what players and rollouts ask) is the
/// full ranking's first move, whether it stopped early or not; with the
/// rollouts' narrow filter at 1-ply it does stop early on some rolls,
/// where its move carries the 0-ply value it was kept on.
#[test]
fn the_choice_alone_is_the_rankings_first_move() {
    use kotra::search::MoveFilter;
    let eval = eval();
    let mut list = MoveList::new();
    let mut stopped = 0;
    for ply in [1, 2] {
        for first in [
            MoveFilter {
                keep: 3,
                window: 0.06,
            },
            MoveFilter {
                keep: 8,
                window: 0.16,
            },
        ] {
            let settings = SearchSettings {
                first,
                ..SearchSettings::world_class(ply)
            };
            // 2-ply on one position: the test suite also runs unoptimised.
            for id in &CONTACT[..if ply == 1 { 3 } else { 1 }] {
                let pos = position(id);
                for (dice, _) in Dice::all_rolls() {
                    legal_moves(&pos, dice, &mut list);
                    let state = CubeState::money();
                    let ranked = Searcher::new(&eval).rank_moves(&list, &state, &settings);
                    let best = Searcher::new(&eval).best_move(&list, &state, &settings);
                    assert_eq!(best.index, ranked[0].index, "{id} {dice:?} ply {ply}");
                    if best.ply < ply {
                        assert_eq!(best.ply, 0);
                        stopped += 1;
                    } else {
                        assert_eq!(best, ranked[0]);
                    }
                }
            }
        }
    }
    assert!(
        stopped > 0,
        "the narrow filter leaves one move on some rolls"
    );
}

/// A 1-ply pass between the 0-ply and the 2-ply one (a 2-ply rollout's
/// play): the moves it lets through are valued at 2-ply exactly as
/// without it, the others it saw keep their 1-ply values, and one as wide
/// as the first filter gives the plain ranking.
#[test]
fn a_1ply_pass_sends_its_best_on_to_2ply() {
    use kotra::search::MoveFilter;
    let eval = eval();
    let pos = position(MIDDLE);
    let mut list = MoveList::new();
    let with_middle = |keep, window| SearchSettings {
        middle: Some(MoveFilter { keep, window }),
        ..SearchSettings::world_class(2)
    };
    let state = CubeState::money();
    let mut narrowed = 0;
    // Every third roll: the test suite also runs unoptimised.
    for (dice, _) in Dice::all_rolls().step_by(3) {
        legal_moves(&pos, dice, &mut list);
        let rank =
            |settings: &SearchSettings| Searcher::new(&eval).rank_moves(&list, &state, settings);
        let plain = rank(&SearchSettings::world_class(2));
        let at = |ranked: &[kotra::search::RankedMove], ply| {
            ranked.iter().filter(|r| r.ply == ply).count()
        };
        assert_eq!(rank(&with_middle(8, 10.0)), plain, "{dice:?}");
        let narrow = rank(&with_middle(2, 0.04));
        let deep = at(&narrow, 2);
        assert!((1..=2).contains(&deep), "{dice:?}: {deep} at 2-ply");
        assert_eq!(deep + at(&narrow, 1), at(&plain, 2), "{dice:?}");
        for r in narrow.iter().filter(|r| r.ply == 2) {
            assert!(plain.contains(r), "{dice:?}: {r:?}");
        }
        assert_eq!(narrow[0].ply, 2, "{dice:?}");
        if at(&narrow, 1) > 0 {
            narrowed += 1;
        }
    }
    assert!(
        narrowed > 0,
        "the 1-ply pass drops a candidate on some rolls"
    );
}

/// The cube screen of rollouts: a double is out of reach only where the
/// static decision is far from one, and over a seeded game's positions
/// the 1-ply decision never doubles where the screen would have skipped
/// it (so a screened rollout plays the cube as an unscreened one there).
#[test]
fn a_double_out_of_reach_is_one_the_deeper_decision_would_not_make() {
    use kotra::search::CUBE_SCREEN_MARGIN;
    let eval = eval();
    let searcher = Searcher::new(&eval);
    let money = CubeState::money();
    // The last roll at 34/36 is a double/pass: within reach.
    assert!(!searcher.double_out_of_reach(&last_checkers(4, 1), &money, 1));
    // From the 20-point against one checker on the 1-point only 55 and
    // 66 win: no double by far.
    let behind = searcher
        .cube_decision(&last_checkers(20, 1), &money, 0)
        .decision;
    assert!(behind.no_double - behind.double_take > CUBE_SCREEN_MARGIN);
    assert!(searcher.double_out_of_reach(&last_checkers(20, 1), &money, 1));

    let mut rng = rand::rngs::SmallRng::seed_from_u64(74);
    let (mut pos, mut list) = (Position::starting(), MoveList::new());
    let (mut screened, mut asked) = (0, 0);
    while asked < 60 {
        if searcher.double_out_of_reach(&pos, &money, 1) {
            screened += 1;
            let deep = searcher.cube_decision(&pos, &money, 1).decision;
            assert!(
                !deep.should_double(),
                "{}: {deep:?}",
                position_id::encode(&pos)
            );
        }
        asked += 1;
        let dice = Dice::new(rng.random_range(1..=6), rng.random_range(1..=6)).unwrap();
        legal_moves(&pos, dice, &mut list);
        let best = searcher.best_move(&list, &money, &SearchSettings::world_class(0));
        pos = best.position.swap();
        if pos.is_game_over() {
            pos = Position::starting();
        }
    }
    assert!(screened > 10, "{screened} of {asked} cube turns screened");
}

/// A roll's luck is its value less the average roll's, so over the dice it
/// averages to zero, whatever the position and cube: what lets a duel take
/// it off its points without moving their expectation.
#[test]
fn a_rolls_luck_averages_to_zero_over_the_dice() {
    let e = eval();
    let s = Searcher::new(&e);
    let owned = CubeState {
        value: 4,
        owner: Owner::Roller,
        ..CubeState::money()
    };
    for (id, state) in [
        ("4HPwATDgc/ABMA", CubeState::money()),
        ("sGfwATDgc/ABMA", owned),
        ("sNvBAQDg2+ABEA", CubeState::money()),
    ] {
        let pos = position(id);
        let lucks: Vec<(f32, u32)> = Dice::all_rolls()
            .map(|(d, w)| (s.roll_luck(&pos, d, &state, false), w as u32))
            .collect();
        let mean: f32 = lucks.iter().map(|&(l, w)| l * w as f32 / 36.0).sum();
        assert!(mean.abs() < 1e-5, "{id}: {mean}");
        let spread = lucks.iter().map(|&(l, _)| l.abs()).fold(0f32, f32::max);
        assert!(spread > 0.01, "{id}: every roll alike");
    }
    // The opening roll is weighed against the other non-doubles only.
    let start = Position::starting();
    let mean: f32 = Dice::all_rolls()
        .filter(|(d, _)| !d.is_double())
        .map(|(d, w)| s.roll_luck(&start, d, &CubeState::money(), true) * w as f32 / 30.0)
        .sum();
    assert!(mean.abs() < 1e-5, "{mean}");
}
