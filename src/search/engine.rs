//! Cubeful n-ply search with move filters, an evaluation cache and rayon.
//!
//! Plies count as GNU Backgammon counts them. A node is a position before
//! its roller rolls, valued for a set of cube states at once: the position
//! tree does not depend on the cube, so every state a line can reach (no
//! double, or double/take, at each level) is carried down one walk of the
//! tree, as gnubg does. At the leaves Janowski's formulas turn the static
//! probabilities into cubeful values; above them the roller doubles where
//! double/take or double/pass beats no double. Within the tree each reply
//! is chosen by the 0-ply cubeless equity, gnubg's convention.
//!
//! Parallel work (candidates at the root, rolls of a cube decision) is
//! collected in order and summed sequentially, so answers do not depend on
//! the thread count.

use super::cache::EvalCache;
use super::filter::MoveFilter;
use super::nodes::{LeafStore, MIN_KEPT_PLY, NodeStore};
use super::table::PositionTable;
use crate::backgammon::{Candidate, Dice, GameResult, MoveList, Position, with_legal_moves};
use crate::cube::{
    CubeDecision, CubeState, CubeTuning, LeafCube, cube_states, decide, roller_cube_choice,
};
use crate::eval::prune_net::SHIPPED_PRUNE_NET;
use crate::eval::{Evaluator, Probs, pubeval};
use rayon::prelude::*;

/// Replies pre-selected inside the tree by default: the default
/// pre-selector's own width ([`Preselector::width`]). A reply is the
/// 0-ply best of these, so the width trades the leaves' misses against
/// time (BENCHMARKS.md measures both, and the play). UBGI `engine.prune`
/// sets it.
pub const DEFAULT_PRUNE: usize = DEFAULT_PRESELECTOR.width();

/// What pre-selects the replies inside the tree by default: the
/// distilled network, which misses a roll's 0-ply best less often keeping
/// 4 than PubEval does keeping 8, so the tree is cheaper at no cost in
/// play (BENCHMARKS.md has the misses, the speed and the games). The
/// training recipes and the campaign name PubEval themselves, so that
/// they reproduce what they made.
pub const DEFAULT_PRESELECTOR: Preselector = Preselector::Network;

/// PubEval's pre-selection where the training recipes and the campaign's
/// labelling ask for it: the width they were tuned and recorded with.
pub const PUBEVAL_PRUNE: usize = 8;

/// The pre-selection network's width.
pub const NETWORK_PRUNE: usize = 4;

/// The pre-selection's scratch room: a list longer than this is scored a
/// block at a time.
const PRUNE_MAX: usize = 128;

/// A list longer than [`PRUNE_MAX`] (a double with checkers spread, a few
/// hundred moves) keeps this many times the pre-selector's width. Such
/// lists are a few percent of a tree's rolls but, valued whole, most of its
/// evaluations; the network misses their 0-ply best more often than a
/// short list's, so they keep more (BENCHMARKS.md has the misses by list
/// length, the speed and the games). PubEval keeps every move of them,
/// as it always did: the training recipes and the campaign that name it
/// reproduce what they made.
const LONG_LIST_FACTOR: usize = 4;

/// What the network's pre-selection does with a list longer than
/// [`PRUNE_MAX`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LongLists {
    /// Keeps [`LONG_LIST_FACTOR`] times its width.
    #[default]
    Pruned,
    /// Keeps every move, as before long lists were pruned: for a duel
    /// that measures what pruning them costs.
    Whole,
}

impl std::str::FromStr for LongLists {
    type Err = String;

    fn from_str(text: &str) -> Result<LongLists, String> {
        match text {
            "pruned" => Ok(LongLists::Pruned),
            "whole" => Ok(LongLists::Whole),
            _ => Err(format!("{}: pruned or whole", crate::quoted::Quoted(text))),
        }
    }
}

impl std::fmt::Display for LongLists {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LongLists::Pruned => "pruned",
            LongLists::Whole => "whole",
        })
    }
}

/// How many replies' cache slots are prefetched before the first of them
/// is looked up: PubEval's usual pre-selection, the widest in use.
const REPLY_BATCH: usize = PUBEVAL_PRUNE;

/// What ranks a roll's candidates for the pre-selection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Preselector {
    /// Tesauro's linear score of the raw board.
    PubEval,
    /// The small network distilled from ours
    /// ([`crate::eval::prune_net`]), where the position before the move
    /// has contact; PubEval in races.
    #[default]
    Network,
}

impl Preselector {
    /// How many replies this pre-selector keeps unless told otherwise:
    /// the width its misses were measured at.
    pub const fn width(self) -> usize {
        match self {
            Preselector::PubEval => PUBEVAL_PRUNE,
            Preselector::Network => NETWORK_PRUNE,
        }
    }

    /// The replies kept: `prune` where one was asked for, else this
    /// pre-selector's own width (PubEval keeping the network's 4 would
    /// miss far more often than either default). Every front end that lets
    /// the width go unset resolves it here.
    pub const fn keep(self, prune: Option<usize>) -> usize {
        match prune {
            Some(keep) => keep,
            None => self.width(),
        }
    }
}

impl std::str::FromStr for Preselector {
    type Err = String;

    fn from_str(text: &str) -> Result<Preselector, String> {
        match text {
            "pubeval" => Ok(Preselector::PubEval),
            "network" => Ok(Preselector::Network),
            _ => Err(format!(
                "{}: pubeval or network",
                crate::quoted::Quoted(text)
            )),
        }
    }
}

impl std::fmt::Display for Preselector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Preselector::PubEval => "pubeval",
            Preselector::Network => "network",
        })
    }
}

/// The pre-selection of a roll's candidates, for the network to choose
/// among: a score of the raw board, far cheaper than a network evaluation
/// with its features.
pub struct Preselection {
    scored: [Ranked; PRUNE_MAX],
    net_scores: [i32; PRUNE_MAX],
}

impl Preselection {
    /// Allocation-free scratch room.
    #[inline]
    pub fn new() -> Preselection {
        Preselection {
            scored: [Ranked(0); PRUNE_MAX],
            net_scores: [0; PRUNE_MAX],
        }
    }

