//! Players, cells, and how a finished game ended.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One of the two players. `P1` moves first and plays X; `P2` plays O.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    /// The player who moves first (X).
    P1,
    /// The player who moves second (O).
    P2,
}

impl Player {
    /// The opponent.
    pub fn other(self) -> Player {
        match self {
            Player::P1 => Player::P2,
            Player::P2 => Player::P1,
        }
    }

    /// The player to move after `plies` moves have been played.
    pub fn to_move_after(plies: u32) -> Player {
        if plies.is_multiple_of(2) {
            Player::P1
        } else {
            Player::P2
        }
    }

    /// The disc symbol used in diagrams: `X` for P1, `O` for P2.
    pub fn symbol(self) -> char {
        match self {
            Player::P1 => 'X',
            Player::P2 => 'O',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::P1 => "P1",
            Player::P2 => "P2",
        })
    }
}

/// A cell of the board: `column` from 0 at the left, `row` from 0 at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    /// Column index, 0 = leftmost.
    pub column: u32,
    /// Row index, 0 = bottom.
    pub row: u32,
}

impl fmt::Display for Cell {
    /// Written as `column:row`, both counted from 1 as a player would say them (`4:1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.column + 1, self.row + 1)
    }
}

/// The result of a game from the point of view of both players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// This player won.
    Win(Player),
    /// Neither player won.
    Draw,
}

impl GameResult {
    /// `"P1"`, `"P2"` or `"Draw"`, the spelling used in CSV and JSON output.
    pub fn label(self) -> &'static str {
        match self {
            GameResult::Win(Player::P1) => "P1",
            GameResult::Win(Player::P2) => "P2",
            GameResult::Draw => "Draw",
        }
    }

    /// Parses the spelling produced by [`GameResult::label`].
    pub fn from_label(label: &str) -> Option<GameResult> {
        match label {
            "P1" => Some(GameResult::Win(Player::P1)),
            "P2" => Some(GameResult::Win(Player::P2)),
            "Draw" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reason {
    /// `by` completed a line of k or more; `cells` are every cell of the line(s) through the last move.
    Line {
        /// The player who completed the line (the winner under normal rules, the loser under misère).
        by: Player,
        /// Cells of the completed line(s), sorted.
        cells: Vec<Cell>,
    },
    /// Every cell is filled and nobody completed a line.
    BoardFull,
}

/// How a finished game ended: the result and the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Who won, or draw.
    pub result: GameResult,
    /// What ended the game.
    pub reason: Reason,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.reason {
            Reason::BoardFull => write!(f, "draw: board full"),
            Reason::Line { by, cells } => {
                let cells: Vec<String> = cells.iter().map(Cell::to_string).collect();
                write!(
                    f,
                    "{} wins: {} completed a line at {}",
                    match self.result {
                        GameResult::Win(p) => p.to_string(),
                        GameResult::Draw => "nobody".to_string(),
                    },
                    by,
                    cells.join(" ")
                )
            }
        }
    }
}
