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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Play {
    steps: [Step; 4],
    len: u8,
}

impl Play {
    /// A play from a slice of at most four steps.
    pub fn from_steps(steps: &[Step]) -> Play {
        let mut p = Play::default();
        for s in steps {
            p.push(*s);
        }
        p
    }

    /// A play from its steps packed two bytes each, the first lowest (see
    /// [`Play::packed_step`]): move generators keep a play in a register
    /// this way, where building it step by step in memory and then copying
    /// it out would stall on store forwarding.
    #[inline(always)]
    pub(crate) fn packed(steps: u64, len: u8) -> Play {
        let b = steps.to_le_bytes();
        let s = |k: usize| Step {
            from: b[2 * k],
            to: b[2 * k + 1],
        };
        Play {
            steps: [s(0), s(1), s(2), s(3)],
            len,
        }
    }

    /// Writes [`Play::packed`]`(steps, len)` to `at` as one 8-byte store
    /// and one byte (a move generator's hot path: built field by field, the
    /// play would be a store per byte).
    ///
    /// # Safety
    /// `at` must be valid for writing a `Play`.
    #[inline(always)]
    pub(crate) unsafe fn write_packed(at: *mut Play, steps: u64, len: u8) {
        // SAFETY: the steps are the first 8 bytes of a `repr(C)` Play (four
        // `repr(C)` pairs of bytes, the first step lowest); the caller
        // vouches for `at`.
        unsafe {
            std::ptr::addr_of_mut!((*at).steps)
                .cast::<[u8; 8]>()
                .write_unaligned(steps.to_le_bytes());
            std::ptr::addr_of_mut!((*at).len).write(len);
        }
    }

    /// Step number `index` (0-based) of a packed play.
    #[inline(always)]
    pub(crate) fn packed_step(index: u8, from: usize, to: usize) -> u64 {
        ((from as u64) | ((to as u64) << 8)) << (16 * u32::from(index))
    }

    #[inline]
    pub(crate) fn push(&mut self, step: Step) {
        self.steps[self.len as usize] = step;
        self.len += 1;
    }

    #[inline]
    pub(crate) fn pop(&mut self) {
        self.len -= 1;
    }

    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Pips moved: a checker borne off counts only the distance it had left.
    pub fn pips_moved(&self) -> u32 {
        self.steps().iter().map(|s| (s.from - s.to) as u32).sum()
    }
}
