//! `connectk.Position`: a Connect-k position with the moves that reached it.

use connectk::analysis::GameState;
use connectk::{Column, Player, Position, notation};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::error::{py_str, value_error};
use crate::rules::PyRules;

/// A position of a Connect-k game and the moves that reached it (immutable: `play` returns
/// a new position).
///
/// Columns are 0-based indices everywhere in Python (as numpy, PettingZoo and OpenSpiel count
/// them); move strings use the command line's notation, columns from 1 ("4453", comma-separated
/// on boards wider than 9).
#[pyclass(module = "connectk._core", name = "Position", frozen)]
#[derive(Clone)]
pub struct PyPosition {
    /// The position itself.
    pub position: Position,
    /// Every move played from the empty board, first to last.
    pub moves: Vec<Column>,
}

impl PyPosition {
    /// The position reached by `moves` (move notation) under `rules`.
    pub fn parse(rules: connectk::Rules, moves: &str) -> PyResult<PyPosition> {
        let (position, moves) = notation::parse(rules, moves).map_err(value_error)?;
        Ok(PyPosition { position, moves })
    }

    /// The position after the move in column index `column`.
    pub fn after(&self, column: i64) -> PyResult<PyPosition> {
        let column = checked_column(self.position.rules(), column)?;
        let position = self
            .position
            .played(column)
            .map_err(|e| PyValueError::new_err(format!("column index {}: {e}", column.index())))?;
        let mut moves = self.moves.clone();
        moves.push(column);
        Ok(PyPosition { position, moves })
    }

    /// The game state record of the library (`connectk show --json`).
    fn state(&self) -> GameState {
        GameState::of(&self.position, &self.move_string())
    }

    fn move_string(&self) -> String {
        notation::format(self.position.rules(), &self.moves)
    }

    /// Who holds each cell, rows from the top, as 0 (empty), 1 (P1) or 2 (P2).
    fn cell_codes(&self) -> Vec<u8> {
        let rules = self.position.rules();
        let mut codes = Vec::with_capacity(rules.cells() as usize);
        for row in (0..rules.height()).rev() {
            for column in 0..rules.width() {
                let cell = connectk::Cell { column, row };
                codes.push(match self.position.cell(cell) {
                    None => 0,
                    Some(Player::P1) => 1,
                    Some(Player::P2) => 2,
                });
            }
        }
        codes
    }
}

/// The column of 0-based index `column`, or a ValueError saying which indices exist.
pub fn checked_column(rules: connectk::Rules, column: i64) -> PyResult<Column> {
    let width = i64::from(rules.width());
    if !(0..width).contains(&column) {
        return Err(PyValueError::new_err(format!(
            "column index {column} is out of range: indices are 0 to {} (move strings count from 1)",
            width - 1
        )));
    }
    Ok(Column::new(column as u32))
}

/// `numpy.frombuffer(data, int8)` in the given shape (numpy is imported on first use, so
/// that `import connectk` stays fast).
fn int8_array<'py>(py: Python<'py>, data: &[u8], shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy")?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", numpy.getattr("int8")?)?;
    let flat = numpy
        .getattr("frombuffer")?
        .call((PyBytes::new(py, data),), Some(&kwargs))?;
    // frombuffer gives a read-only view of the bytes; a copy is an ordinary array.
    flat.call_method1("reshape", (shape.to_vec(),))?
        .call_method0("copy")
}

#[pymethods]
impl PyPosition {
    /// The empty board of `rules` (standard Connect Four when omitted).
    #[new]
    #[pyo3(signature = (rules=None))]
    fn new(rules: Option<PyRules>) -> PyPosition {
        let rules = rules.map_or_else(connectk::Rules::standard, |r| r.rules);
        PyPosition {
            position: Position::new(rules),
            moves: Vec::new(),
        }
    }

