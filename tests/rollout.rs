//! Rollouts: reproducible on any thread count, luck adjustment unbiased and
//! sharper, cube decisions at the last roll.

use kotra::backgammon::Position;
use kotra::cube::{CubeAction, CubeState};
use kotra::eval::{Evaluator, shipped_model};
use kotra::rollout::{RolloutResult, RolloutSettings, cube_rollout, rollout};
use kotra::search::Searcher;

/// A short race: the roller has checkers on its 8 and 9 points, the
/// opponent on its 7 and 8 (plus a few home), everything else off.
fn race() -> Position {
    let (mut me, mut opp) = ([0u8; 25], [0u8; 25]);
    me[7] = 2;
    me[8] = 1;
    me[2] = 2;
    opp[6] = 1;
    opp[7] = 2;
    opp[1] = 2;
    Position::from_sides(&me, &opp).unwrap()
}

fn run(threads: usize, settings: RolloutSettings, states: &[CubeState]) -> RolloutResult {
    run_from(&race(), threads, settings, states)
}

fn run_from(
    start: &Position,
    threads: usize,
    settings: RolloutSettings,
    states: &[CubeState],
) -> RolloutResult {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let eval = Evaluator::new(shipped_model().unwrap());
        let searcher = Searcher::new(&eval);
        rollout(&searcher, start, true, states, &settings, &|_| {})
    })
}

#[test]
fn same_seed_same_numbers_on_any_thread_count() {
    let settings = RolloutSettings {
        trials: 144,
        seed: 7,
        ..RolloutSettings::default()
    };
    let states = [CubeState::money()];
    let a = run(1, settings, &states);
    assert_eq!(a, run(3, settings, &states));
    assert_ne!(
        a,
        run(
            1,
            RolloutSettings {
                seed: 8,
                ..settings
            },
            &states
        )
    );
}

#[test]
fn luck_adjustment_is_unbiased_and_sharper() {
    let with = run(
        2,
        RolloutSettings {
            trials: 1296,
            ..RolloutSettings::default()
        },
        &[],
    );
    let without = run(
        2,
        RolloutSettings {
            trials: 1296,
            variance_reduction: false,
            ..RolloutSettings::default()
        },
        &[],
    );
    let (a, b) = (with.probs[0], without.probs[0]);
    assert!(a.se < b.se / 2.0, "{a:?} {b:?}");
    let diff = (a.mean - b.mean).abs();
    assert!(
        diff < 4.0 * (a.se * a.se + b.se * b.se).sqrt(),
        "{a:?} {b:?}"
    );
    // The probabilities hang together: no gammons in this race.
    assert!(with.probs[1].mean.abs() < 1e-3 && with.probs[3].mean.abs() < 1e-3);
    assert!((with.cubeless.mean - (2.0 * a.mean - 1.0)).abs() < 1e-3);
}

#[test]
fn truncation_at_zero_is_the_static_evaluation() {
    let eval = Evaluator::new(shipped_model().unwrap());
    let searcher = Searcher::new(&eval);
    let settings = RolloutSettings {
        trials: 36,
        truncate: Some(0),
        ..RolloutSettings::default()
    };
    let r = rollout(&searcher, &race(), true, &[], &settings, &|_| {});
    let p = eval.probs(&race());
    assert!((r.probs[0].mean - p.win() as f64).abs() < 1e-6);
    assert_eq!(r.probs[0].se, 0.0);
}

#[test]
fn cube_rollout_cashes_the_last_roll() {
    let eval = Evaluator::new(shipped_model().unwrap());
    let searcher = Searcher::new(&eval);
    // One checker on the 4-point against one on the 1-point: 34/36.
    let (mut me, mut opp) = ([0u8; 25], [0u8; 25]);
    me[3] = 1;
    opp[0] = 1;
    let pos = Position::from_sides(&me, &opp).unwrap();
    let settings = RolloutSettings {
        trials: 72,
        ..RolloutSettings::default()
    };
    let (decision, result) = cube_rollout(
        &searcher,
        &pos,
        &CubeState::money(),
        &settings,
        &|_| {},
        &|| false,
    );
    assert_eq!(decision.action, CubeAction::DoublePass);
    // A bear-off: the database settles every trial at once, exactly.
    assert!(
        (result.probs[0].mean - 34.0 / 36.0).abs() < 1e-6,
        "{:?}",
        result.probs[0]
    );
    assert_eq!(result.probs[0].se, 0.0);
}

