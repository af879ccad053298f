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
//!
//! On a cylinder the columns form a ring: the board's `width * (height + 1)` bits are rotated
//! instead of shifted, so that a step of one column (`height + 1` bits) from the last column
//! lands on the first, in the same row. A diagonal step (`height` or `height + 2` bits) off the
//! top or bottom row lands on a spare bit, which is never set, exactly as on the flat board.

use super::bits::Bits;
use super::outcome::Cell;
use super::rules::Rules;

/// Which line-scanning code a layout runs: the flat board's or the cylinder's, each with its
/// own copy for the common line lengths (a literal k unrolls the scanning loops).
///
/// Chosen once, when the layout is built. The one match on it picks the topology together
/// with the copy for k, as the match on k alone did before cylinders: the flat board does no
/// more work per call than it did then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lines {
    Flat3,
    /// k = 4 on a flat board of height 6 (the standard board and its widths): the four line
    /// directions' shifts are constants too (see [`STANDARD_SHIFTS`]).
    Standard,
    Flat4,
    Flat5,
    Flat,
    Cylinder3,
    Cylinder4,
    Cylinder5,
    Cylinder,
}

/// Evaluates `$flat` on a flat board and `$ring` on a cylinder, with `$k` bound to the line
/// length, a literal constant where [`Lines`] has a copy for it, so that inlined code is
/// specialised for it, and `$shifts` to the shifts of the line directions (constants too for
/// [`Lines::Standard`]).
macro_rules! with_lines {
    ($layout:expr, |$k:ident, $shifts:ident| flat: $flat:expr, ring: $ring:expr) => {{
        let $shifts = &$layout.shifts[..$layout.directions];
        match $layout.lines {
            Lines::Standard => {
                let $k = 4;
                // The same shifts, as constants the inlined scans unroll with.
                let $shifts: &[u32] = &STANDARD_SHIFTS;
                $flat
            }
            Lines::Flat3 => {
                let $k = 3;
                $flat
            }
            Lines::Flat4 => {
                let $k = 4;
                $flat
            }
            Lines::Flat5 => {
                let $k = 5;
                $flat
            }
            Lines::Flat => {
                let $k = $layout.rules.k();
                $flat
            }
            Lines::Cylinder3 => {
                let $k = 3;
                $ring
            }
            Lines::Cylinder4 => {
                let $k = 4;
                $ring
            }
            Lines::Cylinder5 => {
                let $k = 5;
                $ring
            }
            Lines::Cylinder => {
                let $k = $layout.rules.k();
                $ring
            }
        }
    }};
}

/// The shifts of the four line directions on a flat board of height 6 (a column takes 7
/// bits): up, along a row, and the two diagonals.
const STANDARD_SHIFTS: [u32; 4] = [1, 7, 6, 8];

/// Which symmetries a layout's canonical keys use: the mirror image on a flat board (with
/// its own copies of the loop for the standard 7x6 board and for the standard width), the
/// mirror image and every rotation on a cylinder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Symmetries {
    Standard,
    FlatWidth7,
    Flat,
    Cylinder,
}

/// A symmetry of the board, as the canonical key of a position applies it: first the mirror
/// image (when `mirrored`), then a turn of the cylinder by `turn` columns to the right (always
/// 0 on a flat board).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Symmetry {
    /// Whether the columns are mirrored (column `c` to `width - 1 - c`).
    pub mirrored: bool,
    /// Columns turned to the right after mirroring (column `c` to `(c + turn) % width`).
    pub turn: u32,
}

impl Symmetry {
    /// The symmetry that changes nothing.
    pub(crate) const IDENTITY: Symmetry = Symmetry {
        mirrored: false,
        turn: 0,
    };

    /// Where the symmetry takes column `column` of a board `width` wide.
    #[inline]
    pub(crate) fn apply(self, column: u32, width: u32) -> u32 {
        let column = if self.mirrored {
            width - 1 - column
        } else {
            column
        };
        let turned = column + self.turn;
        if turned >= width {
            turned - width
        } else {
            turned
        }
    }

