//! The rows of `table1.csv`: one per solved board, appended as boards finish.

use serde::{Deserialize, Serialize};

use super::grid::Board;
use crate::experiment::store::Record;

/// One solved board, as stored in `table1.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Always `misere` for Table I.
    pub rules: String,
    /// Line length.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// width * height.
    pub cells: u32,
    /// Table I's outcome (`P1`, `P2`, `Draw`), empty where the paper makes no claim.
    pub paper: Option<String>,
    /// The solver's outcome.
    pub solver: String,
    /// Whether they agree, empty where the paper makes no claim.
    pub agree: Option<bool>,
    /// Plies until the game ends under perfect play (for a draw: the number of cells); empty
    /// after an outcome-only (weak) sweep.
    pub remoteness: Option<u32>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Row {
    /// The board this row solved.
    pub fn board(&self) -> Board {
        Board {
            k: self.k,
            width: self.width,
            height: self.height,
        }
    }
}

impl Record for Row {
    type Key = Board;

    fn key(&self) -> Board {
        self.board()
    }
}

/// The store of a Table I run: one row per board.
pub type Store = crate::experiment::store::Store<Row>;