    /// The indices of the `keep` candidates of `moves` (played from `pos`)
    /// that `by` scores highest, in list order so that ties fall as
    /// without pruning; from a list longer than [`PRUNE_MAX`],
    /// [`LONG_LIST_FACTOR`] times `keep` (at most `PRUNE_MAX`) for the
    /// network where `long_lists` says so, else every move. `None` where
    /// nothing is pruned (`keep` 0, or a list of no more than it would
    /// keep).
    pub fn choose(
        &mut self,
        pos: &Position,
        moves: &[Candidate],
        keep: usize,
        by: Preselector,
        long_lists: LongLists,
    ) -> Option<impl Iterator<Item = usize> + '_> {
        let long = moves.len() > PRUNE_MAX;
        if long && (by == Preselector::PubEval || long_lists == LongLists::Whole) {
            return None;
        }
        let keep = match long {
            true => (keep * LONG_LIST_FACTOR).min(PRUNE_MAX),
            false => keep,
        };
        if keep == 0 || moves.len() <= keep {
            return None;
        }
        let race = !pos.has_contact();
        if keep <= SMALL_KEEP {
            self.keep_best::<SMALL_KEEP>(pos, moves, keep, race, by);
        } else {
            self.keep_best::<PRUNE_MAX>(pos, moves, keep, race, by);
        }
        let chosen = &mut self.scored[..keep];
        chosen.sort_unstable_by_key(|s| s.index());
        Some(chosen.iter().map(|s| usize::from(s.index())))
    }

    /// The best `keep` (at most `N`) of `moves` into `scored`'s first
    /// `keep`, scored a block of [`PRUNE_MAX`] at a time and held as they
    /// come ([`Best`]): the set a selection over the whole list would keep
    /// (the order is strict), and for a few kept from a few dozen cheaper
    /// than a selection's partitions. The one way every width keeps its
    /// moves; only a width wider than [`SMALL_KEEP`], which no default
    /// has, holds them in the larger buffer.
    fn keep_best<const N: usize>(
        &mut self,
        pos: &Position,
        moves: &[Candidate],
        keep: usize,
        race: bool,
        by: Preselector,
    ) {
        let mut best = Best::<N>::new(keep);
        for (block, chunk) in moves.chunks(PRUNE_MAX).enumerate() {
            self.score(pos, chunk, block * PRUNE_MAX, race, by);
            for &entry in &self.scored[..chunk.len()] {
                best.offer(entry);
            }
        }
        self.scored[..keep].copy_from_slice(best.kept());
    }

    /// `moves` (at most [`PRUNE_MAX`], the list's from index `first` on)
    /// scored into `scored`, each with its index in the list.
    fn score(
        &mut self,
        pos: &Position,
        moves: &[Candidate],
        first: usize,
        race: bool,
        by: Preselector,
    ) {
        if by == Preselector::Network && !race {
            let scores = &mut self.net_scores[..moves.len()];
            SHIPPED_PRUNE_NET.score_moves(pos, moves, scores);
            for (i, (slot, &score)) in self.scored.iter_mut().zip(scores.iter()).enumerate() {
                *slot = Ranked::new(score as f32, (first + i) as u16);
            }
        } else {
            for (i, (slot, c)) in self.scored.iter_mut().zip(moves).enumerate() {
                *slot = Ranked::new(pubeval::score(&c.position, race), (first + i) as u16);
            }
        }
    }
}

/// A pre-selection entry in one word, ordered as the pre-selection ranks:
/// the higher score first (by `f32::total_cmp` of the score negated),
/// then the earlier move. The negated score's bits, mapped to an unsigned
/// key in `total_cmp`'s order, lie above the move's index, so comparing
/// two words is one compare, without a branch for the tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Ranked(u64);

impl Ranked {
    #[inline(always)]
    fn new(score: f32, index: u16) -> Ranked {
        let bits = (-score).to_bits() as i32;
        // `total_cmp`'s key: a negative's magnitude bits flipped, then the
        // sign bit flipped so that the key orders as an unsigned number.
        let key = (bits ^ (((bits >> 31) as u32) >> 1) as i32) as u32 ^ 0x8000_0000;
        Ranked(u64::from(key) << 16 | u64::from(index))
    }

    #[inline(always)]
    fn index(self) -> u16 {
        self.0 as u16
    }
}

/// The widest pre-selection held in a small buffer rather than in one of
/// [`PRUNE_MAX`]: the widths in use (the network's 4 and its long lists'
/// 16, PubEval's 8).
const SMALL_KEEP: usize = 16;

/// The first `keep` (at most `N`) of the entries offered, in
/// [`Ranked`]'s order, held without allocation.
struct Best<const N: usize> {
    held: [Ranked; N],
    len: usize,
    keep: usize,
}

impl<const N: usize> Best<N> {
    fn new(keep: usize) -> Best<N> {
        assert!((1..=N).contains(&keep));
        Best {
            held: [Ranked(0); N],
            len: 0,
            keep,
        }
    }

    /// Holds `entry` where it ranks among the first `keep` so far.
    fn offer(&mut self, entry: Ranked) {
        if self.len == self.keep && entry >= self.held[self.keep - 1] {
            return;
        }
        let mut at = self.len.min(self.keep - 1);
        while at > 0 && entry < self.held[at - 1] {
            self.held[at] = self.held[at - 1];
            at -= 1;
        }
        self.held[at] = entry;
        self.len = (self.len + 1).min(self.keep);
    }

    fn kept(&self) -> &[Ranked] {
        &self.held[..self.len]
    }
}

impl Default for Preselection {
    fn default() -> Self {
        Preselection::new()
    }
}

/// A roll's chosen reply, and (where the game goes on) the probabilities
/// of the next roller that chose it.
#[derive(Clone, Copy)]
struct Reply {
    after: Position,
    roller: Option<Probs>,
}

/// A node's replies to each of the 21 rolls, in [`Dice::all_rolls`]'
/// order.
type NodeReplies = [Reply; 21];

