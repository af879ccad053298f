//! A group's stretch of row packed into 128 bits: two bits a cell from the least significant
//! end ([`super::EMPTY`], [`super::LEFT`], [`super::RIGHT`], [`super::WALL`]) and the length in the top byte.
//!
//! Every move the sums search makes cuts its row into stretches, looks each one up and keeps
//! the long ones in the searched positions' keys, so a stretch is a plain value here: made and
//! trimmed with word operations, never a vector to allocate and free (the measurements are
//! in `docs/solver.md`).

/// The longest stretch a [`Stretch`] holds (its cells take the 120 bits below the length).
pub(crate) const MAX_STRETCH: usize = 60;

/// The low bit of every cell's two.
const LOW_BITS: u128 = 0x5555_5555_5555_5555_5555_5555_5555_5555;

/// A stretch of at most [`MAX_STRETCH`] cells. Two stretches are equal exactly when they hold
/// the same cells in the same order; they order by their packing, which is what the searched
/// positions' keys sort by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Stretch {
    // Two halves rather than one `u128`: 8-byte alignment keeps the tables' entries small
    // (a value and its key in 24 bytes, not 32). High half first, so that they order as the
    // whole word does.
    high: u64,
    low: u64,
}

impl Stretch {
    /// The stretch of `cells`, in the order given.
    pub(crate) fn from_cells(cells: impl IntoIterator<Item = u8>) -> Stretch {
        let (mut bits, mut len) = (0u128, 0usize);
        for cell in cells {
            assert!(
                len < MAX_STRETCH,
                "a stretch of more than {MAX_STRETCH} cells"
            );
            bits |= u128::from(cell & 3) << (2 * len);
            len += 1;
        }
        Stretch::of(bits, len)
    }

    /// The stretch of `len` cells packed in `bits` (nothing above them).
    fn of(bits: u128, len: usize) -> Stretch {
        Stretch::from_word(bits | (len as u128) << 120)
    }

    /// The stretch packed in `word`.
    fn from_word(word: u128) -> Stretch {
        Stretch {
            high: (word >> 64) as u64,
            low: word as u64,
        }
    }

    /// The whole packing.
    fn word(self) -> u128 {
        u128::from(self.high) << 64 | u128::from(self.low)
    }

    /// The number of cells.
    pub(crate) fn len(self) -> usize {
        (self.word() >> 120) as usize
    }

    /// The cells' two bits each, the length left out.
    fn bits(self) -> u128 {
        self.word() & ((1u128 << (2 * self.len())) - 1)
    }

    /// The number of empty cells.
    pub(crate) fn empty_cells(self) -> usize {
        (self.len() as u32 - self.taken().count_ones()) as usize
    }

    /// The low bit of each cell that holds a disc or a wall.
    fn taken(self) -> u128 {
        let bits = self.bits();
        (bits | bits >> 1) & LOW_BITS
    }

    /// The same cells read from the other end.
    pub(crate) fn reversed(self) -> Stretch {
        let len = self.len();
        if len == 0 {
            return self;
        }
        // Reversing the bits reverses the cells and swaps each cell's two bits.
        let bits = swap_pairs(self.bits().reverse_bits() >> (128 - 2 * len));
        Stretch::of(bits, len)
    }

    /// The same stretch with each side's discs given to the other.
    pub(crate) fn colours_swapped(self) -> Stretch {
        // Left (01) and Right (10) trade places; empty cells (00) and walls (11) stay.
        Stretch::of(swap_pairs(self.bits()), self.len())
    }

    /// The smallest of the stretch's four forms (read either way, colours swapped or not), and
    /// whether that form has the colours swapped: one key for the values of all four.
    pub(crate) fn canonical(self) -> (Stretch, bool) {
        let plain = self.min(self.reversed());
        let swapped = self.colours_swapped();
        let other = swapped.min(swapped.reversed());
        if other < plain {
            (other, true)
        } else {
            (plain, false)
        }
    }

    /// The reading of the stretch that a searched position keeps: of the two directions, the
    /// one whose cells come later in dictionary order read from the first (the larger
    /// packing, since the packing starts at the least significant end).
    pub(crate) fn reading(self) -> Stretch {
        self.max(self.reversed())
    }

