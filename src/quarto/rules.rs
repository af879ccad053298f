//! The rules of a Quarto game, chosen at run time: board size, attributes, which attributes
//! count, normal or misère, and whether 2x2 squares count as lines.

use std::fmt;

use crate::Variant;

/// Largest board side: a board's cells must fit a 16-bit mask.
pub(crate) const MAX_SIZE: u32 = 4;

/// Largest number of attributes: a piece is a 4-bit number.
pub(crate) const MAX_ATTRIBUTES: u32 = 4;

/// Most winning sets a board can have: 4 rows, 4 columns, 2 diagonals and 9 squares.
pub(crate) const MAX_LINES: usize = 19;

/// The standard four attributes by number, each with the names of its value 0 and value 1.
pub(crate) const ATTRIBUTES: [Attribute; 4] = [
    Attribute {
        name: "colour",
        values: ["light", "dark"],
        letters: ['L', 'D'],
    },
    Attribute {
        name: "height",
        values: ["short", "tall"],
        letters: ['S', 'T'],
    },
    Attribute {
        name: "shape",
        values: ["round", "square"],
        letters: ['R', 'Q'],
    },
    Attribute {
        name: "fill",
        values: ["solid", "hollow"],
        letters: ['F', 'H'],
    },
];

/// One of the standard attributes: its name and how its two values are named and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Attribute {
    /// The attribute's name, as `--criteria` accepts it.
    pub name: &'static str,
    /// Names of value 0 and value 1.
    pub values: [&'static str; 2],
    /// Letters of value 0 and value 1 in piece codes.
    pub letters: [char; 2],
}

/// Why a set of Quarto rules was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The board side is not 2, 3 or 4.
    #[error("board size {0} is out of range: the size must be 2, 3 or 4")]
    Size(u32),
    /// The number of attributes is not 1 to 4.
    #[error("{0} attributes is out of range: pieces have 1 to 4 attributes")]
    Attributes(u32),
    /// A criterion names an attribute the pieces do not have.
    #[error(
        "criterion {found:?} is not an attribute of these pieces: use numbers 0 to {last} or the names {names}"
    )]
    Criterion {
        /// The criterion as written.
        found: String,
        /// The highest attribute number.
        last: u32,
        /// The names allowed, comma-separated.
        names: String,
    },
    /// No attribute was chosen to count.
    #[error("no criteria given: at least one attribute must count for a line")]
    NoCriteria,
}

/// Validated Quarto rules. After [`Rules::new`] a position can trust them.
///
/// The board is `size` x `size` with cells numbered `row * size + column` (row 0 at the
/// bottom, column 0 at the left), which is also their bit in a cell mask. Pieces have
/// `attributes` attributes, so there are `2^attributes` of them. A winning set (a "line") is
/// a row, a column, a diagonal, or with `squares` a 2x2 block; it ends the game when it is
/// full and its pieces share a value of a counted attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    size: u32,
    attributes: u32,
    criteria: u8,
    variant: Variant,
    squares: bool,
    lines: [u16; MAX_LINES],
    line_count: usize,
    /// Per cell, the winning sets through it (bit `j` for `lines[j]`).
    lines_at: [u32; 16],
}

impl Rules {
    /// Standard Quarto: 4x4, four attributes that all count, normal rules, no squares.
    pub fn standard() -> Rules {
        Rules::new(4, 4, None, Variant::Normal, false).expect("standard rules are valid")
    }

