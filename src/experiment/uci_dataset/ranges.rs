//! Handing the lines of a check out to its workers so that each one works through neighbouring
//! lines: neighbouring positions share most of their subtrees, which a worker's table keeps
//! from one line to the next.

use std::sync::Mutex;

/// The indices `0..len`, split into one contiguous range per worker. A worker takes indices
/// from the front of its own range; once that is empty, it takes the back half of the largest
/// range left. Every index is handed out once, and each worker's indices run upwards, broken
/// only where it took over half of another range (a handful of times per worker), so the load
/// stays balanced to the last index without scattering anyone's lines.
#[derive(Debug)]
pub(crate) struct Ranges {
    /// Each worker's range still to do, as `start..end`.
    ranges: Mutex<Vec<(usize, usize)>>,
}

impl Ranges {
    /// `0..len` split among `workers` workers (at least 1) into ranges whose lengths differ
    /// by at most one.
    pub(crate) fn new(len: usize, workers: usize) -> Ranges {
        let workers = workers.max(1);
        let ranges = (0..workers)
            .map(|w| (len * w / workers, len * (w + 1) / workers))
            .collect();
        Ranges {
            ranges: Mutex::new(ranges),
        }
    }

    /// The next index for worker `worker` (below the worker count given to [`Ranges::new`]),
    /// or `None` once every index has been handed out.
    pub(crate) fn next(&self, worker: usize) -> Option<usize> {
        // A worker that panicked while holding the lock left the ranges consistent (every
        // update below is a single assignment), so a poisoned lock is still usable.
        let mut ranges = self.ranges.lock().unwrap_or_else(|e| e.into_inner());
        if ranges[worker].0 == ranges[worker].1 {
            let (largest, &(start, end)) = ranges
                .iter()
                .enumerate()
                .max_by_key(|&(_, &(start, end))| end - start)?;
            if start == end {
                return None;
            }
            // The thief takes the back half, rounded up (the whole range when one index is
            // left); the other worker keeps the front.
            let middle = start + (end - start) / 2;
            ranges[largest] = (start, middle);
            ranges[worker] = (middle, end);
        }
        let (start, end) = ranges[worker];
        ranges[worker] = (start + 1, end);
        Some(start)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[test]
    fn ranges_start_as_equal_contiguous_slices() {
        let ranges = Ranges::new(10, 3);
        assert_eq!(ranges.next(0), Some(0));
        assert_eq!(ranges.next(1), Some(3));
        assert_eq!(ranges.next(2), Some(6));
        assert_eq!(ranges.next(2), Some(7));
    }

    #[test]
    fn an_idle_worker_takes_the_back_half_of_the_largest_range() {
        let ranges = Ranges::new(8, 2);
        // Worker 1 finishes its four indices while worker 0 has done one.
        assert_eq!(ranges.next(0), Some(0));
        let second: Vec<_> = (0..4).map(|_| ranges.next(1)).collect();
        assert_eq!(second, [Some(4), Some(5), Some(6), Some(7)]);
        // Worker 0 has 1..4 left: worker 1 takes 2 and 3, worker 0 keeps 1.
        assert_eq!(ranges.next(1), Some(2));
        assert_eq!(ranges.next(0), Some(1));
        // Worker 0's range is empty: it takes the last index left, 3, whole.
        assert_eq!(ranges.next(0), Some(3));
        assert_eq!(ranges.next(0), None);
        assert_eq!(ranges.next(1), None);
    }

    #[test]
    fn a_single_index_left_in_another_range_is_taken_over() {
        let ranges = Ranges::new(3, 2);
        assert_eq!(ranges.next(1), Some(1));
        assert_eq!(ranges.next(1), Some(2));
        // Worker 0 has only index 0 left, and has not started it.
        assert_eq!(ranges.next(1), Some(0));
        assert_eq!(ranges.next(0), None);
    }

    #[test]
    fn more_workers_than_indices_and_no_indices_at_all() {
        let ranges = Ranges::new(2, 5);
        let mut got: Vec<_> = (0..5).filter_map(|w| ranges.next(w)).collect();
        got.sort_unstable();
        assert_eq!(got, [0, 1]);
        assert_eq!(Ranges::new(0, 2).next(0), None);
    }

    #[test]
    fn threads_get_every_index_once_in_few_runs() {
        let len = 10_000;
        let workers = 4;
        let ranges = Ranges::new(len, workers);
        let seen: Vec<AtomicUsize> = (0..len).map(|_| AtomicUsize::new(0)).collect();
        let breaks: Vec<usize> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers)
                .map(|w| {
                    let (ranges, seen) = (&ranges, &seen);
                    scope.spawn(move || {
                        let mut last = None;
                        let mut breaks = 0;
                        while let Some(i) = ranges.next(w) {
                            seen[i].fetch_add(1, Ordering::Relaxed);
                            if last.is_some_and(|l| l + 1 != i) {
                                breaks += 1;
                            }
                            last = Some(i);
                            // Uneven work, so that the workers steal from each other.
                            if i % 7 == w {
                                std::thread::yield_now();
                            }
                        }
                        breaks
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(seen.iter().all(|n| n.load(Ordering::Relaxed) == 1));
        // Each break is a steal, and each steal halves a range: a few dozen at most.
        let total: usize = breaks.iter().sum();
        assert!(total <= workers * 2 * 14, "{breaks:?}");
    }
}
