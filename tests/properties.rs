//! Properties over many random positions: from random play (all phases)
//! and from random placements (checkers on the bar, odd endings).

use kotra::backgammon::{
    CubeOwner, Dice, MatchInfo, MoveList, Position, Setup, Side, legal_moves, legal_moves_reference,
};
use kotra::notation::{gnubg_id, parse_setup, position_id, xgid};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeSet;

/// Positions met in random games, from the mover's view.
fn random_game_positions(seed: u64, games: usize) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut list = MoveList::new();
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Position::starting();
        while !p.is_game_over() {
            out.push(p);
            let dice = Dice::new(rng.random_range(1..=6), rng.random_range(1..=6)).unwrap();
            legal_moves(&p, dice, &mut list);
            let pick = list.as_slice()[rng.random_range(0..list.len())].position;
            if pick.on_board(Side::Mover) == 0 {
                break;
            }
            p = pick.swap();
        }
    }
    out
}

/// Checkers scattered at random, often on the bar and in the home boards.
fn random_placements(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut me = [0u8; 25];
        let mut opp = [0u8; 25];
        let home_only = rng.random_bool(0.3);
        for side in [&mut me, &mut opp] {
            let count = rng.random_range(1..=15);
            for _ in 0..count {
                let slot = if rng.random_bool(0.08) {
                    24
                } else if home_only {
                    rng.random_range(0..6)
                } else {
                    rng.random_range(0..24)
                };
                side[slot] += 1;
            }
        }
        if let Ok(p) = Position::from_sides(&me, &opp) {
            out.push(p);
        }
    }
    out
}

fn all_positions() -> Vec<Position> {
    let mut v = random_game_positions(1, 150);
    v.extend(random_placements(2, 4000));
    v
}

#[test]
fn fast_generator_equals_the_literal_reference() {
    let mut fast = MoveList::new();
    let mut slow = MoveList::new();
    let mut checked = 0;
    for p in all_positions() {
        for (dice, _) in Dice::all_rolls() {
            legal_moves(&p, dice, &mut fast);
            legal_moves_reference(&p, dice, &mut slow);
            let a: BTreeSet<_> = fast.iter().map(|c| c.position).collect();
            let b: BTreeSet<_> = slow.iter().map(|c| c.position).collect();
            assert_eq!(a, b, "{} {dice}", position_id::encode(&p));
            assert_eq!(
                a.len(),
                fast.len(),
                "duplicates in {} {dice}",
                position_id::encode(&p)
            );
            checked += 1;
        }
    }
    assert!(checked > 50_000);
}

#[test]
fn checkers_are_conserved_and_pips_match_the_dice() {
    let mut list = MoveList::new();
    for p in all_positions() {
        let (my_pips, _) = p.pip_counts();
        for (dice, _) in Dice::all_rolls() {
            legal_moves(&p, dice, &mut list);
            for c in &list {
                let q = c.position;
                // Nothing appears or vanishes: checkers borne off are counted.
                assert_eq!(q.on_board(Side::Mover) + q.borne_off(Side::Mover), 15);
                assert_eq!(q.on_board(Side::Opponent), p.on_board(Side::Opponent));
                assert!(q.borne_off(Side::Mover) >= p.borne_off(Side::Mover));
                // The steps can be played in the order given, each legal alone.
                let mut r = p;
                for s in c.play.steps() {
                    let raw = r.raw();
                    assert!(raw[s.from as usize] > 0, "{s:?} from an empty point");
                    assert!(
                        raw[25] == 0 || s.from == 25,
                        "{s:?} while a checker is on the bar"
                    );
                    assert!(
                        s.to == 0 || raw[s.to as usize] >= -1,
                        "{s:?} onto a closed point"
                    );
                    r = r.apply_play(&kotra::backgammon::Play::from_steps(&[s]));
                }
                assert_eq!(r, q, "replaying the steps reaches the candidate");
                // The pip count drops by the pips the play moved.
                assert_eq!(my_pips - q.pip_counts().0, c.play.pips_moved());
                // Each step uses one die: exactly, or less when bearing off.
                let mut dice_left: Vec<u8> = if dice.is_double() {
                    vec![dice.high(); 4]
                } else {
                    vec![dice.high(), dice.low()]
                };
                for s in c.play.steps() {
                    let dist = s.from - s.to;
                    let k = dice_left
                        .iter()
                        .position(|&d| d == dist || (s.to == 0 && d > dist))
                        .unwrap_or_else(|| panic!("step {s:?} fits no die of {dice}"));
                    dice_left.remove(k);
                }
            }
        }
    }
}

#[test]
fn position_ids_round_trip_bar_included() {
    let mut with_bar = 0;
    for p in all_positions() {
        let id = position_id::encode(&p);
        assert_eq!(position_id::decode(&id).unwrap(), p, "{id}");
        assert_eq!(
            position_id::decode(&position_id::encode(&p.swap())).unwrap(),
            p.swap()
        );
        with_bar += usize::from(p.mover_at(25) > 0 || p.opponent_at(0) > 0);
    }
    assert!(with_bar > 500, "{with_bar}");
}

