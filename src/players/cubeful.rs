//! Money games with the cube between two searching players, on mirrored
//! dice: each side doubles, answers doubles and moves by its own cubeful
//! search, and the rules' referee ([`GameState`]) keeps the game (who may
//! double, the cube's value, the points of a pass or a result). A cube
//! model or a network is judged here by the points it wins with the cube
//! in play, which a cubeless duel cannot show.
//!
//! Mirrored dice cancel the luck of a pair's games only while they stay
//! alike; once the players' choices part, each game's luck is its own, and
//! it is most of the spread of the points. A duel may therefore also count
//! every roll's luck as a judge sees it ([`Searcher::roll_luck`]: the value
//! after the roll's best move, less the average roll's, times the cube) and
//! report the points with it removed, as gnubg's rollouts remove theirs.
//! Whatever the judge, a roll's luck averages to zero over the dice, so
//! the adjusted points estimate the same expectation; the better the judge
//! values positions, the less of the spread is left.

use super::duel::{JudgedDuelResult, judged_pairs, roll_for_turn};
use crate::backgammon::cube::CubeRules;
use crate::backgammon::{GameState, Phase};
use crate::cube::{CubeState, CubeTuning, TakeAnswer};
use crate::eval::Evaluator;
use crate::search::{LongLists, MoveFilter, Preselector, SearchSettings, Searcher};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// A game still going after this many turns is scored as a draw.
const MAX_TURNS: usize = 10_000;

/// A network searching at a ply for its moves and its cube decisions
/// (0 = the network alone, as gnubg counts plies).
pub struct CubefulPlayer<'a> {
    searcher: Searcher<'a>,
    ply: u8,
    /// The checker play's filters: the analysis' unless a first filter
    /// (what a rollout's play uses, say) replaces it to be judged by play.
    settings: SearchSettings,
    /// Whether its cube turns are screened as a rollout's are
    /// ([`Searcher::double_out_of_reach`]), to be judged by play.
    cube_screen: bool,
}

impl<'a> CubefulPlayer<'a> {
    pub fn new(eval: &'a Evaluator, ply: u8) -> CubefulPlayer<'a> {
        CubefulPlayer {
            searcher: Searcher::new(eval),
            ply,
            settings: SearchSettings::world_class(ply),
            cube_screen: false,
        }
    }

    /// This player's cube model, where not the shipped one (see
    /// [`Searcher::with_cube_tuning`]).
    pub fn with_cube_tuning(mut self, tuning: CubeTuning) -> CubefulPlayer<'a> {
        self.searcher = self.searcher.with_cube_tuning(tuning);
        self
    }

    /// Cube turns screened by the static decision, as in a rollout: the
    /// decision at the player's ply is asked only where a double is
    /// within reach.
    pub fn with_cube_screen(mut self, screen: bool) -> CubefulPlayer<'a> {
        self.cube_screen = screen;
        self
    }

    /// Checker play through `first` after the 0-ply pass instead of
    /// [`SearchSettings::world_class`]'s filter.
    pub fn with_first_filter(mut self, first: MoveFilter) -> CubefulPlayer<'a> {
        self.settings.first = first;
        self
    }

    /// At 2-ply or deeper, a 1-ply pass between the 0-ply pass and the
    /// deeper one, keeping what `middle` lets through (`None`: no 1-ply
    /// pass, the analysis' way); see [`SearchSettings::middle`].
    pub fn with_middle_filter(mut self, middle: Option<MoveFilter>) -> CubefulPlayer<'a> {
        self.settings.middle = middle;
        self
    }

    /// Inside its search, how many replies are pre-selected for the
    /// network (0 = every reply; see [`Searcher::with_prune`]).
    pub fn with_prune(mut self, keep: usize) -> CubefulPlayer<'a> {
        self.searcher.set_prune(keep);
        self
    }

    /// Inside its search, how many replies are pre-selected where they are
    /// searched deeper (see [`Searcher::with_upper_prune`]).
    pub fn with_upper_prune(mut self, keep: Option<usize>) -> CubefulPlayer<'a> {
        self.searcher.set_upper_prune(keep);
        self
    }

    /// Inside its search, what pre-selects the replies and how many it
    /// keeps (see [`Searcher::with_preselection`]).
    pub fn with_preselection(mut self, by: Preselector, keep: usize) -> CubefulPlayer<'a> {
        self.searcher.set_preselection(by, keep);
        self
    }

    /// Inside its search, what the pre-selection does with a long list
    /// (see [`Searcher::with_long_lists`]).
    pub fn with_long_lists(mut self, long_lists: LongLists) -> CubefulPlayer<'a> {
        self.searcher.set_long_lists(long_lists);
        self
    }

    /// Whether the side on roll in `game` doubles now.
    fn doubles(&self, game: &GameState, state: &CubeState) -> bool {
        state.roller_may_double()
            && !(self.cube_screen
                && self
                    .searcher
                    .double_out_of_reach(&game.position, state, self.ply))
            && self
                .searcher
                .cube_decision(&game.position, state, self.ply)
                .decision
                .should_double()
    }

    /// Whether this side, doubled in `game` (the doubler on roll, `state`
    /// from the doubler's view before the double), takes.
    fn takes(&self, game: &GameState, state: &CubeState) -> bool {
        let decision = self
            .searcher
            .cube_decision(&game.position, state, self.ply)
            .decision;
        decision.take != TakeAnswer::Pass
    }
}