    /// Validates the rules. `criteria` is a bit mask of the attributes that count (bit `i`
    /// for attribute `i`); `None` counts them all.
    ///
    /// # Errors
    /// [`RulesError`] for a size other than 2-4, attributes other than 1-4, criteria naming
    /// attributes the pieces lack, or no criteria.
    pub fn new(
        size: u32,
        attributes: u32,
        criteria: Option<u8>,
        variant: Variant,
        squares: bool,
    ) -> Result<Rules, RulesError> {
        if !(2..=MAX_SIZE).contains(&size) {
            return Err(RulesError::Size(size));
        }
        if !(1..=MAX_ATTRIBUTES).contains(&attributes) {
            return Err(RulesError::Attributes(attributes));
        }
        let all = ((1u32 << attributes) - 1) as u8;
        let criteria = criteria.unwrap_or(all);
        if criteria == 0 {
            return Err(RulesError::NoCriteria);
        }
        if criteria & !all != 0 {
            let bad = (criteria & !all).trailing_zeros();
            return Err(criterion_error(&bad.to_string(), attributes));
        }
        let (lines, line_count) = winning_sets(size, squares);
        let mut lines_at = [0u32; 16];
        for (j, line) in lines[..line_count].iter().enumerate() {
            for (cell, at) in lines_at.iter_mut().enumerate() {
                *at |= u32::from(line >> cell & 1) << j;
            }
        }
        Ok(Rules {
            size,
            attributes,
            criteria,
            variant,
            squares,
            lines,
            line_count,
            lines_at,
        })
    }

    /// Parses a comma-separated list of criteria (attribute numbers from 0, or the names of
    /// the standard attributes such as `colour` or `height`) into a mask for [`Rules::new`].
    ///
    /// # Errors
    /// [`RulesError::Criterion`] naming the first entry that is not one of the pieces'
    /// attributes, [`RulesError::NoCriteria`] for an empty list.
    pub fn parse_criteria(text: &str, attributes: u32) -> Result<u8, RulesError> {
        let mut mask = 0u8;
        for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let lower = entry.to_lowercase();
            let index = lower.parse::<u32>().ok().or_else(|| {
                ATTRIBUTES
                    .iter()
                    .position(|a| a.name == lower || (lower == "color" && a.name == "colour"))
                    .map(|i| i as u32)
            });
            match index {
                Some(i) if i < attributes.min(MAX_ATTRIBUTES) => mask |= 1 << i,
                _ => return Err(criterion_error(entry, attributes)),
            }
        }
        if mask == 0 {
            return Err(RulesError::NoCriteria);
        }
        Ok(mask)
    }

    /// The board side.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Number of cells, `size * size`.
    pub fn cells(&self) -> u32 {
        self.size * self.size
    }

    /// Mask of every cell of the board.
    pub(crate) fn all_cells(&self) -> u16 {
        ((1u32 << self.cells()) - 1) as u16
    }

    /// Number of attributes of a piece.
    pub fn attributes(&self) -> u32 {
        self.attributes
    }

    /// Number of pieces, `2^attributes`.
    pub fn pieces(&self) -> u32 {
        1 << self.attributes
    }

    /// Mask of every piece (bit `p` for piece `p`).
    pub(crate) fn all_pieces(&self) -> u16 {
        ((1u32 << self.pieces()) - 1) as u16
    }

    /// Bit mask of the attributes that count for a line.
    pub fn criteria(&self) -> u8 {
        self.criteria
    }

    /// Whether every attribute counts.
    pub(crate) fn all_count(&self) -> bool {
        self.criteria == ((1u32 << self.attributes) - 1) as u8
    }

    /// Normal (a line wins) or misère (a line loses).
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Whether full 2x2 squares sharing an attribute end the game too.
    pub fn squares(&self) -> bool {
        self.squares
    }

    /// The winning sets as cell masks: rows, columns, the two diagonals, then (with squares)
    /// the 2x2 blocks.
    pub fn lines(&self) -> &[u16] {
        &self.lines[..self.line_count]
    }

    /// The winning sets through cell `index`, as a mask over [`Rules::lines`].
    #[inline]
    pub(crate) fn lines_at(&self, index: u32) -> u32 {
        self.lines_at[index as usize]
    }

    /// Pieces placed in a complete game without a line: every cell, or every piece when there
    /// are fewer pieces than cells.
    pub(crate) fn placements(&self) -> u32 {
        self.cells().min(self.pieces())
    }

    /// The last ply of a game that nobody wins: the opening handover, then one ply per
    /// placement. Standard Quarto: 17.
    pub(crate) fn last_ply(&self) -> u32 {
        1 + self.placements()
    }

    /// Number of piece codes' letters: one per attribute.
    pub(crate) fn code_len(&self) -> usize {
        self.attributes as usize
    }
}

