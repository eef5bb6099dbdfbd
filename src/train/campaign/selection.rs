//! Choosing the positions worth storing, as gnubg's training set was
//! chosen: where the network alone (0-ply) and the 2-ply search over it
//! disagree, the network is wrong about something the search can see, so
//! the positions of that decision are the ones to teach it, labelled by
//! the search.
//!
//! A teacher game is played at 0-ply with a little noise (to reach
//! positions greedy play never does); every checker decision with a
//! choice is also ranked at 2-ply with gnubg's world-class filters, and
//! where the 0-ply choice loses at least `threshold` by the search's
//! values, the positions after both choices and after a few more of the
//! search's candidates are kept. In the doubling window the cube action
//! is compared the same way, and a position whose 0-ply action the
//! search corrects is kept. Each kept position is labelled by a search
//! `label_ply` deep: the 2-ply values that chose it, or a 3-ply search
//! that sees a roll further than the teacher's own 2-ply.
//!
//! A 2-ply search sees two rolls ahead, which is not far enough where
//! the game turns on timing (back games, holding games, crashed boards)
//! or where the cube's decisions rest on the exact chances (the doubling
//! window). So every `rollout_every`-th game also gives one such position
//! rolled out to the end, a small stratum of targets that look further.

use crate::backgammon::cube::CubeRules;
use crate::backgammon::{GameResult, GameState, MoveList, Phase, Position};
#[cfg(test)]
use crate::cube::CubeAction;
use crate::cube::{CubeDecision, CubeState};
use crate::eval::game_plan::{GamePlan, is_timing_battle};
use crate::eval::{Evaluator, FirstLayerMemo, NetKind, Probs};
use crate::players::duel::roll_for_turn;
use crate::search::{Preselector, RankedMove, SearchSettings, Searcher};
use crate::train::database::{Origin, Record};
use crate::train::rollout_targets::rolled_out;
use crate::train::selfplay::{MovePolicy, Sample};
use crate::train::win_window;
use rand::RngExt;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;

/// How positions are chosen and labelled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Selection {
    /// The least equity the 0-ply choice must lose by the search's values
    /// for a decision to be kept (cube decisions in units of the cube).
    pub threshold: f32,
    /// Candidates kept beside the two choices, best first among those the
    /// search valued at 2-ply.
    pub siblings: usize,
    /// Replies PubEval pre-selects inside the search tree (0 = all).
    pub prune: usize,
    /// The roller's 0-ply cubeless win chance within which the cube
    /// action is searched.
    pub cube_window: [f32; 2],
    /// The teacher's move noise (standard deviation of the equity noise).
    pub noise: f32,
    /// Most turns a game is played for before it is abandoned.
    pub max_turns: usize,
    /// One game in this many gives a rolled-out position (0 = none).
    pub rollout_every: u64,
    /// One game in this many also gives a position of a timing battle
    /// ([`is_timing_battle`]) rolled out, where it reaches one (0 = none).
    pub timing_every: u64,
    /// Trials of each rollout (0-ply, variance reduction, to the end).
    pub rollout_trials: u32,
    /// The depth a kept position's target is searched at: 2 takes the
    /// selection's own values, which cost nothing more; 3 looks a roll
    /// past what chose the position, so the network is taught something
    /// its own 2-ply search cannot already see (refining on its own
    /// 2-ply values reaches a fixed point).
    pub label_ply: u8,
}

impl Default for Selection {
    fn default() -> Selection {
        Selection {
            threshold: 0.01,
            siblings: 2,
            prune: crate::search::PUBEVAL_PRUNE,
            cube_window: [0.55, 0.95],
            noise: 0.05,
            max_turns: 400,
            rollout_every: 4,
            timing_every: 1,
            rollout_trials: 36,
            label_ply: 3,
        }
    }
}

impl Selection {
    /// How the targets are found, in words (the manifest's `labelling`).
    pub fn labelling(&self) -> String {
        let ply = self.label_ply;
        format!(
            "{ply}-ply cubeless money search (gnubg world-class filters; {} replies pre-selected by PubEval inside the tree); cube positions: the {ply}-ply cube search's cubeless probabilities",
            self.prune
        )
    }

