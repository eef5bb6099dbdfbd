//! The search's direct-mapped tables keyed by position: the evaluation
//! cache, the kept 1-ply nodes and the nodes' replies.
//!
//! Each position hashes to one slot and a newer entry replaces an older
//! one. Slots are locked one at a time with `try_lock`, so threads never
//! wait on each other: a busy slot is just a miss. Every table holds only
//! what its owner would compute again, so answers do not depend on what a
//! table holds or on the thread count.

use crate::backgammon::Position;
use std::sync::Mutex;

/// A position's hash for the direct-mapped tables: its board a word at a
/// time, multiplied and folded.
#[inline]
fn position_hash(position: &Position) -> u64 {
    let raw = position.raw();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for chunk in raw.chunks(8) {
        let mut word = [0u8; 8];
        for (w, &b) in word.iter_mut().zip(chunk) {
            *w = b as u8;
        }
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^= h >> 29;
    }
    h
}

/// A slot starting a cache line: a small entry's lookup touches one line,
/// and a prefetch of that line brings all of it.
#[repr(align(64))]
struct Slot<T>(Mutex<Option<(Position, T)>>);

pub(super) struct PositionTable<T> {
    slots: Box<[Slot<T>]>,
    mask: usize,
}

impl<T: Copy> PositionTable<T> {
    /// A table of `2^bits` slots.
    pub(super) fn new(bits: u32) -> PositionTable<T> {
        let n = 1usize << bits;
        PositionTable {
            slots: (0..n).map(|_| Slot(Mutex::new(None))).collect(),
            mask: n - 1,
        }
    }

    #[inline]
    fn slot(&self, position: &Position) -> &Mutex<Option<(Position, T)>> {
        &self.slots[(position_hash(position) as usize) & self.mask].0
    }

    /// Starts bringing `position`'s slot into the level-1 cache, so that a
    /// lookup soon after does not wait on memory.
    #[inline]
    pub(super) fn prefetch(&self, position: &Position) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let line = self.slot(position) as *const _ as *const i8;
            // SAFETY: a prefetch reads nothing and cannot fault; SSE is
            // part of every x86-64 CPU.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = position;
    }

    /// `read` of `position`'s entry, if the table holds one and its slot
    /// is free: large entries are read in place, not copied out.
    #[inline]
    pub(super) fn read<R>(&self, position: &Position, read: impl FnOnce(&T) -> R) -> Option<R> {
        let guard = self.slot(position).try_lock().ok()?;
        match &*guard {
            Some((p, entry)) if p == position => Some(read(entry)),
            _ => None,
        }
    }

    /// `position`'s entry, if the table holds one and its slot is free.
    #[inline]
    pub(super) fn get(&self, position: &Position) -> Option<T> {
        self.read(position, |entry| *entry)
    }

    /// Stores `entry` as `position`'s, unless its slot is busy.
    #[inline]
    pub(super) fn put(&self, position: &Position, entry: T) {
        if let Ok(mut guard) = self.slot(position).try_lock() {
            *guard = Some((*position, entry));
        }
    }

    /// Forgets every entry (the searcher's settings changed).
    pub(super) fn clear(&self) {
        for slot in self.slots.iter() {
            if let Ok(mut entry) = slot.0.lock() {
                *entry = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::{Dice, with_legal_moves};

    #[test]
    fn an_entry_is_found_only_under_its_own_position() {
        // One slot: every position collides.
        let table = PositionTable::<u32>::new(0);
        let a = Position::starting();
        let b = with_legal_moves(&a, Dice::new(3, 1).unwrap(), |l| l.as_slice()[0].position);
        assert_ne!(a, b);
        assert_eq!(table.get(&a), None);
        table.put(&a, 7);
        assert_eq!(table.get(&a), Some(7));
        assert_eq!(table.get(&b), None);
        assert_eq!(table.read(&a, |v| v * 2), Some(14));
        table.put(&b, 9);
        assert_eq!(table.get(&a), None, "the newer entry replaced it");
        assert_eq!(table.get(&b), Some(9));
        table.clear();
        assert_eq!(table.get(&b), None);
    }
}
