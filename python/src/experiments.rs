//! The experiments from Python: Table I, the size table and the paper's claims, returning
//! their rows instead of writing files.

use std::path::PathBuf;
use std::time::Duration;

use connectk::experiment::sweep::{Grid, Solved};
use connectk::experiment::{paper_checks, sizes, table1};
use connectk::{Mib, Topology, Variant};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::error::value_error;
use crate::records::all_to_python;
use crate::solver::parse_depth;

/// The memory size `mib`, checked as the command line checks it.
fn mib(mib: usize) -> PyResult<Mib> {
    mib.to_string().parse().map_err(value_error)
}

/// Table I's rows: every misère board with `k_min <= k <= k_max` and `width * height <=
/// max_cells`, solved from the empty board (in parallel, as `connectk table1` solves them)
/// and compared with the paper's prediction. Boards given up at `node_limit` are left out.
#[pyfunction]
#[pyo3(signature = (max_cells=24, k_min=2, k_max=6, depth="strong", table_mb=256, one_row_mb=2048, node_limit=None))]
#[allow(clippy::too_many_arguments)]
pub fn table1_rows<'py>(
    py: Python<'py>,
    max_cells: u32,
    k_min: u32,
    k_max: u32,
    depth: &str,
    table_mb: usize,
    one_row_mb: usize,
    node_limit: Option<u64>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if k_min < 2 || k_min > k_max || max_cells == 0 {
        return Err(PyValueError::new_err(format!(
            "bad grid k {k_min}..{k_max}, max_cells {max_cells}: Table I covers k >= 2, so use \
             2 <= k_min <= k_max and max_cells >= 1"
        )));
    }
    let grid = Grid {
        k_min,
        k_max,
        max_cells,
    };
    let boards = grid
        .boards(Variant::Misere, Topology::Flat)
        .map_err(value_error)?;
    let effort = table1::Effort {
        table: mib(table_mb)?,
        depth: parse_depth(depth)?,
        node_limit: node_limit.unwrap_or(u64::MAX),
        one_row: mib(one_row_mb)?,
    };
    let mut rows: Vec<table1::Row> = py.detach(|| {
        boards
            .par_iter()
            .filter_map(|&board| table1::solve_board(board, effort))
            .collect()
    });
    rows.sort_by_key(|r| (r.k, r.width, r.height));
    all_to_python(py, &rows)
}

/// The size table's rows: for each k of `ks` and each rule set of `rules`, every board with
/// both sides at least `min_side` and `sum_min <= width + height <= sum_max`, solved exactly
/// within `seconds` each (with a principal variation, the published value for normal k = 4,
/// Table I's prediction and the deciding strategy's check). Boards not settled in time come
/// back with `open` True and the outcome only, when that was found in the same time again.
#[pyfunction]
#[pyo3(signature = (ks, rules, sum_min, sum_max, min_side=4, seconds=60.0, table_mb=1024))]
#[allow(clippy::too_many_arguments)]
pub fn size_rows<'py>(
    py: Python<'py>,
    ks: Vec<u32>,
    rules: Vec<String>,
    sum_min: u32,
    sum_max: u32,
    min_side: u32,
    seconds: f64,
    table_mb: usize,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let variants = rules
        .iter()
        .map(|r| r.parse::<Variant>().map_err(value_error))
        .collect::<PyResult<Vec<_>>>()?;
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(PyValueError::new_err(format!(
            "seconds = {seconds} is not a time: expected a number of seconds > 0"
        )));
    }
    let grid = sizes::SizeGrid {
        ks,
        variants,
        min_side,
        sums: sum_min..=sum_max,
    };
    let boards = grid.boards().map_err(value_error)?;
    let effort = sizes::Effort {
        table: mib(table_mb)?,
        time: Duration::from_secs_f64(seconds),
    };
    let solved: Vec<Solved<sizes::Row, sizes::Attempt>> = py.detach(|| {
        boards
            .par_iter()
            .map(|&board| sizes::solve_board(board, effort, None, &|_| {}))
            .collect()
    });
    let mut rows = Vec::with_capacity(solved.len());
    for one in &solved {
        let (record, open) = match one {
            Solved::Row(row) => (crate::records::to_python(py, row)?, false),
            Solved::Open(attempt) => (crate::records::to_python(py, attempt)?, true),
            Solved::GivenUp => continue,
        };
        record.set_item("open", open)?;
        rows.push(record);
    }
    Ok(rows)
}

/// The paper's claims checked: every case of the claims file `claims` (the repository's
/// `paper-checks/claims.json`, say) whose id is in `ids` (all when None), on every board of
/// its range; one row per case, board and player.
#[pyfunction]
#[pyo3(signature = (claims, ids=None))]
pub fn paper_check_rows<'py>(
    py: Python<'py>,
    claims: PathBuf,
    ids: Option<Vec<String>>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let text = std::fs::read_to_string(&claims).map_err(|e| {
        PyValueError::new_err(format!("cannot read claims file {}: {e}", claims.display()))
    })?;
    let mut cases = paper_checks::parse_claims(&text).map_err(value_error)?;
    if let Some(ids) = ids {
        if let Some(unknown) = ids.iter().find(|id| !cases.iter().any(|c| &c.id == *id)) {
            return Err(PyValueError::new_err(format!(
                "no case {unknown:?} in {}",
                claims.display()
            )));
        }
        cases.retain(|c| ids.contains(&c.id));
    }
    let rows = py.detach(|| paper_checks::run(&cases, |_| {}));
    all_to_python(py, &rows)
}
