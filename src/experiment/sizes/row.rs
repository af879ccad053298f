//! The rows of `sizes.csv` (finished boards) and `open.csv` (attempts that ran out of time).

use std::cmp::Reverse;

use serde::{Deserialize, Serialize};

use super::published::Published;
use crate::engine::outcome::GameResult;
use crate::engine::rules::Variant;
use crate::experiment::export::labels;
use crate::experiment::store::Record;
use crate::experiment::sweep::{Board, SweepRow};
use crate::solver::Partial;

/// One finished board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// `normal` or `misere`.
    pub rules: Variant,
    /// Line length.
    pub k: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// width * height.
    pub cells: u32,
    /// `P1`, `P2` or `Draw` with perfect play.
    #[serde(with = "labels::outcome")]
    pub outcome: GameResult,
    /// The ply on which the game ends with perfect play (the winner hurries, the loser
    /// delays; a draw ends on the last cell).
    pub remoteness: u32,
    /// The published value, as `P1 41`, for normal Connect Four where one is tabled.
    pub published: Option<Published>,
    /// Whether outcome and last move agree with it.
    pub agree_published: Option<bool>,
    /// Table I's outcome, under misère rules.
    #[serde(with = "labels::optional_outcome")]
    pub table1: Option<GameResult>,
    /// Whether the outcome agrees with it.
    pub agree_table1: Option<bool>,
    /// The paper's strategy that decides the board and its player, as `take-even P2`.
    pub strategy: Option<String>,
    /// The longest game the opponent can force against that strategy (boards up to 48 cells).
    pub strategy_longest: Option<u32>,
    /// A principal variation: best moves for both sides to the end (`Solver::principal_variation`).
    pub pv: String,
    /// Nodes of the exact solve.
    pub nodes: u64,
    /// Wall-clock seconds of the exact solve, principal variation and checks.
    pub seconds: f64,
    /// The transposition table, in MiB.
    pub table_mb: usize,
    /// The commit of the binary that solved the board.
    pub commit: String,
}

impl Row {
    /// The board of this row.
    pub(crate) fn board(&self) -> Board {
        Board::flat(self.rules, self.k, self.width, self.height)
    }
}

impl Record for Row {
    type Key = Board;

    fn key(&self) -> Board {
        self.board()
    }
}

/// A board not settled exactly within the time given, with how far it got.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// `normal` or `misere`.
    pub rules: Variant,
    /// Line length.
    pub k: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Seconds given to the exact solve, and again to the outcome-only one.
    pub seconds_each: f64,
    /// The outcome, when the exact solve got as far as it or the outcome-only solve finished.
    #[serde(with = "labels::optional_outcome")]
    pub outcome: Option<GameResult>,
    /// The shortest game length (last ply) still possible, when the exact solve got past the
    /// outcome (empty otherwise, and in files written before it was kept).
    #[serde(default)]
    pub remoteness_min: Option<u32>,
    /// The longest game length still possible, likewise.
    #[serde(default)]
    pub remoteness_max: Option<u32>,
    /// Nodes searched in all, over this attempt and the earlier ones it went on from.
    pub nodes: u64,
    /// Seconds spent in all, likewise (empty in files written before it was kept).
    #[serde(default)]
    pub seconds: Option<f64>,
    /// The start of a principal variation, once the exact value is known and its line was
    /// being found when the time ran out (a rerun goes on from its end); empty otherwise, and
    /// in files written before it was kept.
    #[serde(default)]
    pub line: String,
}

impl Attempt {
    /// The board attempted.
    pub(crate) fn board(&self) -> Board {
        Board::flat(self.rules, self.k, self.width, self.height)
    }

    /// What this attempt settled of the board's value, for a later solve to go on from.
    pub(crate) fn partial(&self) -> Partial {
        let remoteness = self.remoteness_min.zip(self.remoteness_max);
        Partial {
            result: self.outcome,
            remoteness: self.outcome.and(remoteness),
        }
    }

    /// Seconds spent in all; for an attempt from a file without them, the time its exact
    /// solve was given, which it spent in full.
    pub(crate) fn seconds_spent(&self) -> f64 {
        self.seconds.unwrap_or(self.seconds_each)
    }

    /// What this attempt knows of the game length: `43 (line found to 5532)` once the length
    /// is settled and part of its line found, `43 (line not started)` before that, `18 to 44`
    /// for a range, `unknown` before.
    pub fn length_text(&self) -> String {
        match (self.remoteness_min, self.remoteness_max) {
            (Some(min), Some(max)) if min == max && self.line.is_empty() => {
                format!("{min} (line not started)")
            }
            (Some(min), Some(max)) if min == max => {
                format!("{min} (line found to {})", self.line)
            }
            (Some(min), Some(max)) => format!("{min} to {max}"),
            _ => "unknown".into(),
        }
    }

    /// How far this attempt went, for choosing among attempts at one board: what it settled
    /// first (an outcome, then the narrowest range of lengths, then the longest start of a
    /// line), then the time it was given and the nodes it searched. An attempt that went on
    /// from an earlier one knows at least as much, so it goes further.
    pub(crate) fn reach(&self) -> (bool, Reverse<u32>, usize, u64, u64) {
        let range = match (self.remoteness_min, self.remoteness_max) {
            (Some(min), Some(max)) => max - min,
            _ => u32::MAX,
        };
        (
            self.outcome.is_some(),
            Reverse(range),
            self.line.len(),
            // Non-negative, so their bits order as the numbers do.
            self.seconds_each.to_bits(),
            self.nodes,
        )
    }
}

impl Record for Attempt {
    type Key = (Board, u64);

    fn key(&self) -> (Board, u64) {
        (self.board(), self.seconds_each.to_bits())
    }
}

impl SweepRow for Row {
    const COLUMNS: &'static [&'static str] = &[
        "rules",
        "k",
        "width",
        "height",
        "cells",
        "outcome",
        "remoteness",
        "published",
        "agree_published",
        "table1",
        "agree_table1",
        "strategy",
        "strategy_longest",
        "pv",
        "nodes",
        "seconds",
        "table_mb",
        "commit",
    ];

    /// Rows of two runs agree when they give the same outcome and game length (their
    /// principal variations, times and tables may differ).
    fn agrees(&self, other: &Row) -> bool {
        (self.outcome, self.remoteness) == (other.outcome, other.remoteness)
    }

    fn name(&self) -> String {
        format!("{} {}", self.rules, self.board().name())
    }
}
