//! The transposition table: bounds on the scores of positions already searched.

use crate::engine::bits::Bits;
use crate::engine::position::Position;

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
    /// Base-2 logarithm of the nodes the search spent on this position: what it would cost to
    /// recompute, so what it is worth keeping.
    work: u8,
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

/// What a search learned about one position, to be stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Learned {
    /// A lower bound on the score, if one was proved.
    pub lower: Option<Score>,
    /// An upper bound on the score, if one was proved.
    pub upper: Option<Score>,
    /// The column (0-based) of the move that achieved or refuted the search, if any.
    pub best: Option<u32>,
    /// Nodes the search of this position visited.
    pub nodes: u64,
}

/// A fixed-size table of score bounds keyed by exact position keys, two entries per bucket.
///
/// Storing the whole key makes every hit exact: two positions can share a bucket but never an
/// answer. Each bucket keeps the most expensive position seen in its first entry (replaced
/// only by one that cost at least as much to search) and the most recent other position in its
/// second, so that the results of long searches survive the stream of cheap ones near the
/// leaves. Bounds for the same key are merged. Both entries of a bucket share one cache line.
pub struct Table<B: Bits> {
    entries: Vec<Entry<B>>,
    bucket_mask: usize,
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
            bucket_mask: slots / 2 - 1,
        }
    }

    /// Bytes used by the entries.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry<B>>()
    }

    /// Index of the first entry of `key`'s bucket.
    #[inline]
    fn bucket(&self, key: B) -> usize {
        (key.mix() as usize & self.bucket_mask) * 2
    }

    /// Starts loading `key`'s bucket into the cache, so that a later [`Table::get`] or
    /// [`Table::put`] finds it there; the caller does other work meanwhile.
    #[inline]
    pub fn prefetch(&self, key: B) {
        #[cfg(target_arch = "x86_64")]
        {
            let entry: *const Entry<B> = &self.entries[self.bucket(key)];
            // SAFETY: prefetching is only a hint to the cache and never faults; the address is
            // that of a live entry.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    entry.cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The bounds stored for `key`, if its bucket holds it.
    #[inline]
    pub fn get(&self, key: B) -> Option<Known> {
        let at = self.bucket(key);
        self.entries[at..at + 2]
            .iter()
            .find(|e| e.key == key)
            .map(|e| Known {
                lower: e.lower as Score,
                upper: e.upper as Score,
                best: (e.best != NO_MOVE).then_some(e.best as u32),
            })
    }

    /// Records what was learned about `key`, merging with bounds already held for it.
    #[inline]
    pub fn put(&mut self, key: B, learned: Learned) {
        let at = self.bucket(key);
        let lower = learned.lower.map_or(NO_LOWER, |s| s as i16);
        let upper = learned.upper.map_or(NO_UPPER, |s| s as i16);
        let best = learned.best.map_or(NO_MOVE, |c| c as u8);
        let work = (u64::BITS - learned.nodes.leading_zeros()) as u8;
        let bucket = &mut self.entries[at..at + 2];
        if let Some(e) = bucket.iter_mut().find(|e| e.key == key) {
            e.lower = e.lower.max(lower);
            e.upper = e.upper.min(upper);
            debug_assert!(e.lower <= e.upper, "contradictory bounds stored");
            if best != NO_MOVE {
                e.best = best;
            }
            e.work = e.work.max(work);
        } else {
            let fresh = Entry {
                key,
                lower,
                upper,
                best,
                work,
            };
            if work >= bucket[0].work {
                bucket[1] = bucket[0];
                bucket[0] = fresh;
            } else {
                bucket[1] = fresh;
            }
        }
    }
}

/// Positions with fewer empty cells than this are kept in the small near-leaf table of
/// [`Tables`].
pub const NEAR_LEAF_EMPTY: u32 = 10;

/// Positions with more open columns than this stay in the large table even near the leaves.
const NEAR_LEAF_COLUMNS: u32 = 3;

/// Whether `pos` belongs in the small near-leaf table of [`Tables`]: fewer than
/// [`NEAR_LEAF_EMPTY`] empty cells, in at most [`NEAR_LEAF_COLUMNS`] columns.
///
/// The column bound keeps out the positions of wide, low boards (one or three rows), whose
/// few empty cells spread over many columns can still be filled in many orders: their
/// subtrees are too costly to search again, and the large table must keep them (without the
/// bound, misère k = 3 on 24x1 took 2.3 times the nodes).
#[inline]
pub fn near_leaf<B: Bits>(pos: &Position<B>) -> bool {
    pos.empty_cells() < NEAR_LEAF_EMPTY && pos.playable().count_ones() <= NEAR_LEAF_COLUMNS
}

/// Size of the near-leaf table: 1 MiB.
const NEAR_LEAF_BYTES: usize = 1 << 20;

/// Two tables: a small one for positions near the leaves (see [`near_leaf`]) and the large
/// one for the rest.
///
/// Most probes come from positions near the leaves, whose subtrees are cheap to search again.
/// In one large table each of those probes goes to a random page and waits on memory (about
/// half of the search's time in profiles on our 2-core VM, where the guest's huge pages do not
/// spare the host's page walks); in a table of 1 MiB they stay in the caches, and they no
/// longer push costly positions out of the large table. Measured on `bench --filter
/// normal-7x6-early`: 15-25% less time for 1-6% more nodes, with 64 MiB and 1 GiB tables; on
/// the default Table I grid, whose searches fit in the large table, 1% more nodes.
pub struct Tables<B: Bits> {
    far: Table<B>,
    near: Table<B>,
}

impl<B: Bits> Tables<B> {
    /// Tables using at most about `bytes` bytes in all: the near-leaf table takes 1 MiB (or
    /// `bytes`, if less) on top of a large table of `bytes`.
    pub fn with_bytes(bytes: usize) -> Tables<B> {
        Tables {
            far: Table::with_bytes(bytes),
            near: Table::with_bytes(bytes.min(NEAR_LEAF_BYTES)),
        }
    }

    /// Bytes used by the entries of both tables.
    pub fn bytes(&self) -> usize {
        self.far.bytes() + self.near.bytes()
    }

    /// The near-leaf table if `near`, else the large one.
    #[inline]
    fn level(&mut self, near: bool) -> &mut Table<B> {
        if near { &mut self.near } else { &mut self.far }
    }

    /// [`Table::prefetch`] in the near-leaf table if `near` (see [`near_leaf`]), else the large one.
    #[inline]
    pub fn prefetch(&mut self, key: B, near: bool) {
        self.level(near).prefetch(key);
    }

    /// [`Table::get`] in the near-leaf table if `near`, else the large one.
    #[inline]
    pub fn get(&mut self, key: B, near: bool) -> Option<Known> {
        self.level(near).get(key)
    }

    /// [`Table::put`] in the near-leaf table if `near`, else the large one.
    #[inline]
    pub fn put(&mut self, key: B, near: bool, learned: Learned) {
        self.level(near).put(key, learned);
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
        let learned = |lower, upper, best| Learned {
            lower,
            upper,
            best,
            nodes: 10,
        };
        t.put(77, learned(Some(-3), None, None));
        t.put(77, learned(None, Some(5), Some(2)));
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

    #[test]
    fn a_costly_entry_survives_cheap_ones_in_its_bucket() {
        let mut t = Table::<u64>::with_bytes(1 << 14);
        let keys: Vec<u64> = (1..100_000u64)
            .filter(|k| t.bucket(*k) == t.bucket(1))
            .take(4)
            .collect();
        let learned = |nodes| Learned {
            lower: Some(1),
            upper: None,
            best: None,
            nodes,
        };
        t.put(keys[0], learned(1 << 20));
        for &key in &keys[1..] {
            t.put(key, learned(3));
        }
        assert!(t.get(keys[0]).is_some(), "the costly entry was evicted");
        assert!(t.get(keys[3]).is_some(), "the latest entry is kept");
        assert!(t.get(keys[1]).is_none() && t.get(keys[2]).is_none());
    }
}
