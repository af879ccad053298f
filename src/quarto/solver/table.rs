//! The transposition table: score bounds of boards already searched, under their canonical
//! keys, in buckets of four 16-byte entries (one cache line).

use bytemuck::Zeroable;

use crate::solver::memory::table_memory;

/// No bound known.
const NO_LOWER: i8 = i8::MIN;
/// No bound known.
const NO_UPPER: i8 = i8::MAX;

/// One entry: the whole canonical key (so a hit is never another position's answer), the
/// bounds, and the work (1 + base-2 logarithm of the nodes the search took; 0 marks an empty
/// entry), which decides what is replaced.
#[derive(Clone, Copy, Default, Zeroable)]
#[repr(C, align(16))]
struct Entry {
    columns: u64,
    mask: u16,
    lower: i8,
    upper: i8,
    work: u8,
}

/// Entries per bucket: 4 x 16 bytes fill a 64-byte cache line.
const WAYS: usize = 4;

/// A fixed-size table of bounds on scores, keyed by canonical board keys.
pub struct Table {
    entries: Vec<Entry>,
    bucket_mask: usize,
}

impl Table {
    /// A table of at most `bytes` bytes (rounded down to a power of two buckets, at least one).
    pub fn with_bytes(bytes: usize) -> Table {
        let buckets = (bytes / (WAYS * size_of::<Entry>())).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Table {
            entries: table_memory(buckets * WAYS),
            bucket_mask: buckets - 1,
        }
    }

    /// Index of the first entry of `key`'s bucket.
    #[inline]
    fn bucket(&self, (mask, columns): (u16, u64)) -> usize {
        let mixed = (columns ^ u64::from(mask).rotate_left(40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((mixed >> 32) as usize & self.bucket_mask) * WAYS
    }

    /// The bounds known for `key`: (lower, upper), `None` where nothing is known.
    #[inline]
    pub fn get(&self, key: (u16, u64)) -> Option<(Option<i32>, Option<i32>)> {
        let at = self.bucket(key);
        self.entries[at..at + WAYS]
            .iter()
            .find(|e| e.work != 0 && e.mask == key.0 && e.columns == key.1)
            .map(|e| {
                (
                    (e.lower != NO_LOWER).then_some(i32::from(e.lower)),
                    (e.upper != NO_UPPER).then_some(i32::from(e.upper)),
                )
            })
    }

    /// Records bounds for `key` found by a search of `nodes` nodes. Bounds already known for
    /// the key are kept where tighter (both are true bounds on the same score); otherwise the
    /// entry of least work in the bucket (or an empty one) makes room.
    #[inline]
    pub fn put(&mut self, key: (u16, u64), lower: Option<i32>, upper: Option<i32>, nodes: u64) {
        let at = self.bucket(key);
        let work = (65 - nodes.leading_zeros()).min(255) as u8;
        let bucket = &mut self.entries[at..at + WAYS];
        let lower = lower.map_or(NO_LOWER, |l| l as i8);
        let upper = upper.map_or(NO_UPPER, |u| u as i8);
        if let Some(e) = bucket
            .iter_mut()
            .find(|e| e.work != 0 && e.mask == key.0 && e.columns == key.1)
        {
            e.lower = e.lower.max(lower);
            e.upper = e.upper.min(upper);
            e.work = e.work.max(work);
            return;
        }
        let victim = bucket
            .iter_mut()
            .min_by_key(|e| e.work)
            .expect("a bucket has entries");
        *victim = Entry {
            columns: key.1,
            mask: key.0,
            lower,
            upper,
            work,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_merge_and_cheap_entries_make_room() {
        let mut table = Table::with_bytes(64);
        table.put((0, 0), Some(-3), None, 10);
        table.put((0, 0), None, Some(2), 5);
        assert_eq!(table.get((0, 0)), Some((Some(-3), Some(2))));
        for k in 1..=4u64 {
            table.put((1, k), Some(0), Some(0), 1 << (10 * k));
        }
        // One bucket of four: the first entry (least work) made room for the last.
        assert_eq!(table.get((0, 0)), None);
        assert_eq!(table.get((1, 4)), Some((Some(0), Some(0))));
    }
}
