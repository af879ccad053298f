//! A Quarto position: the board, the piece the side to move holds, and how a finished game
//! ended; turns are played checked and give the position back unchanged on error.

use crate::{GameResult, Player, Variant};

use super::board::Board;
use super::piece::{Cell, Piece, bits_of};
use super::rules::Rules;

/// One turn: place the piece you were handed on a cell, then hand over a piece. The opening
/// turn only hands over; the last turn of a game only places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    /// Where the piece in hand goes (`None` on the opening turn).
    pub place: Option<Cell>,
    /// The piece handed to the opponent (`None` when the placement ended the game).
    pub give: Option<Piece>,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// `by` placed a piece that completed a line whose pieces share an attribute.
    Line {
        /// Who placed the last piece (the winner under normal rules, the loser under misère).
        by: Player,
        /// Every cell of the line (or lines) completed, in index order.
        cells: Vec<Cell>,
    },
    /// Every cell is taken and there is no line.
    BoardFull,
    /// Every piece is placed, cells are left, and there is no line.
    PiecesGone,
}

/// How a finished game ended: the result and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or draw.
    pub result: GameResult,
    /// What ended the game.
    pub reason: Reason,
}

impl Outcome {
    /// In words, with cell names of `rules`: `P2 wins: P2 completed a line at a1 b2 c3 d4`.
    pub fn describe(&self, rules: &Rules) -> String {
        let winner = match self.result {
            GameResult::Win(p) => format!("{p} wins"),
            GameResult::Draw => "draw".to_string(),
        };
        match &self.reason {
            Reason::Line { by, cells } => {
                let names: Vec<String> = cells.iter().map(|c| c.name(rules)).collect();
                format!("{winner}: {by} completed a line at {}", names.join(" "))
            }
            Reason::BoardFull => format!("{winner}: the board is full"),
            Reason::PiecesGone => format!("{winner}: every piece is placed"),
        }
    }
}

/// Why a turn was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has ended.
    #[error("the game is over: no more turns can be played")]
    GameOver,
    /// The side to move holds a piece but the turn names no cell.
    #[error("{piece} must be placed first: name an empty cell")]
    MustPlace {
        /// Code of the piece in hand.
        piece: String,
    },
    /// The opening turn only hands over a piece.
    #[error("the opening turn places nothing: only hand over a piece")]
    NothingToPlace,
    /// The cell is taken.
    #[error("cell {cell} is taken: choose an empty cell")]
    CellTaken {
        /// Name of the cell.
        cell: String,
    },
    /// The game goes on after this placement, so a piece must be handed over.
    #[error("the game goes on: hand over one of the pieces left")]
    MustGive,
    /// The game ended with this placement, so nothing is handed over.
    #[error("the game ends with this placement ({0}): hand over nothing")]
    NothingToGive(String),
    /// The piece is on the board or in the mover's hand.
    #[error("piece {piece} is not available: it is {place}; hand over a piece not yet played")]
    PieceTaken {
        /// Code of the piece.
        piece: String,
        /// Where it is.
        place: &'static str,
    },
}

/// A position: the board, the piece the side to move must place (none before the opening
/// handover) and the number of turns played. P1 hands over the first piece, so P2 places
/// first; a finished position records its [`Outcome`] and refuses further turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    rules: Rules,
    board: Board,
    hand: Option<Piece>,
    plies: u32,
    outcome: Option<Outcome>,
}

