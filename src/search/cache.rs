//! A shared cache of static evaluations keyed by position.
//!
//! Direct-mapped: each position hashes to one slot, and a newer entry
//! replaces an older one. Slots are locked one at a time with `try_lock`,
//! so threads never wait on each other: a busy slot is just a miss. A hit
//! returns exactly what the evaluator would compute, so results do not
//! depend on what the cache holds or on the thread count.

use crate::backgammon::Position;
use crate::eval::Probs;
use std::sync::Mutex;

#[derive(Clone, Copy)]
struct Entry {
    position: Position,
    probs: Probs,
}

/// A position's hash for the search's direct-mapped tables: its board a
/// word at a time, multiplied and folded.
#[inline]
pub(super) fn position_hash(position: &Position) -> u64 {
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

/// One slot on a cache line of its own: a lookup touches one line, and a
/// prefetch of that line brings all of it.
#[repr(align(64))]
struct Slot(Mutex<Option<Entry>>);

pub struct EvalCache {
    slots: Box<[Slot]>,
    mask: usize,
}

impl EvalCache {
    /// A cache of `2^bits` slots (64 bytes each).
    pub fn new(bits: u32) -> EvalCache {
        let n = 1usize << bits;
        EvalCache {
            slots: (0..n).map(|_| Slot(Mutex::new(None))).collect(),
            mask: n - 1,
        }
    }

    fn slot(&self, position: &Position) -> &Mutex<Option<Entry>> {
        &self.slots[(position_hash(position) as usize) & self.mask].0
    }

    /// Starts bringing `position`'s slot into the level-1 cache, so that a
    /// lookup soon after does not wait on memory: a roll's replies are
    /// looked up one after another, and their slots lie far apart.
    #[inline]
    pub fn prefetch(&self, position: &Position) {
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

    /// The cached probabilities of `position`, if any.
    #[inline]
    pub fn get(&self, position: &Position) -> Option<Probs> {
        let guard = self.slot(position).try_lock().ok()?;
        guard.filter(|e| e.position == *position).map(|e| e.probs)
    }

    /// Stores `probs` as `position`'s, unless its slot is busy.
    #[inline]
    pub fn put(&self, position: &Position, probs: Probs) {
        if let Ok(mut guard) = self.slot(position).try_lock() {
            *guard = Some(Entry {
                position: *position,
                probs,
            });
        }
    }

    /// The cached probabilities of `position`, or `compute`'s, stored.
    #[inline]
    pub fn get_or(&self, position: &Position, compute: impl FnOnce() -> Probs) -> Probs {
        self.get(position).unwrap_or_else(|| {
            let probs = compute();
            self.put(position, probs);
            probs
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_return_what_was_stored_and_collisions_recompute() {
        let cache = EvalCache::new(1);
        let a = Position::starting();
        let b = crate::backgammon::with_legal_moves(
            &a,
            crate::backgammon::Dice::new(3, 1).unwrap(),
            |l| l.as_slice()[0].position,
        );
        assert_ne!(a, b);
        let pa = Probs([0.5, 0.1, 0.0, 0.1, 0.0]);
        assert_eq!(cache.get_or(&a, || pa), pa);
        assert_eq!(cache.get_or(&a, || unreachable!()), pa);
        // Another position never gets a's probabilities.
        let pb = Probs([0.4, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(cache.get_or(&b, || pb), pb);
    }
}