    /// The stretch with every disc that lies in no window of `k` cells that could still become
    /// a line walled off, and the walls at its ends cut: such a disc never takes part in a
    /// line, nor does it decide whether a move completes one (a run of discs through it long
    /// enough for a line would put it in a window of one colour), so the group plays the same.
    pub(crate) fn trimmed(self, k: usize) -> Stretch {
        let (len, mut bits) = (self.len(), self.bits());
        let open = self.open_starts(k);
        // An open window means k <= len, so the shifts stay inside the word.
        let useful = match open {
            0 => 0,
            _ => (0..k).fold(0, |any, j| any | open << (2 * j)),
        };
        let walled = self.taken() & !useful;
        bits |= walled | walled << 1;
        let kept = cells_between(0, len) & !(bits & bits >> 1);
        if kept == 0 {
            return Stretch::of(0, 0);
        }
        let first = kept.trailing_zeros() as usize / 2;
        let last = (127 - kept.leading_zeros() as usize) / 2 + 1;
        let new_len = last - first;
        Stretch::of(
            bits >> (2 * first) & ((1u128 << (2 * new_len)) - 1),
            new_len,
        )
    }

    /// The low bit of each start of a window of `k` cells that could still become a line: one
    /// with no wall and not discs of both players.
    fn open_starts(self, k: usize) -> u128 {
        let len = self.len();
        if len < k {
            return 0;
        }
        let [left, right, wall] = self.kinds();
        // The low bit of cell s in `window_holds(m)`: a cell of the window from s is in m.
        let window_holds = |m: u128| (0..k).fold(0, |any, j| any | m >> (2 * j));
        let starts = cells_between(0, len - k + 1);
        starts & !window_holds(wall) & !(window_holds(left) & window_holds(right))
    }

    /// The low bit of each cell holding a Left disc, a Right disc, a wall.
    fn kinds(self) -> [u128; 3] {
        let bits = self.bits();
        let (low, high) = (bits & LOW_BITS, bits >> 1 & LOW_BITS);
        [low & !high, high & !low, low & high]
    }

    /// The low bit of each empty cell.
    fn empties(self) -> u128 {
        cells_between(0, self.len()) & !self.taken()
    }

    /// The stretch with `disc` at `at`, which must be empty.
    pub(crate) fn with(self, at: usize, disc: u8) -> Stretch {
        debug_assert!(
            self.empties() >> (2 * at) & 1 == 1,
            "cell {at} is not empty"
        );
        Stretch::from_word(self.word() | u128::from(disc & 3) << (2 * at))
    }

    /// Whether the disc at `at` is in a line of `k` discs of its colour.
    pub(crate) fn makes_line(self, at: usize, k: usize) -> bool {
        if k > self.len() {
            return false;
        }
        let [left, right, _] = self.kinds();
        let discs = if left >> (2 * at) & 1 == 1 {
            left
        } else {
            right
        };
        // The low bit of cell s: the k cells from s all hold such a disc.
        let full = (1..k).fold(discs, |all, j| all & discs >> (2 * j));
        full & cells_between((at + 1).saturating_sub(k), at + 1) != 0
    }

    /// How many of the first cells hold the distinct moves: a stretch that reads the same both
    /// ways offers each move twice, so its first half (with the middle) is enough.
    pub(crate) fn distinct_moves(self) -> usize {
        if self.reversed() == self {
            self.len().div_ceil(2)
        } else {
            self.len()
        }
    }

    /// The empty cells, first to last.
    pub(crate) fn empty_places(self) -> impl Iterator<Item = usize> {
        let mut rest = self.empties();
        std::iter::from_fn(move || {
            let at = (rest != 0).then(|| rest.trailing_zeros() as usize / 2)?;
            rest &= rest - 1;
            Some(at)
        })
    }