fn random_info(rng: &mut SmallRng) -> MatchInfo {
    let length = [0u32, 0, 1, 3, 5, 7, 25][rng.random_range(0..7)];
    let on_roll = rng.random_range(0..2u8);
    let rolled = rng.random_bool(0.5);
    let dice = if rolled {
        [rng.random_range(1..=6), rng.random_range(1..=6)]
    } else {
        [0, 0]
    };
    MatchInfo {
        cube_value: 1 << rng.random_range(0..7),
        cube_owner: [
            CubeOwner::Centered,
            CubeOwner::Player(0),
            CubeOwner::Player(1),
        ][rng.random_range(0..3)],
        on_roll,
        crawford: false,
        game_state: 1,
        turn: on_roll,
        doubled: false,
        resigned: 0,
        dice,
        match_length: length,
        score: if length > 0 {
            [rng.random_range(0..length), rng.random_range(0..length)]
        } else {
            [0, 0]
        },
        jacoby: length == 0 && rng.random_bool(0.5),
    }
}

#[test]
fn match_ids_gnubg_ids_and_xgids_round_trip_and_agree() {
    let mut rng = SmallRng::seed_from_u64(3);
    for p in all_positions().into_iter().step_by(7) {
        let setup = Setup {
            position: p,
            info: random_info(&mut rng),
        };
        let mid = setup.info.encode();
        assert_eq!(MatchInfo::decode(&mid).unwrap(), setup.info, "{mid}");
        let gid = gnubg_id::encode(&setup);
        assert_eq!(gnubg_id::decode(&gid).unwrap(), setup);
        // The XGID of a setup describes the same setup as its gnubg ID.
        let x = xgid::encode(&setup);
        assert_eq!(xgid::decode(&x).unwrap(), setup, "{x} vs {gid}");
        assert_eq!(parse_setup(&x).unwrap(), parse_setup(&gid).unwrap());
    }
}

/// The evaluator's quick test for back games and crashed boards agrees
/// with the game-plan classification on every position with contact, and
/// its one-pass count of checkers off with the per-side one; a plan is the
/// same seen from either side.
#[test]
fn quick_crashed_test_agrees_with_the_game_plan() {
    use kotra::eval::game_plan::GamePlan;
    let mut positions = random_game_positions(7, 200);
    positions.extend(random_placements(8, 5000));
    let mut crashed = 0;
    for p in positions.iter().filter(|p| p.has_contact()) {
        assert_eq!(
            p.borne_off_both(),
            (p.borne_off(Side::Mover), p.borne_off(Side::Opponent))
        );
        assert_eq!(GamePlan::of(p), GamePlan::of(&p.swap()), "{p:?}");
        let slow = GamePlan::of(p).is_crashed();
        assert_eq!(GamePlan::is_crashed_contact(p), slow, "{p:?}");
        crashed += usize::from(slow);
    }
    assert!(crashed > 100, "only {crashed} crashed positions");
}

/// The cube as the search and the rollouts book it (`CubeState`: doubled,
/// cash, the value of a result) follows the rules the referee enforces
/// (`GameState`): in random money games with random doubles, takes and
/// passes, with and without the Jacoby rule and automatic doubles, the two
/// agree on who may double, on the cube after a take, on what a pass
/// cashes and on what the game's result is worth.
#[test]
fn the_cube_states_of_search_and_rollouts_follow_the_referee() {
    use kotra::backgammon::cube::CubeRules;
    use kotra::backgammon::{GameState, Phase};
    use kotra::cube::CubeState;
    let (mut passes, mut takes, mut ends) = (0, 0, 0);
    for seed in 0..300u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let rules = CubeRules {
            jacoby: seed % 2 == 0,
            automatic_doubles: seed % 3 == 0,
            ..CubeRules::default()
        };
        let mut game = GameState::new(rules, true, false);
        while !game
            .opening_roll(rng.random_range(1..=6), rng.random_range(1..=6))
            .unwrap()
        {}
        let seen = |game: &GameState| CubeState::from_setup(&game.setup(0, [0, 0]));
        let mut opening = true;
        loop {
            if !opening {
                let state = seen(&game);
                let may = game.cube.can_double(game.on_roll, false, false).is_ok();
                assert_eq!(state.roller_may_double(), may, "seed {seed}");
                if may && state.value < 1024 && rng.random_bool(0.05) {
                    game.double().unwrap();
                    if rng.random_bool(0.7) {
                        game.take().unwrap();
                        assert_eq!(seen(&game), state.doubled(), "seed {seed}");
                        takes += 1;
                    } else {
                        let roller = game.on_roll;
                        game.pass().unwrap();
                        let Phase::Over(outcome) = game.phase() else {
                            panic!("a pass ends the game")
                        };
                        assert_eq!(outcome.winner, roller);
                        assert_eq!(outcome.points as f32, state.cash(), "seed {seed}");
                        passes += 1;
                        break;
                    }
                }
                let dice = Dice::new(rng.random_range(1..=6), rng.random_range(1..=6)).unwrap();
                game.roll(dice).unwrap();
            }
            opening = false;
            let before = seen(&game);
            let mover = game.on_roll;
            game.play_chosen(|_, list| rng.random_range(0..list.len()))
                .unwrap();
            if let Phase::Over(outcome) = game.phase() {
                assert_eq!(outcome.winner, mover);
                assert_eq!(
                    outcome.points as f32,
                    before.result_value(outcome.result, true),
                    "seed {seed}: {outcome:?} under {before:?}"
                );
                ends += 1;
                break;
            }
        }
    }
    assert!(
        passes > 20 && takes > 50 && ends > 50,
        "{passes} {takes} {ends}"
    );
}