    /// The column that the symmetry takes to `column`, on a board `width` wide.
    #[inline]
    pub(crate) fn undo(self, column: u32, width: u32) -> u32 {
        let column = if column >= self.turn {
            column - self.turn
        } else {
            column + width - self.turn
        };
        if self.mirrored {
            width - 1 - column
        } else {
            column
        }
    }
}

/// Precomputed masks and line directions for one set of rules and one bit type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout<B: Bits> {
    rules: Rules,
    /// One bit at the bottom of each column.
    bottom: B,
    /// Every cell of the board (spare bits excluded).
    full: B,
    /// Cells on rows 1, 3, 5, ... counted from 1 at the bottom.
    odd_rows: B,
    /// Every bit of the board, spare bits included: the ring a cylinder's bits rotate in.
    used: B,
    /// The number of those bits, `width * (height + 1)`.
    bits: u32,
    /// Bit shifts of the line directions in which a line of k fits on this board.
    shifts: [u32; 4],
    directions: usize,
    lines: Lines,
    symmetries: Symmetries,
}

impl<B: Bits> Layout<B> {
    /// The layout of `rules` in bit type `B`, or `None` if the board needs more bits than `B` has.
    pub(crate) fn new(rules: Rules) -> Option<Layout<B>> {
        if rules.board_bits() > B::BITS {
            return None;
        }
        let (w, h, k) = (rules.width(), rules.height(), rules.k());
        let stride = h + 1;
        let ring = rules.is_cylinder();
        let mut bottom = B::ZERO;
        let mut full = B::ZERO;
        let column = (B::ONE << h) - B::ONE;
        for c in 0..w {
            bottom |= B::ONE << (c * stride);
            full |= column << (c * stride);
        }
        // A direction is kept only if a line of k fits in it; on a flat board this also keeps
        // every shift used by line detection below the bit width (see `runs`). On a cylinder a
        // diagonal fits whenever the rows do: it may wind around, its cells in distinct rows.
        let diagonal_fits = k <= h && (ring || k <= w);
        let candidates = [
            (1, k <= h),
            (stride, k <= w),
            (h, diagonal_fits),
            (h + 2, diagonal_fits),
        ];
        let mut shifts = [0; 4];
        let mut directions = 0;
        for (shift, fits) in candidates {
            // A cylinder steps by rotations, kept below the board's bits. The one step that
            // comes to nothing is a row of a one-column cylinder, which exists for k = 1 only,
            // where the column's own direction finds every line.
            let shift = if ring { shift % (w * stride) } else { shift };
            if fits && shift != 0 {
                shifts[directions] = shift;
                directions += 1;
            }
        }
        let odd_rows = (0..h)
            .step_by(2)
            .fold(B::ZERO, |rows, r| rows | (bottom << r));
        let used = if w * stride == B::BITS {
            !B::ZERO
        } else {
            (B::ONE << (w * stride)) - B::ONE
        };
        let lines = match (ring, k) {
            (false, 4) if h == 6 => Lines::Standard,
            (true, 3) => Lines::Cylinder3,
            (true, 4) => Lines::Cylinder4,
            (true, 5) => Lines::Cylinder5,
            (true, _) => Lines::Cylinder,
            (false, 3) => Lines::Flat3,
            (false, 4) => Lines::Flat4,
            (false, 5) => Lines::Flat5,
            (false, _) => Lines::Flat,
        };
        let symmetries = match (ring, w) {
            (true, _) => Symmetries::Cylinder,
            (false, 7) if stride == 7 => Symmetries::Standard,
            (false, 7) => Symmetries::FlatWidth7,
            (false, _) => Symmetries::Flat,
        };
        Some(Layout {
            rules,
            bottom,
            full,
            odd_rows,
            used,
            bits: w * stride,
            shifts,
            directions,
            lines,
            symmetries,
        })
    }

    /// The rules this layout was built for.
    #[inline]
    pub(crate) fn rules(&self) -> Rules {
        self.rules
    }