    /// How positions are chosen, in words (the manifest's `selection`).
    pub fn selection(&self) -> String {
        format!(
            "teacher games at 0-ply with move noise {}; a checker decision is kept where the 0-ply choice loses at least {} by 2-ply values (after-states of both choices and {} more 2-ply candidates); a cube decision where the roller's 0-ply win chance is within {:?} and the 0-ply action loses at least {} by 2-ply values (the position before the roll); one game in {} gives a position of a hard game plan or the doubling window {:?} rolled out, and one game in {} a position of a timing battle ({TIMING_BATTLE}) ({})",
            self.noise,
            self.threshold,
            self.siblings,
            self.cube_window,
            self.threshold,
            self.rollout_every,
            ROLLOUT_WINDOW,
            self.timing_every,
            self.rollout_words()
        )
    }

    /// How every rolled-out target is found, in words.
    pub(super) fn rollout_words(&self) -> String {
        format!(
            "{} trials, 0-ply, variance reduction, to the end",
            self.rollout_trials
        )
    }
}

/// A timing battle ([`is_timing_battle`]), in words.
pub(super) const TIMING_BATTLE: &str =
    "both sides priming a checker, or a side priming one while on the bar";

/// The roller's win chance in which a position may be rolled out
/// (beside any position of a hard game plan).
const ROLLOUT_WINDOW: [f32; 2] = [0.55, 0.9];

/// Which rolled-out positions a game gives beside its searched ones.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rollouts {
    /// One position of a hard game plan or the doubling window.
    pub hard: bool,
    /// One position of a timing battle, where the game reaches one.
    pub timing: bool,
}

impl Rollouts {
    /// The rollouts game `g` of a batch gives under `how`.
    pub fn of_game(how: &Selection, g: u64) -> Rollouts {
        let every = |n: u64| n > 0 && g.is_multiple_of(n);
        Rollouts {
            hard: every(how.rollout_every),
            timing: every(how.timing_every),
        }
    }
}

/// What one game gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameYield {
    pub records: Vec<Record>,
    /// Decisions searched (checker plays with a choice, cube decisions in
    /// the window).
    pub decisions: u64,
    /// Of those, the ones kept.
    pub disagreements: u64,
}

/// The teacher, its two searches (cubeless for checker play, cubeful for
/// the cube) and the settings.
pub struct Selector<'a> {
    eval: &'a Evaluator,
    moves: Searcher<'a>,
    cube: Searcher<'a>,
    how: Selection,
}

