//! `connectk.Solver`: the exact solver, keeping its table across calls.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

use connectk::{Book, Budget, Depth, Mib, Solver};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::error::value_error;
use crate::interrupt;
use crate::position::PyPosition;
use crate::solution::PySolution;

/// Most threads one solver may search with (as `connectk solve --threads`).
const MAX_THREADS: usize = 64;

/// An exact solver that keeps its transposition table (and what it learned) across calls, for
/// positions of any rules: `table_mb` MiB of table, `threads` threads sharing it, and an
/// opening book file (`book`, a `.ckbook` path) consulted for positions of its rules.
///
/// Every solve releases the GIL, and Ctrl-C interrupts it (raising KeyboardInterrupt; the
/// table stays sound). One solver runs one solve at a time: use one per thread.
#[pyclass(module = "connectk._core", name = "Solver", frozen)]
pub struct PySolver {
    solver: Mutex<Solver>,
}

/// The depth named by `depth`: "strong" (value and remoteness) or "weak" (outcome only).
pub fn parse_depth(depth: &str) -> PyResult<Depth> {
    match depth {
        "strong" => Ok(Depth::Strong),
        "weak" => Ok(Depth::Weak),
        _ => Err(PyValueError::new_err(format!(
            "unknown depth {depth:?}: expected \"strong\" or \"weak\""
        ))),
    }
}

/// The budget of `budget_ms` milliseconds of search (None: unlimited).
fn budget(budget_ms: Option<f64>) -> PyResult<Budget> {
    match budget_ms {
        None => Ok(Budget::UNLIMITED),
        Some(ms) if ms.is_finite() && ms >= 0.0 => {
            Ok(Budget::time(Duration::from_secs_f64(ms / 1e3)))
        }
        Some(ms) => Err(PyValueError::new_err(format!(
            "budget_ms = {ms} is not a time: expected a number of milliseconds >= 0"
        ))),
    }
}

/// A solver of `table_mb` MiB and `threads` threads consulting `book`, checked as the
/// command line checks them.
pub fn build(table_mb: usize, threads: usize, book: Option<PathBuf>) -> PyResult<Solver> {
    let table: Mib = table_mb.to_string().parse().map_err(value_error)?;
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(PyValueError::new_err(format!(
            "threads = {threads} is out of range: use 1 to {MAX_THREADS}"
        )));
    }
    let mut solver = Solver::new(table).with_threads(threads);
    if let Some(path) = book {
        solver = solver.with_book(Arc::new(Book::read(&path).map_err(value_error)?));
    }
    Ok(solver)
}

impl PySolver {
    /// The solver, or a RuntimeError when another thread is using it (waiting for it while
    /// holding the GIL could deadlock with that thread's signal checks).
    fn lock(&self) -> PyResult<MutexGuard<'_, Solver>> {
        match self.solver.try_lock() {
            Ok(guard) => Ok(guard),
            // A solve that panicked left nothing half-written that matters: the table only
            // stores complete results.
            Err(TryLockError::Poisoned(poisoned)) => Ok(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(
                "this solver is busy in another thread: use one solver per thread",
            )),
        }
    }

    /// Runs one solve of `work` within `budget_ms`, an incomplete solution when it ran out.
    fn one(
        &self,
        py: Python<'_>,
        budget_ms: Option<f64>,
        work: impl FnOnce(&mut Solver) -> connectk::Solution + Send,
    ) -> PyResult<PySolution> {
        let budget = budget(budget_ms)?;
        let start = Instant::now();
        let mut solver = self.lock()?;
        let answer = interrupt::run(py, &mut *solver, |s| s.limited(budget, work))?;
        Ok(answer.map_or_else(
            || PySolution::incomplete(start.elapsed().as_secs_f64()),
            |s| PySolution::of(&s),
        ))
    }
}

#[pymethods]
impl PySolver {
    #[new]
    #[pyo3(signature = (table_mb=256, threads=1, book=None))]
    fn new(table_mb: usize, threads: usize, book: Option<PathBuf>) -> PyResult<PySolver> {
        Ok(PySolver {
            solver: Mutex::new(build(table_mb, threads, book)?),
        })
    }

    /// Solves `position`: its value under perfect play and (unless `best_moves=False`) every
    /// move that keeps it. `depth="weak"` gives the outcome only (faster); `budget_ms` gives up
    /// after that many milliseconds of search (the solution is then incomplete).
    #[pyo3(signature = (position, depth="strong", budget_ms=None, best_moves=true))]
    fn solve(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        depth: &str,
        budget_ms: Option<f64>,
        best_moves: bool,
    ) -> PyResult<PySolution> {
        let depth = parse_depth(depth)?;
        let pos = position.position;
        self.one(py, budget_ms, move |s| {
            if best_moves {
                s.solve_with_best_moves(&pos, depth)
            } else {
                s.solve_at(&pos, depth)
            }
        })
    }

    /// Solves every legal move of `position` (`move_values`), and the position's value and
    /// best moves from them.
    #[pyo3(signature = (position, depth="strong", budget_ms=None))]
    fn analyze(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        depth: &str,
        budget_ms: Option<f64>,
    ) -> PyResult<PySolution> {
        let depth = parse_depth(depth)?;
        let pos = position.position;
        self.one(py, budget_ms, move |s| s.analyze(&pos, depth))
    }

    /// Solves many positions in one call (values only, no best moves), each within
    /// `budget_ms` of its own; returns one solution per position, in order.
    #[pyo3(signature = (positions, depth="strong", budget_ms=None))]
    fn solve_batch(
        &self,
        py: Python<'_>,
        positions: Vec<PyRef<'_, PyPosition>>,
        depth: &str,
        budget_ms: Option<f64>,
    ) -> PyResult<Vec<PySolution>> {
        let depth = parse_depth(depth)?;
        let each = budget(budget_ms)?;
        let positions: Vec<connectk::Position> = positions.iter().map(|p| p.position).collect();
        let mut solver = self.lock()?;
        interrupt::run(py, &mut *solver, |s| {
            positions
                .iter()
                .map(|pos| {
                    let (start, before) = (Instant::now(), s.nodes());
                    let value = s.limited(each, |s| s.value(pos, depth));
                    let nodes = s.nodes().saturating_sub(before);
                    PySolution::of_value(value, nodes, start.elapsed().as_secs_f64())
                })
                .collect()
        })
    }

    fn __repr__(&self) -> String {
        "Solver()".to_string()
    }
}
