//! The board as bit masks: which cells are taken, which hold pieces with each attribute value,
//! and which pieces are used; line detection and the cells where a piece would complete a line.

use super::piece::{Cell, Piece};
use super::rules::Rules;

/// A board, kept as masks so that line tests are a few bit operations.
///
/// `ones[i]` holds the cells whose piece has attribute `i` equal to 1, so the cells with value
/// 0 are `occupied & !ones[i]`. `pieces` holds the piece on each cell, four bits per cell
/// (zero on empty cells), for reading the board back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    occupied: u16,
    ones: [u16; 4],
    pieces: u64,
    used: u16,
}

/// For each counted attribute and value, the empty cells where a piece with that value
/// completes a line: index `2 * attribute + value`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Threats([u16; 8]);

impl Threats {
    /// The attribute values (bit `2 * attribute + value`) that complete a line somewhere.
    #[inline]
    pub(crate) fn values(&self) -> u8 {
        self.0
            .iter()
            .enumerate()
            .fold(0, |m, (i, &cells)| m | u8::from(cells != 0) << i)
    }

    /// The empty cells where some piece would complete a line.
    #[inline]
    pub(crate) fn cells(&self) -> u16 {
        self.0.iter().fold(0, |m, &c| m | c)
    }

    /// The empty cells where `piece` would complete a line.
    #[inline]
    pub(crate) fn cells_for(&self, piece: Piece) -> u16 {
        let bits = usize::from(piece.bits());
        self.0[bits & 1]
            | self.0[2 + (bits >> 1 & 1)]
            | self.0[4 + (bits >> 2 & 1)]
            | self.0[6 + (bits >> 3 & 1)]
    }
}

impl Board {
    /// The empty board.
    pub fn empty() -> Board {
        Board {
            occupied: 0,
            ones: [0; 4],
            pieces: 0,
            used: 0,
        }
    }

    /// Cells holding a piece.
    #[inline]
    pub fn occupied(&self) -> u16 {
        self.occupied
    }

    /// Pieces on the board (bit `p` for piece `p`).
    #[inline]
    pub(crate) fn used(&self) -> u16 {
        self.used
    }

    /// Cells whose piece has attribute `attribute` equal to 1.
    #[inline]
    pub(crate) fn ones(&self, attribute: usize) -> u16 {
        self.ones[attribute]
    }

    /// Number of pieces on the board.
    #[inline]
    pub fn count(&self) -> u32 {
        self.occupied.count_ones()
    }

    /// The piece on `cell`, if any.
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        (self.occupied & cell.bit() != 0)
            .then(|| Piece::from_bits((self.pieces >> (4 * cell.index()) & 15) as u8))
    }

    /// Puts `piece` on `cell`. The cell must be empty and the piece unused (the callers
    /// check; a debug build asserts).
    #[inline]
    pub fn place(&mut self, cell: Cell, piece: Piece) {
        debug_assert!(self.occupied & cell.bit() == 0 && self.used >> piece.bits() & 1 == 0);
        let bit = cell.bit();
        let bits = piece.bits();
        self.occupied |= bit;
        for (i, ones) in self.ones.iter_mut().enumerate() {
            *ones |= bit * u16::from(bits >> i & 1);
        }
        self.pieces |= u64::from(bits) << (4 * cell.index());
        self.used |= 1 << bits;
    }

    /// The board with `piece` on `cell` (see [`Board::place`]).
    #[inline]
    pub(crate) fn with(mut self, cell: Cell, piece: Piece) -> Board {
        self.place(cell, piece);
        self
    }

    /// Whether the full set `line` shares a value of a counted attribute.
    #[inline]
    fn shares(&self, line: u16, criteria: u8) -> bool {
        (0..4).any(|i| {
            criteria >> i & 1 == 1 && {
                let ones = self.ones[i] & line;
                ones == line || ones == 0
            }
        })
    }

    /// The union of the winning sets through `cell` that are full and share a counted
    /// attribute: the lines its last piece completed (zero if none).
    pub(crate) fn lines_through(&self, rules: &Rules, cell: Cell) -> u16 {
        rules
            .lines()
            .iter()
            .filter(|&&line| {
                line & cell.bit() != 0
                    && line & self.occupied == line
                    && self.shares(line, rules.criteria())
            })
            .fold(0, |acc, line| acc | line)
    }

    /// For each counted attribute value, the empty cells where a piece with that value
    /// completes a line: a line with one empty cell whose other pieces all have that value.
    pub(crate) fn threats(&self, rules: &Rules) -> Threats {
        let mut t = Threats::default();
        for &line in rules.lines() {
            self.add_threats(&mut t, line, rules.criteria());
        }
        t
    }

    /// Adds to `t` what `line` threatens, if it has exactly one empty cell.
    #[inline]
    fn add_threats(&self, t: &mut Threats, line: u16, criteria: u8) {
        let hole = line & !self.occupied;
        if hole == 0 || hole & (hole - 1) != 0 {
            return;
        }
        let full = line ^ hole;
        for (i, ones) in self.ones.iter().enumerate() {
            if criteria >> i & 1 == 1 {
                let ones = ones & full;
                if ones == full {
                    t.0[2 * i + 1] |= hole;
                } else if ones == 0 {
                    t.0[2 * i] |= hole;
                }
            }
        }
    }

    /// The threats of this board, which differs from the board of `before` by one piece on
    /// `cell`: only the lines through `cell` change (a line elsewhere has its empty cell
    /// elsewhere), so the cell leaves every set and those lines are looked at again.
    #[inline]
    pub(crate) fn threats_after(&self, rules: &Rules, before: &Threats, cell: Cell) -> Threats {
        let mut t = *before;
        for set in t.0.iter_mut() {
            *set &= !cell.bit();
        }
        let mut through = rules.lines_at(cell.index());
        while through != 0 {
            let j = through.trailing_zeros();
            through &= through - 1;
            self.add_threats(&mut t, rules.lines()[j as usize], rules.criteria());
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn cell(name: &str, rules: &Rules) -> Cell {
        Cell::parse(name, rules).unwrap()
    }

    #[test]
    fn a_row_of_tall_pieces_is_a_line_and_threats_find_its_hole() {
        let rules = Rules::standard();
        let tall = |bits: u8| Piece::new(bits | 0b0010, &rules).unwrap();
        let mut board = Board::empty();
        board.place(cell("a1", &rules), tall(0b0000));
        board.place(cell("b1", &rules), tall(0b0001));
        board.place(cell("c1", &rules), tall(0b1100));
        let threats = board.threats(&rules);
        assert_eq!(threats.cells_for(tall(0b1001)), cell("d1", &rules).bit());
        assert_eq!(threats.cells_for(Piece::new(0b0101, &rules).unwrap()), 0);
        let d1 = cell("d1", &rules);
        board.place(d1, tall(0b1101));
        assert_eq!(board.lines_through(&rules, d1), 0b1111);
        assert_eq!(board.piece_at(d1), Some(tall(0b1101)));
        assert_eq!(board.piece_at(cell("d2", &rules)), None);
        // With only the colour counting, the same row is no line.
        let colour = Rules::new(4, 4, Some(0b0001), Variant::Normal, false).unwrap();
        assert_eq!(board.lines_through(&colour, d1), 0);
    }
}