    /// Bits per column including the spare bit.
    #[inline]
    pub(crate) fn stride(&self) -> u32 {
        self.rules.height() + 1
    }

    /// One bit at the bottom of each column.
    #[inline]
    pub(crate) fn bottom(&self) -> B {
        self.bottom
    }

    /// Every cell of the board.
    #[inline]
    pub(crate) fn full(&self) -> B {
        self.full
    }

    /// Cells on rows 1, 3, 5, ... counted from 1 at the bottom: the rows the first player
    /// fills when every column is filled in pairs.
    #[inline]
    pub(crate) fn odd_rows(&self) -> B {
        self.odd_rows
    }

    /// Every cell on the lowest `rows` rows (at most the height). In each column that is the
    /// column's bottom bit shifted up `rows` less one, which never borrows from its neighbour.
    #[inline]
    pub(crate) fn lowest_rows(&self, rows: u32) -> B {
        debug_assert!(rows <= self.rules.height());
        (self.bottom << rows) - self.bottom
    }

    /// Every cell at or above a cell of `cells` in the same column.
    ///
    /// Column by column, with `x` the column's cells of `cells` as a number of `height` bits:
    /// the spare bit above the column less `x` is `-x` on the column's bits (and clears the
    /// spare bit unless `x` is 0), so no subtraction borrows from the next column; `x | -x`
    /// sets every bit from the lowest bit of `x` up.
    #[inline]
    pub(crate) fn at_or_above(&self, cells: B) -> B {
        let cells = cells & self.full;
        let spare = self.bottom << self.rules.height();
        ((spare - cells) | cells) & self.full
    }

    /// Every cell of the columns whose top cells are in `tops` (which must hold top cells
    /// only). Each column's top bit shifted up one, less its bottom bit, is the column: the
    /// subtractions never borrow from a neighbouring column.
    #[inline]
    pub(crate) fn columns_of_tops(&self, tops: B) -> B {
        ((tops << 1) - (tops >> (self.rules.height() - 1))) & self.full
    }

    /// In each column, the empty cells on the rows of the parity of its lowest empty cell
    /// (its 1st, 3rd, 5th, ... empty cell from the bottom), for the filled cells `mask`.
    ///
    /// Adding its lowest empty cell to a column's run of empty cells carries out of the column,
    /// so adding the lowest empty cells on rows 0, 2, 4, ... to the empty cells leaves on the
    /// board exactly the empty cells of the other columns.
    #[inline]
    pub(crate) fn lowest_parity_cells(&self, mask: B) -> B {
        let empty = self.full & !mask;
        let even_starts = self.playable(mask) & self.odd_rows;
        let odd_start_columns = (empty + even_starts) & self.full;
        ((empty & !odd_start_columns) & self.odd_rows) | (odd_start_columns & !self.odd_rows)
    }

    /// Every cell of column `c` (0-based).
    #[inline]
    pub(crate) fn column_mask(&self, c: u32) -> B {
        ((B::ONE << self.rules.height()) - B::ONE) << (c * self.stride())
    }

    /// The bottom cell of column `c`.
    #[inline]
    pub(crate) fn bottom_cell(&self, c: u32) -> B {
        B::ONE << (c * self.stride())
    }

    /// The top cell of column `c`.
    #[inline]
    pub(crate) fn top_cell(&self, c: u32) -> B {
        B::ONE << (c * self.stride() + self.rules.height() - 1)
    }

    /// The cells where the next disc of each column would land, given occupied cells `mask`.
    #[inline]
    pub(crate) fn playable(&self, mask: B) -> B {
        (mask + self.bottom) & self.full
    }

    /// The bit of a cell.
    #[inline]
    pub(crate) fn cell_bit(&self, cell: Cell) -> B {
        B::ONE << (cell.column * self.stride() + cell.row)
    }

    /// The cell of a single-bit set.
    #[inline]
    pub(crate) fn bit_cell(&self, bit: B) -> Cell {
        let index = bit.trailing_zeros();
        Cell {
            column: index / self.stride(),
            row: index % self.stride(),
        }
    }