    /// The groups of this row's empty cells for lines of `k`, in order along the row, each as
    /// its stretch ([`Stretch::group`]). Two neighbouring empty cells are in one group exactly
    /// when a window that could still become a line holds both; a group is a run of
    /// neighbouring empty cells, as a window linking cells on both sides of another empty cell
    /// would hold that cell too.
    pub(crate) fn groups(self, k: usize) -> Vec<Stretch> {
        let open = self.open_starts(k);
        let linked = |a: usize, b: usize| {
            b - a < k && open & cells_between((b + 1).saturating_sub(k), a + 1) != 0
        };
        let mut groups = Vec::new();
        let mut places = self.empty_places();
        let Some(mut first) = places.next() else {
            return groups;
        };
        let mut last = first;
        for at in places {
            if !linked(last, at) {
                groups.push(self.group(first, last, k));
                first = at;
            }
            last = at;
        }
        groups.push(self.group(first, last, k));
        groups
    }

    /// The stretch of the group of empty cells `first` to `last`: from k - 1 cells before the
    /// first to k - 1 after the last (within the row), the empty cells of other groups walled
    /// off (every window holding one of them and a cell of the group already holds discs of
    /// both players, so what fills it never matters), then trimmed.
    fn group(self, first: usize, last: usize, k: usize) -> Stretch {
        let (from, to) = (first.saturating_sub(k - 1), (last + k).min(self.len()));
        let others = self.empties() & !cells_between(first, last + 1);
        let bits = self.bits() | others | others << 1;
        let len = to - from;
        Stretch::of(bits >> (2 * from) & ((1u128 << (2 * len)) - 1), len).trimmed(k)
    }
}

/// The low bit of each cell from `from` up to, not including, `to`.
fn cells_between(from: usize, to: usize) -> u128 {
    LOW_BITS & ((1u128 << (2 * to)) - 1) & !((1u128 << (2 * from)) - 1)
}

