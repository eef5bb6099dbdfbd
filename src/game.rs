//! What the shared machinery needs to know about a two-player Kotra game:
//! turns, results, the network's inputs and outputs, and a documented
//! greedy player. Self-play training (`train::any_game`), n-ply search
//! (`search::any_game`), duels and analysis are written once against this
//! trait; Icelandic Kotra and two-player Icehouse Kotra implement it.
//! Backgammon keeps its own concrete, allocation-free stack on the hot
//! paths (its networks, bear-off databases and cube are specialised).

/// A game both sides play with two dice, won by the side whose turn ends it.
pub trait Game: Sync + Send {
    /// A position before a turn; it knows who is to move.
    type State: Copy + Eq + std::hash::Hash + std::fmt::Debug + Send + Sync;
    /// One legal turn.
    type Turn: Clone + Send + Sync;

    /// `icelandic-kotra`, `icehouse-kotra`.
    fn name(&self) -> &'static str;

    /// Every distinct roll with its weight out of [`Game::roll_total`].
    fn rolls(&self) -> &'static [((u8, u8), u32)];

    fn roll_total(&self) -> u32 {
        self.rolls().iter().map(|&(_, w)| w).sum()
    }

    /// Faces of each die (6 or 4).
    fn die_faces(&self) -> u8;

    /// The starting position, the first mover chosen with `dice` as the
    /// rules' opening roll says.
    fn start(&self, dice: &mut dyn FnMut() -> (u8, u8)) -> Self::State;

    /// The seat to move (0 = White or South, 1 = Black or North).
    fn seat(&self, state: &Self::State) -> usize;

    /// Every legal turn (never empty: a lost turn is one turn without plays).
    fn turns(&self, state: &Self::State, roll: (u8, u8)) -> Vec<Self::Turn>;

    /// What a turn leads to.
    fn after(&self, state: &Self::State, turn: &Self::Turn) -> After<Self::State>;

    /// A turn in the game's notation.
    fn turn_text(&self, state: &Self::State, turn: &Self::Turn) -> String;

    /// A position in the game's notation.
    fn state_text(&self, state: &Self::State) -> String;

    /// Plays a whole game; returns seat 0's points minus seat 1's. Games
    /// whose optional rules act after the win (Icelandic bonus throws)
    /// override it.
    fn play(&self, dice: &mut dyn FnMut() -> (u8, u8), choose: &mut Chooser<'_, Self>) -> f32 {
        let start = self.start(dice);
        let points = self.play_on(start, dice, choose);
        if self.seat(&start) == 0 {
            points
        } else {
            -points
        }
    }

    /// Plays on from `state` to the end of the game (a rollout's trial);
    /// returns the points of the side to move in `state` minus the
    /// other's. Games whose optional rules act after the win override it.
    fn play_on(
        &self,
        state: Self::State,
        dice: &mut dyn FnMut() -> (u8, u8),
        choose: &mut Chooser<'_, Self>,
    ) -> f32 {
        let root = self.seat(&state);
        let mut state = state;
        for _ in 0..MAX_TURNS {
            let turns = self.turns(&state, dice());
            let i = choose(&state, &turns).min(turns.len() - 1);
            match self.after(&state, &turns[i]) {
                After::Next(next) => state = next,
                After::Ended(end) => {
                    return if self.seat(&state) == root {
                        end.points
                    } else {
                        -end.points
                    };
                }
            }
        }
        0.0
    }

    /// The training target of a draw for either side.
    fn draw_target(&self, out: &mut [f32]);

    /// Network inputs.
    fn inputs(&self) -> usize;
    /// Network outputs.
    fn outputs(&self) -> usize;
    /// The position from the side to move, as network inputs.
    fn encode(&self, state: &Self::State, out: &mut [f32]);
    /// Expected points for the side to move, from network outputs.
    fn equity(&self, outputs: &[f32]) -> f32;
    /// The side to move's chances of winning and of losing, from network
    /// outputs: what a rollout's luck adjustment counts a throw as worth
    /// to the wins and losses it reports.
    fn win_loss(&self, outputs: &[f32]) -> (f32, f32);
    /// Turns outputs for one side into outputs for the other.
    fn flip(&self, outputs: &mut [f32]);
    /// Scales outputs so that [`Game::equity`] is linear in them (a game
    /// whose equity divides by a sum of outputs normalises that sum), and
    /// a search's averages of outputs carry the averages of its equities.
    fn normalise(&self, _outputs: &mut [f32]) {}
    /// The outputs a finished game should have had, for the side that made
    /// the last turn.
    fn target(&self, end: &Ended, out: &mut [f32]);

    /// The documented greedy player: the index of its choice in `turns`.
    fn heuristic(&self, state: &Self::State, turns: &[Self::Turn]) -> usize;
}

/// Picks the index of a turn among the legal ones.
pub type Chooser<'a, G> = dyn FnMut(&<G as Game>::State, &[<G as Game>::Turn]) -> usize + 'a;

/// A game longer than this many turns is scored as a draw.
pub const MAX_TURNS: usize = 3000;

/// Where a turn leads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum After<S> {
    /// The game goes on; the other side is to move.
    Next(S),
    /// The game is over.
    Ended(Ended),
}

/// A finished game from the view of the side that made the last turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ended {
    /// That side's points minus the other's.
    pub points: f32,
    /// The game's own class of the result (a win type; see each game).
    pub class: u16,
}

/// Every distinct roll of two dice with `faces` faces, high die first,
/// with its weight (1 for a double, 2 otherwise).
pub fn distinct_rolls(faces: u8) -> Vec<((u8, u8), u32)> {
    let mut v = Vec::new();
    for a in 1..=faces {
        for b in a..=faces {
            v.push(((b, a), if a == b { 1 } else { 2 }));
        }
    }
    v
}

/// A draw's [`Ended::class`].
pub const DRAW: u16 = u16::MAX;

/// Index of the highest score (the first on ties).
pub fn best_by<T>(items: &[T], score: impl Fn(&T) -> f32) -> usize {
    let mut best = (0, f32::NEG_INFINITY);
    for (i, t) in items.iter().enumerate() {
        let s = score(t);
        if s > best.1 {
            best = (i, s);
        }
    }
    best.0
}
