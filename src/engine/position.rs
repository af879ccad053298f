//! A game position: whose discs are where, whose turn it is, and whether the game has ended.

use std::fmt;

use super::bits::{BitIter, Bits};
use super::layout::{Layout, Symmetry};
use super::outcome::{Cell, GameResult, Outcome, Player, Reason};
use super::rules::{Rules, Variant};

/// A column of the board, counted from 0 at the left (shown to people counted from 1).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Column(u32);

impl Column {
    /// The column with 0-based index `index`.
    pub const fn new(index: u32) -> Column {
        Column(index)
    }

    /// The column a person calls `number` (1 = leftmost); `None` for 0.
    pub fn from_number(number: u32) -> Option<Column> {
        number.checked_sub(1).map(Column)
    }

    /// 0-based index.
    pub fn index(self) -> u32 {
        self.0
    }

    /// 1-based number, as written in move strings.
    pub fn number(self) -> u32 {
        self.0 + 1
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// Why a move or an undo was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The column number is outside the board.
    #[error("no column {column}: columns are numbered 1 to {width}")]
    NoSuchColumn {
        /// The 1-based column asked for.
        column: u32,
        /// The board width.
        width: u32,
    },
    /// The column has no empty cell.
    #[error("column {column} is full: choose a column that still has room")]
    ColumnFull {
        /// The 1-based column asked for.
        column: u32,
    },
    /// The game has already ended.
    #[error("the game is already over ({0}): no more moves can be played")]
    GameOver(String),
    /// Undo asked for a column whose top disc is not the last mover's, or an empty column.
    #[error(
        "cannot undo column {column}: its top disc was not placed by the player who moved last"
    )]
    NotUndoable {
        /// The 1-based column asked for.
        column: u32,
    },
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Status {
    Ongoing,
    /// `by` completed a line with the disc at bit index `at`.
    Line {
        by: Player,
        at: u32,
    },
    Full,
}

/// A position of a Connect-k game, generic over the bitboard word (`u128` unless stated).
///
/// The position is stored from the side to move (`current` holds the discs of the player to
/// move, `mask` every disc), so making a move is two bit operations. It also records whether the
/// last move ended the game; a finished position refuses further moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position<B: Bits = u128> {
    layout: Layout<B>,
    current: B,
    mask: B,
    plies: u32,
    status: Status,
}

impl Position<u128> {
    /// The empty board of `rules`.
    ///
    /// # Examples
    /// ```
    /// use connectk::{Column, Position, Rules};
    /// let mut pos = Position::new(Rules::standard());
    /// pos.play(Column::new(3)).unwrap();
    /// assert_eq!(pos.plies(), 1);
    /// ```
    pub fn new(rules: Rules) -> Position {
        Position::empty(Layout::new(rules).expect("every valid Rules fits in 128 bits"))
    }
}

impl<B: Bits> Position<B> {
    /// The empty board of a layout.
    pub(crate) fn empty(layout: Layout<B>) -> Position<B> {
        Position {
            layout,
            current: B::ZERO,
            mask: B::ZERO,
            plies: 0,
            status: Status::Ongoing,
        }
    }

    /// The same position in another bit type, or `None` if the board does not fit in it.
    pub(crate) fn convert<C: Bits>(&self) -> Option<Position<C>> {
        let layout = Layout::<C>::new(self.rules())?;
        Some(Position {
            layout,
            current: C::from_u128(self.current.to_u128()),
            mask: C::from_u128(self.mask.to_u128()),
            plies: self.plies,
            status: self.status,
        })
    }

