//! Board geometry as bit masks, and line detection on bitboards.
//!
//! Bits are laid out column by column, `height + 1` bits per column, bottom row first; the top
//! bit of each column is a spare that is never set, so shifted lines cannot wrap from one column
//! into the next. For 7x6:
//!
//! ```text
//!   .  .  .  .  .  .  .     <- spare bits 6 13 20 27 34 41 48
//!   5 12 19 26 33 40 47
//!   4 11 18 25 32 39 46
//!   3 10 17 24 31 38 45
//!   2  9 16 23 30 37 44
//!   1  8 15 22 29 36 43
//!   0  7 14 21 28 35 42
//! ```

use super::bits::Bits;
use super::outcome::Cell;
use super::rules::Rules;

/// Evaluates `$body` with `$k` bound to the value of `$value`, as a literal constant for the
/// common line lengths, so that the inlined line-scanning loops are unrolled for them.
macro_rules! with_constant_k {
    ($value:expr, |$k:ident| $body:expr) => {
        match $value {
            3 => {
                let $k = 3;
                $body
            }
            4 => {
                let $k = 4;
                $body
            }
            5 => {
                let $k = 5;
                $body
            }
            other => {
                let $k = other;
                $body
            }
        }
    };
}

/// Precomputed masks and line directions for one set of rules and one bit type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout<B: Bits> {
    rules: Rules,
    /// One bit at the bottom of each column.
    bottom: B,
    /// Every cell of the board (spare bits excluded).
    full: B,
    /// Cells on rows 1, 3, 5, ... counted from 1 at the bottom.
    odd_rows: B,
    /// Bit shifts of the line directions in which a line of k fits on this board.
    shifts: [u32; 4],
    directions: usize,
}

impl<B: Bits> Layout<B> {
    /// The layout of `rules` in bit type `B`, or `None` if the board needs more bits than `B` has.
    pub fn new(rules: Rules) -> Option<Layout<B>> {
        if rules.board_bits() > B::BITS {
            return None;
        }
        let (w, h, k) = (rules.width(), rules.height(), rules.k());
        let stride = h + 1;
        let mut bottom = B::ZERO;
        let mut full = B::ZERO;
        let column = (B::ONE << h) - B::ONE;
        for c in 0..w {
            bottom |= B::ONE << (c * stride);
            full |= column << (c * stride);
        }
        // A direction is kept only if a line of k fits in it; this also keeps every shift used
        // by line detection below the bit width (see `runs`).
        let candidates = [
            (1, k <= h),
            (stride, k <= w),
            (h, k <= w && k <= h),
            (h + 2, k <= w && k <= h),
        ];
        let mut shifts = [0; 4];
        let mut directions = 0;
        for (shift, fits) in candidates {
            if fits {
                shifts[directions] = shift;
                directions += 1;
            }
        }
        let odd_rows = (0..h)
            .step_by(2)
            .fold(B::ZERO, |rows, r| rows | (bottom << r));
        Some(Layout {
            rules,
            bottom,
            full,
            odd_rows,
            shifts,
            directions,
        })
    }

    /// The rules this layout was built for.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Bits per column including the spare bit.
    #[inline]
    pub fn stride(&self) -> u32 {
        self.rules.height() + 1
    }

    /// One bit at the bottom of each column.
    #[inline]
    pub fn bottom(&self) -> B {
        self.bottom
    }

    /// Every cell of the board.
    #[inline]
    pub fn full(&self) -> B {
        self.full
    }

    /// Cells on rows 1, 3, 5, ... counted from 1 at the bottom: the rows the first player
    /// fills when every column is filled in pairs.
    #[inline]
    pub fn odd_rows(&self) -> B {
        self.odd_rows
    }

    /// Every cell at or above a cell of `cells` in the same column.
    ///
    /// Column by column, with `x` the column's cells of `cells` as a number of `height` bits:
    /// the spare bit above the column less `x` is `-x` on the column's bits (and clears the
    /// spare bit unless `x` is 0), so no subtraction borrows from the next column; `x | -x`
    /// sets every bit from the lowest bit of `x` up.
    #[inline]
    pub fn at_or_above(&self, cells: B) -> B {
        let cells = cells & self.full;
        let spare = self.bottom << self.rules.height();
        ((spare - cells) | cells) & self.full
    }

    /// Every cell of the columns whose top cells are in `tops` (which must hold top cells
    /// only). Each column's top bit shifted up one, less its bottom bit, is the column: the
    /// subtractions never borrow from a neighbouring column.
    #[inline]
    pub fn columns_of_tops(&self, tops: B) -> B {
        ((tops << 1) - (tops >> (self.rules.height() - 1))) & self.full
    }

