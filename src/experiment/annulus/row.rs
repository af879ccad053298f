//! The rows of `annulus.csv`: one per solved cylinder board, appended as boards finish.

use serde::{Deserialize, Serialize};

use super::Board;
use crate::engine::outcome::GameResult;
use crate::engine::rules::{Topology, Variant};
use crate::experiment::export::labels;
use crate::experiment::store::Record;
use crate::solver::Depth;

/// One solved cylinder board, as stored in `annulus.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// `normal` or `misere`.
    pub rules: Variant,
    /// Always `cylinder`: the board's topology, as in every output that names a board.
    pub topology: Topology,
    /// Line length.
    pub k: u32,
    /// Circumference: the number of columns.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// width * height.
    pub cells: u32,
    /// `strong` (outcome and remoteness) or `weak` (outcome only: the exact solve passed its
    /// node limit).
    pub depth: Depth,
    /// The solver's outcome: `P1`, `P2` or `Draw`.
    #[serde(with = "labels::outcome")]
    pub outcome: GameResult,
    /// Plies until the game ends under perfect play (for a draw: the number of cells); empty
    /// for a weak row.
    pub remoteness: Option<u32>,
    /// Table I's outcome for the flat board of the same size (misère rules only; empty where
    /// the paper makes no claim).
    #[serde(with = "labels::optional_outcome")]
    pub flat_table1: Option<GameResult>,
    /// Nodes searched (both solves, for a weak row).
    pub nodes: u64,
    /// Wall-clock seconds (both solves, for a weak row).
    pub seconds: f64,
}

impl Row {
    /// The board this row solved.
    pub fn board(&self) -> Board {
        Board {
            variant: self.rules,
            k: self.k,
            width: self.width,
            height: self.height,
        }
    }

    /// Whether the cylinder's outcome differs from Table I's for the flat board (false where
    /// the paper makes no claim).
    pub fn differs_from_flat(&self) -> bool {
        self.flat_table1.is_some_and(|flat| flat != self.outcome)
    }
}

impl Record for Row {
    type Key = Board;

    fn key(&self) -> Board {
        self.board()
    }
}

/// The store of an annulus run: one row per board.
pub type Store = crate::experiment::store::Store<Row>;
