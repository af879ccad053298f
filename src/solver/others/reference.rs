//! A plain solver for standard Connect Four (7x6, normal rules), kept apart from the engine
//! and from the main search so that it can serve as a yardstick and as an independent check.
//!
//! It follows the design of the best-known tutorial solver (Pascal Pons' blog, "Solving
//! Connect 4"), as the blog describes it: a 64-bit bitboard, negamax with alpha-beta, moves
//! that hand the opponent an immediate win left out, centre-first order refined by the number
//! of threats a move makes, a table of upper bounds (8M one-word entries, 64 MiB) and a
//! bisection of null-window searches. It shares no code with the engine or the main solver:
//! its own bit layout, line detection, scoring and table. The code is ours, written from that
//! description; it is not the blog's.
//!
//! Scores follow the blog's convention: a win for the side to move scores 22 minus the number
//! of discs the winner has played when it completes its line (so 21 for a win with its first
//! disc), a loss the negative of the winner's score, a draw 0.

use crate::engine::outcome::{GameResult, Player};
use crate::solver::Value;

const WIDTH: u32 = 7;
const HEIGHT: u32 = 6;
const CELLS: i32 = (WIDTH * HEIGHT) as i32;
/// Bits per column: six cells and one spare bit that stops lines wrapping between columns.
const STRIDE: u32 = HEIGHT + 1;
/// The bottom cell of every column.
const BOTTOM: u64 = 0b0000001_0000001_0000001_0000001_0000001_0000001_0000001;
/// Every cell of the board.
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);
/// Columns searched first to last: centre first, then outwards.
const COLUMN_ORDER: [u32; 7] = [3, 2, 4, 1, 5, 0, 6];
/// Entries in the table: a prime close to 8M, so that keys spread over every entry.
const TABLE_ENTRIES: usize = 8_388_593;

/// A position on the reference solver's own bitboard.
#[derive(Clone, Copy, Debug)]
struct Board {
    /// Discs of the side to move.
    mine: u64,
    /// Every disc.
    mask: u64,
    /// Discs played so far.
    plies: i32,
}

impl Board {
    /// A unique number for the position: the side to move's discs plus the occupied cells plus
    /// the bottom row, which marks each column's height.
    fn key(&self) -> u64 {
        self.mine + self.mask + BOTTOM
    }

    /// The cells where a disc can go now.
    fn playable(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }

    fn play(&mut self, cell: u64) {
        self.mine ^= self.mask;
        self.mask |= cell;
        self.plies += 1;
    }

    /// Empty cells that would complete a line of four for the side to move.
    fn my_threats(&self) -> u64 {
        threats(self.mine, self.mask)
    }

    /// Empty cells that would complete a line of four for the opponent.
    fn their_threats(&self) -> u64 {
        threats(self.mine ^ self.mask, self.mask)
    }

    /// Moves after which the opponent cannot win at once (none if every move loses).
    fn safe_moves(&self) -> u64 {
        let mut moves = self.playable();
        let theirs = self.their_threats();
        let forced = moves & theirs;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            moves = forced;
        }
        moves & !(theirs >> 1)
    }

    /// Threats the side to move would have after playing `cell`.
    fn threats_after(&self, cell: u64) -> u32 {
        threats(self.mine | cell, self.mask | cell).count_ones()
    }
}

/// Empty cells completing a line of four for `discs`, given the occupied cells `mask`.
fn threats(discs: u64, mask: u64) -> u64 {
    // Vertical: three discs straight below.
    let mut found = (discs << 1) & (discs << 2) & (discs << 3);
    // Horizontal and the two diagonals: shifts by one column, one column up, one column down.
    for step in [STRIDE, STRIDE + 1, STRIDE - 1] {
        let pairs_back = (discs << step) & (discs << (2 * step));
        found |= pairs_back & (discs << (3 * step)); // three behind
        found |= pairs_back & (discs >> step); // two behind, one ahead
        let pairs_ahead = (discs >> step) & (discs >> (2 * step));
        found |= pairs_ahead & (discs >> (3 * step)); // three ahead
        found |= pairs_ahead & (discs << step); // two ahead, one behind
    }
    found & BOARD & !mask
}