impl<'a> Selector<'a> {
    pub fn new(eval: &'a Evaluator, how: Selection) -> Selector<'a> {
        Selector {
            eval,
            moves: Searcher::new(eval)
                .with_preselection(Preselector::PubEval, how.prune)
                .with_cubeless(true),
            cube: Searcher::new(eval).with_preselection(Preselector::PubEval, how.prune),
            how,
        }
    }

    /// One teacher game from `rng`, with the positions it selects, and
    /// the rolled-out positions its `rollouts` ask for.
    pub fn play_game(&self, rng: &mut SmallRng, rollouts: Rollouts) -> GameYield {
        let mut out = GameYield::default();
        let mut game = GameState::new(CubeRules::default(), true, false);
        let policy = MovePolicy {
            exploration: 0.0,
            noise: self.how.noise,
        };
        let mut equities: Vec<f32> = Vec::with_capacity(64);
        let mut rollout_pool: Vec<Position> = Vec::new();
        let mut timing_pool: Vec<Position> = Vec::new();
        for turn in 0..self.how.max_turns {
            let dice = roll_for_turn(rng, turn);
            let rolled = if turn == 0 {
                game.opening_roll(dice.high(), dice.low()).map(|_| ())
            } else {
                self.cube_check(&game.position, &mut out);
                game.roll(dice)
            };
            debug_assert!(rolled.is_ok());
            let learns = self.eval.net_kind(&game.position).is_some();
            if rollouts.hard && learns && self.worth_rolling_out(&game.position) {
                rollout_pool.push(game.position);
            }
            if rollouts.timing && learns && is_timing_battle(&game.position) {
                timing_pool.push(game.position);
            }
            let played = game.play_chosen(|_, list| {
                let moves = list.as_slice();
                equities.clear();
                let mut memo = FirstLayerMemo::new();
                let mut best = (0, f32::NEG_INFINITY);
                for (i, c) in moves.iter().enumerate() {
                    let e = self.eval.after_candidate(&c.position, &mut memo).equity();
                    equities.push(e);
                    if e > best.1 {
                        best = (i, e);
                    }
                }
                if learns && moves.len() > 1 {
                    self.checker_check(list, best.0, &mut out);
                }
                policy.pick(rng, &equities, best.0)
            });
            debug_assert!(played.is_ok());
            if matches!(game.phase(), Phase::Over(_)) {
                break;
            }
        }
        for (pool, origin) in [
            (&rollout_pool, Origin::Rollout),
            (&timing_pool, Origin::TimingRollout),
        ] {
            if let Some(position) = pool.choose(rng) {
                out.records.push(self.rolled_out(*position, origin, rng));
            }
        }
        out
    }

    /// `position`'s record with a rollout's target.
    fn rolled_out(&self, position: Position, origin: Origin, rng: &mut SmallRng) -> Record {
        let target = self.rolled_out_label(&position, rng.random());
        Record::new(position, origin, target, 0.0)
    }

    /// The target of `pos` (the side on roll's view) rolled out as the
    /// selection rolls out its strata (`rollout_trials` trials, 0-ply,
    /// variance reduction, to the end), the trials' dice from `seed`:
    /// what relabelling gives a timing battle ([`super::relabel`]).
    pub fn rolled_out_label(&self, pos: &Position, seed: u64) -> Probs {
        let sample = Sample {
            position: *pos,
            kind: NetKind::Contact,
            target: Probs::default(),
        };
        rolled_out(&self.cube, &sample, self.how.rollout_trials, seed)
    }

    /// A contact position whose fate lies beyond a 2-ply search's sight:
    /// a hard game plan, or the doubling window.
    fn worth_rolling_out(&self, pos: &Position) -> bool {
        pos.has_contact()
            && (GamePlan::of(pos).is_hard()
                || win_window::contains(ROLLOUT_WINDOW, self.cube.probs(pos).win()))
    }

    /// Ranks the roll's moves at 2-ply; where the 0-ply choice `static_best`
    /// loses at least the threshold, keeps the positions after both choices
    /// and after the next `siblings` candidates valued at 2-ply.
    fn checker_check(&self, list: &MoveList, static_best: usize, out: &mut GameYield) {
        out.decisions += 1;
        let money = CubeState::money();
        let ranked = self
            .moves
            .rank_moves(list, &money, &SearchSettings::world_class(2));
        let Some(choice) = ranked.first().filter(|r| r.ply == 2) else {
            return;
        };
        let Some(static_choice) = ranked.iter().find(|r| r.index == static_best) else {
            return;
        };
        // The 0-ply best always survives the first filter, so it has a
        // 2-ply value too.
        let gap = choice.equity - static_choice.equity;
        if choice.index == static_best || static_choice.ply != 2 || gap < self.how.threshold {
            return;
        }
        out.disagreements += 1;
        let mut keep = |r: &RankedMove, origin| {
            if let Some(record) = self.after_state(r, origin, gap) {
                out.records.push(record);
            }
        };
        keep(choice, Origin::SearchChoice);
        keep(static_choice, Origin::StaticChoice);
        ranked
            .iter()
            .filter(|r| r.ply == 2 && r.index != choice.index && r.index != static_best)
            .take(self.how.siblings)
            .for_each(|r| keep(r, Origin::Sibling));
    }

    /// The record of the position after a ranked move, from the view of
    /// the side then on roll; none where the move ends the game or the
    /// position is an exact bear-off (nothing to learn).
    fn after_state(&self, r: &RankedMove, origin: Origin, gap: f32) -> Option<Record> {
        if GameResult::of_mover_win(&r.position).is_some() {
            return None;
        }
        let position = r.position.swap();
        self.eval.net_kind(&position)?;
        Some(Record::new(
            position,
            origin,
            self.label(&position, r.probs.flip()),
            gap,
        ))
    }

    /// The target of `pos` (the side on roll's view) whose 2-ply value is
    /// `two_ply`: that, or a deeper search's where the labels are deeper.
    /// The tree's cubeless probabilities do not depend on the cube (its
    /// replies are chosen by cubeless equity), so one search serves the
    /// checker and the cube positions alike.
    fn label(&self, pos: &Position, two_ply: Probs) -> Probs {
        if self.how.label_ply <= 2 {
            return two_ply;
        }
        self.searched_label(pos)
    }

    /// The target of `pos` (the side on roll's view) searched at
    /// `label_ply`, whatever labelled it before: what relabelling a
    /// stored position asks ([`super::relabel`]).
    pub fn searched_label(&self, pos: &Position) -> Probs {
        let mut v = [0f32];
        self.moves
            .evaluate(pos, &[CubeState::money()], self.how.label_ply, &mut v)
    }

    /// In the doubling window, the cube action at 0-ply against 2-ply
    /// (centred money cube); a disagreement by the threshold keeps the
    /// position with its 2-ply value.
    fn cube_check(&self, pos: &Position, out: &mut GameYield) {
        if self.eval.net_kind(pos).is_none() {
            return;
        }
        let win = self.cube.probs(pos).win();
        let [lo, hi] = self.how.cube_window;
        if !(lo..=hi).contains(&win) {
            return;
        }
        out.decisions += 1;
        let money = CubeState::money();
        let static_view = self.cube.cube_decision(pos, &money, 0);
        let searched = self.cube.cube_decision(pos, &money, 2);
        let gap = cube_gap(&static_view.decision, &searched.decision);
        if gap < self.how.threshold {
            return;
        }
        out.disagreements += 1;
        let target = self.label(pos, searched.probs);
        out.records
            .push(Record::new(*pos, Origin::CubeAction, target, gap));
    }
}

/// What following `static_view`'s actions costs by `searched`'s values:
/// the doubler's loss, or the taker's, whichever is larger (0 where the
/// two agree).
pub fn cube_gap(static_view: &CubeDecision, searched: &CubeDecision) -> f32 {
    let doubled = searched.double_take.min(searched.double_pass);
    let chosen = if static_view.should_double() {
        doubled
    } else {
        searched.no_double
    };
    let doubler = searched.optimal() - chosen;
    let taker = if static_view.take != searched.take {
        (searched.double_take - searched.double_pass).abs()
    } else {
        0.0
    };
    doubler.max(taker)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::with_legal_moves;
    use crate::eval::Model;
    use rand::SeedableRng;

    /// Every record of a game, checked against an independent search of
    /// its own: a kept checker decision's 0-ply choice really is the
    /// static best and loses at least the threshold at 2-ply, and every
    /// target is the 2-ply value of the position it is stored with.
    #[test]
    fn kept_positions_carry_their_own_2ply_values() {
        let eval = Evaluator::new(Model::load(std::path::Path::new("models/kotra.net")).unwrap());
        let how = Selection {
            threshold: 0.005,
            label_ply: 2,
            ..Selection::default()
        };
        let selector = Selector::new(&eval, how);
        let game = selector.play_game(&mut SmallRng::seed_from_u64(3), Rollouts::default());
        assert!(game.decisions > 20 && game.disagreements > 0, "{game:?}");
        assert!(game.disagreements < game.decisions);
        let search = Searcher::new(&eval)
            .with_preselection(Preselector::PubEval, how.prune)
            .with_cubeless(true);
        let mut v = [0f32];
        for r in &game.records {
            let value = search.evaluate(&r.position, &[CubeState::money()], 2, &mut v);
            for (a, b) in r.target.0.iter().zip(value.0) {
                assert!((a - b).abs() < 1e-5, "{r:?}: {value:?}");
            }
            assert!(r.gap >= how.threshold, "{r:?}");
            assert!(eval.net_kind(&r.position).is_some());
        }
        let choices = game
            .records
            .iter()
            .filter(|r| r.origin == Origin::SearchChoice)
            .count();
        let statics = game
            .records
            .iter()
            .filter(|r| r.origin == Origin::StaticChoice)
            .count();
        assert!(choices > 0 && choices.abs_diff(statics) <= game.disagreements as usize);
    }

    /// Deeper labels change the targets only: the same game keeps the same
    /// positions, each with its own 3-ply value.
    #[test]
    fn deeper_labels_keep_the_same_positions_with_their_3ply_values() {
        let eval = Evaluator::new(Model::load(std::path::Path::new("models/kotra.net")).unwrap());
        let how = |label_ply| Selection {
            threshold: 0.04,
            label_ply,
            ..Selection::default()
        };
        let game = |label_ply, seed| {
            Selector::new(&eval, how(label_ply))
                .play_game(&mut SmallRng::seed_from_u64(seed), Rollouts::default())
        };
        // The first game whose 0-ply play strays past the threshold: a
        // better network strays less, so no one seed is sure to.
        let seed = (11..41)
            .find(|&seed| !game(2, seed).records.is_empty())
            .expect("one of thirty games strays");
        let (two, three) = (game(2, seed), game(3, seed));
        assert_eq!(
            (two.decisions, two.disagreements),
            (three.decisions, three.disagreements)
        );
        assert_eq!(two.records.len(), three.records.len());
        assert!(!three.records.is_empty(), "{three:?}");
        let search = Searcher::new(&eval)
            .with_preselection(Preselector::PubEval, crate::search::PUBEVAL_PRUNE)
            .with_cubeless(true);
        let mut v = [0f32];
        let mut moved = 0;
        for (a, b) in two.records.iter().zip(&three.records) {
            assert_eq!((a.position, a.origin, a.gap), (b.position, b.origin, b.gap));
            let deep = search.evaluate(&b.position, &[CubeState::money()], 3, &mut v);
            assert_eq!(b.target, deep);
            moved += usize::from(a.target != b.target);
        }
        assert!(moved > 0, "3-ply labels differ from 2-ply ones somewhere");
    }

    #[test]
    fn a_rollout_game_adds_its_rolled_out_positions_and_plays_the_same_game() {
        let eval = Evaluator::new(Model::load(std::path::Path::new("models/kotra.net")).unwrap());
        let selector = Selector::new(&eval, Selection::default());
        let both = Rollouts {
            hard: true,
            timing: true,
        };
        // The first game that reaches a timing battle: about one game in
        // four does.
        let (plain, rolled) = (5..25)
            .map(|seed| {
                let play =
                    |rollouts| selector.play_game(&mut SmallRng::seed_from_u64(seed), rollouts);
                (play(Rollouts::default()), play(both))
            })
            .find(|(_, rolled)| {
                rolled
                    .records
                    .iter()
                    .any(|r| r.origin == Origin::TimingRollout)
            })
            .expect("one of twenty games reaches a timing battle");
        let (rollouts, searched): (Vec<Record>, Vec<Record>) =
            rolled.records.iter().partition(|r| r.origin.is_rollout());
        assert_eq!(searched, plain.records, "the rollouts come after the game");
        assert_eq!(rollouts.len(), 2);
        assert_eq!(rollouts[0].origin, Origin::Rollout);
        assert!(selector.worth_rolling_out(&rollouts[0].position));
        assert_eq!(rollouts[1].origin, Origin::TimingRollout);
        assert!(is_timing_battle(&rollouts[1].position));
        for r in rollouts {
            assert_eq!(r.target, r.target.consistent());
            // Thirty-six trials with variance reduction land near the
            // network.
            let net = eval.probs(&r.position);
            assert!((r.target.win() - net.win()).abs() < 0.25, "{r:?} {net:?}");
        }
    }

    #[test]
    fn a_games_rollouts_follow_its_number() {
        let how = Selection {
            rollout_every: 4,
            timing_every: 2,
            ..Selection::default()
        };
        let kinds = |g| {
            let s = Rollouts::of_game(&how, g);
            (s.hard, s.timing)
        };
        assert_eq!(kinds(0), (true, true));
        assert_eq!(kinds(2), (false, true));
        assert_eq!(kinds(3), (false, false));
        assert_eq!(kinds(8), (true, true));
        let none = Selection {
            rollout_every: 0,
            timing_every: 0,
            ..Selection::default()
        };
        assert_eq!(Rollouts::of_game(&none, 0), Rollouts::default());
    }

    #[test]
    fn an_agreed_decision_keeps_nothing_and_a_wrong_one_keeps_both_choices() {
        let eval = Evaluator::new(Model::load(std::path::Path::new("models/kotra.net")).unwrap());
        let static_best = |list: &MoveList| {
            let static_equity = |i: usize| {
                let after = &list.as_slice()[i].position;
                eval.after_candidate(after, &mut FirstLayerMemo::new())
                    .equity()
            };
            (0..list.len())
                .max_by(|&a, &b| static_equity(a).total_cmp(&static_equity(b)))
                .unwrap()
        };
        let dice = |a, b| crate::backgammon::Dice::new(a, b).unwrap();
        // The opening 31: 0-ply and 2-ply both make the 5-point.
        let selector = Selector::new(&eval, Selection::default());
        let mut out = GameYield::default();
        with_legal_moves(&Position::starting(), dice(3, 1), |list| {
            selector.checker_check(list, static_best(list), &mut out);
        });
        assert_eq!((out.decisions, out.disagreements), (1, 0));
        assert!(out.records.is_empty());
        // The opening 64, with the weakest move that the first filter lets
        // through to 2-ply claimed as the 0-ply choice: the search keeps
        // the decision, the after-states of both choices first.
        let every = Selector::new(
            &eval,
            Selection {
                threshold: 0.0,
                ..Selection::default()
            },
        );
        let mut out = GameYield::default();
        with_legal_moves(&Position::starting(), dice(6, 4), |list| {
            let ranked =
                every
                    .moves
                    .rank_moves(list, &CubeState::money(), &SearchSettings::world_class(2));
            let weakest = ranked.iter().rfind(|r| r.ply == 2).unwrap();
            assert!(weakest.index != ranked[0].index);
            every.checker_check(list, weakest.index, &mut out);
        });
        assert_eq!((out.decisions, out.disagreements), (1, 1));
        assert_eq!(out.records[0].origin, Origin::SearchChoice);
        assert_eq!(out.records[1].origin, Origin::StaticChoice);
        assert!((2..=4).contains(&out.records.len()));
        // Each from the opponent's view: the better move leaves it less.
        assert!(out.records[0].target.equity() < out.records[1].target.equity());
        assert!(out.records[0].gap > 0.0);
    }

    #[test]
    fn the_cube_gap_is_the_larger_of_the_doublers_and_the_takers_loss() {
        let d = |nd, dt, dp| CubeDecision::new(nd, dt, dp, true, false);
        let searched = d(0.6, 0.8, 1.0);
        assert_eq!(searched.action, CubeAction::DoubleTake);
        assert_eq!(cube_gap(&searched, &searched), 0.0);
        let static_view = d(0.6, 0.4, 1.0);
        assert_eq!(static_view.action, CubeAction::NoDouble);
        assert!((cube_gap(&static_view, &searched) - 0.2).abs() < 1e-6);
        // The static view passes what should be taken.
        let passes = d(0.6, 1.2, 1.0);
        assert!((cube_gap(&passes, &searched) - 0.2).abs() < 1e-6);
    }
}
