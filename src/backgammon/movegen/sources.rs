//! Where a step of one die may start, as a bit mask of points, for the
//! generators that track the mover's checkers as a mask.

use super::super::position::BAR;

/// Bit of the mover's bar in the masks.
pub(super) const BAR_BIT: u32 = 1 << BAR;
/// Bits of the points outside the home board (7..=24) and the bar.
pub(super) const OUTSIDE_HOME: u32 = (2 << BAR) - (1 << 7);

/// What stays fixed for steps of one die through a turn: which points a
/// checker may leave by moving `die` pips on the board, and whether a
/// checker on the bar may enter. Neither changes during a turn: the mover
/// cannot close a point against himself, and a point he lands on stays his.
#[derive(Clone, Copy)]
pub(super) struct DieSteps {
    pub(super) die: usize,
    on_board: u32,
    enter: bool,
}

impl DieSteps {
    /// `open`: the points a checker may land on (the mask of
    /// [`super::wide::Wide::masks`]).
    #[inline(always)]
    pub(super) fn new(open: u32, die: usize) -> DieSteps {
        let points_above_die = ((1u32 << BAR) - 1) & !((2u32 << die) - 1);
        DieSteps {
            die,
            on_board: (open << die) & points_above_die,
            enter: open & (1 << (BAR - die)) != 0,
        }
    }

    /// The points a step may start from, none above `top`, given the
    /// mover's checkers (`occupied`, bar included): whether any is outside
    /// the home board is read from the same mask.
    #[inline(always)]
    pub(super) fn sources(&self, occupied: u32, top: usize) -> u32 {
        if occupied & BAR_BIT != 0 {
            return if self.enter { BAR_BIT } else { 0 };
        }
        let mut s = occupied & self.on_board;
        if occupied & OUTSIDE_HOME == 0 && occupied != 0 {
            // Bearing off: exactly from the die's point, or from the
            // highest point when it is lower than the die.
            s |= occupied & (1 << self.die);
            let highest = 31 - occupied.leading_zeros() as usize;
            s |= u32::from(highest < self.die) << highest;
        }
        s & ((2u32 << top) - 1)
    }

    /// [`DieSteps::sources`] for a turn with every checker home (or
    /// off): a step may bear off exactly from the die's point, or from the
    /// highest point when it is lower than the die.
    #[inline(always)]
    pub(super) fn sources_home(&self, occupied: u32, top: usize) -> u32 {
        // The highest checker's bit, none when all are off.
        let highest = (1u64 << 31 >> occupied.leading_zeros()) as u32;
        let below_die = u32::from(occupied < 1 << self.die).wrapping_neg();
        ((occupied & (self.on_board | 1 << self.die)) | (highest & below_die)) & ((2u32 << top) - 1)
    }

    /// The points a step may leave on the board, were the mover's checkers
    /// there: fixed through the turn.
    #[inline(always)]
    pub(super) fn on_board(&self) -> u32 {
        self.on_board
    }

    /// [`DieSteps::sources`] for a turn with no checker on the bar and
    /// none that can bear off.
    #[inline(always)]
    pub(super) fn sources_on_board(&self, occupied: u32, top: usize) -> u32 {
        occupied & self.on_board & ((2u32 << top) - 1)
    }

    /// Where a step from `from` lands (0 = borne off).
    #[inline(always)]
    pub(super) fn target(&self, from: usize) -> usize {
        from.saturating_sub(self.die)
    }
}

/// Whether any step of the turn can land on an opposing blot: steps only
/// go down the board, so only blots below the mover's highest checker can
/// be hit. In races none can, and a search that knows it skips the hit
/// test at every step.
#[inline(always)]
pub(super) fn can_hit(occupied: u32, blots: u32) -> bool {
    // Slot 0 is the opponent's bar, never a landing point.
    occupied
        .checked_ilog2()
        .is_some_and(|highest| blots & ((1u32 << highest) - 1) & !1 != 0)
}

/// The highest point in a non-empty mask, removed from it.
#[inline(always)]
pub(super) fn pop_highest(mask: &mut u32) -> usize {
    let k = 31 - mask.leading_zeros() as usize;
    *mask &= !(1 << k);
    k
}

/// The lowest point in a non-empty mask, removed from it: two
/// instructions cheaper than [`pop_highest`], for loops whose order does
/// not matter.
#[inline(always)]
pub(super) fn pop_lowest(mask: &mut u32) -> usize {
    let k = mask.trailing_zeros() as usize;
    *mask &= *mask - 1;
    k
}

/// The mask after a checker moves `from` → `to` (0 = off), given the
/// count that was on `from`.
#[inline(always)]
pub(super) fn after_step(occupied: u32, from: usize, count_on_from: i8, to: usize) -> u32 {
    let emptied = u32::from(count_on_from == 1) << from;
    (occupied & !emptied) | (u32::from(to > 0) << to)
}
