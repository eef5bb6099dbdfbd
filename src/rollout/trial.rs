//! One rollout trial: a game played out from the start position.

use super::{RolloutSettings, Strata};
use crate::backgammon::{Candidate, Dice, GameResult, MoveList, Position, legal_moves};
use crate::cube::LeafCube;
use crate::cube::{CubeState, TakeAnswer};
use crate::eval::{FirstLayerMemo, PositionClass, Probs};
use crate::search::{OnePlyPass, Preselection, SearchSettings, Searcher};
use crate::seed::splitmix;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// The most cube states one rollout carries.
pub const MAX_STATES: usize = 4;

/// Games longer than this are scored by the evaluator where they stand.
const MAX_HALF_MOVES: u32 = 1000;

/// A trial's outcome for the start position's roller, luck removed.
#[derive(Clone, Copy, Debug)]
pub struct TrialResult {
    pub probs: [f64; 5],
    pub equity: f64,
    /// Points won per cube state (cube value included).
    pub cubeful: [f64; MAX_STATES],
}

/// How many of a roll's candidates [`Trial`]'s 0-ply choice evaluates
/// together.
const BEST_OF_BATCH: usize = 8;

pub struct Trial<'a> {
    searcher: &'a Searcher<'a>,
    settings: RolloutSettings,
    /// The searching play's filters (the rollout's own first filter).
    search: SearchSettings,
    states: Vec<CubeState>,
    strata: Strata,
}

/// The running totals of one trial, all from the start roller's view.
struct Books {
    luck: [f64; 5],
    luck_equity: f64,
    cube: [CubeState; MAX_STATES],
    /// Set once a cube state's game is over (a pass, or the end).
    settled: [Option<f64>; MAX_STATES],
    cube_luck: [f64; MAX_STATES],
}

