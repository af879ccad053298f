//! The library's errors as Python exceptions: each one a `ValueError` carrying the library's
//! one-line message.

use std::fmt::Display;

use pyo3::PyErr;
use pyo3::exceptions::PyValueError;

/// A `ValueError` whose message is the error's own one-line description.
pub fn value_error(error: impl Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// A string as Python's `repr` writes it (the strings here hold no quotes or escapes).
pub fn py_str(text: &str) -> String {
    format!("'{text}'")
}
