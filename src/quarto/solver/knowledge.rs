//! What the rules tell about a position without search: whether any line can still be
//! completed with the pieces left.

use super::super::board::Board;
use super::super::piece::bits_of;
use super::super::rules::Rules;

/// Reads dead lines off a board under one set of rules.
///
/// A line can be completed only by pieces that share a value of a counted attribute with
/// every piece already on it, one such piece per empty cell. A line holding two pieces with no
/// counted value in common, or whose empty cells outnumber the pieces left with a value it
/// shares, is dead for the rest of the game. When every line is dead nobody can ever complete
/// one, and the game is a draw whatever is played.
pub struct Knowledge {
    /// The winning sets.
    lines: Vec<u16>,
    /// The counted attributes.
    counted: Vec<usize>,
    /// For each attribute value (index `2 * attribute + value`), the pieces that have it.
    value_pieces: [u16; 8],
}

impl Knowledge {
    /// The tables for `rules`.
    pub fn new(rules: &Rules) -> Knowledge {
        Knowledge {
            lines: rules.lines().to_vec(),
            counted: bits_of(u16::from(rules.criteria()))
                .map(|i| i as usize)
                .collect(),
            value_pieces: std::array::from_fn(|k| {
                let (attribute, value) = (k / 2, (k % 2) as u32);
                bits_of(rules.all_pieces())
                    .filter(|&p| p >> attribute & 1 == value)
                    .fold(0, |m, p| m | 1 << p)
            }),
        }
    }

    /// Whether some line of `board` can still be completed by pieces from `available` (the
    /// pieces not on the board, a piece in hand included).
    #[inline]
    pub fn any_live_line(&self, board: &Board, available: u16) -> bool {
        let counts = self.counts(available);
        self.lines
            .iter()
            .any(|&line| self.is_live(line, board, &counts))
    }

    /// How many lines of `board` pieces from `available` can still complete.
    #[inline]
    pub fn live_lines(&self, board: &Board, available: u16) -> u32 {
        let counts = self.counts(available);
        self.lines
            .iter()
            .filter(|&&line| self.is_live(line, board, &counts))
            .count() as u32
    }

    /// For each counted attribute value, how many pieces of `available` have it.
    #[inline]
    fn counts(&self, available: u16) -> [u32; 8] {
        let mut counts = [0u32; 8];
        for &i in &self.counted {
            counts[2 * i] = (available & self.value_pieces[2 * i]).count_ones();
            counts[2 * i + 1] = (available & self.value_pieces[2 * i + 1]).count_ones();
        }
        counts
    }

    /// Whether `line` of `board` has empty cells and enough pieces left (`counts`, as
    /// [`Knowledge::counts`]) with a value all its pieces share to fill them.
    #[inline]
    fn is_live(&self, line: u16, board: &Board, counts: &[u32; 8]) -> bool {
        let placed = line & board.occupied();
        let empty = (line ^ placed).count_ones();
        empty != 0
            && self.counted.iter().any(|&i| {
                let ones = board.ones(i) & placed;
                (ones == placed && counts[2 * i + 1] >= empty)
                    || (ones == 0 && counts[2 * i] >= empty)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::quarto::{Cell, Piece};

    fn place(board: &mut Board, rules: &Rules, cell: &str, bits: u8) {
        board.place(
            Cell::parse(cell, rules).unwrap(),
            Piece::new(bits, rules).unwrap(),
        );
    }

    #[test]
    fn complementary_pieces_kill_a_line_and_missing_pieces_kill_another() {
        // 2x2 with two attributes: every pair of cells is a line.
        let rules = Rules::new(2, 2, None, Variant::Misere, false).unwrap();
        let knowledge = Knowledge::new(&rules);
        let mut board = Board::empty();
        assert!(knowledge.any_live_line(&board, rules.all_pieces()));
        place(&mut board, &rules, "a1", 0b00);
        // Only the complement 11 left: it shares nothing with a1's piece, and the line away
        // from a1 needs two pieces.
        assert!(!knowledge.any_live_line(&board, 1 << 0b11));
        // 01 shares attribute 1 with a1's piece.
        assert!(knowledge.any_live_line(&board, 1 << 0b01 | 1 << 0b11));
    }

    #[test]
    fn a_line_of_tall_pieces_lives_while_a_tall_piece_is_left() {
        let rules = Rules::new(4, 4, Some(0b0010), Variant::Misere, false).unwrap();
        let knowledge = Knowledge::new(&rules);
        let mut board = Board::empty();
        for (cell, bits) in [("a1", 0b0010), ("b1", 0b0011), ("c1", 0b1010)] {
            place(&mut board, &rules, cell, bits);
        }
        let tall = 1 << 0b0110;
        let short = 1 << 0b0100 | 1 << 0b0101;
        assert!(knowledge.any_live_line(&board, tall));
        // Two short pieces complete nothing: every other line has at least three empty cells.
        assert!(!knowledge.any_live_line(&board, short));
        // A full row without a line is dead; the column and the diagonal holding two tall
        // pieces each need two more.
        place(&mut board, &rules, "d1", 0b0100);
        place(&mut board, &rules, "b2", 0b1011);
        let two_tall = tall | 1 << 0b0111;
        assert!(knowledge.any_live_line(&board, two_tall));
        assert!(!knowledge.any_live_line(&board, tall | short));
    }
}
