//! The transposition table: bounds on the scores of positions already searched.

use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU64, fence};

use crate::engine::bits::Bits;
use crate::engine::position::Position;

use crate::solver::memory::{Mib, table_memory};
use crate::solver::score::Score;

/// No lower bound known.
const NO_LOWER: i16 = i16::MIN;
/// No upper bound known.
const NO_UPPER: i16 = i16::MAX;
/// No best move known.
const NO_MOVE: u8 = u8::MAX;
/// The bucket's lock: the top bit of its first entry's data word.
const LOCKED: u64 = 1 << 63;
/// The bits of a data word that hold an entry's [`Data`]; above them, the first entry's data
/// word of a bucket holds the bucket's version (see [`Table::get`]) and its lock.
const PAYLOAD: u64 = (1 << 48) - 1;
/// The bucket's version: bits 48-62 of its first entry's data word, counting the writes to
/// the bucket (modulo 2^15) in a shared table.
const VERSION: u64 = !PAYLOAD & !LOCKED;
/// One write, in the version bits.
const VERSION_STEP: u64 = 1 << 48;

/// The stored part of an entry besides its key, packed into one data word: bits 0-15 the lower
/// bound, 16-31 the upper bound, 32-39 the best column, 40-47 the work (base-2 logarithm of
/// the nodes spent on the position: what it would cost to recompute, so what it is worth
/// keeping). A data word of zero with a key of zero is an empty entry (no real key is zero).
#[derive(Clone, Copy, Default)]
struct Data {
    lower: i16,
    upper: i16,
    best: u8,
    work: u8,
}

impl Data {
    #[inline]
    fn pack(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.best) << 32
            | u64::from(self.work) << 40
    }

    #[inline]
    fn unpack(word: u64) -> Data {
        Data {
            lower: word as u16 as i16,
            upper: (word >> 16) as u16 as i16,
            best: (word >> 32) as u8,
            work: (word >> 40) as u8,
        }
    }
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Known {
    /// The score is at least this.
    pub lower: Score,
    /// The score is at most this.
    pub upper: Score,
    /// Column (0-based) of the move that refuted or achieved the last search, if any.
    pub best: Option<u32>,
}

/// What a search learned about one position, to be stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Learned {
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
///
/// An entry is a run of 64-bit words: the key's words, then its data word, padded to a power
/// of two (2 words for 64-bit keys, 4 for 128-bit keys). The words are atomics so that several
/// searching threads can share one table (see [`Table::shared`]). A shared table locks a
/// bucket while it writes it, and counts the writes in the bucket's version; a read takes no
/// lock, but checks that the version was the same, and the bucket unlocked, before and after
/// it read the entries, and is a miss otherwise, so no thread ever uses half of another's
/// entry. (Locking for reads too made two threads slower than one on the 7x6 outcome: every
/// probe of a child's entry then held a locked instruction, which waits for its cache line.)
/// An unshared table skips both (relaxed atomic loads and stores cost what plain ones do).
pub(crate) struct Table<B: Bits> {
    words: Vec<AtomicU64>,
    bucket_mask: usize,
    shared: bool,
    bits: PhantomData<B>,
}

impl<B: Bits> Table<B> {
    /// Words of the key.
    const KEY_WORDS: usize = B::BITS as usize / 64;
    /// Words of one entry.
    const ENTRY_WORDS: usize = (Self::KEY_WORDS + 1).next_power_of_two();

    /// A table for one searching thread using at most `bytes` bytes (rounded down to a
    /// power-of-two number of entries, at least 1024 entries).
    pub(crate) fn with_bytes(bytes: usize) -> Table<B> {
        let entry = Self::ENTRY_WORDS * 8;
        let wanted = (bytes / entry).max(1024);
        let slots = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table {
            words: table_memory(slots * Self::ENTRY_WORDS),
            bucket_mask: slots / 2 - 1,
            shared: false,
            bits: PhantomData,
        }
    }

    /// Like [`Table::with_bytes`], for several threads that search at once: every access
    /// locks its bucket.
    pub(crate) fn shared(bytes: usize) -> Table<B> {
        Table {
            shared: true,
            ..Table::with_bytes(bytes)
        }
    }

    /// Bytes used by the entries.
    pub(crate) fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Index of the first word of `key`'s bucket.
    #[inline]
    fn bucket(&self, key: B) -> usize {
        (key.mix() as usize & self.bucket_mask) * 2 * Self::ENTRY_WORDS
    }

    /// The key of the entry whose first word is `at`.
    #[inline]
    fn key_at(&self, at: usize) -> B {
        let low = self.words[at].load(Relaxed);
        let high = if Self::KEY_WORDS == 2 {
            self.words[at + 1].load(Relaxed)
        } else {
            0
        };
        B::from_u128(u128::from(low) | u128::from(high) << 64)
    }

    /// Stores `key` into the entry whose first word is `at`.
    #[inline]
    fn set_key(&self, at: usize, key: B) {
        let key = key.to_u128();
        self.words[at].store(key as u64, Relaxed);
        if Self::KEY_WORDS == 2 {
            self.words[at + 1].store((key >> 64) as u64, Relaxed);
        }
    }

