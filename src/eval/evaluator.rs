//! The neural evaluator: picks the exact bear-off database or the network
//! for the position's class and returns the five probabilities.

use super::bearoff::BearoffDb;
use super::encoding::{CONTACT_INPUTS, NetKind, PointCounts, encode, encode_counted};
use super::fast_net::{FastNet, FirstLayerMemo, MAX_BATCH};
use super::game_plan::GamePlan;
use super::model_file::Model;
use super::network::OUTPUTS;
use super::probs::Probs;
use crate::backgammon::{Dice, GameResult, MoveList, Position, legal_moves};

/// Which evaluation a position gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionClass {
    /// Both sides have every checker home, no contact: exact database.
    BearOff,
    /// No contact left: race network.
    Race,
    /// Contact network.
    Contact,
}

impl PositionClass {
    pub fn of(pos: &Position) -> PositionClass {
        if pos.has_contact() {
            PositionClass::Contact
        } else if super::bearoff::home_board(pos).is_some()
            && super::bearoff::home_board(&pos.swap()).is_some()
        {
            PositionClass::BearOff
        } else {
            PositionClass::Race
        }
    }
}

/// A model plus the bear-off database: evaluates any position.
pub struct Evaluator {
    model: Model,
    contact: FastNet,
    race: FastNet,
    crashed: Option<FastNet>,
    bearoff: &'static BearoffDb,
    /// Whether every network's memo pass gives exactly its plain pass's
    /// answer (board networks sum in integers): only then may a walk skip
    /// some positions without changing what the others get.
    exact_memo: bool,
}

impl Evaluator {
    pub fn new(model: Model) -> Evaluator {
        let contact = FastNet::for_board(&model.contact);
        let race = FastNet::for_board(&model.race);
        let crashed = model.crashed.as_ref().map(FastNet::for_board);
        let exact_memo = contact.takes_counts()
            && race.takes_counts()
            && crashed.as_ref().is_none_or(FastNet::takes_counts);
        Evaluator {
            contact,
            race,
            crashed,
            model,
            bearoff: BearoffDb::get(),
            exact_memo,
        }
    }

    /// The network that evaluates `pos`, if one does (bear-offs are exact).
    pub fn net_kind(&self, pos: &Position) -> Option<NetKind> {
        match PositionClass::of(pos) {
            PositionClass::BearOff => None,
            PositionClass::Race => Some(NetKind::Race),
            PositionClass::Contact => Some(self.contact_kind(pos)),
        }
    }