/// The solver and its table.
pub struct ReferenceSolver {
    /// `key << 8 | stored` where `stored` is an upper bound encoded above [`MIN_SCORE`].
    table: Vec<u64>,
    nodes: u64,
}

/// The lowest score any position can have.
const MIN_SCORE: i32 = -CELLS / 2 + 3;

/// A move sequence the reference solver cannot take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    /// A column number outside 1..=7 or a full column.
    #[error("move {index}: column {column} is not playable on the 7x6 board")]
    Unplayable {
        /// Position of the move in the sequence, from 1.
        index: usize,
        /// The column, from 1.
        column: u32,
    },
    /// A move that completes a line: the position is over, nothing is left to solve.
    #[error("move {index} completes a line: the game is over")]
    GameOver {
        /// Position of the move in the sequence, from 1.
        index: usize,
    },
}

impl Default for ReferenceSolver {
    fn default() -> ReferenceSolver {
        ReferenceSolver::new()
    }
}

impl ReferenceSolver {
    /// A solver with an empty 64 MiB table.
    pub fn new() -> ReferenceSolver {
        ReferenceSolver {
            table: vec![0; TABLE_ENTRIES],
            nodes: 0,
        }
    }

    /// Nodes searched since the solver was created.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of the position after `columns` (0-based) in the main solver's terms (who
    /// wins; remoteness unless `weak`), for comparing the two solvers.
    ///
    /// # Errors
    /// [`ReferenceError`] when a column is not playable or a move ends the game.
    pub fn value(&mut self, columns: &[u32], weak: bool) -> Result<Value, ReferenceError> {
        let board = replay(columns)?;
        let score = self.solve(&board, weak);
        let mover = Player::to_move_after(board.plies as u32);
        let result = match score.signum() {
            1 => GameResult::Win(mover),
            -1 => GameResult::Win(mover.other()),
            _ => GameResult::Draw,
        };
        let remoteness = (!weak).then(|| {
            if score == 0 {
                (CELLS - board.plies) as u32
            } else {
                // The winner completes its line with its (22 - |score|)-th disc.
                let winner_discs = CELLS / 2 + 1 - score.abs();
                let first_player_won = (score > 0) == (mover == Player::P1);
                let end_ply = 2 * winner_discs - i32::from(first_player_won);
                (end_ply - board.plies) as u32
            }
        });
        Ok(Value { result, remoteness })
    }

    fn solve(&mut self, board: &Board, weak: bool) -> i32 {
        if board.my_threats() & board.playable() != 0 {
            return (CELLS + 1 - board.plies) / 2;
        }
        let (mut low, mut high) = if weak {
            (-1, 1)
        } else {
            (-(CELLS - board.plies) / 2, (CELLS + 1 - board.plies) / 2)
        };
        while low < high {
            // Probe halfway, pulled towards zero, where the searches are cheapest.
            let mut probe = low + (high - low) / 2;
            if probe <= 0 && low / 2 < probe {
                probe = low / 2;
            } else if probe >= 0 && high / 2 > probe {
                probe = high / 2;
            }
            let found = self.negamax(board, probe, probe + 1);
            if found <= probe {
                high = found;
            } else {
                low = found;
            }
        }
        low
    }

