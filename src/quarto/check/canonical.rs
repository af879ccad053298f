//! The checker's canonical code of a position: the least code over the board symmetries times
//! the permutations and complements of the counted attributes, with the transformation that
//! reaches it.
//!
//! Only the counted attributes of the placed pieces and of the piece in hand enter the code:
//! pieces that agree on them are interchangeable. Under one board symmetry the position is a
//! matrix with a row per occupied cell (in the symmetry's cell order) and a last row for the
//! piece in hand, and a column per counted attribute. The attribute group permutes and
//! complements columns, so complementing each column to start with 0 and sorting the columns
//! gives a form shared by exactly the attribute images of that matrix (two columns that are
//! equal tie harmlessly: swapping them changes nothing). Board symmetries commute with
//! attribute changes, so the least form over the board symmetries is shared by exactly the
//! positions one symmetry of the whole group maps onto another.

use super::super::piece::{Cell, bits_of};
use super::super::position::Position;
use super::super::rules::Rules;
use super::symmetry::{CellMap, board_symmetries};

/// Bits per column: one per cell and one for the piece in hand.
const COLUMN_BITS: u32 = 17;

/// Where the hand flag and the occupied cells sit in a [`Code`], above the four columns.
const HAND_SHIFT: u32 = 4 * COLUMN_BITS;

/// A position as the code sees it: which cells hold a piece, the counted attributes of each
/// piece (counted attribute `i`, in increasing attribute number, at bit `i`) and of the piece
/// in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Cells holding a piece.
    pub occupied: u16,
    /// The counted attributes of the piece on each occupied cell.
    pub values: [u8; 16],
    /// The counted attributes of the piece in hand, if any.
    pub hand: Option<u8>,
}

/// A canonical code: equal for two positions exactly when a symmetry maps one onto the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(u128);

impl Code {
    /// The code as one number, for keys.
    pub fn value(self) -> u128 {
        self.0
    }
}

/// A transformation of the group: a board symmetry, then counted attribute `i` moved to
/// column `column_of[i]` of the canonical frame after complementing it where `flip` has bit
/// `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    map: CellMap,
    column_of: [u8; 4],
    flip: u8,
    counted: u32,
}

impl Frame {
    /// Where cell `cell` of the position goes in the canonical frame.
    pub fn cell_to_canonical(&self, cell: u32) -> u32 {
        self.map.image(cell)
    }

    /// The cell of the position that goes to cell `cell` of the canonical frame.
    pub fn cell_from_canonical(&self, cell: u32) -> u32 {
        self.map.preimage(cell)
    }

    /// The counted attributes `values` of a piece of the position, in the canonical frame.
    pub fn values_to_canonical(&self, values: u8) -> u8 {
        (0..self.counted).fold(0, |s, i| {
            let bit = (values ^ self.flip) >> i & 1;
            s | bit << self.column_of[i as usize]
        })
    }

    /// The counted attributes that a piece of the position has when its image in the
    /// canonical frame has `values`.
    pub fn values_from_canonical(&self, values: u8) -> u8 {
        (0..self.counted).fold(0, |v, i| {
            let bit = values >> self.column_of[i as usize] & 1;
            v | (bit ^ self.flip >> i & 1) << i
        })
    }
}

/// Computes canonical codes under one set of rules, with the board symmetries it derived and
/// verified itself.
#[derive(Clone, Debug)]
pub struct Canonizer {
    rules: Rules,
    symmetries: Vec<CellMap>,
    /// The counted attributes by number, increasing.
    counted: Vec<u32>,
}

impl Canonizer {
    /// The canonizer of `rules`: derives the board symmetries (see [`board_symmetries`]).
    pub fn new(rules: &Rules) -> Canonizer {
        Canonizer {
            rules: *rules,
            symmetries: board_symmetries(rules),
            counted: (0..rules.attributes())
                .filter(|i| rules.criteria() >> i & 1 == 1)
                .collect(),
        }
    }

    /// The board symmetries in use.
    pub fn symmetries(&self) -> &[CellMap] {
        &self.symmetries
    }

    /// A piece's counted attributes, packed (counted attribute `i` at bit `i`).
    pub fn values(&self, piece_bits: u8) -> u8 {
        self.counted
            .iter()
            .enumerate()
            .fold(0, |v, (i, &a)| v | (piece_bits >> a & 1) << i)
    }

    /// The piece bits with packed counted attributes `values` and the other attributes 0.
    pub fn piece_bits(&self, values: u8) -> u8 {
        self.counted
            .iter()
            .enumerate()
            .fold(0, |b, (i, &a)| b | (values >> i & 1) << a)
    }

    /// The layout of a position.
    pub fn layout(&self, pos: &Position) -> Layout {
        let board = pos.board();
        let mut values = [0; 16];
        for cell in bits_of(board.occupied()) {
            if let Some(piece) = board.piece_at(Cell::from_index(cell)) {
                values[cell as usize] = self.values(piece.bits());
            }
        }
        Layout {
            occupied: board.occupied(),
            values,
            hand: pos.hand().map(|p| self.values(p.bits())),
        }
    }