/// Where `dice` comes in [`Dice::all_rolls`]' order.
fn roll_index(dice: Dice) -> usize {
    let (high, low) = (usize::from(dice.high()), usize::from(dice.low()));
    high * (high - 1) / 2 + low - 1
}

/// The upper nodes' reply table's size (2^bits slots): a 2-ply tree has
/// a few hundred of them, a 3-ply tree a few thousand.
const UPPER_REPLY_BITS: u32 = 10;

/// The most cube states one node carries (two per state of its parent).
const MAX_STATES: usize = 32;

/// How deep to look and what to prune on the way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSettings {
    pub ply: u8,
    /// After the 0-ply pass over every legal move.
    pub first: MoveFilter,
    /// After a 1-ply pass, before a 2-ply or deeper one; `None` skips the
    /// 1-ply pass, as gnubg's filters do. A 1-ply pass walks one level
    /// of rolls where a 2-ply one walks two, and ranks the candidates far
    /// closer to the 2-ply order than the 0-ply pass does, so a play that
    /// searches at 2-ply at every turn (a rollout's) can value fewer at
    /// 2-ply.
    pub middle: Option<MoveFilter>,
    /// After the 2-ply pass, before 3-ply.
    pub deep: MoveFilter,
}

impl SearchSettings {
    /// gnubg's "world class" filters: 8 moves within 0.16 after 0-ply,
    /// 1-ply skipped, 2 within 0.04 after 2-ply.
    pub fn world_class(ply: u8) -> SearchSettings {
        SearchSettings {
            ply,
            first: MoveFilter {
                keep: 8,
                window: 0.16,
            },
            middle: None,
            deep: MoveFilter {
                keep: 2,
                window: 0.04,
            },
        }
    }

    /// The plies candidates are evaluated at, in order, each followed by
    /// the filter that picks who goes on to the next.
    fn stages(&self) -> Vec<(u8, MoveFilter)> {
        let mut stages = vec![(0, self.first)];
        if let Some(middle) = self.middle.filter(|_| self.ply >= 2) {
            stages.push((1, middle));
        }
        if self.ply >= 3 {
            stages.push((2, self.deep));
        }
        if self.ply > 0 {
            stages.push((self.ply, self.deep));
        }
        stages
    }
}

/// One legal move with its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankedMove {
    /// Its index in the move list.
    pub index: usize,
    /// The position after it, from the mover's view.
    pub position: Position,
    /// Cubeless probabilities for the mover.
    pub probs: Probs,
    /// Cubeful equity for the mover, per unit of the cube
    /// (money-normalised in a match).
    pub equity: f32,
    /// The ply it was last evaluated at.
    pub ply: u8,
}

/// A cube decision with the cubeless probabilities behind it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeAnalysis {
    pub decision: CubeDecision,
    /// For the side on roll, at the same depth.
    pub probs: Probs,
    pub ply: u8,
}

/// The search: an evaluator plus its cache.
pub struct Searcher<'a> {
    eval: &'a Evaluator,
    cache: EvalCache,
    /// Values of the 2-ply and deeper nodes walked so far.
    nodes: NodeStore,
    /// Values of 1-ply nodes walked so far, as many as its slots keep.
    leaves: LeafStore,
    /// The replies of nodes walked so far, as many as its slots keep. A
    /// searching rollout asks for a node's replies three times: the
    /// previous move's search walks it below the move played, then the
    /// cube decision before the roll walks it with other cube states,
    /// then the roll's luck weighs each roll's reply. Each time the
    /// evaluations are cache hits, but the moves, their pre-selection and
    /// the lookups are most of a 1-ply node's cost.
    replies: PositionTable<NodeReplies>,
    /// Inside the tree, how many replies are pre-selected for the
    /// network to choose from (0 = the network sees every reply).
    prune: usize,
    /// Where a node's replies are searched deeper (2 plies or more left)
    /// rather than valued at once, a pre-selection of its own width, with
    /// its own table of replies: those nodes are a small share of a
    /// tree's, so weighing more of their replies costs little beside the
    /// leaves. `None`: the same pre-selection everywhere.
    upper: Option<(usize, PositionTable<NodeReplies>)>,
    /// What ranks the replies for that pre-selection.
    preselector: Preselector,
    /// What that pre-selection does with a long list.
    long_lists: LongLists,
    /// Values are cubeless money equities (no cube actions in the tree,
    /// no Janowski at the leaves): what gnubg's cubeless hints and the
    /// oracle's move sets are labelled with.
    cubeless: bool,
    /// The leaves' cube model, where not the shipped one (see
    /// [`Self::with_cube_tuning`]).
    cube_tuning: CubeTuning,
}

impl<'a> Searcher<'a> {
    pub fn new(eval: &'a Evaluator) -> Searcher<'a> {
        Searcher {
            eval,
            cache: EvalCache::new(16),
            nodes: NodeStore::default(),
            leaves: LeafStore::new(14),
            replies: PositionTable::new(11),
            prune: DEFAULT_PRUNE,
            upper: None,
            preselector: DEFAULT_PRESELECTOR,
            long_lists: LongLists::default(),
            cubeless: false,
            cube_tuning: CubeTuning::default(),
        }
    }

    /// Values the leaves' cube with the cube model changed by `tuning`,
    /// fixed for the searcher's life like [`Self::with_cubeless`]: for
    /// tuning the cube model by play, one side of a duel against the
    /// other.
    pub fn with_cube_tuning(mut self, tuning: CubeTuning) -> Searcher<'a> {
        self.cube_tuning = tuning;
        self
    }