/// Each two-bit field of `bits` with its bits swapped.
fn swap_pairs(bits: u128) -> u128 {
    (bits & LOW_BITS) << 1 | (bits >> 1 & LOW_BITS)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::solver::others::row_cells::distinct_moves;
    use crate::solver::others::sums::{EMPTY, LEFT, RIGHT, WALL, open};

    /// What trimming does, cell by cell on a vector: the word operations are checked against it.
    fn trimmed_cell_by_cell(mut cells: Vec<u8>, k: usize) -> Vec<u8> {
        let mut useful = vec![false; cells.len()];
        for start in 0..(cells.len() + 1).saturating_sub(k) {
            if open(cells[start..start + k].iter().copied()) {
                useful[start..start + k].iter_mut().for_each(|u| *u = true);
            }
        }
        for (cell, useful) in cells.iter_mut().zip(useful) {
            if !useful && *cell != EMPTY {
                *cell = WALL;
            }
        }
        let first = cells.iter().position(|&c| c != WALL).unwrap_or(0);
        let last = cells.iter().rposition(|&c| c != WALL).map_or(0, |l| l + 1);
        cells.truncate(last);
        cells.drain(..first.min(last));
        cells
    }

    fn cells_of(stretch: Stretch) -> Vec<u8> {
        (0..stretch.len())
            .map(|i| (stretch.word() >> (2 * i)) as u8 & 3)
            .collect()
    }

    fn swap_colours(cells: &[u8]) -> Vec<u8> {
        cells.iter().map(|&c| [0, 2, 1, 3][c as usize]).collect()
    }

    /// Whether the disc at `at` is in k discs of its colour in a row, looked for window by
    /// window.
    fn makes_line_window_by_window(cells: &[u8], at: usize, k: usize) -> bool {
        let starts = (at + 1).saturating_sub(k)..=at;
        starts
            .filter(|&s| s + k <= cells.len())
            .any(|s| cells[s..s + k].iter().all(|&c| c == cells[at]))
    }

    /// A row's groups as the definition says, cell by cell: neighbouring empty cells linked by
    /// an open window, each group's stretch k - 1 cells either side with other empty cells
    /// walled, then trimmed.
    fn groups_cell_by_cell(cells: &[u8], k: usize) -> Vec<Vec<u8>> {
        let n = cells.len();
        let empties: Vec<usize> = (0..n).filter(|&i| cells[i] == EMPTY).collect();
        let linked = |a: usize, b: usize| {
            ((b + 1).saturating_sub(k)..=a)
                .any(|s| s + k <= n && open(cells[s..s + k].iter().copied()))
        };
        let mut runs: Vec<Vec<usize>> = Vec::new();
        for (i, &at) in empties.iter().enumerate() {
            match runs.last_mut() {
                Some(run) if linked(empties[i - 1], at) => run.push(at),
                _ => runs.push(vec![at]),
            }
        }
        runs.iter()
            .map(|run| {
                let (first, last) = (run[0], run[run.len() - 1]);
                let from = first.saturating_sub(k - 1);
                let stretch = (from..(last + k).min(n))
                    .map(|i| {
                        if cells[i] == EMPTY && !run.contains(&i) {
                            WALL
                        } else {
                            cells[i]
                        }
                    })
                    .collect();
                trimmed_cell_by_cell(stretch, k)
            })
            .collect()
    }

    proptest! {
        /// Packing keeps the cells, and the count, reversal, colour swap, reading and trimming
        /// read from the packing agree with the same done on the cells.
        #[test]
        fn word_operations_agree_with_the_cells(
            cells in prop::collection::vec(0u8..=3, 0..=MAX_STRETCH),
            k in 1usize..=7,
        ) {
            let stretch = Stretch::from_cells(cells.iter().copied());
            prop_assert_eq!(cells_of(stretch), cells.clone());
            let empty = cells.iter().filter(|&&c| c == EMPTY).count();
            prop_assert_eq!(stretch.empty_cells(), empty);
            let backwards: Vec<u8> = cells.iter().rev().copied().collect();
            prop_assert_eq!(cells_of(stretch.reversed()), backwards.clone());
            prop_assert_eq!(cells_of(stretch.colours_swapped()), swap_colours(&cells));
            // The reading kept: the cells, or the cells backwards when that comes first in
            // dictionary order.
            let reading = if cells.iter().rev().lt(cells.iter()) { backwards } else { cells.clone() };
            prop_assert_eq!(cells_of(stretch.reading()), reading);
            prop_assert_eq!(cells_of(stretch.trimmed(k)), trimmed_cell_by_cell(cells.clone(), k));
            let places: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == EMPTY).collect();
            prop_assert_eq!(stretch.empty_places().collect::<Vec<_>>(), places);
            prop_assert_eq!(stretch.distinct_moves(), distinct_moves(&cells));
        }

        /// A row of discs and empty cells: its groups, and whether each move makes a line,
        /// read from the packing agree with the same found cell by cell.
        #[test]
        fn groups_and_lines_agree_with_the_cells(
            row in prop::collection::vec(0u8..=2, 0..=MAX_STRETCH),
            k in 1usize..=8,
        ) {
            let stretch = Stretch::from_cells(row.iter().copied());
            let groups: Vec<Vec<u8>> = stretch.groups(k).into_iter().map(cells_of).collect();
            prop_assert_eq!(groups, groups_cell_by_cell(&row, k));
            for at in stretch.empty_places() {
                for disc in [LEFT, RIGHT] {
                    let mut placed = row.clone();
                    placed[at] = disc;
                    let child = stretch.with(at, disc);
                    prop_assert_eq!(cells_of(child), placed.clone());
                    prop_assert_eq!(
                        child.makes_line(at, k),
                        makes_line_window_by_window(&placed, at, k)
                    );
                }
            }
        }

        /// The four forms of a stretch share one canonical key, the smallest of them, and the
        /// flag says whether the key is one of the forms with the colours swapped.
        #[test]
        fn the_four_forms_share_the_smallest_key(
            cells in prop::collection::vec(0u8..=3, 0..=MAX_STRETCH),
        ) {
            let stretch = Stretch::from_cells(cells.iter().copied());
            let swapped = stretch.colours_swapped();
            let forms = [stretch, stretch.reversed(), swapped, swapped.reversed()];
            let (key, is_swapped) = stretch.canonical();
            for form in forms {
                prop_assert_eq!(form.canonical().0, key);
                prop_assert!(key <= form);
            }
            let of_its_colours = if is_swapped { &forms[2..] } else { &forms[..2] };
            prop_assert!(of_its_colours.contains(&key));
        }
    }
}