    /// In each column, the empty cells on the rows of the parity of its lowest empty cell
    /// (its 1st, 3rd, 5th, ... empty cell from the bottom), for the filled cells `mask`.
    ///
    /// Adding its lowest empty cell to a column's run of empty cells carries out of the column,
    /// so adding the lowest empty cells on rows 0, 2, 4, ... to the empty cells leaves on the
    /// board exactly the empty cells of the other columns.
    #[inline]
    pub fn lowest_parity_cells(&self, mask: B) -> B {
        let empty = self.full & !mask;
        let even_starts = self.playable(mask) & self.odd_rows;
        let odd_start_columns = (empty + even_starts) & self.full;
        ((empty & !odd_start_columns) & self.odd_rows) | (odd_start_columns & !self.odd_rows)
    }

    /// Every cell of column `c` (0-based).
    #[inline]
    pub fn column_mask(&self, c: u32) -> B {
        ((B::ONE << self.rules.height()) - B::ONE) << (c * self.stride())
    }

    /// The bottom cell of column `c`.
    #[inline]
    pub fn bottom_cell(&self, c: u32) -> B {
        B::ONE << (c * self.stride())
    }

    /// The top cell of column `c`.
    #[inline]
    pub fn top_cell(&self, c: u32) -> B {
        B::ONE << (c * self.stride() + self.rules.height() - 1)
    }

    /// The cells where the next disc of each column would land, given occupied cells `mask`.
    #[inline]
    pub fn playable(&self, mask: B) -> B {
        (mask + self.bottom) & self.full
    }

    /// The bit of a cell.
    #[inline]
    pub fn cell_bit(&self, cell: Cell) -> B {
        B::ONE << (cell.column * self.stride() + cell.row)
    }

    /// The cell of a single-bit set.
    #[inline]
    pub fn bit_cell(&self, bit: B) -> Cell {
        let index = bit.trailing_zeros();
        Cell {
            column: index / self.stride(),
            row: index % self.stride(),
        }
    }

    /// Bits `y` such that `y, y+s, ..., y+(len-1)s` are all in `stones` (all bits for `len == 0`).
    ///
    /// Doubles the run length each step, so the cost is logarithmic in `len`. Every shift is at
    /// most `(k - 1) * s`, which is below the bit width for the directions `new` keeps.
    #[inline(always)]
    fn runs(stones: B, len: u32, s: u32) -> B {
        if len == 0 {
            return !B::ZERO;
        }
        let mut r = stones;
        let mut have = 1;
        while have < len {
            let step = have.min(len - have);
            r = r & (r >> (step * s));
            have += step;
        }
        r
    }

    /// Whether `stones` contain a line of k or more in any direction.
    #[inline]
    pub fn has_line(&self, stones: B) -> bool {
        with_constant_k!(self.rules.k(), |k| self.has_line_of(stones, k))
    }

    #[inline(always)]
    fn has_line_of(&self, stones: B, k: u32) -> bool {
        self.shifts[..self.directions]
            .iter()
            .any(|&s| !Self::runs(stones, k, s).is_empty())
    }

    /// Every cell of every k-long window (in any direction) whose cells all lie in `cells`.
    ///
    /// With `cells` = a player's discs plus the empty cells, these are the cells where that
    /// player can still take part in a line.
    #[inline]
    pub fn window_cells(&self, cells: B) -> B {
        with_constant_k!(self.rules.k(), |k| self.window_cells_of(cells, k))
    }

    #[inline(always)]
    fn window_cells_of(&self, cells: B, k: u32) -> B {
        let mut covered = B::ZERO;
        for &s in &self.shifts[..self.directions] {
            let starts = Self::runs(cells, k, s) & self.full;
            for i in 0..k {
                covered |= starts << (i * s);
            }
        }
        covered & self.full
    }

    /// Cells of the board that would give `stones` a line of k if a disc were added there.
    ///
    /// Occupied cells are included when they qualify; callers mask with the empty cells they care about.
    #[inline]
    pub fn completing_cells(&self, stones: B) -> B {
        with_constant_k!(self.rules.k(), |k| self.completing_cells_of(stones, k))
    }

    #[inline(always)]
    fn completing_cells_of(&self, stones: B, k: u32) -> B {
        let mut cells = B::ZERO;
        for &s in &self.shifts[..self.directions] {
            for below in 0..k {
                let above = k - 1 - below;
                // `below` stones at x-s, x-2s, ...; `above` stones at x+s, x+2s, ...
                let low = Self::runs(stones, below, s) << (below * s);
                let high = if above == 0 {
                    !B::ZERO
                } else {
                    Self::runs(stones, above, s) >> s
                };
                cells |= low & high;
            }
        }
        cells & self.full
    }