    /// Whether values are cubeless money equities (`state`s are then
    /// money states whose cube only scales the points) or cubeful ones:
    /// fixed for the searcher's life, so two callers can never find the
    /// other's mode left on (the analysis facade keeps one of each).
    pub fn with_cubeless(mut self, cubeless: bool) -> Searcher<'a> {
        self.cubeless = cubeless;
        self
    }

    /// Sets how many replies are pre-selected inside the tree (0 = off).
    pub fn with_prune(mut self, keep: usize) -> Searcher<'a> {
        self.set_prune(keep);
        self
    }

    /// [`Self::with_prune`] in place (see [`Self::set_preselection`]).
    pub fn set_prune(&mut self, keep: usize) {
        self.set_preselection(self.preselector, keep);
    }

    /// Sets how many replies are pre-selected where a node's replies are
    /// searched deeper (`None`: as many as everywhere else; 0 = all).
    pub fn with_upper_prune(mut self, keep: Option<usize>) -> Searcher<'a> {
        self.set_upper_prune(keep);
        self
    }

    /// [`Self::with_upper_prune`] in place; a change drops the searched
    /// nodes as [`Self::set_preselection`]'s does.
    pub fn set_upper_prune(&mut self, keep: Option<usize>) {
        if keep != self.upper_prune() {
            self.forget_nodes();
            self.upper = keep.map(|k| (k, PositionTable::new(UPPER_REPLY_BITS)));
        }
    }

    /// The pre-selection's width where replies are searched deeper, where
    /// one was set ([`Self::with_upper_prune`]); `None`: the same as
    /// [`Self::preselection`]'s.
    pub fn upper_prune(&self) -> Option<usize> {
        self.upper.as_ref().map(|(k, _)| *k)
    }

    /// Sets what ranks the replies for the pre-selection.
    pub fn with_preselector(mut self, by: Preselector) -> Searcher<'a> {
        self.set_preselector(by);
        self
    }

    /// [`Self::with_preselector`] in place (see [`Self::set_preselection`]).
    pub fn set_preselector(&mut self, by: Preselector) {
        self.set_preselection(by, self.prune);
    }

    /// What pre-selects the replies and how many (0 = off).
    pub fn preselection(&self) -> (Preselector, usize) {
        (self.preselector, self.prune)
    }

    /// Sets what pre-selects the replies and how many (0 = off) at once.
    pub fn with_preselection(mut self, by: Preselector, keep: usize) -> Searcher<'a> {
        self.set_preselection(by, keep);
        self
    }

    /// [`Self::with_preselection`] in place. The cache holds static
    /// evaluations only, so it stays valid, but a change drops the searched
    /// nodes' values and replies, once for both settings.
    pub fn set_preselection(&mut self, by: Preselector, keep: usize) {
        if (by, keep) != (self.preselector, self.prune) {
            self.forget_nodes();
        }
        (self.preselector, self.prune) = (by, keep);
    }

    /// Sets what the network's pre-selection does with a long list.
    pub fn with_long_lists(mut self, long_lists: LongLists) -> Searcher<'a> {
        self.set_long_lists(long_lists);
        self
    }

    /// [`Self::with_long_lists`] in place; a change drops the searched
    /// nodes as [`Self::set_preselection`]'s does.
    pub fn set_long_lists(&mut self, long_lists: LongLists) {
        if long_lists != self.long_lists {
            self.forget_nodes();
        }
        self.long_lists = long_lists;
    }

    /// What the network's pre-selection does with a long list.
    pub fn long_lists(&self) -> LongLists {
        self.long_lists
    }

    /// Drops every searched node's values and replies (the static cache
    /// stays valid): what a change of the pre-selection requires.
    fn forget_nodes(&mut self) {
        self.nodes.clear();
        self.leaves.clear();
        self.replies.clear();
        if let Some((_, table)) = &self.upper {
            table.clear();
        }
    }

    pub fn evaluator(&self) -> &Evaluator {
        self.eval
    }

    /// Static probabilities for the roller of a game still going.
    #[inline]
    pub fn probs(&self, pos: &Position) -> Probs {
        self.cache.get_or(pos, || self.eval.probs(pos))
    }

    /// Static probabilities for the side that moved into `after`.
    #[inline]
    pub fn after_probs(&self, after: &Position) -> Probs {
        match GameResult::of_mover_win(after) {
            Some(result) => Probs::won(result),
            None => self.probs(&after.swap()).flip(),
        }
    }

    /// Values of `pos` for its roller, one per state in `states`, looking
    /// `ply` plies ahead; the roller may double first where it can. Returns
    /// the cubeless probabilities at the same depth.
    pub fn evaluate(
        &self,
        pos: &Position,
        states: &[CubeState],
        ply: u8,
        out: &mut [f32],
    ) -> Probs {
        self.evaluate_with(pos, states, ply, out, false)
    }

    /// [`Self::evaluate`], its 21 rolls spread over rayon's threads when
    /// `parallel` (the levels below stay on one thread each).
    fn evaluate_with(
        &self,
        pos: &Position,
        states: &[CubeState],
        ply: u8,
        out: &mut [f32],
        parallel: bool,
    ) -> Probs {
        if ply == 0 {
            let p = self.probs(pos);
            self.static_values(pos, &p, states, out);
            return p;
        }
        let mut expanded = [CubeState::money(); MAX_STATES];
        let mut slots = [(0usize, None::<usize>); MAX_STATES];
        let mut m = 0;
        for (i, s) in states.iter().enumerate() {
            expanded[m] = *s;
            slots[i].0 = m;
            m += 1;
            if !self.cubeless && s.roller_may_double() && m < MAX_STATES {
                expanded[m] = s.doubled();
                slots[i].1 = Some(m);
                m += 1;
            }
        }
        let mut values = [0f32; MAX_STATES];
        let p = self.roll_average(pos, &expanded[..m], ply, &mut values[..m], parallel);
        for (i, s) in states.iter().enumerate() {
            out[i] = roller_cube_choice(s, values[slots[i].0], slots[i].1.map(|dt| values[dt]));
        }
        p
    }

    /// The average over the 21 rolls of each state's value after the
    /// roller's move (chosen at 0-ply) and `ply − 1` plies more, without a
    /// cube action first.
    ///
    /// A node walked before (the same position, depth and states) is not
    /// walked again where the node store (2-ply and deeper) or the leaf
    /// store (1-ply, while its slot keeps it) still has it. Within a
    /// node, rolls whose best moves lead to the same position (every roll
    /// that dances, a blocked or forced play) have the same tree below:
    /// above the leaves it is walked once, without a lock or an
    /// allocation, and its values counted for each such roll. Walks are deterministic, so every
    /// roll's values, and their sums in roll order, are what walking each
    /// would give.
    fn roll_average(
        &self,
        pos: &Position,
        states: &[CubeState],
        ply: u8,
        out: &mut [f32],
        parallel: bool,
    ) -> Probs {
        let kept = ply >= MIN_KEPT_PLY;
        if kept && let Some(probs) = self.nodes.get(pos, ply, states, out) {
            return probs;
        }
        if ply == 1
            && let Some(probs) = self.leaves.get(pos, states, out)
        {
            return probs;
        }
        let value = |best: &Reply| {
            let mut values = [0f32; MAX_STATES];
            let probs = self.after_reply(best, states, ply, &mut values);
            (probs, values)
        };
        let mut total = Probs::default();
        out.iter_mut().for_each(|o| *o = 0.0);
        let mut add = |(probs, values): (Probs, [f32; MAX_STATES]), weight: u8| {
            let weight = weight as f32 / 36.0;
            total.add_scaled(&probs, weight);
            for (o, v) in out.iter_mut().zip(values) {
                *o += v * weight;
            }
        };
        let share = ply >= 2;
        if parallel {
            // Collected first, then summed in roll order: the same sums on
            // any thread count.
            let rolls: Vec<_> = Dice::all_rolls().collect();
            let bests = self.node_replies(pos, true, ply >= 2);
            let first: Vec<usize> = (0..bests.len())
                .map(|i| {
                    (0..i)
                        .find(|&k| share && bests[k].after == bests[i].after)
                        .unwrap_or(i)
                })
                .collect();
            let results: Vec<_> = (0..bests.len())
                .into_par_iter()
                .map(|i| (first[i] == i).then(|| value(&bests[i])))
                .collect();
            for (i, &(_, weight)) in rolls.iter().enumerate() {
                add(results[first[i]].expect("each first is valued"), weight);
            }
        } else if !share {
            // A 1-ply node, most of a tree's: its rolls' replies are leaves,
            // valued from the probabilities their choice found, so there is
            // no tree below to walk once for rolls that reach the same place.
            let bests = self.node_replies(pos, false, false);
            for ((_, weight), best) in Dice::all_rolls().zip(&bests) {
                add(value(best), weight);
            }
        } else {
            // Inside the tree: no allocation.
            let mut walked = [None::<(Position, (Probs, [f32; MAX_STATES]))>; 21];
            let bests = self.node_replies(pos, false, true);
            for (i, ((_, weight), best)) in Dice::all_rolls().zip(&bests).enumerate() {
                let earlier = walked[..i]
                    .iter()
                    .flatten()
                    .find(|(after, _)| *after == best.after);
                let result = match earlier {
                    Some(&(_, result)) => result,
                    None => value(best),
                };
                walked[i] = Some((best.after, result));
                add(result, weight);
            }
        }
        if kept {
            self.nodes.put(pos, ply, states, total, out);
        } else if ply == 1 {
            self.leaves.put(pos, states, total, out);
        }
        total
    }

    /// The roller's replies to each roll ([`Self::reply`]), kept for the
    /// next time the node is met; found on rayon's threads when
    /// `parallel`, else without an allocation. `searched` says the replies
    /// are searched deeper, where [`Self::with_upper_prune`] may
    /// pre-select another number of them.
    fn node_replies(&self, pos: &Position, parallel: bool, searched: bool) -> NodeReplies {
        let (keep, table) = match &self.upper {
            Some((keep, table)) if searched => (*keep, table),
            _ => (self.prune, &self.replies),
        };
        table.get(pos).unwrap_or_else(|| {
            let bests: NodeReplies = if parallel {
                let found: Vec<Reply> = Dice::all_rolls()
                    .collect::<Vec<_>>()
                    .par_iter()
                    .map(|&(d, _)| self.reply(pos, d, keep))
                    .collect();
                std::array::from_fn(|i| found[i])
            } else {
                let mut rolls = Dice::all_rolls();
                std::array::from_fn(|_| self.reply(pos, rolls.next().expect("21 rolls").0, keep))
            };
            table.put(pos, bests);
            bests
        })
    }

    /// The roller's best move with `dice`, chosen at 0-ply among the
    /// `keep` moves the pre-selection keeps (0 = all).
    fn reply(&self, pos: &Position, dice: Dice, keep: usize) -> Reply {
        with_legal_moves(pos, dice, |list| {
            let moves = list.as_slice();
            let mut scratch = Preselection::new();
            match scratch.choose(pos, moves, keep, self.preselector, self.long_lists) {
                Some(chosen) => self.best_at_0ply(moves, chosen),
                None => self.best_at_0ply(moves, 0..moves.len()),
            }
        })
    }

    /// The probabilities of the roller of `pos` (its view) after it plays
    /// each roll (in [`Dice::all_rolls`]' order) as the tree replies: the
    /// 0-ply best of the moves the pre-selection keeps. A searching rollout's
    /// luck adjustment weighs every roll of a position its search has
    /// just walked, so these are mostly kept replies.
    pub fn reply_probs(&self, pos: &Position) -> [Probs; 21] {
        self.node_replies(pos, false, false)
            .map(|best| match best.roller {
                Some(p) => p.flip(),
                None => Probs::won(GameResult::of_mover_win(&best.after).expect("game over")),
            })
    }

    /// The roller's values after `best` and `ply − 1` plies more.
    fn after_reply(
        &self,
        best: &Reply,
        states: &[CubeState],
        ply: u8,
        out: &mut [f32; MAX_STATES],
    ) -> Probs {
        match best.roller {
            // A leaf: the static values the choice already computed.
            Some(p) if ply == 1 => {
                self.values_for_mover(&best.after, states, out, |pos, children, values| {
                    self.static_values(pos, &p, children, values);
                    p
                })
            }
            _ => self.after_move(&best.after, states, ply - 1, out),
        }
    }

    /// The candidate (of `indices`) with the highest 0-ply cubeless
    /// equity; the first of equals. Those not in the cache are evaluated
    /// in batches ([`Self::next_rollers`]): a roll's replies differ in a
    /// few points.
    fn best_at_0ply(&self, moves: &[Candidate], indices: impl Iterator<Item = usize>) -> Reply {
        let mut best = Reply {
            after: moves[0].position,
            roller: None,
        };
        let mut best_equity = f32::NEG_INFINITY;
        let mut afters = [best.after; REPLY_BATCH];
        let mut rollers = [None; REPLY_BATCH];
        let mut indices = indices.peekable();
        while indices.peek().is_some() {
            let mut n = 0;
            for (a, i) in afters.iter_mut().zip(indices.by_ref()) {
                *a = moves[i].position;
                n += 1;
            }
            self.next_rollers(&afters[..n], &mut rollers[..n]);
            for (&after, &roller) in afters[..n].iter().zip(&rollers) {
                let equity = match roller {
                    Some(p) => p.flip().equity(),
                    None => {
                        Probs::won(GameResult::of_mover_win(&after).expect("game over")).equity()
                    }
                };
                if equity > best_equity {
                    best = Reply { after, roller };
                    best_equity = equity;
                }
            }
        }
        best
    }

    /// For each of `afters` (boards just moved into, at most
    /// [`REPLY_BATCH`]), the next roller's static probabilities, or `None`
    /// where the move ended the game. Every cache slot is prefetched
    /// before the first lookup (they lie far apart), and the misses are
    /// evaluated together ([`Evaluator::probs_batch`]).
    fn next_rollers(&self, afters: &[Position], out: &mut [Option<Probs>]) {
        let mut next = [afters[0]; REPLY_BATCH];
        for ((n, after), o) in next.iter_mut().zip(afters).zip(out.iter_mut()) {
            let going = GameResult::of_mover_win(after).is_none();
            if going {
                *n = after.swap();
                self.cache.prefetch(n);
            }
            *o = going.then_some(Probs::default());
        }
        let mut misses = [afters[0]; REPLY_BATCH];
        let mut missed_at = [0usize; REPLY_BATCH];
        let mut m = 0;
        for (k, (n, o)) in next.iter().zip(out.iter_mut()).enumerate() {
            let Some(p) = o else { continue };
            match self.cache.get(n) {
                Some(hit) => *p = hit,
                None => {
                    (misses[m], missed_at[m]) = (*n, k);
                    m += 1;
                }
            }
        }
        if m > 0 {
            let mut fresh = [Probs::default(); REPLY_BATCH];
            self.eval.probs_batch(&misses[..m], &mut fresh[..m]);
            for ((n, &p), &k) in misses.iter().zip(&fresh[..m]).zip(&missed_at) {
                self.cache.put(n, p);
                out[k] = Some(p);
            }
        }
    }

    /// [`Self::rank_moves`]' first stage: each of `alive` (indices into
    /// `list`) valued at 0-ply, in batches ([`Self::next_rollers`]) where
    /// a pass per candidate would walk each through the whole first layer;
    /// the values are a plain 0-ply evaluation's.
    fn rank_at_0ply(&self, list: &MoveList, alive: &[usize], state: &CubeState) -> Vec<RankedMove> {
        let states = std::slice::from_ref(state);
        let mut ranked = Vec::with_capacity(alive.len());
        let mut afters = [Position::starting(); REPLY_BATCH];
        let mut rollers = [None; REPLY_BATCH];
        for chunk in alive.chunks(REPLY_BATCH) {
            for (a, &i) in afters.iter_mut().zip(chunk) {
                *a = list.as_slice()[i].position;
            }
            let n = chunk.len();
            self.next_rollers(&afters[..n], &mut rollers[..n]);
            for ((&index, position), roller) in chunk.iter().zip(afters).zip(rollers) {
                let mut v = [0f32; 1];
                let probs = match roller {
                    Some(p) => self.values_for_mover(&position, states, &mut v, |pos, c, v| {
                        self.static_values(pos, &p, c, v);
                        p
                    }),
                    None => self.after_move(&position, states, 0, &mut v),
                };
                ranked.push(RankedMove {
                    index,
                    position,
                    probs,
                    equity: state.normalise(v[0]),
                    ply: 0,
                });
            }
        }
        ranked
    }

    /// Each state's static value of `pos` for its roller, from `p`.
    fn static_values(&self, pos: &Position, p: &Probs, states: &[CubeState], out: &mut [f32]) {
        if self.cubeless {
            for (o, s) in out.iter_mut().zip(states) {
                *o = p.equity() * s.value as f32;
            }
        } else {
            let mut leaf = LeafCube::new(pos, p).with_tuning(self.cube_tuning);
            for (o, s) in out.iter_mut().zip(states) {
                *o = leaf.static_value(s);
            }
        }
    }

    /// The mover's values after moving into `after`, the opponent to roll
    /// with `ply` plies left.
    fn after_move(
        &self,
        after: &Position,
        states: &[CubeState],
        ply: u8,
        out: &mut [f32],
    ) -> Probs {
        self.after_move_with(after, states, ply, out, false)
    }

    /// [`Self::after_move`], the opponent's 21 rolls spread over rayon's
    /// threads when `parallel`.
    fn after_move_with(
        &self,
        after: &Position,
        states: &[CubeState],
        ply: u8,
        out: &mut [f32],
        parallel: bool,
    ) -> Probs {
        if let Some(result) = GameResult::of_mover_win(after) {
            for (o, s) in out.iter_mut().zip(states) {
                *o = s.result_value(result, true);
            }
            return Probs::won(result);
        }
        self.values_for_mover(after, states, out, |pos, children, values| {
            self.evaluate_with(pos, children, ply, values, parallel)
        })
    }

    /// The mover's values after moving into `after` (a game still going)
    /// from the opponent's, which `opponent` fills in for the opponent's
    /// cube states and returns with its probabilities.
    fn values_for_mover(
        &self,
        after: &Position,
        states: &[CubeState],
        out: &mut [f32],
        opponent: impl FnOnce(&Position, &[CubeState], &mut [f32]) -> Probs,
    ) -> Probs {
        let mut children = [CubeState::money(); MAX_STATES];
        for (c, s) in children.iter_mut().zip(states) {
            *c = s.swapped();
        }
        let mut values = [0f32; MAX_STATES];
        let n = states.len();
        let p = opponent(&after.swap(), &children[..n], &mut values[..n]);
        for ((o, s), v) in out.iter_mut().zip(states).zip(values) {
            *o = s.flip(v);
        }
        p.flip()
    }

    /// Every legal move of `list` (played from `pos`) ranked by cubeful
    /// equity, best first, through the filter stages of `settings`.
    pub fn rank_moves(
        &self,
        list: &MoveList,
        state: &CubeState,
        settings: &SearchSettings,
    ) -> Vec<RankedMove> {
        self.rank_stages(list, state, settings, false)
    }

    /// The move [`Self::rank_moves`] ranks first, found without the
    /// stages that could not change it: once a filter lets a single move
    /// through, the deeper stages would only value it. A player and a
    /// rollout want the choice, not its value; the first move's `equity`
    /// and `ply` are then those of the last stage walked.
    pub fn best_move(
        &self,
        list: &MoveList,
        state: &CubeState,
        settings: &SearchSettings,
    ) -> RankedMove {
        self.rank_stages(list, state, settings, true)[0]
    }

    /// [`Self::rank_moves`], stopping where one move is left when
    /// `choice_only`.
    fn rank_stages(
        &self,
        list: &MoveList,
        state: &CubeState,
        settings: &SearchSettings,
        choice_only: bool,
    ) -> Vec<RankedMove> {
        let value = |index: usize, ply: u8| {
            let position = list.as_slice()[index].position;
            let mut v = [0f32; 1];
            // From 2-ply a candidate's tree is worth splitting by the
            // opponent's rolls: the last stages keep only a candidate or
            // two, which alone would leave all but two threads idle. The
            // sums stay in roll order, so values do not depend on threads.
            let probs = self.after_move_with(
                &position,
                std::slice::from_ref(state),
                ply,
                &mut v,
                ply >= 2,
            );
            RankedMove {
                index,
                position,
                probs,
                equity: state.normalise(v[0]),
                ply,
            }
        };
        let mut ranked: Vec<RankedMove> = Vec::new();
        let mut alive: Vec<usize> = (0..list.len()).collect();
        for (ply, filter) in settings.stages() {
            let mut fresh: Vec<RankedMove> = match ply {
                0 => self.rank_at_0ply(list, &alive, state),
                _ => alive.par_iter().map(|&i| value(i, ply)).collect(),
            };
            sort(&mut fresh);
            ranked.retain(|r| !alive.contains(&r.index));
            let best = fresh.first().map_or(0.0, |r| r.equity);
            alive = fresh
                .iter()
                .take(filter.keep.max(1))
                .filter(|r| r.equity >= best - filter.window)
                .map(|r| r.index)
                .collect();
            fresh.extend(ranked);
            ranked = fresh;
            if choice_only && alive.len() == 1 {
                break;
            }
        }
        ranked
    }

    /// How much better `dice` is for the roller of `pos` than the average
    /// roll, in units of the cube: the value after its best move (chosen
    /// and valued at 0-ply) less the same averaged over the 36 rolls, or
    /// over the 30 that are not doubles for a game's `opening` roll. This
    /// is the luck of a roll as gnubg's analysis counts it; no cube action
    /// comes first, since the roll is what is judged, not the doubling.
    pub fn roll_luck(&self, pos: &Position, dice: Dice, state: &CubeState, opening: bool) -> f32 {
        let states = std::slice::from_ref(state);
        let bests = self.node_replies(pos, false, false);
        let value = |d: Dice| {
            let mut v = [0f32; MAX_STATES];
            self.after_reply(&bests[roll_index(d)], states, 1, &mut v);
            state.normalise(v[0])
        };
        let (mut sum, mut weight, mut rolled) = (0.0, 0.0, None);
        for (d, w) in Dice::all_rolls().filter(|(d, _)| !(opening && d.is_double())) {
            let v = value(d);
            if d == dice {
                rolled = Some(v);
            }
            sum += v * w as f32;
            weight += w as f32;
        }
        // An opening double is not among the averaged rolls.
        rolled.unwrap_or_else(|| value(dice)) - sum / weight
    }

    /// The cube decision before the roll of `pos` for its roller.
    pub fn cube_decision(&self, pos: &Position, state: &CubeState, ply: u8) -> CubeAnalysis {
        if ply == 0 {
            let probs = self.probs(pos);
            return CubeAnalysis {
                decision: LeafCube::new(pos, &probs)
                    .with_tuning(self.cube_tuning)
                    .decision(state),
                probs,
                ply,
            };
        }
        let (states, n) = cube_states(state);
        let mut v = [0f32; 3];
        // A 1-ply node's rolls are a few evaluations each, mostly cache
        // hits (a rollout's cube decisions): too little to hand to other
        // threads.
        let probs = self.roll_average(pos, &states[..n], ply, &mut v[..n], ply >= 2);
        CubeAnalysis {
            decision: decide(state, &v[..n]),
            probs,
            ply,
        }
    }

    /// Whether the roller of `pos` is so far from a double by the static
    /// cube decision (more than [`CUBE_SCREEN_MARGIN`], behind or too
    /// good) that the decision at `ply` need not be asked: a player that
    /// plays many games (a rollout's trials) screens its cube turns with
    /// it. Never at 0-ply, where the static decision is the one asked.
    pub fn double_out_of_reach(&self, pos: &Position, state: &CubeState, ply: u8) -> bool {
        if ply == 0 {
            return false;
        }
        let d = self.cube_decision(pos, state, 0).decision;
        d.no_double - d.double_take.min(d.double_pass) > CUBE_SCREEN_MARGIN
    }
}

