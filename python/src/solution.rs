//! `connectk.Solution` and `connectk.MoveValue`: what a solve or an analysis found.

use connectk::{Column, GameResult, MoveValue, Solution, Value};
use pyo3::prelude::*;

use crate::error::py_str;

/// The value of one move of an analysed position, counted from the position before it (a
/// move that ends the game has remoteness 1).
#[pyclass(module = "connectk._core", name = "MoveValue", frozen, get_all)]
#[derive(Clone)]
pub struct PyMoveValue {
    /// The move's column (0-based).
    pub column: u32,
    /// "P1", "P2" or "Draw" under perfect play after the move.
    pub outcome: &'static str,
    /// Plies to the end under perfect play, the move included (None after a weak solve).
    pub remoteness: Option<u32>,
}

#[pymethods]
impl PyMoveValue {
    fn __repr__(&self) -> String {
        format!(
            "MoveValue(column={}, outcome={}, remoteness={})",
            self.column,
            py_str(self.outcome),
            optional(self.remoteness)
        )
    }
}

/// What a solve found: the value of the position under perfect play (`outcome`: "P1" or
/// "P2" wins, or "Draw"; `remoteness`: plies to the end when the winner hurries and the loser
/// delays, for a draw the empty cells left), the best moves, each move's value after
/// `analyze`, whether the answer is complete (False when a budget ran out first: then the
/// value is None), the nodes searched and the seconds spent.
#[pyclass(module = "connectk._core", name = "Solution", frozen, get_all)]
#[derive(Clone)]
pub struct PySolution {
    /// "P1", "P2" or "Draw"; None when the budget ran out first.
    pub outcome: Option<&'static str>,
    /// Plies to the end under perfect play (None after a weak solve or without an answer).
    pub remoteness: Option<u32>,
    /// The moves (0-based columns) that keep the value, best first in column order.
    pub best_moves: Vec<u32>,
    /// Each legal move's value, after `analyze` (empty otherwise).
    pub move_values: Vec<PyMoveValue>,
    /// Whether the search finished within its budget.
    pub complete: bool,
    /// Search nodes spent.
    pub nodes: u64,
    /// Wall-clock seconds spent.
    pub seconds: f64,
}

impl PySolution {
    /// The Python form of a library solution.
    pub fn of(solution: &Solution) -> PySolution {
        PySolution {
            outcome: Some(solution.value.result.label()),
            remoteness: solution.value.remoteness,
            best_moves: solution.best_moves.iter().map(|c| c.index()).collect(),
            move_values: solution.moves.iter().map(move_value).collect(),
            complete: true,
            nodes: solution.nodes,
            seconds: solution.seconds,
        }
    }

    /// A solve that gave up at its budget after `seconds`.
    pub fn incomplete(seconds: f64) -> PySolution {
        PySolution {
            outcome: None,
            remoteness: None,
            best_moves: Vec::new(),
            move_values: Vec::new(),
            complete: false,
            nodes: 0,
            seconds,
        }
    }

    /// A bare value (a batch solve), with the nodes it cost.
    pub fn of_value(value: Option<Value>, nodes: u64, seconds: f64) -> PySolution {
        match value {
            Some(value) => PySolution {
                outcome: Some(value.result.label()),
                remoteness: value.remoteness,
                nodes,
                ..PySolution::incomplete(seconds)
            }
            .completed(),
            None => PySolution::incomplete(seconds),
        }
    }

    fn completed(self) -> PySolution {
        PySolution {
            complete: true,
            ..self
        }
    }
}

/// The Python form of one move's value.
fn move_value(m: &MoveValue) -> PyMoveValue {
    PyMoveValue {
        column: Column::index(m.column),
        outcome: m.value.result.label(),
        remoteness: m.value.remoteness,
    }
}

/// `None` or the number, as Python writes them.
fn optional(value: Option<u32>) -> String {
    value.map_or_else(|| "None".to_string(), |v| v.to_string())
}

#[pymethods]
impl PySolution {
    /// The winner under perfect play ("P1" or "P2"), None for a draw or without an answer.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.outcome.filter(|o| *o != GameResult::Draw.label())
    }

    fn __repr__(&self) -> String {
        let moves = if self.move_values.is_empty() {
            String::new()
        } else {
            format!(", move_values=[{} moves]", self.move_values.len())
        };
        format!(
            "Solution(outcome={}, remoteness={}, best_moves={:?}{moves}, complete={}, nodes={})",
            self.outcome.map_or_else(|| "None".to_string(), py_str),
            optional(self.remoteness),
            self.best_moves,
            if self.complete { "True" } else { "False" },
            self.nodes
        )
    }
}