    /// `bits` rotated `s` places towards the higher bits within the board's bits (spare bits
    /// included), for `0 < s < width * (height + 1)`: a step of a line direction of a
    /// cylinder (`new` keeps them in that range), or of one column to the right, the last
    /// column to the first.
    #[inline(always)]
    fn step_up(&self, bits: B, s: u32) -> B {
        ((bits << s) | (bits >> (self.bits - s))) & self.used
    }

    /// `bits` rotated `s` places towards the lower bits: [`Layout::step_up`] undone.
    #[inline(always)]
    fn step_down(&self, bits: B, s: u32) -> B {
        ((bits >> s) | (bits << (self.bits - s))) & self.used
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

    /// On a cylinder, the bits `y` such that `y, y+s, ..., y+(len-1)s` (around the ring) are
    /// all in `stones`, for `len >= 1`: one step of `s` at a time, each a rotation by the same
    /// amount.
    #[inline(always)]
    fn ring_runs(&self, stones: B, len: u32, s: u32) -> B {
        let mut r = stones;
        for _ in 1..len {
            r = stones & self.step_down(r, s);
        }
        r
    }

    /// Whether `stones` contain a line of k or more in any direction.
    #[inline]
    pub(crate) fn has_line(&self, stones: B) -> bool {
        with_lines!(self, |k, shifts| flat: Self::has_line_of(stones, k, shifts), ring: self.ring_has_line_of(stones, k, shifts))
    }

    #[inline(always)]
    fn has_line_of(stones: B, k: u32, shifts: &[u32]) -> bool {
        shifts.iter().any(|&s| !Self::runs(stones, k, s).is_empty())
    }

    #[inline(always)]
    fn ring_has_line_of(&self, stones: B, k: u32, shifts: &[u32]) -> bool {
        let stones = stones & self.full;
        shifts
            .iter()
            .any(|&s| !self.ring_runs(stones, k, s).is_empty())
    }

    /// Every cell of every k-long window (in any direction) whose cells all lie in `cells`.
    ///
    /// With `cells` = a player's discs plus the empty cells, these are the cells where that
    /// player can still take part in a line.
    #[inline]
    pub(crate) fn window_cells(&self, cells: B) -> B {
        with_lines!(self, |k, shifts| flat: self.window_cells_of(cells, k, shifts), ring: self.ring_window_cells_of(cells, k, shifts))
    }

    #[inline(always)]
    fn window_cells_of(&self, cells: B, k: u32, shifts: &[u32]) -> B {
        let mut covered = B::ZERO;
        for &s in shifts {
            let starts = Self::runs(cells, k, s) & self.full;
            for i in 0..k {
                covered |= starts << (i * s);
            }
        }
        covered & self.full
    }

    #[inline(always)]
    fn ring_window_cells_of(&self, cells: B, k: u32, shifts: &[u32]) -> B {
        let cells = cells & self.full;
        let mut covered = B::ZERO;
        for &s in shifts {
            let mut window = self.ring_runs(cells, k, s);
            covered |= window;
            for _ in 1..k {
                window = self.step_up(window, s);
                covered |= window;
            }
        }
        covered & self.full
    }

    /// How many k-long windows (in any direction) whose cells all lie in `cells` pass through
    /// each cell, as planes: `planes[j]` gets the cells in more than `j` of them (the count
    /// stops at `planes.len()`).
    pub(crate) fn window_counts(&self, cells: B, planes: &mut [B]) {
        planes.fill(B::ZERO);
        let cells = cells & self.full;
        let k = self.rules.k();
        let ring = self.rules.is_cylinder();
        for &s in &self.shifts[..self.directions] {
            let mut window = if ring {
                self.ring_runs(cells, k, s)
            } else {
                Self::runs(cells, k, s) & self.full
            };
            for i in 0..k {
                if window.is_empty() {
                    break;
                }
                if i > 0 {
                    window = if ring {
                        self.step_up(window, s)
                    } else {
                        window << s
                    };
                }
                // Adds one to the count of each cell of `window`: a carry up the planes.
                for j in (1..planes.len()).rev() {
                    planes[j] |= planes[j - 1] & window;
                }
                planes[0] |= window;
            }
        }
        for plane in planes.iter_mut() {
            *plane &= self.full;
        }
    }

    /// Cells of the board that would give `stones` a line of k if a disc were added there.
    ///
    /// Occupied cells are included when they qualify; callers mask with the empty cells they care about.
    #[inline]
    pub(crate) fn completing_cells(&self, stones: B) -> B {
        with_lines!(self, |k, shifts| flat: self.completing_cells_of(stones, k, shifts), ring: self.ring_completing_cells_of(stones, k, shifts))
    }

    #[inline(always)]
    fn completing_cells_of(&self, stones: B, k: u32, shifts: &[u32]) -> B {
        let mut cells = B::ZERO;
        for &s in shifts {
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

    /// On a cylinder: with `low[j]` the cells that have stones at x-s, ..., x-js and `high[j]`
    /// those with stones at x+s, ..., x+js (each one rotation from the one before), the cells
    /// completing a line are those in some `low[j] & high[k-1-j]`.
    #[inline(always)]
    fn ring_completing_cells_of(&self, stones: B, k: u32, shifts: &[u32]) -> B {
        /// Longest line whose `low` and `high` sets are kept; longer lines recompute `high`.
        const KEPT: usize = 8;
        let stones = stones & self.full;
        let k = k as usize;
        let mut cells = B::ZERO;
        for &s in shifts {
            if k <= KEPT {
                let mut low = [!B::ZERO; KEPT];
                let mut high = [!B::ZERO; KEPT];
                for j in 1..k {
                    low[j] = self.step_up(stones & low[j - 1], s);
                    high[j] = self.step_down(stones & high[j - 1], s);
                }
                for j in 0..k {
                    cells |= low[j] & high[k - 1 - j];
                }
            } else {
                let mut low = !B::ZERO;
                for j in 0..k {
                    let mut high = !B::ZERO;
                    for _ in 0..k - 1 - j {
                        high = self.step_down(stones & high, s);
                    }
                    cells |= low & high;
                    low = self.step_up(stones & low, s);
                }
            }
        }
        cells & self.full
    }

    /// Every cell of every line of k or more in `stones` that passes through `cell`.
    ///
    /// On a cylinder a line that wraps is reported as it lies: its cells in the last columns
    /// and in the first ones.
    pub(crate) fn line_cells_through(&self, stones: B, cell: B) -> B {
        let k = self.rules.k();
        let ring = self.rules.is_cylinder();
        let stones = stones & self.full;
        let mut cells = B::ZERO;
        for &s in &self.shifts[..self.directions] {
            let mut segment = cell;
            // Each walk stops at a cell that is not a stone, or, around a cylinder whose whole
            // row is stones, where it meets the segment again.
            for backwards in [true, false] {
                let mut probe = cell;
                loop {
                    probe = match (backwards, ring) {
                        (true, false) => probe >> s,
                        (false, false) => probe << s,
                        (true, true) => self.step_down(probe, s),
                        (false, true) => self.step_up(probe, s),
                    };
                    if (probe & stones).is_empty() || !(probe & segment).is_empty() {
                        break;
                    }
                    segment |= probe;
                }
            }
            if segment.count_ones() >= k {
                cells |= segment;
            }
        }
        cells
    }

    /// The left-right mirror image of a set of cells.
    #[inline]
    pub(crate) fn mirror(&self, bits: B) -> B {
        // The standard board and the standard width get their own unrolled copies of the loop.
        match self.symmetries {
            Symmetries::Standard => mirror_7x6(bits),
            Symmetries::FlatWidth7 => self.mirror_of(bits, 7),
            Symmetries::Flat | Symmetries::Cylinder => self.mirror_of(bits, self.rules.width()),
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

    /// The smallest image of a key under the board's symmetries (see [`Symmetry`]), with the
    /// symmetry that gives it: the key itself or its mirror image on a flat board, any of
    /// those turned around a cylinder. The key must move with whole columns (each column's
    /// part computed from that column alone), as a position's key does.
    #[inline]
    pub(crate) fn canonical(&self, key: B) -> (B, Symmetry) {
        match self.symmetries {
            Symmetries::Standard | Symmetries::FlatWidth7 | Symmetries::Flat => {
                smaller_image(key, self.mirror(key))
            }
            Symmetries::Cylinder => self.ring_canonical(key),
        }
    }

    /// The smallest of the 2w images of a key on a cylinder: each turn of the key and of its
    /// mirror image.
    fn ring_canonical(&self, key: B) -> (B, Symmetry) {
        let w = self.rules.width();
        let stride = self.stride();
        let mut best = (key, Symmetry::IDENTITY);
        if w == 1 {
            // One column: its own mirror image, and nothing to turn.
            return best;
        }
        for (image, mirrored) in [(key, false), (self.mirror_of(key, w), true)] {
            let mut turned = image;
            for turn in 0..w {
                if turned < best.0 {
                    best = (turned, Symmetry { mirrored, turn });
                }
                turned = self.step_up(turned, stride);
            }
        }
        best
    }
}

/// The mirror image of a set of cells on the standard 7x6 board (7 columns of 7 bits): each
/// column moved by a constant shift, which the compiler turns into a few masks and shifts
/// (quicker than the loop with the stride read at run time).
#[inline(always)]
fn mirror_7x6<B: Bits>(bits: B) -> B {
    const WIDTH: u32 = 7;
    const STRIDE: u32 = 7;
    let column = (B::ONE << STRIDE) - B::ONE;
    let mut out = B::ZERO;
    for c in 0..WIDTH {
        let part = bits & (column << (c * STRIDE));
        let to = WIDTH - 1 - c;
        out |= if to >= c {
            part << ((to - c) * STRIDE)
        } else {
            part >> ((c - to) * STRIDE)
        };
    }
    out
}

/// The smaller of a key and its mirror image, with the symmetry that gives it.
#[inline(always)]
fn smaller_image<B: Bits>(key: B, mirrored: B) -> (B, Symmetry) {
    if mirrored < key {
        (
            mirrored,
            Symmetry {
                mirrored: true,
                turn: 0,
            },
        )
    } else {
        (key, Symmetry::IDENTITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Topology, Variant};

    fn layout(k: u32, w: u32, h: u32) -> Layout<u64> {
        Layout::new(Rules::new(k, w, h, Variant::Normal).unwrap()).unwrap()
    }

    #[test]
    fn the_standard_boards_mirror_is_the_loops() {
        let l = layout(4, 7, 6);
        assert_eq!(l.symmetries, Symmetries::Standard);
        // A fixed xorshift sequence of sets of cells, each on the board's 49 bits.
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let bits = x & l.used;
            assert_eq!(mirror_7x6(bits), l.mirror_of(bits, 7), "{bits:#x}");
            assert_eq!(l.mirror(l.mirror(bits)), bits);
        }
        assert_eq!(l.mirror(l.bottom_cell(0)), l.bottom_cell(6));
    }

    #[test]
    fn boards_of_height_6_scan_lines_with_the_constant_shifts() {
        for w in [4, 5, 7, 9] {
            let l = layout(4, w, 6);
            assert_eq!(l.lines, Lines::Standard);
            assert_eq!(l.shifts, STANDARD_SHIFTS);
            let shifts = &l.shifts[..l.directions];
            // A fixed xorshift sequence of sets of cells, thinned to about a quarter of the
            // board so that some hold lines and some do not.
            let mut x = 0x2545_f491_4f6c_dd1d_u64;
            let mut lines = 0;
            for _ in 0..10_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let cells = x & x.rotate_left(23) & l.full;
                let line = l.has_line(cells);
                lines += usize::from(line);
                assert_eq!(line, Layout::has_line_of(cells, 4, shifts), "{cells:#x}");
                assert_eq!(
                    l.completing_cells(cells),
                    l.completing_cells_of(cells, 4, shifts)
                );
                assert_eq!(l.window_cells(cells), l.window_cells_of(cells, 4, shifts));
            }
            assert!(
                (100..9_900).contains(&lines),
                "{lines} of 10,000 sets hold a line"
            );
        }
        assert_eq!(layout(4, 7, 5).lines, Lines::Flat4);
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

    /// The number of k-long windows of `cells` through each cell, by walking every window
    /// cell by cell (columns taken modulo the width on a cylinder, a window's cells distinct).
    fn naive_window_counts(l: &Layout<u128>, cells: u128) -> Vec<u32> {
        let rules = l.rules();
        let (w, h, k) = (
            rules.width() as i32,
            rules.height() as i32,
            rules.k() as i32,
        );
        let ring = rules.is_cylinder();
        let mut counts = vec![0; (w * (h + 1)) as usize];
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for c0 in 0..w {
                for r0 in 0..h {
                    let window: Option<Vec<Cell>> = (0..k)
                        .map(|i| {
                            let (c, r) = (c0 + i * dc, r0 + i * dr);
                            let c = if ring { c.rem_euclid(w) } else { c };
                            ((0..w).contains(&c) && (0..h).contains(&r)).then_some(Cell {
                                column: c as u32,
                                row: r as u32,
                            })
                        })
                        .collect();
                    // A horizontal window longer than a ring would repeat a cell.
                    let Some(window) = window.filter(|_| !(ring && dr == 0 && k > w)) else {
                        continue;
                    };
                    if window.iter().all(|&cell| cells & l.cell_bit(cell) != 0) {
                        for cell in window {
                            counts[(cell.column * l.stride() + cell.row) as usize] += 1;
                        }
                    }
                }
            }
        }
        counts
    }

    /// The window counts of the move ordering equal a cell-by-cell count on flat boards and
    /// cylinders, for sets of cells thinned to about half and three quarters of the board.
    #[test]
    fn window_counts_match_a_cell_by_cell_count() {
        let boards = [
            (4, 7, 6),
            (4, 4, 10),
            (3, 5, 4),
            (5, 9, 2),
            (4, 3, 5),
            (2, 6, 3),
        ];
        let mut x = 0x5851_f42d_4c95_7f2d_u64;
        for (k, w, h) in boards {
            for topology in Topology::ALL {
                let rules = Rules::new(k, w, h, Variant::Normal).unwrap();
                let l = Layout::<u128>::new(rules.with_topology(topology)).unwrap();
                for round in 0..300 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let wide = u128::from(x) | u128::from(x.rotate_left(29)) << 64;
                    let thinned = if round % 2 == 0 {
                        wide
                    } else {
                        wide | wide >> 1
                    };
                    let cells = thinned & l.full;
                    let mut planes = [0u128; 8];
                    l.window_counts(cells, &mut planes);
                    for (index, &count) in naive_window_counts(&l, cells).iter().enumerate() {
                        let bit = 1u128 << index;
                        let counted = planes.iter().filter(|&&p| p & bit != 0).count();
                        assert_eq!(
                            counted as u32,
                            count.min(8),
                            "{rules} {topology:?} {cells:#x}"
                        );
                    }
                }
            }
        }
    }

    proptest::proptest! {
        /// The column helpers against a cell-by-cell count, for columns filled to random
        /// heights (the columns of odd height chosen for `columns_of_tops`), and the masks of
        /// the lowest rows.
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
            for rows in 0..=h {
                let expected = (0..w).flat_map(|c| (0..rows).map(move |r| (c, r)));
                let expected = expected.fold(0, |bits, (c, r)| bits | cell(c, r));
                proptest::prop_assert_eq!(l.lowest_rows(rows), expected);
            }
        }
    }

    #[test]
    fn a_layout_too_large_for_the_bit_type_is_refused() {
        let rules = Rules::new(4, 9, 7, Variant::Normal).unwrap();
        assert!(Layout::<u64>::new(rules).is_none());
        assert!(Layout::<u128>::new(rules).is_some());
    }
}
