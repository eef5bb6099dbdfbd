//! The fast generators' board: a position as two 16-byte vectors, the
//! step deltas they add, bit masks of the points, and an appender that
//! writes candidates straight into a [`MoveList`].
//!
//! The vectors are laid out as a [`Candidate`] is, board first and the
//! play's bytes after it, so that a candidate is written with two aligned
//! vector stores and one 4-byte store.

use super::super::play::{Play, Step};
use super::super::position::{OPP_BAR, Position};
use super::{Candidate, MoveList};

/// A board as two 16-byte halves, slots 0..16 and 16..26 followed by six
/// zero bytes (where a candidate keeps its play), so that adding boards is
/// two vector adds and storing one is two vector stores straight into the
/// move list.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(super) struct Wide {
    lo: [i8; 16],
    hi: [i8; 16],
}

/// The slot where the upper half starts.
const HI: usize = 16;
/// Slots of a board.
const SLOTS: usize = 26;
/// Where a [`Candidate`]'s play starts: right after the board.
const PLAY_AT: usize = SLOTS;

impl Wide {
    const ZERO: Wide = Wide {
        lo: [0; 16],
        hi: [0; 16],
    };

    #[inline(always)]
    pub(super) fn of(position: &Position) -> Wide {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_loadu_si128, _mm_srli_si128};
            // SAFETY: SSE2 is part of x86-64; both loads lie within the
            // position's 26 bytes (0..16 and 10..26), and the second,
            // shifted down six bytes, is slots 16..26 and six zeros.
            unsafe {
                let pips = position.pips.as_ptr();
                let lo = _mm_loadu_si128(pips.cast());
                let hi = _mm_srli_si128::<{ 32 - SLOTS as i32 }>(_mm_loadu_si128(
                    pips.add(SLOTS - 16).cast(),
                ));
                std::mem::transmute([lo, hi])
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut w = Wide::ZERO;
            w.lo.copy_from_slice(&position.pips[..HI]);
            w.hi[..SLOTS - HI].copy_from_slice(&position.pips[HI..]);
            w
        }
    }

    /// Slot `k`'s value.
    #[inline(always)]
    pub(super) fn get(&self, k: usize) -> i8 {
        // SAFETY: `Wide` is 32 plain bytes.
        let bytes: &[i8; 32] = unsafe { &*(self as *const Wide).cast::<[i8; 32]>() };
        bytes[k]
    }

    /// The board after a checker moves `die` pips from `from` (off the board
    /// when that passes point 1), `hit` saying whether it lands on a blot:
    /// one precomputed delta per die and point, plus the hit's.
    #[inline(always)]
    pub(super) fn stepped(&self, die: usize, from: usize, to: usize, hit: bool) -> Wide {
        self.plus(&Wide::delta(die, from, to, hit))
    }

    /// What that step changes, read whole from a constant table: building
    /// it with byte writes and then reading it whole would stall store
    /// forwarding, and a table per die and hit saves summing two.
    #[inline(always)]
    fn delta(die: usize, from: usize, to: usize, hit: bool) -> Wide {
        debug_assert_eq!(to, from.saturating_sub(die));
        STEP_TABLE[die][usize::from(hit)][from]
    }

    /// The candidate of the fourth step of a double from `from`, `hit`
    /// saying whether it lands on a blot, from this board with the play's
    /// first three steps in its bytes (see [`Wide::with_play`]): the
    /// step's delta and its byte of the play in one add.
    #[inline(always)]
    pub(super) fn fourth_stepped(&self, die: usize, from: usize, hit: bool) -> Wide {
        self.plus(&FOURTH_STEP_TABLE[die][usize::from(hit)][from])
    }

    /// This board with `played` (as [`Play::packed`] takes it) in the
    /// bytes a [`Candidate`]'s play takes, which a board leaves zero: what
    /// [`Appender::push_whole_in_room`] writes.
    #[inline(always)]
    pub(super) fn with_play(&self, played: u32) -> Wide {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{__m128i, _mm_cvtsi32_si128, _mm_or_si128, _mm_slli_si128};
            // SAFETY: SSE2 is part of x86-64; `Wide` is two `__m128i`.
            unsafe {
                let [lo, hi]: [__m128i; 2] = std::mem::transmute(*self);
                let play = _mm_slli_si128::<{ PLAY_AT as i32 - HI as i32 }>(_mm_cvtsi32_si128(
                    played as i32,
                ));
                std::mem::transmute([lo, _mm_or_si128(hi, play)])
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut w = *self;
            for (slot, byte) in w.hi[PLAY_AT - HI..].iter_mut().zip(played.to_le_bytes()) {
                *slot = byte as i8;
            }
            w
        }
    }

    /// Whether `position` is this board: two vector compares with the
    /// position as [`Wide::of`] loads it.
    #[inline(always)]
    pub(super) fn is(&self, position: &Position) -> bool {
        let other = Wide::of(position);
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{__m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_movemask_epi8};
            // SAFETY: SSE2 is part of x86-64; `Wide` is two `__m128i`.
            unsafe {
                let x: [__m128i; 2] = std::mem::transmute(*self);
                let y: [__m128i; 2] = std::mem::transmute(other);
                let same = _mm_and_si128(_mm_cmpeq_epi8(x[0], y[0]), _mm_cmpeq_epi8(x[1], y[1]));
                _mm_movemask_epi8(same) == 0xFFFF
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.lo == other.lo && self.hi == other.hi
        }
    }

    /// Bit masks of the slots: the mover's checkers, the points open to
    /// them (empty, held, or a single opposing checker), and the opponent's
    /// blots. The six zero bytes after the board show as open, never as
    /// the mover's or as blots.
    #[inline(always)]
    pub(super) fn masks(&self) -> Masks {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{
                __m128i, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_movemask_epi8, _mm_set1_epi8,
                _mm_setzero_si128,
            };
            // SAFETY: SSE2 is part of x86-64; `Wide` is two `__m128i`.
            unsafe {
                let x: [__m128i; 2] = std::mem::transmute(*self);
                let bits = |lo: __m128i, hi: __m128i| {
                    _mm_movemask_epi8(lo) as u32 | ((_mm_movemask_epi8(hi) as u32) << HI)
                };
                let above =
                    |floor: __m128i| bits(_mm_cmpgt_epi8(x[0], floor), _mm_cmpgt_epi8(x[1], floor));
                let blot = _mm_set1_epi8(-1);
                Masks {
                    occupied: above(_mm_setzero_si128()),
                    open: above(_mm_set1_epi8(-2)),
                    blots: bits(_mm_cmpeq_epi8(x[0], blot), _mm_cmpeq_epi8(x[1], blot)),
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut m = Masks {
                occupied: 0,
                open: 0,
                blots: 0,
            };
            for k in 0..32 {
                let v = self.get(k);
                m.occupied |= u32::from(v > 0) << k;
                m.open |= u32::from(v >= -1) << k;
                m.blots |= u32::from(v == -1) << k;
            }
            m
        }
    }

    /// [`Wide::masks`]'s `occupied` where the mover has no checker above
    /// slot 15 (every one home or off): half the work.
    #[inline(always)]
    pub(super) fn occupied_low(&self) -> u32 {
        debug_assert!((HI..SLOTS).all(|k| self.get(k) <= 0));
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{
                __m128i, _mm_cmpgt_epi8, _mm_movemask_epi8, _mm_setzero_si128,
            };
            // SAFETY: SSE2 is part of x86-64; `Wide` is two `__m128i`.
            unsafe {
                let x: [__m128i; 2] = std::mem::transmute(*self);
                _mm_movemask_epi8(_mm_cmpgt_epi8(x[0], _mm_setzero_si128())) as u32
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            (0..HI).fold(0, |m, k| m | u32::from(self.get(k) > 0) << k)
        }
    }

    /// The slots where the mover has exactly one checker, a bit a slot.
    #[inline(always)]
    pub(super) fn singles(&self) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8};
            // SAFETY: SSE2 is part of x86-64; `Wide` is two `__m128i`.
            unsafe {
                let x: [__m128i; 2] = std::mem::transmute(*self);
                let one = _mm_set1_epi8(1);
                _mm_movemask_epi8(_mm_cmpeq_epi8(x[0], one)) as u32
                    | (_mm_movemask_epi8(_mm_cmpeq_epi8(x[1], one)) as u32) << HI
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            (0..SLOTS).fold(0, |m, k| m | u32::from(self.get(k) == 1) << k)
        }
    }

    /// How many of the mover's checkers are outside his home board
    /// (points 7..=24 and the bar).
    #[inline(always)]
    pub(super) fn outside_home(&self) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{
                __m128i, _mm_add_epi64, _mm_and_si128, _mm_cmpgt_epi8, _mm_cvtsi128_si32,
                _mm_loadu_si128, _mm_sad_epu8, _mm_setzero_si128, _mm_unpackhi_epi64,
            };
            /// Slots 7..=15 of the lower half, 16..=25 of the upper.
            static OUTSIDE: [[u8; 16]; 2] = {
                let mut m = [[0u8; 16]; 2];
                let mut k = 7;
                while k <= 25 {
                    if k < HI {
                        m[0][k] = 0xFF;
                    } else {
                        m[1][k - HI] = 0xFF;
                    }
                    k += 1;
                }
                m
            };
            // SAFETY: SSE2 is part of x86-64; `Wide` is two `__m128i` and
            // each mask row 16 bytes.
            unsafe {
                let x: [__m128i; 2] = std::mem::transmute(*self);
                let zero = _mm_setzero_si128();
                let counted = |v: __m128i, row: &[u8; 16]| {
                    let mover = _mm_and_si128(v, _mm_cmpgt_epi8(v, zero));
                    let kept = _mm_and_si128(mover, _mm_loadu_si128(row.as_ptr().cast()));
                    _mm_sad_epu8(kept, zero)
                };
                let sums = _mm_add_epi64(counted(x[0], &OUTSIDE[0]), counted(x[1], &OUTSIDE[1]));
                _mm_cvtsi128_si32(_mm_add_epi64(sums, _mm_unpackhi_epi64(sums, sums))) as u32
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            (7..26).map(|k| self.get(k).max(0) as u32).sum()
        }
    }

    /// Adds `v` to slot `k` (table building only).
    const fn add(&mut self, k: usize, v: i8) {
        if k < HI {
            self.lo[k] += v;
        } else {
            self.hi[k - HI] += v;
        }
    }

    /// What moving a checker `die` pips from `from`, landing on the board,
    /// changes on the board `p`.
    #[inline(always)]
    pub(super) fn step(p: &[i8; 26], die: usize, from: usize) -> Wide {
        let to = from - die;
        Wide::delta(die, from, to, p[to] == -1)
    }

    #[inline(always)]
    pub(super) fn plus(&self, other: &Wide) -> Wide {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{__m128i, _mm_add_epi8};
            // SAFETY: SSE2 is part of x86-64; `Wide` is two 16-byte halves,
            // 16-aligned, exactly the layout of two `__m128i`.
            unsafe {
                let x: [__m128i; 2] = std::mem::transmute(*self);
                let y: [__m128i; 2] = std::mem::transmute(*other);
                std::mem::transmute([_mm_add_epi8(x[0], y[0]), _mm_add_epi8(x[1], y[1])])
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut w = Wide::ZERO;
            for k in 0..16 {
                w.lo[k] = self.lo[k].wrapping_add(other.lo[k]);
                w.hi[k] = self.hi[k].wrapping_add(other.hi[k]);
            }
            w
        }
    }
}

