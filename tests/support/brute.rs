//! An independent reference: plain minimax on a plain grid, sharing no code with the engine's
//! bitboards or the solver's pruning, ordering and table. Lines are found by walking the
//! cells, the column taken modulo the width on a cylinder.

use std::collections::HashMap;

use connectk::{Rules, Variant};

/// A board as a grid of cells: 0 empty, 1 first player, 2 second player; `grid[column][row]`.
#[derive(Clone, Debug)]
pub struct Grid {
    pub k: usize,
    pub width: usize,
    pub height: usize,
    pub misere: bool,
    /// Whether column `width - 1` is next to column 0.
    pub cylinder: bool,
    pub cells: Vec<Vec<u8>>,
    pub plies: usize,
}

impl Grid {
    pub fn new(rules: Rules) -> Grid {
        Grid {
            k: rules.k() as usize,
            width: rules.width() as usize,
            height: rules.height() as usize,
            misere: rules.variant() == Variant::Misere,
            cylinder: rules.is_cylinder(),
            cells: vec![vec![0; rules.height() as usize]; rules.width() as usize],
            plies: 0,
        }
    }

    pub fn column_height(&self, c: usize) -> usize {
        self.cells[c].iter().take_while(|&&v| v != 0).count()
    }

    /// Drops a disc for the side to move and returns its row.
    pub fn drop_disc(&mut self, c: usize) -> usize {
        let r = self.column_height(c);
        self.cells[c][r] = 1 + (self.plies % 2) as u8;
        self.plies += 1;
        r
    }

    pub fn lift_disc(&mut self, c: usize) {
        let r = self.column_height(c) - 1;
        self.cells[c][r] = 0;
        self.plies -= 1;
    }

    /// The cell at column `c`, row `r`: 0 off the board. On a cylinder every column exists,
    /// taken modulo the width.
    fn at(&self, c: isize, r: isize) -> u8 {
        let w = self.width as isize;
        let c = if self.cylinder { c.rem_euclid(w) } else { c };
        if c < 0 || r < 0 || c >= w || r >= self.height as isize {
            0
        } else {
            self.cells[c as usize][r as usize]
        }
    }

    /// The directions a line may take: all four, except that a cylinder narrower than k has
    /// no horizontal line (its cells would repeat). A diagonal winding around a narrow
    /// cylinder has its cells in distinct rows, so it stays.
    fn directions(&self) -> impl Iterator<Item = (isize, isize)> + use<> {
        let no_row = self.cylinder && self.k > self.width;
        [(1, 0), (0, 1), (1, 1), (1, -1)]
            .into_iter()
            .filter(move |&(_, dr)| !(no_row && dr == 0))
    }

    /// Whether `who` has k in a row anywhere, by scanning every start cell and direction.
    pub fn has_line(&self, who: u8) -> bool {
        for c in 0..self.width as isize {
            for r in 0..self.height as isize {
                for (dc, dr) in self.directions() {
                    if (0..self.k as isize).all(|i| self.at(c + i * dc, r + i * dr) == who) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Every line of `who`, as its cells `(column, row)` (column reduced modulo the width),
    /// by scanning every start cell and direction.
    pub fn lines(&self, who: u8) -> Vec<Vec<(usize, usize)>> {
        let w = self.width as isize;
        let mut lines = Vec::new();
        for c in 0..w {
            for r in 0..self.height as isize {
                for (dc, dr) in self.directions() {
                    if (0..self.k as isize).all(|i| self.at(c + i * dc, r + i * dr) == who) {
                        lines.push(
                            (0..self.k as isize)
                                .map(|i| {
                                    ((c + i * dc).rem_euclid(w) as usize, (r + i * dr) as usize)
                                })
                                .collect(),
                        );
                    }
                }
            }
        }
        lines
    }

    /// The cells packed two bits each (boards of up to 64 cells), a cheap key for the memo.
    pub fn packed(&self) -> u128 {
        assert!(self.width * self.height <= 64, "too many cells to pack");
        let mut key = 0u128;
        for column in &self.cells {
            for &v in column {
                key = key << 2 | v as u128;
            }
        }
        key
    }

    /// Score of the position for the side to move, in the solver's convention: a game that
    /// ends at ply q scores cells + 1 - q for the winner, its negation for the loser, 0 drawn.
    pub fn minimax(&mut self, memo: &mut Option<HashMap<u128, i32>>) -> i32 {
        if let Some(m) = memo.as_ref()
            && let Some(&v) = m.get(&self.packed())
        {
            return v;
        }
        let cells = (self.width * self.height) as i32;
        let mover = 1 + (self.plies % 2) as u8;
        let mut best = i32::MIN;
        for c in 0..self.width {
            if self.column_height(c) == self.height {
                continue;
            }
            self.drop_disc(c);
            let q = self.plies as i32;
            let score = if self.has_line(mover) {
                let magnitude = cells + 1 - q;
                if self.misere { -magnitude } else { magnitude }
            } else if self.plies == self.width * self.height {
                0
            } else {
                -self.minimax(memo)
            };
            self.lift_disc(c);
            best = best.max(score);
        }
        if let Some(m) = memo.as_mut() {
            m.insert(self.packed(), best);
        }
        best
    }
}
