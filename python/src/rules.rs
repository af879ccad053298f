//! `connectk.Rules`: k, board size, normal or misère rules, flat or cylinder.

use connectk::{Rules, Topology, Variant};
use pyo3::prelude::*;

use crate::error::{py_str, value_error};

/// The rules of a Connect-k game: line length `k`, a `width` x `height` board, `rules`
/// ("normal": the maker of a line of k wins; "misere": the maker loses) and `topology`
/// ("flat", or "cylinder": the last column stands next to the first).
///
/// Raises ValueError (with the library's message) for a board the engine does not take:
/// width * (height + 1) must be at most 128, and 1 <= k <= 127.
#[pyclass(module = "connectk._core", name = "Rules", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRules {
    /// The validated rules.
    pub rules: Rules,
}

/// The rules from the keyword arguments Python callers use everywhere.
pub fn make(k: u32, width: u32, height: u32, rules: &str, topology: &str) -> PyResult<Rules> {
    let variant: Variant = rules.parse().map_err(value_error)?;
    let topology: Topology = topology.parse().map_err(value_error)?;
    Ok(Rules::new(k, width, height, variant)
        .map_err(value_error)?
        .with_topology(topology))
}

/// The constructor's arguments: k, width, height, rules, topology.
type RulesArgs = (u32, u32, u32, &'static str, &'static str);

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (k=4, width=7, height=6, rules="normal", topology="flat"))]
    fn new(k: u32, width: u32, height: u32, rules: &str, topology: &str) -> PyResult<PyRules> {
        Ok(PyRules {
            rules: make(k, width, height, rules, topology)?,
        })
    }

    /// Length of a line that ends the game.
    #[getter]
    fn k(&self) -> u32 {
        self.rules.k()
    }

    /// Number of columns.
    #[getter]
    fn width(&self) -> u32 {
        self.rules.width()
    }

    /// Number of rows.
    #[getter]
    fn height(&self) -> u32 {
        self.rules.height()
    }

    /// "normal" or "misere".
    #[getter]
    fn rules(&self) -> &'static str {
        self.rules.variant().name()
    }

    /// "flat" or "cylinder".
    #[getter]
    fn topology(&self) -> &'static str {
        self.rules.topology().name()
    }

    /// Number of cells, width * height.
    #[getter]
    fn cells(&self) -> u32 {
        self.rules.cells()
    }

    /// `Rules(k=4, width=7, height=6, rules="normal", topology="flat")`.
    pub fn __repr__(&self) -> String {
        let r = self.rules;
        format!(
            "Rules(k={}, width={}, height={}, rules={}, topology={})",
            r.k(),
            r.width(),
            r.height(),
            py_str(r.variant().name()),
            py_str(r.topology().name())
        )
    }

    fn __str__(&self) -> String {
        self.rules.to_string()
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, RulesArgs)> {
        let r = self.rules;
        let class = py.get_type::<PyRules>().into_any().unbind();
        let args = (
            r.k(),
            r.width(),
            r.height(),
            r.variant().name(),
            r.topology().name(),
        );
        Ok((class, args))
    }
}