#[test]
fn a_truncated_cubeful_rollout_lets_the_roller_cash() {
    // A race the roller wins about nine times in ten, gammons gone (both
    // sides have borne off): past his cash point, so his static value is
    // the cash, as a search leaf counts it, not Janowski's no-double value
    // below it.
    let (mut me, mut opp) = ([0u8; 25], [0u8; 25]);
    me[1] = 4;
    me[6] = 1;
    opp[2] = 6;
    opp[7] = 1;
    let pos = Position::from_sides(&me, &opp).unwrap();
    let eval = Evaluator::new(shipped_model().unwrap());
    let searcher = Searcher::new(&eval);
    let p = eval.probs(&pos);
    assert!(p.win() > 0.85 && p.0[1] == 0.0, "{p:?}");
    let state = CubeState::money();
    let no_double = kotra::cube::leaf_value(&pos, &p, &state);
    assert!(no_double < 0.99, "Janowski alone: {no_double} {p:?}");
    let settings = RolloutSettings {
        trials: 36,
        truncate: Some(0),
        ..RolloutSettings::default()
    };
    let r = rollout(&searcher, &pos, true, &[state], &settings, &|_| {});
    assert_eq!(r.cubeful[0].mean, 1.0, "{:?}", r.cubeful[0]);
}

/// From the opening position most rolls have more plays than the luck
/// adjustment weighs with the network (PubEval pre-selects them).
#[test]
fn luck_adjustment_over_preselected_plays_is_unbiased_and_sharper() {
    let truncated = |trials, variance_reduction| {
        let settings = RolloutSettings {
            trials,
            truncate: Some(4),
            variance_reduction,
            ..RolloutSettings::default()
        };
        run_from(&Position::starting(), 2, settings, &[]).probs[0]
    };
    let (with, without) = (truncated(288, true), truncated(2592, false));
    assert!(with.se < without.se / 2.0, "{with:?} {without:?}");
    let diff = (with.mean - without.mean).abs();
    assert!(
        diff < 4.0 * (with.se * with.se + without.se * without.se).sqrt(),
        "{with:?} {without:?}"
    );
}

/// A searching rollout's move filter is what its search values: one that
/// lets a single move through leaves nothing to search, so a 1-ply
/// rollout through it plays the 0-ply rollout's games to the last digit,
/// and a wider one plays other moves. To the last digit also because the
/// luck adjustment values each roll alike, whether through the search's
/// cache (ply 1) or evaluating the candidates directly (ply 0).
#[test]
fn a_one_move_filter_plays_the_0ply_rollout() {
    use kotra::search::MoveFilter;
    let eval = Evaluator::new(shipped_model().unwrap());
    let searcher = Searcher::new(&eval).with_cubeless(true);
    let start = Position::starting();
    let settings = |ply, keep| RolloutSettings {
        trials: 36,
        ply,
        filter: Some(MoveFilter { keep, window: 1.0 }),
        truncate: Some(8),
        seed: 3,
        ..RolloutSettings::default()
    };
    // No cube states: a cube decision at 1-ply is not one at 0-ply.
    let roll = |s: RolloutSettings| rollout(&searcher, &start, true, &[], &s, &|_| {});
    let flat = roll(settings(0, 8));
    assert_eq!(roll(settings(1, 1)), flat);
    assert_ne!(roll(settings(1, 3)), flat);
}

/// A 2-ply rollout's 1-ply pass is what its search values next: one
/// that lets a single move through leaves nothing for 2-ply, so the
/// rollout plays the games of a 1-ply rollout through the same first
/// filter to the last digit (no cube states: a cube decision at 2-ply is
/// not one at 1-ply), and a pass that lets two through, or none at all,
/// plays other moves.
#[test]
fn a_one_move_one_ply_pass_plays_the_1ply_rollout() {
    use kotra::search::{MoveFilter, OnePlyPass};
    let eval = Evaluator::new(shipped_model().unwrap());
    let searcher = Searcher::new(&eval).with_cubeless(true);
    let start = Position::starting();
    let settings = |ply, middle| RolloutSettings {
        trials: 36,
        ply,
        filter: Some(MoveFilter {
            keep: 8,
            window: 0.16,
        }),
        middle,
        truncate: Some(4),
        seed: 5,
        ..RolloutSettings::default()
    };
    let pass = |keep| Some(OnePlyPass::Filter(MoveFilter { keep, window: 1.0 }));
    let roll = |s: RolloutSettings| rollout(&searcher, &start, true, &[], &s, &|_| {});
    let one_ply = roll(settings(1, None));
    assert_eq!(roll(settings(2, pass(1))), one_ply);
    assert_ne!(roll(settings(2, pass(2))), one_ply);
    assert_ne!(roll(settings(2, Some(OnePlyPass::Skip))), one_ply);
}