impl<'a> Trial<'a> {
    pub fn new(
        searcher: &'a Searcher<'a>,
        settings: &RolloutSettings,
        states: &[CubeState],
    ) -> Trial<'a> {
        assert!(
            states.len() <= MAX_STATES,
            "at most {MAX_STATES} cube states"
        );
        Trial {
            searcher,
            settings: *settings,
            search: SearchSettings {
                first: settings.move_filter(),
                middle: settings.one_ply_pass().and_then(OnePlyPass::filter),
                ..SearchSettings::world_class(settings.ply)
            },
            states: states.to_vec(),
            strata: Strata::new(settings.seed, 6),
        }
    }

    pub fn play(&self, start: &Position, index: u32) -> TrialResult {
        let seed = splitmix(self.settings.seed ^ splitmix(index as u64 + 1));
        let mut rng = SmallRng::seed_from_u64(seed);
        let n = self.states.len();
        let mut books = Books {
            luck: [0.0; 5],
            luck_equity: 0.0,
            cube: [CubeState::money(); MAX_STATES],
            settled: [None; MAX_STATES],
            cube_luck: [0.0; MAX_STATES],
        };
        books.cube[..n].copy_from_slice(&self.states);
        let mut pos = *start;
        let mut mine = true;
        let mut list = MoveList::new();
        // The game may be over before the first roll: a candidate
        // move that bore off the last checker is rolled out from the
        // opponent's turn, and the mover's win (with its gammon or
        // backgammon) is the whole trial.
        if let Some(result) = GameResult::of_mover_win(&pos.swap()) {
            let values: [f64; MAX_STATES] = std::array::from_fn(|j| {
                if j < n {
                    books.cube[j].swapped().result_value(result, true) as f64
                } else {
                    0.0
                }
            });
            return self.finish(&books, Probs::won(result), !mine, values);
        }
        for half_move in 0..=MAX_HALF_MOVES {
            let truncated = self.settings.truncate.is_some_and(|t| half_move >= t)
                || half_move == MAX_HALF_MOVES;
            if truncated || PositionClass::of(&pos) == PositionClass::BearOff {
                let p = self.searcher.probs(&pos);
                let mut leaf = LeafCube::new(&pos, &p);
                let values: [f64; MAX_STATES] = std::array::from_fn(|j| {
                    if j < n {
                        leaf.static_value(&books.cube[j]) as f64
                    } else {
                        0.0
                    }
                });
                return self.finish(&books, p, mine, values);
            }
            self.cube_actions(&pos, mine, &mut books);
            let (a, b) = match half_move {
                0 => self.strata.first(index),
                1 => self.strata.second(index),
                _ => (rng.random_range(1..=6), rng.random_range(1..=6)),
            };
            let dice = Dice::new(a, b).expect("1..=6");
            let after = self.play_roll(&pos, dice, mine, &mut list, &mut books);
            if let Some(result) = GameResult::of_mover_win(&after) {
                let values: [f64; MAX_STATES] = std::array::from_fn(|j| {
                    if j < n {
                        books.cube[j].result_value(result, true) as f64
                    } else {
                        0.0
                    }
                });
                // The mover won: its view is the "roller" view of `finish`.
                return self.finish(&books, Probs::won(result), mine, values);
            }
            pos = after.swap();
            mine = !mine;
            for c in books.cube.iter_mut().take(n) {
                *c = c.swapped();
            }
        }
        unreachable!("the loop returns at MAX_HALF_MOVES")
    }

    /// Doubles and takes or passes for each cube state still in play, by
    /// cube decisions at the checker play's depth, asked only where the
    /// static decision leaves a double within reach.
    fn cube_actions(&self, pos: &Position, mine: bool, books: &mut Books) {
        let sign = if mine { 1.0 } else { -1.0 };
        for j in 0..self.states.len() {
            if books.settled[j].is_some()
                || !books.cube[j].roller_may_double()
                || self
                    .searcher
                    .double_out_of_reach(pos, &books.cube[j], self.settings.ply)
            {
                continue;
            }
            let d = self
                .searcher
                .cube_decision(pos, &books.cube[j], self.settings.ply)
                .decision;
            if !d.should_double() {
                continue;
            }
            if d.take == TakeAnswer::Pass {
                books.settled[j] = Some(sign * books.cube[j].cash() as f64 - books.cube_luck[j]);
            } else {
                books.cube[j] = books.cube[j].doubled();
            }
        }
    }

    /// Plays `dice` from `pos` and books the roll's luck.
    fn play_roll(
        &self,
        pos: &Position,
        dice: Dice,
        mine: bool,
        list: &mut MoveList,
        books: &mut Books,
    ) -> Position {
        let vr = self.settings.variance_reduction;
        // The play: the 0-ply best, or the search's at a higher ply. The
        // roll's luck is weighed apart, by `luck_value`.
        let after = if self.settings.ply == 0 {
            self.best_0ply(pos, dice, list)
        } else {
            legal_moves(pos, dice, list);
            self.searcher
                .best_move(list, &CubeState::money(), &self.search)
                .position
        };
        if vr {
            let mut mean = Probs::default();
            let mut actual = Probs::default();
            // A searching rollout takes each roll's value from its search
            // (`Searcher::reply_probs`, the tree's own replies from its
            // PubEval pre-selection): the search of the move before
            // walked them, so they are kept.
            let searched = (self.settings.ply > 0).then(|| self.searcher.reply_probs(pos));
            for (i, (roll, weight)) in Dice::all_rolls().enumerate() {
                let p = match &searched {
                    Some(probs) => probs[i],
                    None => self.luck_value(pos, roll, list),
                };
                if roll == dice {
                    actual = p;
                }
                mean.add_scaled(&p, weight as f32 / 36.0);
            }
            let (actual, mean) = if mine {
                (actual, mean)
            } else {
                (actual.flip(), mean.flip())
            };
            for k in 0..5 {
                books.luck[k] += (actual.0[k] - mean.0[k]) as f64;
            }
            let luck = (actual.equity() - mean.equity()) as f64;
            books.luck_equity += luck;
            for j in 0..self.states.len() {
                if books.settled[j].is_none() {
                    books.cube_luck[j] += luck * books.cube[j].value as f64;
                }
            }
        }
        after
    }

    /// The 0-ply cubeless best play of `dice`.
    fn best_0ply(&self, pos: &Position, dice: Dice, list: &mut MoveList) -> Position {
        legal_moves(pos, dice, list);
        self.best_of(list.as_slice(), 0..list.len()).0
    }

    /// What the luck adjustment counts a roll as worth to the mover: the
    /// 0-ply probabilities after the best of the candidates the searcher's
    /// pre-selection keeps, the reply its tree would make, so that a 0-ply
    /// rollout values each roll as a searching one does. Any function of
    /// the roll keeps the estimate unbiased (its average over the 21 rolls
    /// is subtracted); this one costs a few network evaluations a roll
    /// instead of every candidate's.
    fn luck_value(&self, pos: &Position, dice: Dice, list: &mut MoveList) -> Probs {
        legal_moves(pos, dice, list);
        let moves = list.as_slice();
        let mut preselection = Preselection::new();
        let (by, keep) = self.searcher.preselection();
        match preselection.choose(pos, moves, keep, by, self.searcher.long_lists()) {
            Some(chosen) => self.best_of(moves, chosen).1,
            None => self.best_of(moves, 0..moves.len()).1,
        }
    }

    /// The candidate of `indices` with the highest 0-ply cubeless equity
    /// (the first of equals), and the mover's probabilities after it.
    /// Evaluated directly, not through the search's cache: a trial's
    /// positions seldom repeat, and the cache's slot lock (a random line of
    /// a large table) was a tenth of a plain 0-ply rollout's time.
    fn best_of(
        &self,
        moves: &[Candidate],
        indices: impl Iterator<Item = usize>,
    ) -> (Position, Probs) {
        let mut best = (moves[0].position, Probs::default(), f32::NEG_INFINITY);
        let mut consider = |position: Position, p: Probs| {
            let e = p.equity();
            if e > best.2 {
                best = (position, p, e);
            }
        };
        let eval = self.searcher.evaluator();
        if !eval.batches_exactly() {
            let mut memo = FirstLayerMemo::new();
            for i in indices {
                let position = moves[i].position;
                consider(position, eval.after_candidate(&position, &mut memo));
            }
            return (best.0, best.1);
        }
        // The same probabilities a batch at a time.
        let mut indices = indices.peekable();
        let mut afters = [moves[0].position; BEST_OF_BATCH];
        let mut probs = [Probs::default(); BEST_OF_BATCH];
        while indices.peek().is_some() {
            let mut n = 0;
            for (a, i) in afters.iter_mut().zip(indices.by_ref()) {
                *a = moves[i].position;
                n += 1;
            }
            eval.after_move_batch(&afters[..n], &mut probs[..n]);
            for (&a, &p) in afters[..n].iter().zip(&probs) {
                consider(a, p);
            }
        }
        (best.0, best.1)
    }

    /// The result, luck removed. `p` and `values` are from the view of the
    /// side to roll (or the mover who just won) when the trial ended;
    /// `mine` says whether that is the start roller.
    fn finish(
        &self,
        books: &Books,
        p: Probs,
        mine: bool,
        values: [f64; MAX_STATES],
    ) -> TrialResult {
        let (p, sign) = if mine { (p, 1.0) } else { (p.flip(), -1.0) };
        let probs = std::array::from_fn(|k| p.0[k] as f64 - books.luck[k]);
        let equity = p.equity() as f64 - books.luck_equity;
        let cubeful = std::array::from_fn(|j| match books.settled[j] {
            Some(v) => v,
            None => sign * values[j] - books.cube_luck[j],
        });
        TrialResult {
            probs,
            equity,
            cubeful,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Evaluator, shipped_model};

    /// The batched 0-ply choice is the plain one, with the same
    /// probabilities bit for bit: every candidate evaluated alone, the
    /// first of equals kept, along a seeded game's rolls (finishing moves
    /// and bear-offs included).
    #[test]
    fn the_batched_choice_is_each_candidate_evaluated_alone() {
        let eval = Evaluator::new(shipped_model().unwrap());
        assert!(eval.batches_exactly());
        let searcher = Searcher::new(&eval);
        let trial = Trial::new(&searcher, &RolloutSettings::default(), &[]);
        let (mut pos, mut list) = (Position::starting(), MoveList::new());
        let mut rng = SmallRng::seed_from_u64(3);
        let mut games = 0;
        for _ in 0..600 {
            let dice = Dice::new(rng.random_range(1..=6), rng.random_range(1..=6)).unwrap();
            legal_moves(&pos, dice, &mut list);
            let moves = list.as_slice();
            let got = trial.best_of(moves, 0..moves.len());
            let mut want = (moves[0].position, Probs::default(), f32::NEG_INFINITY);
            for c in moves {
                let p = eval.after_move(&c.position);
                if p.equity() > want.2 {
                    want = (c.position, p, p.equity());
                }
            }
            assert_eq!(got, (want.0, want.1));
            pos = got.0.swap();
            if pos.is_game_over() {
                (pos, games) = (Position::starting(), games + 1);
            }
        }
        assert!(games >= 3, "{games} games finished");
    }
}