/// `games` money games with the cube (rounded up to even) of `a` against
/// `b`, each dice sequence played twice with the seats swapped; points per
/// game for `a`, cube included, and without the luck of the rolls as
/// `luck_judge` values it, when given.
pub fn cubeful_duel(
    a: &CubefulPlayer,
    b: &CubefulPlayer,
    games: u64,
    seed: u64,
    luck_judge: Option<&Searcher>,
    progress: &(dyn Fn(u64) + Sync),
) -> JudgedDuelResult {
    judged_pairs(
        games,
        seed,
        luck_judge.is_some(),
        progress,
        |_, dice_seed, _| {
            let game = |first, second| {
                let (points, luck) = play_judged_game(first, second, dice_seed, luck_judge);
                (points as f64, luck)
            };
            [game(a, b), game(b, a)]
        },
    )
}

/// One money game with the cube from the starting position; the points
/// `first` (who makes the opening move) wins, negative when it loses.
pub fn play_cubeful_game(first: &CubefulPlayer, second: &CubefulPlayer, dice_seed: u64) -> i64 {
    play_judged_game(first, second, dice_seed, None).0
}

/// [`play_cubeful_game`], with the luck of the rolls for `first`, in
/// points (each roll's luck from its roller's view, times the cube it was
/// rolled under), as `luck_judge` values it (0 without one).
fn play_judged_game(
    first: &CubefulPlayer,
    second: &CubefulPlayer,
    dice_seed: u64,
    luck_judge: Option<&Searcher>,
) -> (i64, f64) {
    let mut dice_rng = SmallRng::seed_from_u64(dice_seed);
    let players = [first, second];
    let mut game = GameState::new(CubeRules::default(), true, false);
    let seen = |game: &GameState| CubeState::from_setup(&game.setup(0, [0, 0]));
    let result = |game: &GameState| match game.phase() {
        Phase::Over(outcome) => {
            let points = outcome.points as i64;
            Some(if outcome.winner == 0 { points } else { -points })
        }
        _ => None,
    };
    let mut luck = 0.0;
    // The opening roll is never a double: `first` (player 0) throws the
    // higher die and moves first with both, with no cube action before.
    let opening = roll_for_turn(&mut dice_rng, 0);
    let started = game.opening_roll(opening.high(), opening.low());
    debug_assert_eq!(started, Ok(true));
    for turn in 0..MAX_TURNS {
        // The dice are drawn whatever the cube does, so both games of a
        // pair roll the same sequence.
        let dice = if turn > 0 {
            roll_for_turn(&mut dice_rng, turn)
        } else {
            opening
        };
        let on_roll = players[game.on_roll as usize];
        if turn > 0 {
            let state = seen(&game);
            if on_roll.doubles(&game, &state) {
                let answering = players[1 - game.on_roll as usize];
                let offered = game.double();
                debug_assert!(offered.is_ok());
                let answered = if answering.takes(&game, &state) {
                    game.take()
                } else {
                    game.pass()
                };
                debug_assert!(answered.is_ok());
                if let Some(points) = result(&game) {
                    return (points, luck);
                }
            }
        }
        let state = seen(&game);
        if let Some(judge) = luck_judge {
            // Judged before the roll is played, under the cube as it now
            // stands: the opening roll against the other non-doubles.
            let normalised = judge.roll_luck(&game.position, dice, &state, turn == 0);
            let points = f64::from(state.denormalise(normalised) - state.denormalise(0.0));
            luck += if game.on_roll == 0 { points } else { -points };
        }
        if turn > 0 {
            let rolled = game.roll(dice);
            debug_assert!(rolled.is_ok());
        }
        let settings = &on_roll.settings;
        let played =
            game.play_chosen(|_, list| on_roll.searcher.best_move(list, &state, settings).index);
        debug_assert!(played.is_ok());
        if let Some(points) = result(&game) {
            return (points, luck);
        }
    }
    (0, luck)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Model, shipped_model};

    #[test]
    fn a_player_against_itself_ties_and_the_cube_raises_the_stakes() {
        let eval = Evaluator::new(shipped_model().unwrap());
        let me = CubefulPlayer::new(&eval, 0);
        let same = cubeful_duel(&me, &me, 40, 3, None, &|_| {}).played;
        assert_eq!(same.ppg, 0.0, "mirrored dice, the same player: {same:?}");
        // Against an untrained network the shipped one doubles it out:
        // more than a point a game, which cubeless play cannot reach on
        // single wins and gammons alone this often.
        let weak = Evaluator::new(Model::random(16, 8, 2));
        let them = CubefulPlayer::new(&weak, 0);
        let r = cubeful_duel(&me, &them, 40, 3, None, &|_| {}).played;
        assert_eq!(r.games, 40);
        assert!(r.ppg > 1.0, "{r:?}");
    }

    #[test]
    fn the_luck_removed_leaves_a_tie_a_tie_and_narrows_a_win() {
        let eval = Evaluator::new(shipped_model().unwrap());
        let judge = Searcher::new(&eval);
        let me = CubefulPlayer::new(&eval, 0);
        let same = cubeful_duel(&me, &me, 8, 3, Some(&judge), &|_| {});
        let adjusted = same.luck_adjusted.unwrap();
        assert_eq!((same.played.ppg, adjusted.ppg), (0.0, 0.0), "{same:?}");
        // The same games as without a judge, and their points far less
        // spread once each roll's luck is off them.
        let old = Evaluator::new(Model::load(std::path::Path::new("models/kotra-v1.net")).unwrap());
        let them = CubefulPlayer::new(&old, 0);
        let plain = cubeful_duel(&me, &them, 80, 5, None, &|_| {});
        let r = cubeful_duel(&me, &them, 80, 5, Some(&judge), &|_| {});
        assert_eq!(r.played, plain.played);
        assert_eq!(plain.luck_adjusted, None);
        let adjusted = r.luck_adjusted.unwrap();
        assert_eq!(adjusted.games, 80);
        assert!(adjusted.se < 0.5 * r.played.se, "{r:?}");
        assert!(adjusted.ppg > 2.0 * adjusted.se, "{r:?}");
    }

    #[test]
    fn a_searching_player_plays_whole_games() {
        // At 1-ply the search lists replies while the referee holds the
        // game's own moves in the per-thread list: the levels must not
        // share one.
        let eval = Evaluator::new(shipped_model().unwrap());
        let (deep, flat) = (CubefulPlayer::new(&eval, 1), CubefulPlayer::new(&eval, 0));
        let r = cubeful_duel(&deep, &flat, 2, 1, None, &|_| {}).played;
        assert_eq!(r.games, 2);
        assert!(r.ppg.is_finite());
    }

    /// A first filter that lets one move through leaves the 1-ply search
    /// nothing to choose: the player moves as the network alone does.
    /// Beside it, the wide 1-ply search must choose otherwise somewhere,
    /// or the comparison would hold for a search that does nothing. A
    /// good network may agree with its own 1-ply search on every opening
    /// roll, so the replies to the opening are searched too, until one
    /// differs.
    #[test]
    fn a_first_filter_of_one_move_plays_the_0ply_choice() {
        use crate::backgammon::{Dice, MoveList, Position, with_legal_moves};
        let eval = Evaluator::new(shipped_model().unwrap());
        let narrow = CubefulPlayer::new(&eval, 1).with_first_filter(MoveFilter {
            keep: 1,
            window: 1.0,
        });
        let flat = CubefulPlayer::new(&eval, 0);
        let wide = CubefulPlayer::new(&eval, 1);
        let money = CubeState::money();
        let choice = |p: &CubefulPlayer, list: &MoveList| {
            p.searcher.best_move(list, &money, &p.settings).index
        };
        let differs = |list: &MoveList| choice(&wide, list) != choice(&flat, list);
        let mut replies = Vec::new();
        let mut some_differ = false;
        for (dice, _) in Dice::all_rolls() {
            with_legal_moves(&Position::starting(), dice, |list| {
                let played = choice(&flat, list);
                assert_eq!(choice(&narrow, list), played, "{dice:?}");
                some_differ |= differs(list);
                replies.push(list.as_slice()[played].position.swap());
            });
        }
        some_differ = some_differ
            || replies.iter().any(|position| {
                Dice::all_rolls().any(|(dice, _)| with_legal_moves(position, dice, differs))
            });
        assert!(
            some_differ,
            "the wide 1-ply search changes some play of the opening or its replies"
        );
    }

    #[test]
    fn the_same_seed_plays_the_same_games() {
        let eval = Evaluator::new(shipped_model().unwrap());
        let me = CubefulPlayer::new(&eval, 0);
        let weak = Evaluator::new(Model::random(16, 8, 2));
        let them = CubefulPlayer::new(&weak, 0);
        for seed in [5, 6] {
            assert_eq!(
                play_cubeful_game(&me, &them, seed),
                play_cubeful_game(&me, &them, seed)
            );
        }
    }
}
