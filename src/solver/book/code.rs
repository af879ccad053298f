//! One stored value: the value byte and remoteness byte of a book entry.

use crate::engine::bits::Bits;
use crate::engine::outcome::{GameResult, Player};
use crate::engine::position::Position;
use crate::solver::score::{Score, Value, win_at};

/// The value byte's flag for an entry with exact remoteness.
pub(super) const STRONG: u8 = 4;

/// One stored value, from the side to move: the byte pair of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Code {
    /// The result for the side to move (0 loss, 1 draw, 2 win), plus [`STRONG`].
    pub(super) value: u8,
    /// Plies to the end in a strong entry, else 0.
    pub(super) remoteness: u8,
}

impl Code {
    /// The code of `value` for a position with the side to move `pos` has.
    pub(super) fn of<B: Bits>(pos: &Position<B>, value: Value) -> Code {
        let result = match value.result {
            GameResult::Win(p) if p == pos.to_move() => 2,
            GameResult::Win(_) => 0,
            GameResult::Draw => 1,
        };
        match value.remoteness {
            Some(r) => Code {
                value: result | STRONG,
                remoteness: u8::try_from(r).expect("remoteness fits: boards have < 128 cells"),
            },
            None => Code {
                value: result,
                remoteness: 0,
            },
        }
    }

    /// Whether a book could have written this code.
    pub(super) fn is_valid(self) -> bool {
        let result = self.value & !STRONG;
        result <= 2 && (self.value & STRONG != 0 || self.remoteness == 0)
    }

    /// Whether the entry holds exact remoteness.
    pub(super) fn is_strong(self) -> bool {
        self.value & STRONG != 0
    }

    /// Whether the two codes, of one position, cannot both be true: their outcomes differ,
    /// or both are strong with different remoteness.
    pub(super) fn contradicts(self, other: Code) -> bool {
        self.value & !STRONG != other.value & !STRONG
            || (self.is_strong() && other.is_strong() && self.remoteness != other.remoteness)
    }

    /// The value, for a position with `plies` discs on a board of `cells` cells. A drawn game
    /// fills the board, so a draw has its remoteness even in an outcome-only entry.
    pub(super) fn value(self, plies: u32, cells: u32) -> Value {
        let to_move = Player::to_move_after(plies);
        let result = match self.value & !STRONG {
            2 => GameResult::Win(to_move),
            0 => GameResult::Win(to_move.other()),
            _ => GameResult::Draw,
        };
        let remoteness = if self.is_strong() {
            Some(u32::from(self.remoteness))
        } else {
            (result == GameResult::Draw).then(|| cells - plies)
        };
        Value { result, remoteness }
    }

    /// Bounds on the search score (see [`Score`]) of a position with `plies` discs on a board
    /// of `cells` cells: the exact score for a strong entry, its sign for a weak one.
    pub(super) fn score_bounds(self, cells: u32, plies: u32) -> (Score, Score) {
        let result = self.value & !STRONG;
        if self.is_strong() {
            let end = plies + u32::from(self.remoteness);
            let score = match result {
                2 => win_at(cells, end),
                0 => -win_at(cells, end),
                _ => 0,
            };
            (score, score)
        } else {
            match result {
                2 => (1, Score::MAX),
                0 => (Score::MIN, -1),
                _ => (0, 0),
            }
        }
    }
}
