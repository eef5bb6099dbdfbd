//! What a player did with a roll: up to four single-checker steps.

/// One checker moved from `from` to `to` in the mover's numbering
/// (25 = bar, 0 = borne off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Step {
    pub from: u8,
    pub to: u8,
}

/// The steps of one turn, in the order they were played. Empty when the
/// roll could not be played at all.
///
/// Four bytes, a step each (the first lowest), so that a move generator's
/// candidate (board and play) fills one 32-byte slot it writes with whole
/// stores: a step's byte is its start point (at most 25) and, above five
/// bits, its length in pips (1 to 6, less for a checker borne off from
/// below the die), and 0 where no step was played. Every step starts on
/// point 1 or higher, so a played step's byte is never 0.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Play {
    steps: [u8; 4],
}

/// Bits of a step's byte that hold its start point.
const FROM_BITS: u32 = 5;

impl Play {
    /// The most steps a play has (a double).
    pub const MAX_STEPS: usize = 4;
    /// Bits one step takes in a packed play (see [`Play::packed_step`]).
    pub(crate) const STEP_BITS: u32 = 8;

    /// A play from a slice of at most four steps, each from point 1 to 25
    /// and at most 7 pips long, as the steps of every legal play are.
    ///
    /// # Panics
    /// On more than four steps, or a step out of those bounds.
    pub fn from_steps(steps: &[Step]) -> Play {
        let mut p = Play::default();
        for s in steps {
            p.push(*s);
        }
        p
    }

    /// A play from its steps packed a byte each, the first lowest (see
    /// [`Play::packed_step`]): move generators keep a play in a register
    /// this way, where building it step by step in memory and then copying
    /// it out would stall on store forwarding.
    #[inline(always)]
    pub(crate) fn packed(steps: u32) -> Play {
        Play {
            steps: steps.to_le_bytes(),
        }
    }

    /// Writes [`Play::packed`]`(steps)` to `at` as one 4-byte store (a move
    /// generator's hot path: built field by field, the play would be a
    /// store per byte).
    ///
    /// # Safety
    /// `at` must be valid for writing a `Play`.
    #[inline(always)]
    pub(crate) unsafe fn write_packed(at: *mut Play, steps: u32) {
        // SAFETY: the caller vouches for `at`.
        unsafe { at.write_unaligned(Play::packed(steps)) }
    }

    /// Step number `index` (0-based) of a packed play: a step `from` →
    /// `to` (0 = borne off) of a legal play.
    #[inline(always)]
    pub(crate) fn packed_step(index: u8, from: usize, to: usize) -> u32 {
        debug_assert!((1..=25).contains(&from) && from > to && from - to <= 7);
        u32::from(Play::step_byte(from, to)) << (Play::STEP_BITS * u32::from(index))
    }

    /// A step's byte in a packed play, for tables built at compile time.
    pub(crate) const fn step_byte(from: usize, to: usize) -> u8 {
        (from | (from - to) << FROM_BITS) as u8
    }

    /// How many steps were played.
    #[inline]
    pub fn len(&self) -> usize {
        self.steps.iter().take_while(|&&b| b != 0).count()
    }

    /// Appends a step of a legal play.
    ///
    /// # Panics
    /// When four steps are already played, or the step is not from point 1
    /// to 25 and at most 7 pips long.
    #[inline]
    pub(crate) fn push(&mut self, step: Step) {
        let (from, to) = (usize::from(step.from), usize::from(step.to));
        assert!(
            (1..=25).contains(&from) && from > to && from - to <= 7,
            "{from}/{to} is not a step of a play"
        );
        let len = self.len();
        assert!(len < Play::MAX_STEPS, "a play has at most four steps");
        self.steps[len] = Play::packed_step(0, from, to) as u8;
    }

    /// Takes the last step back.
    #[inline]
    pub(crate) fn pop(&mut self) {
        if let Some(len) = self.len().checked_sub(1) {
            self.steps[len] = 0;
        }
    }

    /// The steps in the order they were played.
    pub fn steps(&self) -> Steps {
        Steps {
            bytes: self.steps,
            at: 0,
            len: self.len() as u8,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.steps[0] == 0
    }

    /// Pips moved: a checker borne off counts only the distance it had left.
    pub fn pips_moved(&self) -> u32 {
        self.steps().map(|s| u32::from(s.from - s.to)).sum()
    }
}

impl std::fmt::Debug for Play {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.steps()).finish()
    }
}

/// The steps of a [`Play`], in order ([`Play::steps`]).
#[derive(Clone, Debug)]
pub struct Steps {
    bytes: [u8; 4],
    at: u8,
    len: u8,
}

impl Iterator for Steps {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        if self.at == self.len {
            return None;
        }
        let b = self.bytes[usize::from(self.at)];
        self.at += 1;
        let from = b & ((1 << FROM_BITS) - 1);
        Some(Step {
            from,
            to: from - (b >> FROM_BITS),
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::from(self.len - self.at);
        (n, Some(n))
    }
}

impl ExactSizeIterator for Steps {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_come_back_as_they_were_pushed() {
        let steps = [
            Step { from: 25, to: 19 },
            Step { from: 13, to: 7 },
            Step { from: 3, to: 0 },
            Step { from: 1, to: 0 },
        ];
        for n in 0..=4 {
            let play = Play::from_steps(&steps[..n]);
            assert_eq!(play.len(), n);
            assert_eq!(play.is_empty(), n == 0);
            assert_eq!(play.steps().len(), n);
            assert_eq!(play.steps().collect::<Vec<_>>(), steps[..n]);
        }
        let mut play = Play::from_steps(&steps);
        play.pop();
        assert_eq!(play, Play::from_steps(&steps[..3]));
        assert_eq!(play.pips_moved(), 6 + 6 + 3);
    }

    #[test]
    fn packed_steps_are_the_pushed_steps() {
        let packed = Play::packed_step(0, 24, 18) | Play::packed_step(1, 6, 0);
        let pushed = Play::from_steps(&[Step { from: 24, to: 18 }, Step { from: 6, to: 0 }]);
        assert_eq!(Play::packed(packed), pushed);
    }

    #[test]
    #[should_panic(expected = "not a step of a play")]
    fn a_step_that_is_no_step_is_refused() {
        Play::from_steps(&[Step { from: 24, to: 10 }]);
    }
}
