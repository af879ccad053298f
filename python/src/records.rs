//! The library's serializable records (result rows, game records) as Python dicts, with the
//! field names and labels of its CSV and JSON files.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde::Serialize;
use serde_json::Value;

/// `record` as a Python object: a struct becomes a dict, a sequence a list.
pub fn to_python<'py>(py: Python<'py>, record: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(record)
        .map_err(|e| PyRuntimeError::new_err(format!("cannot convert a record: {e}")))?;
    value_to_python(py, &value)
}

/// Every record of `records` as Python objects.
pub fn all_to_python<'py, T: Serialize>(
    py: Python<'py>,
    records: &[T],
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    records.iter().map(|r| to_python(py, r)).collect()
}

fn value_to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            (None, None) => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(value_to_python(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(fields) => {
            let dict = PyDict::new(py);
            for (key, item) in fields {
                dict.set_item(key, value_to_python(py, item)?)?;
            }
            dict.into_any()
        }
    })
}