    /// The canonical code of a position and a transformation that maps it to the canonical
    /// frame.
    pub fn canonical(&self, pos: &Position) -> (Code, Frame) {
        self.canonical_layout(&self.layout(pos))
    }

    /// The canonical code of a layout and a transformation that maps it to the canonical
    /// frame. Only the symmetries that give the least occupied mask are read further.
    pub fn canonical_layout(&self, layout: &Layout) -> (Code, Frame) {
        let least = self
            .symmetries
            .iter()
            .map(|m| m.image_of_mask(layout.occupied))
            .min()
            .unwrap_or(layout.occupied);
        let mut best: Option<(Code, Frame)> = None;
        for map in &self.symmetries {
            if map.image_of_mask(layout.occupied) != least {
                continue;
            }
            let found = self.form_under(layout, *map, least);
            if best.is_none_or(|(code, _)| found.0 < code) {
                best = Some(found);
            }
        }
        // The identity is always among the symmetries, so some map gave the least mask.
        best.unwrap_or_else(|| {
            let identity = CellMap::identity(self.rules.cells());
            self.form_under(layout, identity, layout.occupied)
        })
    }

    /// The code of the layout under board symmetry `map` (whose image of the occupied cells is
    /// `occupied`), its columns complemented to start with 0 and sorted.
    fn form_under(&self, layout: &Layout, map: CellMap, occupied: u16) -> (Code, Frame) {
        let counted = self.counted.len();
        let mut columns = [0u32; 4];
        let mut push = |values: u8| {
            for (i, column) in columns[..counted].iter_mut().enumerate() {
                *column = *column << 1 | u32::from(values >> i & 1);
            }
        };
        for cell in bits_of(occupied) {
            push(layout.values[map.preimage(cell) as usize]);
        }
        if let Some(hand) = layout.hand {
            push(hand);
        }
        let rows = occupied.count_ones() + u32::from(layout.hand.is_some());
        let mut flip = 0u8;
        for (i, column) in columns[..counted].iter_mut().enumerate() {
            if rows > 0 && *column >> (rows - 1) & 1 == 1 {
                *column ^= (1 << rows) - 1;
                flip |= 1 << i;
            }
        }
        let mut order: Vec<usize> = (0..counted).collect();
        order.sort_by_key(|&i| (columns[i], i));
        let mut column_of = [0u8; 4];
        let mut code = u128::from(occupied) << (HAND_SHIFT + 1)
            | u128::from(layout.hand.is_some()) << HAND_SHIFT;
        for (slot, &i) in order.iter().enumerate() {
            column_of[i] = slot as u8;
            code |= u128::from(columns[i]) << (COLUMN_BITS * (3 - slot as u32));
        }
        let frame = Frame {
            map,
            column_of,
            flip,
            counted: counted as u32,
        };
        (Code(code), frame)
    }

    /// The position a code stands for, in the canonical frame: the layout whose own code it
    /// is (the attributes of column `i` become counted attribute `i`).
    pub fn representative(&self, code: Code) -> Layout {
        let occupied = (code.0 >> (HAND_SHIFT + 1)) as u16;
        let has_hand = code.0 >> HAND_SHIFT & 1 == 1;
        let rows = occupied.count_ones() + u32::from(has_hand);
        let row = |r: u32| -> u8 {
            (0..self.counted.len() as u32).fold(0, |v, slot| {
                let column = (code.0 >> (COLUMN_BITS * (3 - slot))) as u32;
                v | ((column >> (rows - 1 - r) & 1) as u8) << slot
            })
        };
        let mut values = [0; 16];
        for (r, cell) in bits_of(occupied).enumerate() {
            values[cell as usize] = row(r as u32);
        }
        Layout {
            occupied,
            values,
            hand: has_hand.then(|| row(rows - 1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::quarto::notation;

    #[test]
    fn a_code_s_representative_has_that_code() {
        let rules = Rules::new(4, 4, Some(0b1011), Variant::Normal, false).unwrap();
        let canon = Canonizer::new(&rules);
        let (pos, _) = notation::parse(rules, "DTQH b2:LTRF c4:DSQF a1:LSRH").unwrap();
        let (code, frame) = canon.canonical(&pos);
        let rep = canon.representative(code);
        assert_eq!(canon.canonical_layout(&rep).0, code);
        // The frame maps each piece of the position onto the representative's.
        let layout = canon.layout(&pos);
        for cell in bits_of(layout.occupied) {
            let image = frame.cell_to_canonical(cell) as usize;
            let values = layout.values[cell as usize];
            assert_eq!(frame.values_to_canonical(values), rep.values[image]);
            assert_eq!(frame.values_from_canonical(rep.values[image]), values);
        }
    }
}