    /// The position reached by a move string in the command line's notation ("4453";
    /// "10,3,3" on boards wider than 9) from the empty board of `rules`.
    ///
    /// Raises ValueError naming the first malformed or illegal move.
    #[staticmethod]
    #[pyo3(signature = (moves, rules=None))]
    fn from_moves(moves: &str, rules: Option<PyRules>) -> PyResult<PyPosition> {
        PyPosition::parse(
            rules.map_or_else(connectk::Rules::standard, |r| r.rules),
            moves,
        )
    }

    /// The position after a move in column index `column` (0-based).
    ///
    /// Raises ValueError when the column is out of range or full, or the game is over.
    fn play(&self, column: i64) -> PyResult<PyPosition> {
        self.after(column)
    }

    /// The columns (0-based) that still have room, none once the game is over.
    fn legal_moves(&self) -> Vec<u32> {
        self.position
            .legal_columns()
            .into_iter()
            .map(Column::index)
            .collect()
    }

    /// A (width,) int8 numpy array: 1 where a move is legal, 0 elsewhere.
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let width = self.position.rules().width() as usize;
        let mut mask = vec![0u8; width];
        for column in self.position.legal_columns() {
            mask[column.index() as usize] = 1;
        }
        int8_array(py, &mask, &[width])
    }

    /// A (height, width) int8 numpy array of the board, row 0 at the top (the game service's
    /// flat layout, so that `winning_indices` index its `ravel()`): 0 empty, 1 P1, 2 P2.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rules = self.position.rules();
        let shape = [rules.height() as usize, rules.width() as usize];
        int8_array(py, &self.cell_codes(), &shape)
    }

    /// The rules of the game.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules {
            rules: self.position.rules(),
        }
    }

    /// The moves played, in the command line's notation (columns from 1).
    #[getter]
    fn moves(&self) -> String {
        self.move_string()
    }

    /// The moves played, as 0-based column indices.
    #[getter]
    fn history(&self) -> Vec<u32> {
        self.moves.iter().map(|c| c.index()).collect()
    }

    /// Discs on the board.
    #[getter]
    fn plies(&self) -> u32 {
        self.position.plies()
    }

    /// "P1" or "P2", the side to move; None once the game is over.
    #[getter]
    fn to_move(&self) -> Option<&'static str> {
        self.state().to_move
    }

    /// Whether the game has ended (a line of k, or a full board).
    #[getter]
    fn is_over(&self) -> bool {
        self.position.is_over()
    }

    /// "P1", "P2" or "Draw" once the game is over (under misère rules the winner is the
    /// player who did not complete the line); None before.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.state().winner
    }

    /// "line" or "board-full" once the game is over; None before.
    #[getter]
    fn reason(&self) -> Option<&'static str> {
        self.state().reason
    }

    /// Who completed the line ("P1" or "P2"), when the game ended with one.
    #[getter]
    fn completed_by(&self) -> Option<&'static str> {
        self.state().completed_by
    }

    /// The cells of the completed line(s) as (column, row) pairs, row 0 at the bottom.
    #[getter]
    fn winning_cells(&self) -> Vec<(u32, u32)> {
        let cells = self.state().winning_cells;
        cells.into_iter().map(|[c, r]| (c, r)).collect()
    }

    /// The same cells as flat indices row * width + column, row 0 at the top (indices into
    /// `to_numpy().ravel()`, as the game service numbers them).
    #[getter]
    fn winning_indices(&self) -> Vec<u32> {
        self.state().winning_indices
    }

    fn __str__(&self) -> String {
        self.position.diagram()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position.from_moves({}, rules={})",
            py_str(&self.move_string()),
            self.rules().__repr__()
        )
    }

    fn __eq__(&self, other: &PyPosition) -> bool {
        self.position == other.position
    }

    fn __hash__(&self) -> u64 {
        let key = self.position.key();
        (key as u64) ^ ((key >> 64) as u64).rotate_left(17) ^ u64::from(self.position.plies())
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String, PyRules))> {
        let from_moves = py.get_type::<PyPosition>().getattr("from_moves")?.unbind();
        Ok((from_moves, (self.move_string(), self.rules())))
    }
}