    /// Every cell of every line of k or more in `stones` that passes through `cell`.
    pub fn line_cells_through(&self, stones: B, cell: B) -> B {
        let k = self.rules.k();
        let mut cells = B::ZERO;
        for &s in &self.shifts[..self.directions] {
            let mut segment = cell;
            let mut probe = cell;
            loop {
                probe = probe >> s;
                if (probe & stones).is_empty() {
                    break;
                }
                segment |= probe;
            }
            probe = cell;
            loop {
                probe = probe << s;
                if (probe & stones & self.full).is_empty() {
                    break;
                }
                segment |= probe;
            }
            if segment.count_ones() >= k {
                cells |= segment;
            }
        }
        cells
    }

    /// The left-right mirror image of a set of cells.
    #[inline]
    pub fn mirror(&self, bits: B) -> B {
        // The standard width gets its own unrolled copy of the loop.
        match self.rules.width() {
            7 => self.mirror_of(bits, 7),
            w => self.mirror_of(bits, w),
        }
    }

    #[inline(always)]
    fn mirror_of(&self, bits: B, w: u32) -> B {
        let stride = self.stride();
        let column = (B::ONE << stride) - B::ONE;
        let mut out = B::ZERO;
        for c in 0..w {
            out |= ((bits >> (c * stride)) & column) << ((w - 1 - c) * stride);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;

    fn layout(k: u32, w: u32, h: u32) -> Layout<u64> {
        Layout::new(Rules::new(k, w, h, Variant::Normal).unwrap()).unwrap()
    }

    #[test]
    fn masks_of_the_standard_board() {
        let l = layout(4, 7, 6);
        assert_eq!(l.full().count_ones(), 42);
        assert_eq!(l.bottom().count_ones(), 7);
        assert_eq!(l.playable(0), l.bottom());
        assert_eq!(l.top_cell(0), 1 << 5);
        assert_eq!(l.mirror(l.bottom_cell(0)), l.bottom_cell(6));
    }

    #[test]
    fn completing_cells_of_an_open_three() {
        let l = layout(4, 7, 6);
        let three = l.bottom_cell(1) | l.bottom_cell(2) | l.bottom_cell(3);
        assert_eq!(
            l.completing_cells(three),
            l.bottom_cell(0) | l.bottom_cell(4)
        );
        assert!(!l.has_line(three));
        assert!(l.has_line(three | l.bottom_cell(4)));
    }

    proptest::proptest! {
        /// The column helpers against a cell-by-cell count, for columns filled to random
        /// heights (the columns of odd height chosen for `columns_of_tops`).
        #[test]
        fn column_helpers_match_a_cell_by_cell_count(
            board in proptest::sample::select(vec![(7, 6), (4, 5), (9, 1), (3, 7), (8, 7), (1, 4)]),
            fills in proptest::collection::vec(0u32..8, 9),
        ) {
            let (w, h) = board;
            let l = Layout::<u128>::new(Rules::new(2, w, h, Variant::Normal).unwrap()).unwrap();
            let cell = |c: u32, r: u32| l.cell_bit(Cell { column: c, row: r });
            let (mut mask, mut lowest, mut tops, mut columns) = (0, 0, 0, 0);
            for c in 0..w {
                let filled = fills[c as usize] % (h + 1);
                for r in 0..h {
                    if r < filled {
                        mask |= cell(c, r);
                    } else if (r - filled) % 2 == 0 {
                        lowest |= cell(c, r);
                    }
                }
                if filled % 2 == 1 {
                    tops |= l.top_cell(c);
                    columns |= l.column_mask(c);
                }
            }
            proptest::prop_assert_eq!(l.lowest_parity_cells(mask), lowest);
            proptest::prop_assert_eq!(l.columns_of_tops(tops), columns);
            // `lowest` has cells in several rows of a column: `at_or_above` against a walk up
            // from each column's lowest one.
            let mut above = 0;
            for c in 0..w {
                if let Some(first) = (0..h).find(|&r| lowest & cell(c, r) != 0) {
                    for r in first..h {
                        above |= cell(c, r);
                    }
                }
            }
            proptest::prop_assert_eq!(l.at_or_above(lowest), above);
            proptest::prop_assert_eq!(l.at_or_above(lowest | (l.bottom() << h)), above);
        }
    }

    #[test]
    fn a_layout_too_large_for_the_bit_type_is_refused() {
        let rules = Rules::new(4, 9, 7, Variant::Normal).unwrap();
        assert!(Layout::<u64>::new(rules).is_none());
        assert!(Layout::<u128>::new(rules).is_some());
    }
}