    /// Locks the bucket whose first word is `at` (when the table is shared) and returns its
    /// first entry's data word, without the lock bit.
    #[inline]
    fn lock(&self, at: usize) -> u64 {
        let word = &self.words[at + Self::KEY_WORDS];
        if !self.shared {
            return word.load(Relaxed);
        }
        loop {
            let data = word.fetch_or(LOCKED, Acquire);
            if data & LOCKED == 0 {
                // The entries' stores below must not be seen before the lock: a reader that
                // sees one of them then sees the lock (or a later version) when it looks again.
                fence(Release);
                return data;
            }
            while word.load(Relaxed) & LOCKED != 0 {
                std::hint::spin_loop();
            }
        }
    }

    /// Unlocks the bucket whose first word is `at`, whose first data word was `locked` when
    /// [`Table::lock`] returned it, leaving `first` as its first entry's data and, in a shared
    /// table, the version one write further.
    #[inline]
    fn unlock(&self, at: usize, locked: u64, first: u64) {
        let word = &self.words[at + Self::KEY_WORDS];
        if self.shared {
            let version = locked.wrapping_add(VERSION_STEP) & VERSION;
            word.store(first & PAYLOAD | version, Release);
        } else {
            word.store(first & PAYLOAD, Relaxed);
        }
    }