    /// The rules of the game.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.layout.rules()
    }

    /// The board geometry.
    #[inline]
    pub(crate) fn layout(&self) -> &Layout<B> {
        &self.layout
    }

    /// Number of discs on the board.
    #[inline]
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Number of empty cells.
    #[inline]
    pub(crate) fn empty_cells(&self) -> u32 {
        self.rules().cells() - self.plies
    }

    /// The player whose turn it is (also after the game ended: the one who would move next).
    #[inline]
    pub fn to_move(&self) -> Player {
        Player::to_move_after(self.plies)
    }

    /// Discs of the side to move.
    #[inline]
    pub fn current(&self) -> B {
        self.current
    }

    /// Every disc on the board.
    #[inline]
    pub fn mask(&self) -> B {
        self.mask
    }

    /// Discs of the side that just moved.
    #[inline]
    pub(crate) fn opponent(&self) -> B {
        self.current ^ self.mask
    }

    /// Discs of `player`.
    pub(crate) fn stones(&self, player: Player) -> B {
        if player == self.to_move() {
            self.current
        } else {
            self.opponent()
        }
    }

    /// Who holds the disc at `cell`, if any.
    pub fn cell(&self, cell: Cell) -> Option<Player> {
        let bit = self.layout.cell_bit(cell);
        if (self.mask & bit).is_empty() {
            None
        } else if (self.current & bit).is_empty() {
            Some(self.to_move().other())
        } else {
            Some(self.to_move())
        }
    }

    /// Number of discs in column `c`.
    pub fn column_height(&self, column: Column) -> u32 {
        (self.mask & self.layout.column_mask(column.index())).count_ones()
    }

    /// Cells where the next disc of each non-full column would land.
    #[inline]
    pub(crate) fn playable(&self) -> B {
        self.layout.playable(self.mask)
    }

    /// Whether the game has ended.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.status != Status::Ongoing
    }

    /// Whether `column` exists and has room (regardless of whether the game is over).
    pub(crate) fn has_room(&self, column: Column) -> bool {
        column.index() < self.rules().width()
            && (self.mask & self.layout.top_cell(column.index())).is_empty()
    }

    /// Columns that can be played now, left to right (none once the game is over).
    pub fn legal_columns(&self) -> Vec<Column> {
        if self.is_over() {
            return Vec::new();
        }
        (0..self.rules().width())
            .map(Column::new)
            .filter(|&c| self.has_room(c))
            .collect()
    }

    /// The single-bit set where a disc dropped in `column` lands; the column must have room.
    #[inline]
    pub(crate) fn landing(&self, column: Column) -> B {
        self.playable() & self.layout.column_mask(column.index())
    }

    /// Checks that `column` can be played now.
    ///
    /// # Errors
    /// [`MoveError`] if the game is over, the column does not exist or is full.
    pub fn check_move(&self, column: Column) -> Result<(), MoveError> {
        if let Some(outcome) = self.outcome() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        if column.index() >= self.rules().width() {
            return Err(MoveError::NoSuchColumn {
                column: column.number(),
                width: self.rules().width(),
            });
        }
        if !self.has_room(column) {
            return Err(MoveError::ColumnFull {
                column: column.number(),
            });
        }
        Ok(())
    }

    /// Drops a disc of the side to move into `column`; on error the position is unchanged.
    ///
    /// # Errors
    /// [`MoveError`] if the game is over, the column does not exist or is full.
    pub fn play(&mut self, column: Column) -> Result<(), MoveError> {
        self.check_move(column)?;
        let bit = self.landing(column);
        let mover = self.to_move();
        let made_line = self.layout.has_line(self.current | bit);
        self.play_bit(bit);
        self.status = if made_line {
            Status::Line {
                by: mover,
                at: bit.trailing_zeros(),
            }
        } else if self.plies == self.rules().cells() {
            Status::Full
        } else {
            Status::Ongoing
        };
        Ok(())
    }

    /// A copy of the position after playing `column`.
    ///
    /// # Errors
    /// As [`Position::play`].
    pub fn played(&self, column: Column) -> Result<Position<B>, MoveError> {
        let mut next = *self;
        next.play(column)?;
        Ok(next)
    }

    /// Takes back the top disc of `column`, which must belong to the player who moved last.
    ///
    /// The position before a move is never finished, so the status returns to ongoing.
    ///
    /// # Errors
    /// [`MoveError::NoSuchColumn`] or [`MoveError::NotUndoable`].
    pub fn undo(&mut self, column: Column) -> Result<(), MoveError> {
        if column.index() >= self.rules().width() {
            return Err(MoveError::NoSuchColumn {
                column: column.number(),
                width: self.rules().width(),
            });
        }
        let in_column = self.mask & self.layout.column_mask(column.index());
        if in_column.is_empty() {
            return Err(MoveError::NotUndoable {
                column: column.number(),
            });
        }
        let top = (in_column + self.layout.bottom_cell(column.index())) >> 1;
        let top = top & in_column;
        if !(self.current & top).is_empty() {
            return Err(MoveError::NotUndoable {
                column: column.number(),
            });
        }
        self.mask = self.mask ^ top;
        self.current = self.current ^ self.mask;
        self.plies -= 1;
        self.status = Status::Ongoing;
        Ok(())
    }

    /// Plays the single-bit move `bit` without any check and without updating the game status.
    ///
    /// For search code that has already checked that the move is playable and does not end the
    /// game by a line; use [`Position::play`] everywhere else.
    #[inline]
    pub(crate) fn play_bit(&mut self, bit: B) {
        self.current = self.current ^ self.mask;
        self.mask |= bit;
        self.plies += 1;
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.status {
            Status::Ongoing => None,
            Status::Full => Some(Outcome {
                result: GameResult::Draw,
                reason: Reason::BoardFull,
            }),
            Status::Line { by, at } => {
                let bit = B::ONE << at;
                let line = self.layout.line_cells_through(self.stones(by), bit);
                let winner = match self.rules().variant() {
                    Variant::Normal => by,
                    Variant::Misere => by.other(),
                };
                Some(Outcome {
                    result: GameResult::Win(winner),
                    reason: Reason::Line {
                        by,
                        cells: BitIter(line).map(|b| self.layout.bit_cell(b)).collect(),
                    },
                })
            }
        }
    }

    /// Empty cells where `player` would complete a line of k (winning cells under normal rules,
    /// forbidden cells under misère rules), whether or not they are playable yet.
    pub fn completing_cells(&self, player: Player) -> B {
        self.layout.completing_cells(self.stones(player)) & !self.mask
    }

    /// A key unique to this arrangement of discs (the side to move follows from the disc count).
    #[inline]
    pub fn key(&self) -> B {
        self.current + self.mask + self.layout.bottom()
    }

    /// The smallest key of the position's images under the board's symmetries, with the
    /// symmetry that gives it: the position or its mirror image on a flat board, and any of
    /// those turned around a cylinder (see [`Symmetry`]).
    ///
    /// An image's key is the image of the key: each column's part of the key is a sum that
    /// never carries out of the column (the spare bit takes the top carry), so moving whole
    /// columns commutes with it.
    #[inline]
    pub fn canonical_key(&self) -> (B, Symmetry) {
        self.layout.canonical(self.key())
    }

    /// The left-right mirror image of the position.
    pub fn mirrored(&self) -> Position<B> {
        let status = match self.status {
            Status::Line { by, at } => {
                let cell = self.layout.bit_cell(B::ONE << at);
                let mirrored = Cell {
                    column: self.rules().width() - 1 - cell.column,
                    row: cell.row,
                };
                Status::Line {
                    by,
                    at: self.layout.cell_bit(mirrored).trailing_zeros(),
                }
            }
            other => other,
        };
        Position {
            layout: self.layout,
            current: self.layout.mirror(self.current),
            mask: self.layout.mirror(self.mask),
            plies: self.plies,
            status,
        }
    }

    /// A text diagram: rows top to bottom, `X` for P1, `O` for P2, `.` for empty, cells of a
    /// completed line in brackets, column numbers underneath.
    pub fn diagram(&self) -> String {
        let rules = self.rules();
        let line: Vec<Cell> = match self.outcome() {
            Some(Outcome {
                reason: Reason::Line { cells, .. },
                ..
            }) => cells,
            _ => Vec::new(),
        };
        let cell_width = if rules.width() > 9 { 3 } else { 2 };
        let mut out = String::new();
        for row in (0..rules.height()).rev() {
            for column in 0..rules.width() {
                let cell = Cell { column, row };
                let symbol = self.cell(cell).map_or('.', Player::symbol);
                let text = if line.contains(&cell) {
                    format!("[{symbol}]")
                } else {
                    format!(" {symbol} ")
                };
                out.push_str(&format!("{text:>width$}", width = cell_width + 1));
            }
            out.push('\n');
        }
        for column in 0..rules.width() {
            out.push_str(&format!("{:>width$} ", column + 1, width = cell_width));
        }
        out.push('\n');
        out
    }
}

