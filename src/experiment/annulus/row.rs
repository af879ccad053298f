//! The rows of `annulus.csv`: one per solved cylinder board, appended as boards finish.

use serde::{Deserialize, Serialize};

use crate::engine::outcome::GameResult;
use crate::engine::rules::{Topology, Variant};
use crate::experiment::export::labels;
use crate::experiment::store::Record;
use crate::experiment::sweep::{Board, SweepRow};
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
    pub(crate) fn board(&self) -> Board {
        Board {
            topology: self.topology,
            ..Board::flat(self.rules, self.k, self.width, self.height)
        }
    }

    /// Whether the cylinder's outcome differs from Table I's for the flat board (false where
    /// the paper makes no claim).
    pub(crate) fn differs_from_flat(&self) -> bool {
        self.flat_table1.is_some_and(|flat| flat != self.outcome)
    }
}

impl Record for Row {
    type Key = Board;

    fn key(&self) -> Board {
        self.board()
    }
}

impl SweepRow for Row {
    const COLUMNS: &'static [&'static str] = &[
        "rules",
        "topology",
        "k",
        "width",
        "height",
        "cells",
        "depth",
        "outcome",
        "remoteness",
        "flat_table1",
        "nodes",
        "seconds",
    ];

    /// Rows of two runs agree when they give the same outcome, and the same remoteness where
    /// both have one (their nodes and times may differ).
    fn agrees(&self, other: &Row) -> bool {
        let remoteness = match (self.remoteness, other.remoteness) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        self.outcome == other.outcome && remoteness && self.flat_table1 == other.flat_table1
    }

    fn name(&self) -> String {
        format!("{} {}", self.rules, self.board().name())
    }

    /// An exact row settles more than an outcome-only one.
    fn settles(&self) -> u8 {
        if self.remoteness.is_some() { 2 } else { 1 }
    }
}