    /// Alpha-beta negamax over a position in which the side to move cannot win at once.
    fn negamax(&mut self, board: &Board, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let moves = board.safe_moves();
        if moves == 0 {
            return -(CELLS - board.plies) / 2;
        }
        if board.plies >= CELLS - 2 {
            return 0;
        }
        let lowest = -(CELLS - 2 - board.plies) / 2;
        if alpha < lowest {
            alpha = lowest;
            if alpha >= beta {
                return alpha;
            }
        }
        let key = board.key();
        let slot = (key % TABLE_ENTRIES as u64) as usize;
        let entry = self.table[slot];
        let highest = if entry != 0 && entry >> 8 == key {
            (entry & 0xff) as i32 + MIN_SCORE - 1
        } else {
            (CELLS - 1 - board.plies) / 2
        };
        if beta > highest {
            beta = highest;
            if alpha >= beta {
                return beta;
            }
        }
        // Order: more threats first; among equals, the centre-first column order (each move
        // goes after every move with at least as many threats).
        let mut ordered = [(0u32, 0u64); WIDTH as usize];
        let mut count = 0;
        for &column in &COLUMN_ORDER {
            let cell = moves & (((1 << HEIGHT) - 1) << (column * STRIDE));
            if cell == 0 {
                continue;
            }
            let rank = board.threats_after(cell);
            let at = ordered[..count]
                .iter()
                .position(|&(r, _)| r < rank)
                .unwrap_or(count);
            ordered.copy_within(at..count, at + 1);
            ordered[at] = (rank, cell);
            count += 1;
        }
        for &(_, cell) in &ordered[..count] {
            let mut child = *board;
            child.play(cell);
            let score = -self.negamax(&child, -beta, -alpha);
            if score >= beta {
                return score;
            }
            alpha = alpha.max(score);
        }
        self.table[slot] = key << 8 | (alpha - MIN_SCORE + 1) as u64;
        alpha
    }
}

/// The board after `columns` (0-based), refusing unplayable and game-ending moves.
fn replay(columns: &[u32]) -> Result<Board, ReferenceError> {
    let mut board = Board {
        mine: 0,
        mask: 0,
        plies: 0,
    };
    for (i, &column) in columns.iter().enumerate() {
        let cell = board.playable() & (((1 << HEIGHT) - 1) << (column.min(WIDTH) * STRIDE));
        if column >= WIDTH || cell == 0 {
            return Err(ReferenceError::Unplayable {
                index: i + 1,
                column: column + 1,
            });
        }
        if board.my_threats() & cell != 0 {
            return Err(ReferenceError::GameOver { index: i + 1 });
        }
        board.play(cell);
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn columns(moves: &str) -> Vec<u32> {
        moves.bytes().map(|b| u32::from(b - b'1')).collect()
    }

    #[test]
    fn scores_match_the_blog_examples() {
        // The blog's worked examples: "4455" scores 18 (a win with the mover's fourth disc),
        // "44455554221" scores -15.
        let mut solver = ReferenceSolver::new();
        let mut score = |moves| replay(&columns(moves)).map(|board| solver.solve(&board, false));
        assert_eq!(score("4455"), Ok(18));
        assert_eq!(score("44455554221"), Ok(-15));
    }

    #[test]
    fn line_detection_finds_each_direction() {
        // Discs at the given (column, row) cells; the empty cell that completes the line.
        let cell = |c: u32, r: u32| 1u64 << (c * STRIDE + r);
        let cases = [
            ([(0, 0), (0, 1), (0, 2)], cell(0, 3)),
            ([(1, 0), (2, 0), (4, 0)], cell(3, 0)),
            ([(0, 0), (1, 1), (2, 2)], cell(3, 3)),
            ([(3, 0), (2, 1), (0, 3)], cell(1, 2)),
        ];
        for (discs, completing) in cases {
            let stones = discs.iter().fold(0, |acc, &(c, r)| acc | cell(c, r));
            assert_eq!(threats(stones, stones) & completing, completing);
        }
        // Three in a column at the top of one column and the bottom of the next never wrap.
        let wrap = cell(0, 3) | cell(0, 4) | cell(0, 5);
        assert_eq!(threats(wrap, wrap) & cell(1, 0), 0);
    }

    #[test]
    fn bad_sequences_are_refused() {
        assert_eq!(
            replay(&columns("1111111")).map(|_| ()),
            Err(ReferenceError::Unplayable {
                index: 7,
                column: 1
            })
        );
        assert_eq!(
            replay(&[7]).map(|_| ()),
            Err(ReferenceError::Unplayable {
                index: 1,
                column: 8
            })
        );
        assert_eq!(
            replay(&columns("1212121")).map(|_| ()),
            Err(ReferenceError::GameOver { index: 7 })
        );
    }
}