/// The mover's checkers, the points open to them and the opponent's
/// blots, a bit a slot (see [`Wide::masks`]).
#[derive(Clone, Copy)]
pub(super) struct Masks {
    pub(super) occupied: u32,
    pub(super) open: u32,
    pub(super) blots: u32,
}

/// Step deltas, `[die][hit][from]`: a checker leaving `from` and landing
/// `die` pips on (or borne off), and with `hit` the opponent's blot there
/// leaving for his bar. Landing on slot 0 (the opponent's bar, never a
/// destination) changes nothing, so that a step to 0 bears a checker off.
static STEP_TABLE: [[[Wide; 26]; 2]; 7] = {
    let mut t = [[[Wide::ZERO; 26]; 2]; 7];
    let mut die = 1;
    while die <= 6 {
        let mut from = 0;
        while from < 26 {
            let mut hit = 0;
            while hit < 2 {
                let d = &mut t[die][hit][from];
                d.add(from, -1);
                if from > die {
                    d.add(from - die, 1);
                    if hit == 1 {
                        d.add(from - die, 1);
                        d.add(OPP_BAR, -1);
                    }
                }
                hit += 1;
            }
            from += 1;
        }
        die += 1;
    }
    t
};

/// [`STEP_TABLE`] for the fourth step of a double, each delta with the
/// step's byte of the play where a [`Candidate`] keeps it.
static FOURTH_STEP_TABLE: [[[Wide; 26]; 2]; 7] = {
    let mut t = STEP_TABLE;
    let mut die = 1;
    while die <= 6 {
        let mut from: usize = 1;
        while from < 26 {
            let to = from.saturating_sub(die);
            let mut hit = 0;
            while hit < 2 {
                t[die][hit][from].add(PLAY_AT + 3, Play::step_byte(from, to) as i8);
                hit += 1;
            }
            from += 1;
        }
        die += 1;
    }
    t
};

