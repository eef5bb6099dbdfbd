//! What search, self-play and training need to know about a game, so the
//! three Kotra games can share that machinery. Backgammon implements it on
//! top of its concrete, allocation-free types; the trait adds no cost to the
//! backgammon hot paths, which keep calling the concrete functions.

use crate::backgammon::{self, Dice, Position};

/// A two-player dice game seen from the side to move.
pub trait Game {
    /// A position from the view of the side to move.
    type State: Copy + Eq + std::fmt::Debug;
    /// The chance event before each turn.
    type Roll: Copy + std::fmt::Debug + 'static;

    /// The position a game starts from.
    fn start() -> Self::State;

    /// Every distinct roll with its weight out of [`Game::roll_weight_total`].
    fn rolls() -> &'static [(Self::Roll, u8)];

    fn roll_weight_total() -> u32 {
        Self::rolls().iter().map(|&(_, w)| w as u32).sum()
    }

    /// The states the mover can reach with `roll`, still from the mover's
    /// view, written into `out` (cleared first). Never empty: a forfeited
    /// turn yields the unchanged state.
    fn successors(state: &Self::State, roll: Self::Roll, out: &mut Vec<Self::State>);

    /// The same state with the other side to move.
    fn pass_turn(state: &Self::State) -> Self::State;

    /// Points won by the side that just moved if the game is over (from the
    /// mover's view, before [`Game::pass_turn`]), else `None`.
    fn result(state: &Self::State) -> Option<i32>;
}

/// Standard backgammon, cubeless: a win scores 1, 2 or 3.
pub struct Backgammon;

static BACKGAMMON_ROLLS: std::sync::LazyLock<Vec<(Dice, u8)>> =
    std::sync::LazyLock::new(|| Dice::all_rolls().collect());

impl Game for Backgammon {
    type State = Position;
    type Roll = Dice;

    fn start() -> Position {
        Position::starting()
    }

    fn rolls() -> &'static [(Dice, u8)] {
        &BACKGAMMON_ROLLS
    }

    fn successors(state: &Position, roll: Dice, out: &mut Vec<Position>) {
        backgammon::with_legal_moves(state, roll, |list| {
            out.clear();
            out.extend(list.iter().map(|c| c.position));
        });
    }

    fn pass_turn(state: &Position) -> Position {
        state.swap()
    }

    fn result(state: &Position) -> Option<i32> {
        backgammon::GameResult::of_mover_win(state).map(|r| r.points() as i32)
    }
}
