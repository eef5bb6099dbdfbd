//! A shared cache of static evaluations keyed by position.
//!
//! A direct-mapped [`PositionTable`]: a hit returns exactly what the
//! evaluator would compute, so results do not depend on what the cache
//! holds or on the thread count.

use super::table::PositionTable;
use crate::backgammon::Position;
use crate::eval::Probs;

pub struct EvalCache {
    table: PositionTable<Probs>,
}

impl EvalCache {
    /// A cache of `2^bits` slots (64 bytes each).
    pub fn new(bits: u32) -> EvalCache {
        EvalCache {
            table: PositionTable::new(bits),
        }
    }

    /// Starts bringing `position`'s slot into the level-1 cache, so that a
    /// lookup soon after does not wait on memory: a roll's replies are
    /// looked up one after another, and their slots lie far apart.
    #[inline]
    pub fn prefetch(&self, position: &Position) {
        self.table.prefetch(position);
    }

    /// The cached probabilities of `position`, if any.
    #[inline]
    pub fn get(&self, position: &Position) -> Option<Probs> {
        self.table.get(position)
    }

    /// Stores `probs` as `position`'s, unless its slot is busy.
    #[inline]
    pub fn put(&self, position: &Position, probs: Probs) {
        self.table.put(position, probs);
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