/// Appends candidates to a [`MoveList`], keeping where the next one goes,
/// the start of the list's storage and its end in registers until
/// [`Appender::finish`]: read through the list at each append, they would
/// be loaded again after every store, which the compiler cannot prove does
/// not change them. A pointer to the next slot, rather than a length,
/// saves a multiply by the candidate's odd size at every append.
pub(super) struct Appender<'a> {
    list: &'a mut MoveList,
    items: *mut Candidate,
    next: *mut Candidate,
    end: *mut Candidate,
    /// The list's [`MoveList::record`] level, kept here for the same reason.
    level: u8,
}

impl<'a> Appender<'a> {
    pub(super) fn new(list: &'a mut MoveList) -> Appender<'a> {
        let items = list.items.as_mut_ptr();
        // SAFETY: the length and the capacity are within the allocation.
        let (next, end) = unsafe {
            (
                items.add(list.items.len()),
                items.add(list.items.capacity()),
            )
        };
        Appender {
            items,
            next,
            end,
            level: list.level,
            list,
        }
    }

    /// Writes a candidate, its play given as [`Play::packed`] takes it,
    /// after the last one and keeps it if `keep`.
    #[inline(always)]
    pub(super) fn push_packed_if(&mut self, board: &Wide, steps: u32, keep: bool) {
        self.make_room_for_one();
        // SAFETY: room for this one was made just above.
        unsafe { self.push_packed_in_room_if(board, steps, keep) }
    }

    /// Keeps the candidate just written if `keep`.
    #[inline(always)]
    fn advance(&mut self, keep: bool) {
        // SAFETY: the push made sure that the written slot is within the
        // capacity, so one past it is at most the end.
        self.next = unsafe { self.next.add(usize::from(keep)) };
    }

    /// Makes room for the next candidate.
    #[inline(always)]
    fn make_room_for_one(&mut self) {
        if self.next == self.end {
            std::hint::cold_path();
            self.grow(1);
        }
    }

    /// Makes room for [`SOURCES_ROOM`] more candidates, so that the writes
    /// of one step from each source point may skip the check
    /// [`Appender::push_packed_if`] makes: a search's last step checks once
    /// instead of at every write.
    #[inline(always)]
    pub(super) fn make_room_for_sources(&mut self) {
        // Bytes, not slots: a division by the candidate's odd size would
        // cost more than the check saves.
        if (self.end as usize - self.next as usize) < SOURCES_ROOM * size_of::<Candidate>() {
            std::hint::cold_path();
            self.grow(SOURCES_ROOM);
        }
    }

    /// [`Appender::push_packed_if`] without the room check.
    ///
    /// # Safety
    /// Fewer candidates were written since
    /// [`Appender::make_room_for_sources`] than [`SOURCES_ROOM`].
    #[inline(always)]
    pub(super) unsafe fn push_packed_in_room_if(&mut self, board: &Wide, steps: u32, keep: bool) {
        // SAFETY: in bounds (the caller's promise). The board's stores
        // write six zero bytes over the play and the padding, and the
        // play's store then writes the play, so the candidate is fully
        // initialised before `finish` makes it part of the vector.
        unsafe {
            self.write_whole(board);
            Play::write_packed(std::ptr::addr_of_mut!((*self.next).play), steps);
        }
        self.advance(keep);
    }

    /// Writes a candidate whole, its play in `candidate`'s bytes after the
    /// board (see [`Wide::with_play`]), after the last one and keeps it.
    ///
    /// # Safety
    /// As [`Appender::push_packed_in_room_if`]'s.
    #[inline(always)]
    pub(super) unsafe fn push_whole_in_room(&mut self, candidate: &Wide) {
        // SAFETY: the caller's promise.
        unsafe { self.write_whole(candidate) };
        self.advance(true);
    }

    /// Writes `candidate`'s 32 bytes over the slot after the last
    /// candidate: a candidate is 32 bytes, 32-aligned, its board first and
    /// its play at byte 26, so two aligned stores write every byte.
    ///
    /// # Safety
    /// That slot is within the list's capacity.
    #[inline(always)]
    unsafe fn write_whole(&mut self, candidate: &Wide) {
        debug_assert!(self.next < self.end, "no room for a candidate");
        let slot = self.next;
        // SAFETY: in bounds (the caller's promise), and 32-aligned.
        unsafe {
            #[cfg(target_arch = "x86_64")]
            {
                use std::arch::x86_64::{__m128i, _mm_store_si128};
                let halves: [__m128i; 2] = std::mem::transmute(*candidate);
                let at = slot.cast::<__m128i>();
                _mm_store_si128(at, halves[0]);
                _mm_store_si128(at.add(1), halves[1]);
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                slot.cast::<Wide>().write(*candidate);
            }
        }
    }

    /// Appends a candidate found at `level` of [`MoveList::record`]'s
    /// order, its play packed, dropping those of a worse level and
    /// ignoring it if worse.
    #[inline(always)]
    pub(super) fn push_at(&mut self, board: &Wide, steps: u32, level: u8) {
        if self.raised_to(level) {
            self.push_packed_if(board, steps, true);
        }
    }

    /// Whether candidates of `level` belong in the list, dropping those
    /// already there if `level` is better.
    #[inline(always)]
    pub(super) fn raised_to(&mut self, level: u8) -> bool {
        if level > self.level {
            // Rare: once per level reached, and a branch keeps the common
            // path to one compare where a select would run both.
            std::hint::cold_path();
            self.next = self.items;
            self.level = level;
        }
        level == self.level
    }

    /// The list's [`MoveList::record`] level.
    #[inline(always)]
    pub(super) fn level(&self) -> u8 {
        self.level
    }

    /// The position of kept candidate `k`.
    #[inline(always)]
    pub(super) fn kept(&self, k: usize) -> &Position {
        // A pointer compare: the length would take a division.
        let at = self.items.wrapping_add(k);
        assert!(at < self.next, "candidate {k} is not kept");
        // SAFETY: every slot below `next` was fully written.
        unsafe { &(*at).position }
    }

    /// How many candidates are kept.
    #[inline(always)]
    fn len(&self) -> usize {
        // SAFETY: `next` lies within the allocation `items` starts, at or
        // after it.
        unsafe { self.next.offset_from(self.items) as usize }
    }

    /// Makes room for at least `n` more candidates (rare: the list starts
    /// large).
    #[inline(always)]
    fn grow(&mut self, n: usize) {
        let len = self.len();
        let (items, capacity) = grown(self.list, len, n);
        self.items = items;
        // SAFETY: the length and the capacity are within the allocation.
        unsafe {
            self.next = items.add(len);
            self.end = items.add(capacity);
        }
    }

    /// The last candidate appended, to patch in place.
    pub(super) fn last_mut(&mut self) -> &mut Position {
        assert!(self.next > self.items, "no candidate kept");
        // SAFETY: the slot before `next` was fully written by `push_packed_if`.
        unsafe { &mut (*self.next.sub(1)).position }
    }

    pub(super) fn finish(self) {
        let len = self.len();
        // SAFETY: every slot below `len` was written by `push_packed_if`.
        unsafe { self.list.items.set_len(len) }
        self.list.level = self.level;
    }
}

/// Room [`Appender::make_room_for_sources`] makes: one candidate for
/// each slot a step can start from.
const SOURCES_ROOM: usize = 26;

/// `list`'s storage and capacity after making room for at least `n`
/// beyond its first `len` candidates, all written. Out of line and given the list rather
/// than the appender, so that the appender's address never escapes and its
/// pointers can live in registers.
#[cold]
#[inline(never)]
fn grown(list: &mut MoveList, len: usize, n: usize) -> (*mut Candidate, usize) {
    // SAFETY: every slot below `len` was written by `push_packed_if`.
    unsafe { list.items.set_len(len) }
    list.items.reserve(len.max(64).max(n));
    (list.items.as_mut_ptr(), list.items.capacity())
}

#[inline(always)]
pub(super) fn step(from: usize, to: usize) -> Step {
    Step {
        from: from as u8,
        to: to as u8,
    }
}
