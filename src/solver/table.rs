//! The transposition table: bounds on the scores of positions already searched.

use crate::engine::bits::Bits;

use super::score::Score;

/// No lower bound known.
const NO_LOWER: i16 = i16::MIN;
/// No upper bound known.
const NO_UPPER: i16 = i16::MAX;
/// No best move known.
const NO_MOVE: u8 = u8::MAX;

#[derive(Clone, Copy, Default)]
struct Entry<B: Bits> {
    /// The full position key (never zero for a real position), so a hit is never a collision.
    key: B,
    lower: i16,
    upper: i16,
    best: u8,
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// The score is at least this.
    pub lower: Score,
    /// The score is at most this.
    pub upper: Score,
    /// Column (0-based) of the move that refuted or achieved the last search, if any.
    pub best: Option<u32>,
}

/// A fixed-size, directly mapped table of score bounds keyed by exact position keys.
///
/// Storing the whole key makes every hit exact: two positions can share a slot but never an
/// answer. A new entry replaces the old one in its slot; bounds for the same key are merged.
pub struct Table<B: Bits> {
    entries: Vec<Entry<B>>,
    slot_mask: usize,
}

impl<B: Bits> Table<B> {
    /// A table using at most `bytes` bytes (rounded down to a power-of-two number of entries,
    /// at least 1024 entries).
    pub fn with_bytes(bytes: usize) -> Table<B> {
        let entry = std::mem::size_of::<Entry<B>>();
        let wanted = (bytes / entry).max(1024);
        let slots = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let mut entries = Vec::with_capacity(slots);
        advise_huge_pages(&entries);
        entries.resize(slots, Entry::default());
        Table {
            entries,
            slot_mask: slots - 1,
        }
    }

    /// Bytes used by the entries.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry<B>>()
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    #[inline]
    fn slot(&self, key: B) -> usize {
        key.mix() as usize & self.slot_mask
    }

    /// The bounds stored for `key`, if its slot holds it.
    #[inline]
    pub fn get(&self, key: B) -> Option<Known> {
        let e = &self.entries[self.slot(key)];
        (e.key == key).then(|| Known {
            lower: e.lower as Score,
            upper: e.upper as Score,
            best: (e.best != NO_MOVE).then_some(e.best as u32),
        })
    }

    /// Records bounds for `key` (`None` for an unknown side), merging with bounds already held
    /// for the same key and replacing any other position in the slot.
    #[inline]
    pub fn put(&mut self, key: B, lower: Option<Score>, upper: Option<Score>, best: Option<u32>) {
        let slot = self.slot(key);
        let e = &mut self.entries[slot];
        let lower = lower.map_or(NO_LOWER, |s| s as i16);
        let upper = upper.map_or(NO_UPPER, |s| s as i16);
        let best = best.map_or(NO_MOVE, |c| c as u8);
        if e.key == key {
            e.lower = e.lower.max(lower);
            e.upper = e.upper.min(upper);
            debug_assert!(e.lower <= e.upper, "contradictory bounds stored");
            if best != NO_MOVE {
                e.best = best;
            }
        } else {
            *e = Entry {
                key,
                lower,
                upper,
                best,
            };
        }
    }
}

/// Asks the kernel to back the table's (not yet touched) memory with huge pages.
///
/// Every probe of a large table lands on a random page, so with 4 KiB pages nearly every probe
/// also misses the TLB; 2 MiB pages cut those misses and the page faults of the first touch.
/// The advice is only a hint: where it is refused or unsupported, nothing changes.
fn advise_huge_pages<T>(entries: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = entries.as_ptr() as usize;
        let end = start + entries.capacity() * std::mem::size_of::<T>();
        let aligned = start.next_multiple_of(HUGE);
        if end > aligned + HUGE {
            let len = (end - aligned) / HUGE * HUGE;
            // SAFETY: the range lies inside the vector's own allocation, and MADV_HUGEPAGE
            // changes only how the kernel backs the pages, never their contents.
            unsafe {
                libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = entries;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_for_one_key_are_merged() {
        let mut t = Table::<u64>::with_bytes(1 << 16);
        t.put(77, Some(-3), None, None);
        t.put(77, None, Some(5), Some(2));
        assert_eq!(
            t.get(77),
            Some(Known {
                lower: -3,
                upper: 5,
                best: Some(2)
            })
        );
        assert_eq!(t.get(78), None);
    }
}