impl fmt::Display for Rules {
    /// `normal 4x4, 4 attributes`, with ` (criteria 0,2)` and ` + squares` when they apply.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}x{}, {} attributes",
            self.variant, self.size, self.size, self.attributes
        )?;
        if !self.all_count() {
            let list: Vec<String> = (0..self.attributes)
                .filter(|i| self.criteria >> i & 1 == 1)
                .map(|i| i.to_string())
                .collect();
            write!(f, " (criteria {})", list.join(","))?;
        }
        if self.squares {
            write!(f, " + squares")?;
        }
        Ok(())
    }
}

fn criterion_error(found: &str, attributes: u32) -> RulesError {
    let names: Vec<&str> = ATTRIBUTES[..attributes as usize]
        .iter()
        .map(|a| a.name)
        .collect();
    RulesError::Criterion {
        found: found.to_string(),
        last: attributes - 1,
        names: names.join(", "),
    }
}

/// Rows, columns, the two diagonals and (with `squares`) the 2x2 blocks of a `size` board.
fn winning_sets(size: u32, squares: bool) -> ([u16; MAX_LINES], usize) {
    let cell = |row: u32, column: u32| 1u16 << (row * size + column);
    let mut sets = Vec::new();
    for row in 0..size {
        sets.push((0..size).fold(0, |m, c| m | cell(row, c)));
    }
    for column in 0..size {
        sets.push((0..size).fold(0, |m, r| m | cell(r, column)));
    }
    sets.push((0..size).fold(0, |m, i| m | cell(i, i)));
    sets.push((0..size).fold(0, |m, i| m | cell(i, size - 1 - i)));
    if squares {
        for row in 0..size - 1 {
            for column in 0..size - 1 {
                sets.push(
                    cell(row, column)
                        | cell(row, column + 1)
                        | cell(row + 1, column)
                        | cell(row + 1, column + 1),
                );
            }
        }
    }
    let mut lines = [0; MAX_LINES];
    lines[..sets.len()].copy_from_slice(&sets);
    (lines, sets.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_board_has_ten_lines_and_nineteen_with_squares() {
        let rules = Rules::standard();
        assert_eq!(rules.lines().len(), 10);
        assert!(rules.lines().iter().all(|l| l.count_ones() == 4));
        assert_eq!(rules.last_ply(), 17);
        let squares = Rules::new(4, 4, None, Variant::Misere, true).unwrap();
        assert_eq!(squares.lines().len(), 19);
        let small = Rules::new(3, 2, None, Variant::Normal, false).unwrap();
        assert_eq!(small.lines().len(), 8);
        assert_eq!(small.last_ply(), 5);
    }

    #[test]
    fn criteria_parse_numbers_and_names_and_refuse_the_rest() {
        assert_eq!(Rules::parse_criteria("0,2", 4), Ok(0b101));
        assert_eq!(Rules::parse_criteria("Height, color", 4), Ok(0b011));
        assert_eq!(Rules::parse_criteria("", 4), Err(RulesError::NoCriteria));
        let err = Rules::parse_criteria("fill", 3).unwrap_err().to_string();
        assert!(err.contains("\"fill\"") && err.contains("0 to 2"), "{err}");
        assert!(Rules::new(5, 4, None, Variant::Normal, false).is_err());
        assert!(Rules::new(4, 3, Some(0b1000), Variant::Normal, false).is_err());
    }
}