/// How far the static cube decision must leave the roller from doubling
/// (no double's equity above the better of double/take and double/pass,
/// per unit of the cube) for [`Searcher::double_out_of_reach`] to skip
/// the deeper one. A rollout asks for a cube decision at nearly every
/// turn, and most are nowhere near the doubling window; the margin is set
/// where, in the rollouts measured (BENCHMARKS.md), no 1-ply or 2-ply
/// decision beyond it doubled.
pub const CUBE_SCREEN_MARGIN: f32 = 0.3;

/// Best first. Cubeful ties are common (every move that leaves the
/// opponent a double/pass is worth exactly −1) and are broken by cubeless
/// equity, which still rewards the move that does best if the opponent
/// errs; then by move-list order, so the order is reproducible.
fn sort(moves: &mut [RankedMove]) {
    moves.sort_by(|a, b| {
        b.equity
            .total_cmp(&a.equity)
            .then(b.probs.equity().total_cmp(&a.probs.equity()))
            .then(a.index.cmp(&b.index))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A node's replies are kept in roll order; a roll finds its own.
    #[test]
    fn each_roll_has_its_own_index_in_roll_order() {
        for (i, (dice, _)) in Dice::all_rolls().enumerate() {
            assert_eq!(roll_index(dice), i, "{dice:?}");
        }
    }

    /// The pre-selection's order as it was first written: the higher
    /// score first, by `total_cmp` of the scores negated, then the
    /// earlier move. [`Ranked`] must order as this does.
    fn ranked_before(a: &(f32, u16), b: &(f32, u16)) -> std::cmp::Ordering {
        (-a.0).total_cmp(&-b.0).then(a.1.cmp(&b.1))
    }

    /// One compare of two [`Ranked`] words orders them as
    /// `ranked_before`, signed zeros, tiny and infinite scores included.
    #[test]
    fn a_ranked_word_orders_as_its_score_and_index() {
        let scores = [
            f32::NEG_INFINITY,
            -1e30,
            -2.5,
            -1e-40,
            -0.0,
            0.0,
            1e-40,
            2.5,
            3.0e9,
            f32::INFINITY,
        ];
        for &a in &scores {
            for &b in &scores {
                for (i, j) in [(0u16, 1u16), (1, 0), (7, 7), (0, u16::MAX)] {
                    assert_eq!(
                        Ranked::new(a, i).cmp(&Ranked::new(b, j)),
                        ranked_before(&(a, i), &(b, j)),
                        "{a} {i} against {b} {j}"
                    );
                }
            }
        }
    }

    /// `Best` holds what sorting every entry would put first, ties by
    /// index included, at either capacity.
    #[test]
    fn the_running_selection_keeps_what_a_sort_would() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for keep in [1, 4, 16, 128] {
            let entries: Vec<(f32, u16)> = (0..600u16)
                .map(|i| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    // Few distinct scores, so that ties are common.
                    ((s % 40) as f32 - 20.0, i)
                })
                .collect();
            let mut sorted = entries.clone();
            sorted.sort_by(ranked_before);
            let expected: Vec<u16> = sorted[..keep].iter().map(|e| e.1).collect();
            let offered = entries.iter().map(|&(score, i)| Ranked::new(score, i));
            let mut best = Best::<PRUNE_MAX>::new(keep);
            offered.clone().for_each(|e| best.offer(e));
            let kept: Vec<u16> = best.kept().iter().map(|e| e.index()).collect();
            assert_eq!(kept, expected, "keep {keep}");
            if keep <= SMALL_KEEP {
                let mut small = Best::<SMALL_KEEP>::new(keep);
                offered.for_each(|e| small.offer(e));
                let kept: Vec<u16> = small.kept().iter().map(|e| e.index()).collect();
                assert_eq!(kept, expected, "keep {keep}, short");
            }
        }
    }

    /// A double with checkers spread: far more moves than the scratch room.
    fn long_list() -> (Position, MoveList) {
        // Both sides alike: blots and points spread from the 1 to the 13.
        let spread = [
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 2),
            (5, 2),
            (6, 2),
            (8, 2),
            (9, 1),
            (10, 1),
            (11, 1),
            (13, 1),
        ];
        let pos = Position::from_points(&spread, &spread);
        let mut list = MoveList::new();
        crate::backgammon::legal_moves(&pos, Dice::new(2, 2).unwrap(), &mut list);
        assert!(list.len() > PRUNE_MAX, "{} moves", list.len());
        (pos, list)
    }

    /// A long list keeps `LONG_LIST_FACTOR` times the network's width:
    /// the moves its scores rank first over the whole list, in list
    /// order. PubEval, and the network told to, keep every move.
    #[test]
    fn a_long_list_keeps_the_networks_best_four_times_its_width() {
        let (pos, list) = long_list();
        let moves = list.as_slice();
        let mut scores = vec![0i32; moves.len()];
        SHIPPED_PRUNE_NET.score_moves(&pos, moves, &mut scores);
        let mut ranked: Vec<(f32, u16)> = scores
            .iter()
            .enumerate()
            .map(|(i, &score)| (score as f32, i as u16))
            .collect();
        ranked.sort_by(ranked_before);
        let mut expected: Vec<usize> = ranked[..NETWORK_PRUNE * LONG_LIST_FACTOR]
            .iter()
            .map(|e| e.1 as usize)
            .collect();
        expected.sort_unstable();
        let mut scratch = Preselection::new();
        let kept: Vec<usize> = scratch
            .choose(
                &pos,
                moves,
                NETWORK_PRUNE,
                Preselector::Network,
                LongLists::Pruned,
            )
            .expect("a long list is pruned")
            .collect();
        assert_eq!(kept, expected);
        for (by, long_lists) in [
            (Preselector::PubEval, LongLists::Pruned),
            (Preselector::Network, LongLists::Whole),
        ] {
            let whole = scratch
                .choose(&pos, moves, NETWORK_PRUNE, by, long_lists)
                .is_none();
            assert!(whole, "{by} {long_lists:?}");
        }
    }
}
