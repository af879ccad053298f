//! `connectk._core`: the Python extension module of connectk, a thin layer that converts
//! types at the edge and calls the library.
//!
//! The pure-Python package `connectk` re-exports these names and adds what is easier in
//! Python (pandas tables, the framework adapters).
#![deny(missing_docs)]

mod arena;
mod error;
mod experiments;
mod interrupt;
mod players;
mod position;
mod quarto;
mod records;
mod rules;
mod solution;
mod solver;
mod verify;

use pyo3::prelude::*;

/// The extension module: every class and function the Python package builds on.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<rules::PyRules>()?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<solution::PySolution>()?;
    m.add_class::<solution::PyMoveValue>()?;
    m.add_class::<solver::PySolver>()?;
    m.add_class::<players::PyPlayer>()?;
    m.add_function(wrap_pyfunction!(players::player_names, m)?)?;
    m.add_function(wrap_pyfunction!(arena::play_games, m)?)?;
    m.add_function(wrap_pyfunction!(arena::can_meet, m)?)?;
    m.add_class::<verify::PyVerdict>()?;
    m.add_function(wrap_pyfunction!(verify::verify, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::table1_rows, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::size_rows, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::paper_check_rows, m)?)?;
    m.add_class::<quarto::PyQuartoRules>()?;
    m.add_class::<quarto::PyQuartoPosition>()?;
    m.add_class::<quarto::PyQuartoSolution>()?;
    m.add_class::<quarto::PyQuartoSolver>()?;
    m.add_class::<quarto::PyQuartoPlayer>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
