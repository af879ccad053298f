//! A group's stretch of row packed into one `u128`: two bits a cell from the least significant
//! end ([`EMPTY`], [`LEFT`], [`RIGHT`], [`WALL`]) and the length in the top byte.
//!
//! Every move the sums search makes cuts its row into stretches, looks each one up and keeps
//! the long ones in the searched positions' keys, so a stretch is a plain value here: made and
//! trimmed with word operations, never a vector to allocate and free (which, with the cell by
//! cell trimming, had been half the search's time on the misère k = 3 rings).

use super::{EMPTY, LEFT, RIGHT, WALL};

/// The longest stretch a [`Stretch`] holds (its cells take the 120 bits below the length).
pub(crate) const MAX_STRETCH: usize = 60;

/// The low bit of every cell's two.
const LOW_BITS: u128 = 0x5555_5555_5555_5555_5555_5555_5555_5555;

/// A stretch of at most [`MAX_STRETCH`] cells. Two stretches are equal exactly when they hold
/// the same cells in the same order; they order by their packing, which is what the searched
/// positions' keys sort by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Stretch(u128);

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
        Stretch(bits | (len as u128) << 120)
    }

    /// The number of cells.
    pub(crate) fn len(self) -> usize {
        (self.0 >> 120) as usize
    }

    /// The cells' two bits each, the length left out.
    fn bits(self) -> u128 {
        self.0 & ((1u128 << (2 * self.len())) - 1)
    }

    /// The cells, in the first [`Stretch::len`] places of the array.
    pub(crate) fn cells(self) -> [u8; MAX_STRETCH] {
        let mut cells = [EMPTY; MAX_STRETCH];
        for (i, cell) in cells.iter_mut().enumerate().take(self.len()) {
            *cell = (self.0 >> (2 * i)) as u8 & 3;
        }
        cells
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
        let (low, high) = (bits & LOW_BITS, bits >> 1 & LOW_BITS);
        let (left, right, wall) = (low & !high, high & !low, low & high);
        // Bit 2s of `window_holds(m)`: a cell of the window starting at cell s is in m.
        let window_holds = |m: u128| (0..k).fold(0, |any, j| any | m >> (2 * j));
        let starts = if len >= k {
            LOW_BITS & ((1u128 << (2 * (len - k + 1))) - 1)
        } else {
            0
        };
        let open = starts & !window_holds(wall) & !(window_holds(left) & window_holds(right));
        let useful = (0..k).fold(0, |any, j| any | open << (2 * j));
        let walled = (low | high) & !useful;
        bits |= walled | walled << 1;
        let cells = LOW_BITS & ((1u128 << (2 * len)) - 1);
        let kept = cells & !(bits & bits >> 1);
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
}

/// Each two-bit field of `bits` with its bits swapped.
fn swap_pairs(bits: u128) -> u128 {
    (bits & LOW_BITS) << 1 | (bits >> 1 & LOW_BITS)
}

/// Whether a window holding `cells` could still become a line: it holds no wall and not discs
/// of both players.
pub(crate) fn open(cells: impl Iterator<Item = u8>) -> bool {
    let (mut left, mut right) = (false, false);
    for cell in cells {
        match cell {
            LEFT => left = true,
            RIGHT => right = true,
            WALL => return false,
            _ => {}
        }
    }
    !(left && right)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

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
        stretch.cells()[..stretch.len()].to_vec()
    }

    fn swap_colours(cells: &[u8]) -> Vec<u8> {
        cells.iter().map(|&c| [0, 2, 1, 3][c as usize]).collect()
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