impl Position {
    /// The empty board before the opening handover, P1 to move.
    pub fn new(rules: Rules) -> Position {
        Position {
            rules,
            board: Board::empty(),
            hand: None,
            plies: 0,
            outcome: None,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The piece the side to move must place: `None` before the opening handover and after
    /// the game ended.
    pub fn hand(&self) -> Option<Piece> {
        self.hand
    }

    /// Turns played (the opening handover is the first).
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The side to move: P1 after an even number of turns.
    pub fn to_move(&self) -> Player {
        Player::to_move_after(self.plies)
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Pieces neither on the board nor in hand (bit `p` for piece `p`).
    pub(crate) fn remaining(&self) -> u16 {
        let hand = self.hand.map_or(0, |p| 1 << p.bits());
        self.rules.all_pieces() & !self.board.used() & !hand
    }

    /// Empty cells (bit per cell).
    pub(crate) fn empty_cells(&self) -> u16 {
        self.rules.all_cells() & !self.board.occupied()
    }

    /// Every legal turn, cells then pieces in index order (none once the game is over).
    pub fn legal_turns(&self) -> Vec<Turn> {
        if self.is_over() {
            return Vec::new();
        }
        let cells: Vec<Option<Cell>> = match self.hand {
            None => vec![None],
            Some(_) => bits_of(self.empty_cells())
                .map(|i| Some(Cell::from_index(i)))
                .collect(),
        };
        let mut turns = Vec::new();
        for place in cells {
            if self.ends_with(place) {
                turns.push(Turn { place, give: None });
            } else {
                turns.extend(bits_of(self.remaining()).map(|p| Turn {
                    place,
                    give: Some(Piece::from_bits(p as u8)),
                }));
            }
        }
        turns
    }

    /// Whether placing the piece in hand on `place` ends the game.
    fn ends_with(&self, place: Option<Cell>) -> bool {
        match (place, self.hand) {
            (Some(cell), Some(piece)) => {
                let board = self.board.with(cell, piece);
                board.lines_through(&self.rules, cell) != 0
                    || board.count() == self.rules.placements()
            }
            _ => false,
        }
    }

    /// The position after `turn`; `self` is unchanged.
    ///
    /// # Errors
    /// [`PlayError`] when the game is over, the turn places nothing while a piece is in hand
    /// (or something on the opening turn), the cell is taken, or the handover is missing,
    /// superfluous or names a piece already played.
    pub fn play(&self, turn: Turn) -> Result<Position, PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        let mut next = self.clone();
        match (self.hand, turn.place) {
            (Some(piece), None) => {
                return Err(PlayError::MustPlace {
                    piece: piece.code(&self.rules),
                });
            }
            (None, Some(_)) => return Err(PlayError::NothingToPlace),
            (None, None) => {}
            (Some(piece), Some(cell)) => {
                if self.board.occupied() & cell.bit() != 0 {
                    return Err(PlayError::CellTaken {
                        cell: cell.name(&self.rules),
                    });
                }
                next.board.place(cell, piece);
                next.hand = None;
                next.outcome = next.finished(cell);
            }
        }
        next.plies += 1;
        match (&next.outcome, turn.give) {
            (Some(outcome), Some(_)) => {
                Err(PlayError::NothingToGive(outcome.describe(&self.rules)))
            }
            (Some(_), None) => Ok(next),
            (None, None) => Err(PlayError::MustGive),
            (None, Some(piece)) => {
                if next.board.used() >> piece.bits() & 1 == 1 {
                    let place = if self.hand == Some(piece) {
                        "the piece just placed"
                    } else {
                        "on the board"
                    };
                    return Err(PlayError::PieceTaken {
                        piece: piece.code(&self.rules),
                        place,
                    });
                }
                next.hand = Some(piece);
                Ok(next)
            }
        }
    }

    /// The outcome after the side to move placed a piece on `cell`, if the game ended.
    fn finished(&self, cell: Cell) -> Option<Outcome> {
        let by = self.to_move();
        let line = self.board.lines_through(&self.rules, cell);
        if line != 0 {
            let winner = match self.rules.variant() {
                Variant::Normal => by,
                Variant::Misere => by.other(),
            };
            return Some(Outcome {
                result: GameResult::Win(winner),
                reason: Reason::Line {
                    by,
                    cells: bits_of(line).map(Cell::from_index).collect(),
                },
            });
        }
        let reason = if self.board.occupied() == self.rules.all_cells() {
            Reason::BoardFull
        } else if self.board.count() == self.rules.pieces() {
            Reason::PiecesGone
        } else {
            return None;
        };
        Some(Outcome {
            result: GameResult::Draw,
            reason,
        })
    }

    /// A text diagram: rows from the top, each cell the code of its piece or dots, the cells
    /// of a completed line in brackets, column letters below; then who holds what.
    pub fn diagram(&self) -> String {
        let rules = &self.rules;
        let width = rules.code_len();
        let line = match &self.outcome {
            Some(Outcome {
                reason: Reason::Line { cells, .. },
                ..
            }) => cells.iter().fold(0u16, |m, c| m | c.bit()),
            _ => 0,
        };
        let mut out = String::new();
        for row in (0..rules.size()).rev() {
            let mut row_text = format!("{} ", row + 1);
            for column in 0..rules.size() {
                let cell = Cell::at(column, row, rules).expect("on the board");
                let text = self
                    .board
                    .piece_at(cell)
                    .map_or_else(|| ".".repeat(width), |p| p.code(rules));
                if line & cell.bit() != 0 {
                    row_text.push_str(&format!("[{text}]"));
                } else {
                    row_text.push_str(&format!(" {text} "));
                }
            }
            out.push_str(row_text.trim_end());
            out.push('\n');
        }
        let mut letters = String::from("  ");
        for column in 0..rules.size() {
            let letter = char::from(b'a' + column as u8);
            letters.push_str(&format!(" {letter:<width$} "));
        }
        out.push_str(letters.trim_end());
        out.push('\n');
        out.push_str(&format!("{rules}, {} turns played\n", self.plies));
        match (&self.outcome, self.hand) {
            (Some(outcome), _) => {
                out.push_str(&format!("game over: {}\n", outcome.describe(rules)))
            }
            (None, None) => out.push_str(&format!("{} to hand over a piece\n", self.to_move())),
            (None, Some(piece)) => out.push_str(&format!(
                "{} to place {}, then hand over a piece\n",
                self.to_move(),
                piece.code(rules)
            )),
        }
        if !self.is_over() {
            let left: Vec<String> = bits_of(self.remaining())
                .map(|p| Piece::from_bits(p as u8).code(rules))
                .collect();
            out.push_str(&format!("pieces left: {}\n", left.join(" ")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(rules: &Rules, cell: Option<&str>, give: Option<&str>) -> Turn {
        Turn {
            place: cell.map(|c| Cell::parse(c, rules).unwrap()),
            give: give.map(|p| Piece::parse(p, rules).unwrap()),
        }
    }

    #[test]
    fn p2_places_first_and_a_shared_attribute_ends_the_game() {
        let rules = Rules::standard();
        let mut pos = Position::new(rules);
        assert_eq!(pos.legal_turns().len(), 16);
        let turns = [
            (None, Some("LSRF")),
            (Some("a1"), Some("LSRH")),
            (Some("b1"), Some("LSQF")),
            (Some("c1"), Some("DTQH")),
            (Some("a2"), Some("LTRF")),
        ];
        for (i, (cell, give)) in turns.iter().enumerate() {
            assert_eq!(pos.to_move(), Player::to_move_after(i as u32));
            pos = pos.play(turn(&rules, *cell, *give)).unwrap();
        }
        // P2 holds LTRF, light like a1, b1 and c1: d1 completes the row.
        assert_eq!(pos.to_move(), Player::P2);
        let over = pos.play(turn(&rules, Some("d1"), None)).unwrap();
        let outcome = over.outcome().unwrap();
        assert_eq!(outcome.result, GameResult::Win(Player::P2));
        assert_eq!(
            outcome.describe(&rules),
            "P2 wins: P2 completed a line at a1 b1 c1 d1"
        );
        assert!(over.diagram().contains("[LTRF]"));
        assert_eq!(
            pos.play(turn(&rules, Some("d1"), Some("DSRF"))),
            Err(PlayError::NothingToGive(outcome.describe(&rules)))
        );
        assert!(matches!(
            pos.play(turn(&rules, Some("a1"), Some("DSRF"))),
            Err(PlayError::CellTaken { .. })
        ));
        assert!(matches!(
            pos.play(turn(&rules, Some("d4"), Some("LTRF"))),
            Err(PlayError::PieceTaken {
                place: "the piece just placed",
                ..
            })
        ));
        assert_eq!(
            pos.play(turn(&rules, Some("d4"), None)),
            Err(PlayError::MustGive)
        );
    }
}
