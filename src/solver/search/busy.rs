//! Which positions the threads of a parallel search are searching right now.
//!
//! Threads that search the same root share one [`Busy`] set. A thread marks a costly position
//! while it searches the position's moves; another thread that reaches the same position as a
//! later move of some node (not its first, which is the likely refutation) puts it off to the
//! end of that node's list and searches its other moves first. By the time it comes back, the
//! first thread has usually stored the position's value in the shared table. This spreads the
//! threads over different subtrees without ever changing which moves are searched ("simplified
//! ABDADA", after Weill's ABDADA algorithm as simplified by Kerrigan).
//!
//! The set is a small array of hashes: two positions that share a slot only make a thread put
//! a move off when it need not have, which changes the order of the search, never its result.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use crate::engine::bits::Bits;

/// Slots in the set: far more than the costly positions a few threads search at once.
const SLOTS: usize = 1 << 14;

/// A set of positions being searched, shared by the threads of one parallel search.
pub(crate) struct Busy {
    slots: Vec<AtomicU64>,
}

impl Default for Busy {
    fn default() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Busy {
    /// The slot of `key` and the value that marks it there (never zero).
    #[inline]
    fn slot<B: Bits>(&self, key: B) -> (&AtomicU64, u64) {
        let hash = key.mix();
        (&self.slots[hash as usize % SLOTS], hash | 1)
    }

    /// Marks `key` as being searched.
    #[inline]
    pub(crate) fn enter<B: Bits>(&self, key: B) {
        let (slot, mark) = self.slot(key);
        slot.store(mark, Relaxed);
    }

    /// Unmarks `key` (unless another position took its slot meanwhile).
    #[inline]
    pub(crate) fn leave<B: Bits>(&self, key: B) {
        let (slot, mark) = self.slot(key);
        let _ = slot.compare_exchange(mark, 0, Relaxed, Relaxed);
    }

    /// Whether `key` is (probably) being searched by some thread.
    #[inline]
    pub(crate) fn contains<B: Bits>(&self, key: B) -> bool {
        let (slot, mark) = self.slot(key);
        slot.load(Relaxed) == mark
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_busy_between_enter_and_leave() {
        let busy = Busy::default();
        assert!(!busy.contains(42u64));
        busy.enter(42u64);
        assert!(busy.contains(42u64));
        assert!(!busy.contains(43u64));
        busy.leave(42u64);
        assert!(!busy.contains(42u64));
    }
}