    /// The network that evaluates a contact position (see [`contact_net`]).
    #[inline]
    pub fn contact_kind(&self, pos: &Position) -> NetKind {
        contact_net(pos, self.crashed.is_some())
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Probabilities for the side on roll of `pos` (a game still going).
    #[inline]
    pub fn probs(&self, pos: &Position) -> Probs {
        self.probs_with(pos, None)
    }

    /// [`Self::probs`], each network pass starting from `memo`'s first
    /// layer where one is given ([`FastNet::forward_with_memo`]).
    #[inline]
    fn probs_with(&self, pos: &Position, memo: Option<&mut FirstLayerMemo>) -> Probs {
        match PositionClass::of(pos) {
            PositionClass::BearOff => match super::bearoff_two_sided::TwoSidedDb::get().win(pos) {
                // Small endings: exact (no gammons are possible there).
                Some(win) => Probs([win, 0.0, 0.0, 0.0, 0.0]),
                None => self
                    .bearoff
                    .probs(pos)
                    .expect("bear-off class has both home boards"),
            },
            PositionClass::Race => self
                .decided_race(pos)
                .or_else(|| self.last_roll(pos))
                .unwrap_or_else(|| self.net_probs_with(NetKind::Race, pos, memo)),
            PositionClass::Contact => self.net_probs_with(self.contact_kind(pos), pos, memo),
        }
    }

    /// The exact probabilities of a race whose side on roll bears off
    /// every remaining checker with any roll: it wins, and where the other
    /// side stands settles the gammon and backgammon. These endings are
    /// the leaves of every gammon- and backgammon-saving decision, and the
    /// race network misjudges them (a side with three checkers still in
    /// the winner's home board, a backgammon for certain, was given 0.31).
    fn decided_race(&self, pos: &Position) -> Option<Probs> {
        self.finishes_next_roll(pos)
            .then(|| won_against(&pos.to_sides().1))
    }

    /// The exact probabilities of a race whose other side bears off every
    /// remaining checker with any roll: the side on roll has this one roll
    /// left, so its value is the average over its rolls of its best play
    /// (by cubeless equity), and each play's outcome is exact: a win if it
    /// bears off its last checker, else the other side's win, settled by
    /// where the play left the side on roll's checkers. Whether it saves
    /// the gammon or the backgammon this roll is then counted, not guessed.
    fn last_roll(&self, pos: &Position) -> Option<Probs> {
        if !self.finishes_next_roll(&pos.swap()) {
            return None;
        }
        thread_local! {
            // Rare positions, but no allocation per evaluation.
            static LIST: std::cell::RefCell<MoveList> = std::cell::RefCell::new(MoveList::new());
        }
        LIST.with_borrow_mut(|list| {
            let mut total = Probs::default();
            for (dice, weight) in Dice::all_rolls() {
                legal_moves(pos, dice, list);
                // The other side's board is what it was (a race has no
                // hits), so each play's ending needs no classifying.
                let best = list
                    .iter()
                    .map(|c| match GameResult::of_mover_win(&c.position) {
                        Some(result) => Probs::won(result),
                        None => won_against(&c.position.to_sides().0).flip(),
                    })
                    .max_by(|a, b| a.equity().total_cmp(&b.equity()))
                    .expect("a roll has at least one play, the empty one");
                total.add_scaled(&best, f32::from(weight) / 36.0);
            }
            Some(total)
        })
    }

    /// Whether the side on roll of `pos` has every checker home and bears
    /// them all off with any roll (one-sided database).
    fn finishes_next_roll(&self, pos: &Position) -> bool {
        super::bearoff::home_board(pos).is_some_and(|home| self.bearoff.off(&home)[1] >= 1.0 - 1e-6)
    }

    /// The network's own opinion of `pos`, whatever its class.
    #[inline]
    pub fn net_probs(&self, kind: NetKind, pos: &Position) -> Probs {
        self.net_probs_with(kind, pos, None)
    }

    #[inline]
    fn net_probs_with(
        &self,
        kind: NetKind,
        pos: &Position,
        memo: Option<&mut FirstLayerMemo>,
    ) -> Probs {
        let mut buf = [0f32; CONTACT_INPUTS];
        let input = &mut buf[..kind.inputs()];
        let net = self.net(kind);
        let out = if net.takes_counts() {
            let mut counts: PointCounts = [0; 48];
            encode_counted(pos, kind, input, &mut counts);
            net.forward_counted(input, &counts, memo)
        } else {
            encode(pos, kind, input);
            match memo {
                Some(memo) => net.forward_with_memo(input, memo),
                None => net.forward(input),
            }
        };
        without_impossible_gammons(Probs(out).consistent(), pos)
    }

    /// The network of `kind` (a model without a crashed network sends
    /// those positions to its contact network).
    #[inline]
    fn net(&self, kind: NetKind) -> &FastNet {
        match kind {
            NetKind::Contact => &self.contact,
            NetKind::Race => &self.race,
            NetKind::Crashed => self.crashed.as_ref().unwrap_or(&self.contact),
        }
    }

    /// [`Self::probs`] of each of `positions` (games still going), into
    /// `out`, bit for bit. Where every network sums its first layer in
    /// integers ([`Self::batches_exactly`]), the positions go one after
    /// another through the thread's first-layer memo (each adds only the
    /// rows that changed since the one before, even one of an earlier
    /// call), and runs of positions for one network go through its second
    /// layer up to [`MAX_BATCH`] at a time, its weights loaded once for all
    /// of them ([`FastNet::forward_counted_batch`]). Otherwise each is
    /// evaluated alone.
    ///
    /// # Panics
    /// Where `out` is not as long as `positions`.
    pub fn probs_batch(&self, positions: &[Position], out: &mut [Probs]) {
        assert_eq!(positions.len(), out.len());
        if !self.exact_memo {
            for (o, pos) in out.iter_mut().zip(positions) {
                *o = self.probs(pos);
            }
            return;
        }
        thread_local! {
            // Never reset: the sums are exact integers, so no answer
            // depends on what the memo saw before, and the memo knows its
            // network by id.
            static MEMO: std::cell::RefCell<FirstLayerMemo> =
                std::cell::RefCell::new(FirstLayerMemo::new());
            // Kept from call to call: its few kilobytes of inputs, zeroed
            // afresh, were a measurable share of a search's time. Every
            // input a pass reads is written for each position first.
            static BATCH: std::cell::RefCell<NetBatch> =
                std::cell::RefCell::new(NetBatch::new());
        }
        MEMO.with_borrow_mut(|memo| {
            BATCH.with_borrow_mut(|batch| self.probs_batch_exact(positions, memo, batch, out))
        });
    }

    /// [`Self::after_move`] of each of `afters` (boards just moved into),
    /// into `out`, bit for bit: the games still going evaluated together
    /// by [`Self::probs_batch`].
    ///
    /// # Panics
    /// Where `out` is not as long as `afters`, or longer than
    /// [`AFTER_BATCH`].
    pub fn after_move_batch(&self, afters: &[Position], out: &mut [Probs]) {
        assert!(afters.len() == out.len() && afters.len() <= AFTER_BATCH);
        let mut going = [Position::starting(); AFTER_BATCH];
        let mut at = [0usize; AFTER_BATCH];
        let mut n = 0;
        for (k, (after, o)) in afters.iter().zip(out.iter_mut()).enumerate() {
            match GameResult::of_mover_win(after) {
                Some(result) => *o = Probs::won(result),
                None => {
                    (going[n], at[n]) = (after.swap(), k);
                    n += 1;
                }
            }
        }
        let mut probs = [Probs::default(); AFTER_BATCH];
        self.probs_batch(&going[..n], &mut probs[..n]);
        for (&k, p) in at[..n].iter().zip(&probs) {
            out[k] = p.flip();
        }
    }

    /// Whether [`Self::probs_batch`] batches: every network sums its
    /// first layer in integers, so a pass through a memo answers exactly
    /// as a plain pass, whatever the memo saw before.
    pub fn batches_exactly(&self) -> bool {
        self.exact_memo
    }

    fn probs_batch_exact(
        &self,
        positions: &[Position],
        memo: &mut FirstLayerMemo,
        batch: &mut NetBatch,
        out: &mut [Probs],
    ) {
        batch.n = 0;
        for (i, pos) in positions.iter().enumerate() {
            let kind = match PositionClass::of(pos) {
                PositionClass::Contact => self.contact_kind(pos),
                PositionClass::Race => {
                    match self.decided_race(pos).or_else(|| self.last_roll(pos)) {
                        Some(p) => {
                            out[i] = p;
                            continue;
                        }
                        None => NetKind::Race,
                    }
                }
                PositionClass::BearOff => {
                    out[i] = self.probs_with(pos, None);
                    continue;
                }
            };
            if batch.n > 0 && (batch.kind != kind || batch.n == MAX_BATCH) {
                self.finish_batch(batch, positions, memo, out);
            }
            let n = batch.n;
            batch.kind = kind;
            batch.index[n] = i;
            encode_counted(
                pos,
                kind,
                &mut batch.inputs[n][..kind.inputs()],
                &mut batch.counts[n],
            );
            batch.n += 1;
        }
        if batch.n > 0 {
            self.finish_batch(batch, positions, memo, out);
        }
    }

    /// The network pass of `batch`'s positions, their answers into `out`;
    /// the batch is then empty.
    fn finish_batch(
        &self,
        batch: &mut NetBatch,
        positions: &[Position],
        memo: &mut FirstLayerMemo,
        out: &mut [Probs],
    ) {
        let n = batch.n;
        let inputs = batch.kind.inputs();
        let slices: [&[f32]; MAX_BATCH] = std::array::from_fn(|b| &batch.inputs[b][..inputs]);
        let mut raw = [[0f32; OUTPUTS]; MAX_BATCH];
        self.net(batch.kind).forward_counted_batch(
            &slices[..n],
            &batch.counts[..n],
            memo,
            &mut raw[..n],
        );
        for (&i, r) in batch.index[..n].iter().zip(raw) {
            out[i] = without_impossible_gammons(Probs(r).consistent(), &positions[i]);
        }
        batch.n = 0;
    }

    /// Probabilities for the side that just moved, `after` being the board
    /// after its move from its own view: exact when the move ended the game.
    #[inline]
    pub fn after_move(&self, after: &Position) -> Probs {
        self.after_move_with(after, None)
    }

    /// [`Self::after_move`] for one of a roll's candidates walked in
    /// order: each network pass starts from the previous candidate's first
    /// layer in `memo` ([`FastNet::forward_with_memo`]). The probabilities
    /// differ from `after_move`'s by float rounding only; give each list a
    /// fresh memo so that a walk's answers never depend on what came
    /// before it.
    #[inline]
    pub fn after_candidate(&self, after: &Position, memo: &mut FirstLayerMemo) -> Probs {
        self.after_move_with(after, Some(memo))
    }

    #[inline]
    fn after_move_with(&self, after: &Position, memo: Option<&mut FirstLayerMemo>) -> Probs {
        match GameResult::of_mover_win(after) {
            Some(result) => Probs::won(result),
            None => self.probs_with(&after.swap(), memo).flip(),
        }
    }
}

/// The most boards [`Evaluator::after_move_batch`] takes at once.
pub const AFTER_BATCH: usize = 16;

/// Encoded positions waiting for one network's batched pass
/// ([`Evaluator::probs_batch`]).
struct NetBatch {
    kind: NetKind,
    n: usize,
    /// Where each sits among the positions asked for.
    index: [usize; MAX_BATCH],
    inputs: [[f32; CONTACT_INPUTS]; MAX_BATCH],
    counts: [PointCounts; MAX_BATCH],
}

impl NetBatch {
    fn new() -> NetBatch {
        NetBatch {
            kind: NetKind::Contact,
            n: 0,
            index: [0; MAX_BATCH],
            inputs: [[0.0; CONTACT_INPUTS]; MAX_BATCH],
            counts: [[0; 48]; MAX_BATCH],
        }
    }
}

/// The probabilities of a side that has just borne off its last checker
/// against a loser whose checkers stand as `loser` (its own view): a
/// gammon if none is off, a backgammon if one is also still in the
/// winner's home board or on the bar.
fn won_against(loser: &[u8; 25]) -> Probs {
    let finished =
        Position::from_sides(&[0; 25], loser).expect("the loser's side of a legal position");
    Probs::won(GameResult::of_mover_win(&finished).expect("the winner has no checker left"))
}

/// The network that evaluates a contact position in a model with or
/// without a crashed network: the crashed one for back games and crashed
/// boards when there is one. Training routes its samples by the same rule.
#[inline]
pub fn contact_net(pos: &Position, has_crashed: bool) -> NetKind {
    if has_crashed && GamePlan::is_crashed_contact(pos) {
        NetKind::Crashed
    } else {
        NetKind::Contact
    }
}

/// A side that has borne off a checker can no longer lose a gammon. The
/// networks learn this only where self-play goes: a side bearing off while
/// the other still has a checker back is rare there, and on such
/// positions a network can give the trapped side a 40% gammon chance
/// that is not there at all.
#[inline]
fn without_impossible_gammons(mut p: Probs, pos: &Position) -> Probs {
    let (mine, theirs) = pos.borne_off_both();
    if theirs > 0 {
        p.0[Probs::WIN_GAMMON] = 0.0;
        p.0[Probs::WIN_BACKGAMMON] = 0.0;
    }
    if mine > 0 {
        p.0[Probs::LOSE_GAMMON] = 0.0;
        p.0[Probs::LOSE_BACKGAMMON] = 0.0;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert_eq!(
            PositionClass::of(&Position::starting()),
            PositionClass::Contact
        );
        let mut me = [0u8; 25];
        let mut opp = [0u8; 25];
        me[3] = 5;
        opp[2] = 4;
        let bearoff = Position::from_sides(&me, &opp).unwrap();
        assert_eq!(PositionClass::of(&bearoff), PositionClass::BearOff);
        me[3] = 4;
        me[9] = 1;
        assert_eq!(
            PositionClass::of(&Position::from_sides(&me, &opp).unwrap()),
            PositionClass::Race
        );
    }

    #[test]
    fn back_games_and_crashed_boards_go_to_the_crashed_network() {
        use crate::eval::network::Mlp;
        let plain = Model::random(16, 8, 1);
        let mut model = plain.clone();
        model.crashed = Some(Mlp::random(CONTACT_INPUTS, 16, 2));
        let (with, without) = (Evaluator::new(model), Evaluator::new(plain));
        // The side on roll holds the other's 1- and 3-points.
        let back = Position::from_points(
            &[(24, 2), (22, 3), (13, 4), (6, 3), (8, 3)],
            &[(6, 5), (5, 4), (4, 3), (8, 3)],
        );
        assert_eq!(with.net_kind(&back), Some(NetKind::Crashed));
        assert_eq!(without.net_kind(&back), Some(NetKind::Contact));
        assert_ne!(with.probs(&back), without.probs(&back));
        assert_eq!(with.probs(&back), with.net_probs(NetKind::Crashed, &back));
        // Seen from the other side it is the same kind of game.
        assert_eq!(with.net_kind(&back.swap()), Some(NetKind::Crashed));
        let start = Position::starting();
        assert_eq!(with.net_kind(&start), Some(NetKind::Contact));
        assert_eq!(with.probs(&start), without.probs(&start));
    }

    #[test]
    fn a_race_the_roller_finishes_with_any_roll_is_decided_exactly() {
        let eval = Evaluator::new(Model::random(16, 8, 1));
        // Two checkers left on the 1- and 2-points: every roll takes both
        // off. The other side still has three checkers in the roller's
        // home board (its 19- and 21-points): a backgammon.
        let theirs = [(19, 2), (21, 1), (13, 3), (12, 1), (7, 3), (6, 3), (3, 2)];
        let bg = Position::from_points(&[(1, 1), (2, 1)], &theirs);
        assert_eq!(PositionClass::of(&bg), PositionClass::Race);
        assert_eq!(eval.probs(&bg), Probs::won(GameResult::Backgammon));
        // All out of the roller's home board, none off: a gammon.
        let theirs = [(18, 3), (13, 3), (12, 1), (7, 3), (6, 3), (3, 2)];
        let gammon = Position::from_points(&[(1, 1), (2, 1)], &theirs);
        assert_eq!(eval.probs(&gammon), Probs::won(GameResult::Gammon));
        // Three checkers on the 6-point are not off in one roll (only
        // 6-6 does it): the network's call.
        let open = Position::from_points(&[(6, 3)], &theirs);
        assert_eq!(eval.probs(&open), eval.net_probs(NetKind::Race, &open));
    }

    #[test]
    fn the_last_roll_against_a_side_that_finishes_is_counted() {
        let eval = Evaluator::new(Model::random(16, 8, 1));
        // The other side takes its last two checkers off with any roll.
        // The side on roll has three checkers in that side's home board
        // (its 19- and 21-points): only 2-2 to 6-6 bring all three out, so
        // it loses a backgammon 31 times in 36 and a gammon always.
        let mine = [(19, 2), (21, 1), (13, 3), (12, 1), (7, 3), (6, 3), (3, 2)];
        let last = Position::from_points(&mine, &[(1, 1), (2, 1)]);
        assert_eq!(PositionClass::of(&last), PositionClass::Race);
        let p = eval.probs(&last);
        let want = [0.0, 0.0, 0.0, 1.0, 31.0 / 36.0];
        assert!(
            p.0.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-5),
            "{p:?}"
        );
        // One checker on the 12-point, fourteen on the 1-point: it must
        // come home and bear a checker off in one roll. 6-1 does it
        // (12/6, 1/off), and 3-3 to 6-6; 6-2 does not, because a die
        // larger than the 1-point needs cannot bear off while the checker
        // on the 6-point stands higher. 6 rolls in 36 save the gammon.
        let gammon = Position::from_points(&[(12, 1), (1, 14)], &[(1, 1), (2, 1)]);
        let p = eval.probs(&gammon);
        let want = [0.0, 0.0, 0.0, 30.0 / 36.0, 0.0];
        assert!(
            p.0.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-5),
            "{p:?}"
        );
    }

    #[test]
    fn no_gammon_against_a_side_that_has_borne_off() {
        let eval = Evaluator::new(Model::random(16, 8, 1));
        // dev-c-0191: the opponent has borne off one checker and holds its
        // home board against our checker on the bar.
        let pos = crate::notation::position_id::decode("/zMAALC27RYAAA").unwrap();
        assert_eq!(pos.borne_off_both(), (0, 1));
        let p = eval.probs(&pos);
        assert_eq!((p.0[1], p.0[2]), (0.0, 0.0), "{p:?}");
        let q = eval.probs(&pos.swap());
        assert_eq!((q.0[3], q.0[4]), (0.0, 0.0), "{q:?}");
        // Nobody has borne off at the start: gammons stay possible.
        let start = eval.probs(&Position::starting());
        assert!(start.0[1] > 0.0 && start.0[3] > 0.0);
    }

    #[test]
    fn finished_games_are_exact() {
        let eval = Evaluator::new(Model::random(16, 8, 1));
        let me = [0u8; 25];
        let mut opp = [0u8; 25];
        opp[20] = 15; // all on the opponent's 21 point = the mover's 4 point
        let after = Position::from_sides(&me, &opp).unwrap();
        assert_eq!(eval.after_move(&after), Probs::won(GameResult::Backgammon));
    }
}