impl<B: Bits> fmt::Display for Position<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagram())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(n: u32) -> Column {
        Column::from_number(n).unwrap()
    }

    #[test]
    fn vertical_four_wins_under_normal_rules_and_loses_under_misere() {
        for (variant, winner) in [(Variant::Normal, Player::P1), (Variant::Misere, Player::P2)] {
            let mut pos = Position::new(Rules::standard().with_variant(variant));
            for n in [1, 2, 1, 2, 1, 2, 1] {
                pos.play(col(n)).unwrap();
            }
            let outcome = pos.outcome().unwrap();
            assert_eq!(outcome.result, GameResult::Win(winner));
            let Reason::Line { by, cells } = outcome.reason else {
                panic!("expected a line")
            };
            assert_eq!(by, Player::P1);
            assert_eq!(cells.len(), 4);
            assert!(matches!(pos.play(col(3)), Err(MoveError::GameOver(_))));
        }
    }

    #[test]
    fn full_column_and_missing_column_are_refused() {
        let mut pos = Position::new(Rules::new(4, 2, 2, Variant::Normal).unwrap());
        pos.play(col(1)).unwrap();
        pos.play(col(1)).unwrap();
        assert_eq!(pos.play(col(1)), Err(MoveError::ColumnFull { column: 1 }));
        assert_eq!(
            pos.play(col(3)),
            Err(MoveError::NoSuchColumn {
                column: 3,
                width: 2
            })
        );
        assert_eq!(pos.plies(), 2);
    }

    #[test]
    fn filling_the_board_without_a_line_is_a_draw() {
        let mut pos = Position::new(Rules::new(3, 2, 2, Variant::Normal).unwrap());
        for n in [1, 2, 2, 1] {
            pos.play(col(n)).unwrap();
        }
        assert_eq!(pos.outcome().unwrap().reason, Reason::BoardFull);
    }

    #[test]
    fn undo_refuses_the_side_to_moves_disc() {
        let mut pos = Position::new(Rules::standard());
        pos.play(col(4)).unwrap();
        pos.play(col(5)).unwrap();
        assert!(pos.undo(col(4)).is_err());
        pos.undo(col(5)).unwrap();
        assert_eq!(pos.plies(), 1);
    }
}
