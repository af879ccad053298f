//! Pieces and cells, and how they are written: piece codes such as `DTQH`, cells `a1`..`d4`.

use std::fmt;

use super::rules::{ATTRIBUTES, Rules};

/// A piece: bit `i` holds the value of attribute `i` (the standard four are
/// named in the rules), so the pieces of a game with `a` attributes are `0..2^a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// The piece with these attribute bits; `None` when it does not exist under `rules`.
    pub fn new(bits: u8, rules: &Rules) -> Option<Piece> {
        (u32::from(bits) < rules.pieces()).then_some(Piece(bits))
    }

    /// The piece with these bits, unchecked: for the engine, whose bits always come from a
    /// valid piece.
    pub(crate) fn from_bits(bits: u8) -> Piece {
        Piece(bits)
    }

    /// The attribute bits.
    pub fn bits(self) -> u8 {
        self.0
    }

    /// The piece's code under `rules`: one letter per attribute, attribute 0 first
    /// (colour `L`ight/`D`ark, height `S`hort/`T`all, shape `R`ound/s`Q`uare, fill
    /// `F` solid/`H`ollow), e.g. `DTQH`.
    pub fn code(self, rules: &Rules) -> String {
        (0..rules.attributes() as usize)
            .map(|i| ATTRIBUTES[i].letters[usize::from(self.0 >> i & 1)])
            .collect()
    }

    /// Reads a piece code: one letter per attribute in order (either case), or as many binary
    /// digits (`0110`, attribute 0 first).
    ///
    /// # Errors
    /// [`PieceError`] naming what is wrong and what is allowed.
    pub(crate) fn parse(text: &str, rules: &Rules) -> Result<Piece, PieceError> {
        let len = rules.code_len();
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != len {
            return Err(PieceError::Length {
                found: text.to_string(),
                expected: len,
            });
        }
        let mut bits = 0u8;
        for (i, &ch) in chars.iter().enumerate() {
            let letters = ATTRIBUTES[i].letters;
            let value = match ch.to_ascii_uppercase() {
                '0' => 0,
                '1' => 1,
                c if c == letters[0] => 0,
                c if c == letters[1] => 1,
                _ => {
                    return Err(PieceError::Letter {
                        found: ch,
                        position: i + 1,
                        attribute: ATTRIBUTES[i].name,
                        allowed: [letters[0], letters[1]],
                    });
                }
            };
            bits |= value << i;
        }
        Ok(Piece(bits))
    }
}

/// Why a piece code was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PieceError {
    /// The code does not have one character per attribute.
    #[error(
        "piece {found:?} has the wrong length: a piece code has {expected} letters, one per attribute"
    )]
    Length {
        /// The code as written.
        found: String,
        /// Letters expected.
        expected: usize,
    },
    /// A character is not one of its attribute's letters.
    #[error(
        "piece letter {position} is {found:?}: the {attribute} is {} or {} (or 0 or 1)", allowed[0], allowed[1]
    )]
    Letter {
        /// The character as written.
        found: char,
        /// Its 1-based position in the code.
        position: usize,
        /// The attribute it stands for.
        attribute: &'static str,
        /// The letters of that attribute.
        allowed: [char; 2],
    },
}

/// A cell of the board: `row * size + column`, which is also its bit in a cell mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `column` and `row` (from 0, row 0 at the bottom); `None` off the board.
    pub fn at(column: u32, row: u32, rules: &Rules) -> Option<Cell> {
        (column < rules.size() && row < rules.size())
            .then(|| Cell((row * rules.size() + column) as u8))
    }

    /// The cell with this index, unchecked: for the engine, whose indices come from masks of
    /// the board.
    pub(crate) fn from_index(index: u32) -> Cell {
        Cell(index as u8)
    }

    /// `row * size + column`.
    pub(crate) fn index(self) -> u32 {
        u32::from(self.0)
    }

    /// The cell's bit in a cell mask.
    pub(crate) fn bit(self) -> u16 {
        1 << self.0
    }

    /// The cell's name: a column letter from `a`, then a row number from 1 (`b3`).
    pub fn name(self, rules: &Rules) -> String {
        let column = self.index() % rules.size();
        let row = self.index() / rules.size();
        format!("{}{}", char::from(b'a' + column as u8), row + 1)
    }

    /// Reads a cell name such as `b3` (either case).
    ///
    /// # Errors
    /// [`CellError`] when the text is not a column letter and a row number on the board.
    pub(crate) fn parse(text: &str, rules: &Rules) -> Result<Cell, CellError> {
        let mut chars = text.chars();
        let bad = || CellError {
            found: text.to_string(),
            last: Cell::from_index(rules.cells() - 1).name(rules),
        };
        let column = chars
            .next()
            .map(|c| c.to_ascii_lowercase())
            .ok_or_else(bad)?;
        let row: u32 = chars.as_str().parse().map_err(|_| bad())?;
        if !column.is_ascii_lowercase() || row == 0 {
            return Err(bad());
        }
        Cell::at(u32::from(column as u8 - b'a'), row - 1, rules).ok_or_else(bad)
    }
}

/// A cell name that is not on the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no cell {found:?}: cells are a column letter and a row number, a1 to {last}")]
pub struct CellError {
    /// The name as written.
    pub found: String,
    /// The last cell's name (top right).
    pub last: String,
}

/// Iterates over the set bits of a mask, lowest first.
pub(crate) fn bits_of(mut mask: u16) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros();
            mask &= mask - 1;
            bit
        })
    })
}

impl fmt::Display for Piece {
    /// The attribute bits in binary, attribute 0 first (use [`Piece::code`] for letters).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (0..4).try_for_each(|i| write!(f, "{}", self.0 >> i & 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn codes_and_names_round_trip() {
        let rules = Rules::standard();
        for bits in 0..16 {
            let piece = Piece::new(bits, &rules).unwrap();
            assert_eq!(Piece::parse(&piece.code(&rules), &rules), Ok(piece));
        }
        assert_eq!(Piece::parse("dtqh", &rules).unwrap().bits(), 15);
        assert_eq!(Piece::parse("1000", &rules).unwrap().bits(), 1);
        for index in 0..16 {
            let cell = Cell::from_index(index);
            assert_eq!(Cell::parse(&cell.name(&rules), &rules), Ok(cell));
        }
        assert_eq!(Cell::parse("b3", &rules).unwrap().index(), 9);
    }

    #[test]
    fn bad_codes_and_cells_say_what_is_allowed() {
        let rules = Rules::new(3, 3, None, Variant::Normal, false).unwrap();
        let e = Piece::parse("DTH", &rules).unwrap_err().to_string();
        assert!(e.contains("letter 3") && e.contains("R or Q"), "{e}");
        assert!(Piece::parse("DTQH", &rules).is_err());
        let e = Cell::parse("d1", &rules).unwrap_err().to_string();
        assert!(e.contains("a1 to c3"), "{e}");
        assert!(Cell::parse("a0", &rules).is_err() && Cell::parse("", &rules).is_err());
    }
}