    /// Starts loading `key`'s bucket into the cache, so that a later [`Table::get`] or
    /// [`Table::put`] finds it there; the caller does other work meanwhile.
    #[inline]
    pub(crate) fn prefetch(&self, key: B) {
        #[cfg(target_arch = "x86_64")]
        {
            let word: *const AtomicU64 = &self.words[self.bucket(key)];
            // SAFETY: prefetching is only a hint to the cache and never faults; the address is
            // that of a live entry.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    word.cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The bounds stored for `key`, if its bucket holds it.
    ///
    /// In a shared table a bucket that is being written, or that was written while this read
    /// it, counts as a miss (always sound: a miss only costs a search). The check misses a
    /// torn read only if exactly a multiple of 2^15 writes to this one bucket fell between its
    /// two looks at the version, a few nanoseconds apart.
    #[inline]
    pub(crate) fn get(&self, key: B) -> Option<Known> {
        let at = self.bucket(key);
        let second = at + Self::ENTRY_WORDS;
        let version_word = &self.words[at + Self::KEY_WORDS];
        let first_data = version_word.load(Acquire);
        if first_data & LOCKED != 0 {
            return None;
        }
        let found = if self.key_at(at) == key {
            Some(first_data)
        } else if self.key_at(second) == key {
            Some(self.words[second + Self::KEY_WORDS].load(Relaxed))
        } else {
            None
        };
        if self.shared {
            // Pairs with the writer's release fence after taking the lock (see `Table::lock`).
            fence(Acquire);
            if version_word.load(Relaxed) != first_data {
                return None;
            }
        }
        found.map(|word| {
            let data = Data::unpack(word);
            Known {
                lower: data.lower as Score,
                upper: data.upper as Score,
                best: (data.best != NO_MOVE).then_some(data.best as u32),
            }
        })
    }

    /// Records what was learned about `key`, merging with bounds already held for it.
    #[inline]
    pub(crate) fn put(&self, key: B, learned: Learned) {
        let fresh = Data {
            lower: learned.lower.map_or(NO_LOWER, |s| s as i16),
            upper: learned.upper.map_or(NO_UPPER, |s| s as i16),
            best: learned.best.map_or(NO_MOVE, |c| c as u8),
            work: (u64::BITS - learned.nodes.leading_zeros()) as u8,
        };
        let merge = |old: u64| {
            let old = Data::unpack(old);
            let merged = Data {
                lower: old.lower.max(fresh.lower),
                upper: old.upper.min(fresh.upper),
                best: if fresh.best == NO_MOVE {
                    old.best
                } else {
                    fresh.best
                },
                work: old.work.max(fresh.work),
            };
            debug_assert!(merged.lower <= merged.upper, "contradictory bounds stored");
            merged.pack()
        };
        let at = self.bucket(key);
        let second = at + Self::ENTRY_WORDS;
        let second_data = &self.words[second + Self::KEY_WORDS];
        let locked = self.lock(at);
        let mut first_data = locked & PAYLOAD;
        if self.key_at(at) == key {
            first_data = merge(first_data);
        } else if self.key_at(second) == key {
            second_data.store(merge(second_data.load(Relaxed)), Relaxed);
        } else if fresh.work >= Data::unpack(first_data).work {
            // The first entry moves to the second place.
            self.set_key(second, self.key_at(at));
            second_data.store(first_data, Relaxed);
            self.set_key(at, key);
            first_data = fresh.pack();
        } else {
            self.set_key(second, key);
            second_data.store(fresh.pack(), Relaxed);
        }
        self.unlock(at, locked, first_data);
    }
}

/// Positions with fewer empty cells than this are kept in the small near-leaf table of
/// [`Tables`].
pub(crate) const NEAR_LEAF_EMPTY: u32 = 10;

/// Positions with more open columns than this stay in the large table even near the leaves.
pub(crate) const NEAR_LEAF_COLUMNS: u32 = 3;

/// Whether `pos` belongs in the small near-leaf table of [`Tables`]: fewer than
/// [`NEAR_LEAF_EMPTY`] empty cells, in at most [`NEAR_LEAF_COLUMNS`] columns.
///
/// The column bound keeps out the positions of wide, low boards (one or three rows), whose
/// few empty cells spread over many columns can still be filled in many orders: their
/// subtrees are too costly to search again, and the large table must keep them (without the
/// bound, misère k = 3 on 24x1 took 2.3 times the nodes).
#[inline]
pub(crate) fn near_leaf<B: Bits>(pos: &Position<B>) -> bool {
    pos.empty_cells() < NEAR_LEAF_EMPTY && pos.playable().count_ones() <= NEAR_LEAF_COLUMNS
}

/// Size of the near-leaf table.
const NEAR_LEAF_BYTES: usize = Mib(1).bytes();

/// Two tables: a small one for positions near the leaves (see [`near_leaf`]) and the large
/// one for the rest.
///
/// Most probes come from positions near the leaves, whose subtrees are cheap to search again.
/// In one large table each of those probes goes to a random page and waits on memory (about
/// half of the search's time in profiles on our 2-core VM, where the guest's huge pages do not
/// spare the host's page walks); in a table of 1 MiB they stay in the caches, and they no
/// longer push costly positions out of the large table.
pub(crate) struct Tables<B: Bits> {
    far: Arc<Table<B>>,
    near: Table<B>,
}

impl<B: Bits> Tables<B> {
    /// Tables using at most about `bytes` bytes in all: the near-leaf table takes 1 MiB (or
    /// `bytes`, if less) on top of a large table of `bytes`. With `shared`, the large table
    /// can be handed to other threads' searches with [`Tables::share`].
    pub(crate) fn with_bytes(bytes: usize, shared: bool) -> Tables<B> {
        let far = if shared {
            Table::shared(bytes)
        } else {
            Table::with_bytes(bytes)
        };
        Tables {
            far: Arc::new(far),
            near: Table::with_bytes(bytes.min(NEAR_LEAF_BYTES)),
        }
    }

    /// Tables for another searching thread: the same large table and a near-leaf table of
    /// its own (positions near the leaves are cheap to search again, and a private table
    /// needs no lock). `None` unless the large table was made shared.
    pub(crate) fn share(&self) -> Option<Tables<B>> {
        self.far.shared.then(|| Tables {
            far: Arc::clone(&self.far),
            near: Table::with_bytes(self.near.bytes()),
        })
    }

    /// The near-leaf table if `near`, else the large one.
    #[inline]
    fn level(&self, near: bool) -> &Table<B> {
        if near { &self.near } else { &self.far }
    }

    /// [`Table::prefetch`] in the near-leaf table if `near` (see [`near_leaf`]), else the large one.
    #[inline]
    pub(crate) fn prefetch(&self, key: B, near: bool) {
        self.level(near).prefetch(key);
    }

    /// [`Table::get`] in the near-leaf table if `near`, else the large one.
    #[inline]
    pub(crate) fn get(&self, key: B, near: bool) -> Option<Known> {
        self.level(near).get(key)
    }

    /// [`Table::put`] in the near-leaf table if `near`, else the large one.
    #[inline]
    pub(crate) fn put(&self, key: B, near: bool, learned: Learned) {
        self.level(near).put(key, learned);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_for_one_key_are_merged() {
        let t = Table::<u64>::with_bytes(1 << 16);
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
        let t = Table::<u64>::with_bytes(1 << 14);
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

    #[test]
    fn threads_sharing_a_table_never_see_half_an_entry() {
        // Every key's stored bounds are a function of the key, so whatever a thread reads for a
        // key must be exactly that. Two threads write and read the same few hundred 128-bit
        // keys (four words per entry) in a tiny table, fighting over its buckets.
        let table = Table::<u128>::shared(1 << 12);
        let key = |i: u128| (((i % 500) * 0x9e37_79b9_7f4a_7c15 + 1) << 60) | (i % 500);
        let bounds = |key: u128| (key % 1000) as Score;
        let hits: usize = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..2u128)
                .map(|thread| {
                    let table = &table;
                    scope.spawn(move || {
                        let mut hits = 0;
                        for i in 0..300_000u128 {
                            let written = key(i + thread * 250);
                            let b = bounds(written);
                            let learned = Learned {
                                lower: Some(b),
                                upper: Some(b + 1),
                                best: Some((written % 7) as u32),
                                nodes: (i % 64) as u64,
                            };
                            table.put(written, learned);
                            let read = key(i * 3);
                            if let Some(known) = table.get(read) {
                                let b = bounds(read);
                                assert_eq!((known.lower, known.upper), (b, b + 1));
                                assert_eq!(known.best, Some((read % 7) as u32));
                                hits += 1;
                            }
                        }
                        hits
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).sum()
        });
        assert!(hits > 1000, "too few reads found an entry to check: {hits}");
    }
}
