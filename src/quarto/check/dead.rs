//! The checker's own test for a drawn position that needs no more play: no line can be
//! completed any more, whatever is played. Written from the rules alone, piece by piece, and
//! sharing nothing with the solver's faster version.

use super::super::piece::{Cell, Piece};
use super::super::position::Position;

/// Whether no winning set of `pos` can ever be completed: each one is full, or holds two
/// pieces that share no value of a counted attribute, or has more empty cells than there are
/// pieces left (the one in hand included) with a value that every piece on it shares. Every
/// game from such a position is a draw.
pub fn no_line_can_be_completed(pos: &Position) -> bool {
    let rules = pos.rules();
    let board = pos.board();
    let on_board: Vec<u8> = (0..rules.cells())
        .filter_map(|i| board.piece_at(Cell::from_index(i)))
        .map(|p| p.bits())
        .collect();
    let left: Vec<u8> = (0..rules.pieces())
        .map(|bits| bits as u8)
        .filter(|bits| !on_board.contains(bits))
        .collect();
    let counted = |attribute: u32| rules.criteria() >> attribute & 1 == 1;
    rules.lines().iter().all(|&line| {
        let cells: Vec<Option<Piece>> = (0..rules.cells())
            .filter(|i| line >> i & 1 == 1)
            .map(|i| board.piece_at(Cell::from_index(i)))
            .collect();
        let empty = cells.iter().filter(|c| c.is_none()).count();
        let placed: Vec<u8> = cells.iter().flatten().map(|p| p.bits()).collect();
        let fillable = |attribute: u32, value: u8| {
            placed.iter().all(|bits| bits >> attribute & 1 == value)
                && left
                    .iter()
                    .filter(|bits| *bits >> attribute & 1 == value)
                    .count()
                    >= empty
        };
        empty == 0
            || !(0..rules.attributes())
                .filter(|&a| counted(a))
                .any(|a| fillable(a, 0) || fillable(a, 1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quarto::Rules;
    use crate::quarto::solver::knowledge::Knowledge;
    use crate::{GameResult, Variant};

    /// A fixed xorshift sequence of choices below `n`.
    struct Choices(u64);

    impl Choices {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        /// `pos` played on by random turns until the game ends or `plies` are played.
        fn play_on(&mut self, mut pos: Position, plies: u32) -> Position {
            while !pos.is_over() && pos.plies() < plies {
                let turns = pos.legal_turns();
                pos = pos.play(turns[self.below(turns.len())]).unwrap();
            }
            pos
        }
    }

    #[test]
    fn dead_positions_agree_with_the_solvers_own_test_and_are_draws() {
        let mut dead = 0;
        for variant in [Variant::Normal, Variant::Misere] {
            for (size, attributes, criteria, squares) in [
                (3, 3, None, false),
                (3, 4, Some(0b0011), true),
                (4, 4, None, false),
                (4, 4, Some(0b0001), false),
                (4, 4, Some(0b0011), true),
            ] {
                let rules = Rules::new(size, attributes, criteria, variant, squares).unwrap();
                let knowledge = Knowledge::new(&rules);
                let mut choices = Choices(0x9E37_79B9_7F4A_7C15);
                for _ in 0..400 {
                    let plies = choices.below(rules.cells() as usize + 2) as u32;
                    let pos = choices.play_on(Position::new(rules), plies);
                    if pos.is_over() {
                        continue;
                    }
                    let left = rules.all_pieces() & !pos.board().used();
                    let here = no_line_can_be_completed(&pos);
                    assert_eq!(here, !knowledge.any_live_line(pos.board(), left), "{rules}");
                    if here {
                        // Whatever is played from here, nobody completes a line.
                        dead += 1;
                        for _ in 0..20 {
                            let end = choices.play_on(pos.clone(), u32::MAX);
                            let result = end.outcome().map(|o| o.result);
                            assert_eq!(result, Some(GameResult::Draw), "{rules}");
                        }
                    }
                }
            }
        }
        assert!(dead >= 50, "only {dead} dead positions met");
    }
}
