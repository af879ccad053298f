//! The benchmark sets: fixed positions with known values (`benches/data/*.csv`), each solved
//! and checked, with its time and node count; the total node count is the bench signature.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::export::ExportError;
use super::export::csv::read_rows;
use crate::engine::notation;
use crate::engine::outcome::GameResult;
use crate::engine::rules::{Rules, Variant};
use crate::solver::reference::ReferenceSolver;
use crate::solver::{Mib, Solver, Value};

/// One benchmark position with its known value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct BenchRow {
    /// `normal` or `misere`.
    pub rules: String,
    /// Line length.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// Move string of the position.
    pub moves: String,
    /// Known outcome.
    pub outcome: String,
    /// Known remoteness; empty when only the outcome is known (the row is then solved weak).
    pub remoteness: Option<u32>,
}

/// Why a benchmark set could not be run, or where it went wrong.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The directory or a file could not be read.
    #[error(transparent)]
    Read(#[from] ExportError),
    /// The directory holds no set.
    #[error("no benchmark sets (*.csv) in {0}")]
    NoSets(String),
    /// A row does not describe a position.
    #[error("{file} row {row}: {message}")]
    BadRow {
        /// The set's file.
        file: String,
        /// The row, counted from 1 after the header.
        row: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The solver's value differs from the known one.
    #[error("{file} row {row} ({moves}): expected {expected}, solver says {found:?}")]
    Wrong {
        /// The set's file.
        file: String,
        /// The row, counted from 1 after the header.
        row: usize,
        /// The row's move string.
        moves: String,
        /// The known value in words.
        expected: String,
        /// The solver's value.
        found: Value,
    },
    /// The reference solver's value differs from the main solver's.
    #[error("{file} row {row} ({moves}): connectk says {ours:?}, the reference solver {theirs:?}")]
    ReferenceDiffers {
        /// The set's file.
        file: String,
        /// The row, counted from 1 after the header.
        row: usize,
        /// The row's move string.
        moves: String,
        /// The main solver's value.
        ours: Value,
        /// The reference solver's value.
        theirs: Value,
    },
}

/// How the sets are solved.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Transposition table of the main solver.
    pub table: Mib,
    /// Threads searching each position together.
    pub threads: usize,
    /// Outcome only, for every row.
    pub weak: bool,
    /// Also solve the standard Connect Four sets with the reference solver.
    pub reference: bool,
}

/// What one set took.
#[derive(Clone, Debug, PartialEq)]
pub struct SetResult {
    /// The set's name (its file name without `.csv`).
    pub name: String,
    /// Positions in the set.
    pub positions: usize,
    /// Seconds the main solver spent on them (table allocation excluded).
    pub seconds: f64,
    /// Nodes the main solver searched.
    pub nodes: u64,
    /// Seconds and nodes of the reference solver, when it solved the set.
    pub reference: Option<(f64, u64)>,
}

/// The sets in `dir` (files ending in `.csv`) whose file names contain `filter`, by name.
///
/// # Errors
/// [`BenchError`] when the directory cannot be read or holds no matching set.
pub fn sets(dir: &Path, filter: Option<&str>) -> Result<Vec<PathBuf>, BenchError> {
    let entries = std::fs::read_dir(dir).map_err(|error| ExportError::Io {
        path: dir.display().to_string(),
        error,
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .filter(|p| {
            filter.is_none_or(|f| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().contains(f))
            })
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(BenchError::NoSets(dir.display().to_string()));
    }
    Ok(files)
}

/// The known value of `row` in words: `P2 in 17`, or the outcome alone.
fn known(row: &BenchRow) -> String {
    match row.remoteness {
        Some(plies) => format!("{} in {plies}", row.outcome),
        None => row.outcome.clone(),
    }
}

/// Solves every position of the set in `file` and checks its value (and the reference
/// solver's, when asked and the set is standard Connect Four).
///
/// # Errors
/// [`BenchError`] for an unreadable set or row, or the first wrong value.
pub fn run_set(file: &Path, settings: Settings) -> Result<SetResult, BenchError> {
    let rows: Vec<BenchRow> = read_rows(file)?;
    let name = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let at = |row: usize, message: String| BenchError::BadRow {
        file: file.display().to_string(),
        row,
        message,
    };
    let mut solver = Solver::new(settings.table).with_threads(settings.threads);
    let standard = rows
        .iter()
        .all(|r| r.rules == Variant::Normal.to_string() && (r.k, r.width, r.height) == (4, 7, 6));
    let mut reference = (settings.reference && standard).then(ReferenceSolver::new);
    let (mut nodes, mut seconds, mut reference_seconds) = (0u64, 0.0, 0.0);
    for (i, row) in rows.iter().enumerate() {
        let variant = row.rules.parse().map_err(|e| at(i + 1, format!("{e}")))?;
        let rules = Rules::new(row.k, row.width, row.height, variant)
            .map_err(|e| at(i + 1, format!("{e}")))?;
        let (pos, moves) =
            notation::parse(rules, &row.moves).map_err(|e| at(i + 1, format!("{e}")))?;
        let weak = settings.weak || row.remoteness.is_none();
        if i == 0 {
            // Zeroing the table is not part of any position's time.
            solver.prepare(rules);
        }
        let start = Instant::now();
        let solution = if weak {
            solver.solve_weak(&pos)
        } else {
            solver.solve(&pos)
        };
        seconds += start.elapsed().as_secs_f64();
        nodes += solution.nodes;
        let expected = GameResult::from_label(&row.outcome);
        let wrong_remoteness = !weak && solution.value.remoteness != row.remoteness;
        if expected != Some(solution.value.result) || wrong_remoteness {
            return Err(BenchError::Wrong {
                file: file.display().to_string(),
                row: i + 1,
                moves: row.moves.clone(),
                expected: known(row),
                found: solution.value,
            });
        }
        if let Some(reference) = reference.as_mut() {
            let columns: Vec<u32> = moves.iter().map(|c| c.index()).collect();
            let start = Instant::now();
            let theirs = reference
                .value(&columns, weak)
                .map_err(|e| at(i + 1, format!("{e}")))?;
            reference_seconds += start.elapsed().as_secs_f64();
            if theirs != solution.value {
                return Err(BenchError::ReferenceDiffers {
                    file: file.display().to_string(),
                    row: i + 1,
                    moves: row.moves.clone(),
                    ours: solution.value,
                    theirs,
                });
            }
        }
    }
    Ok(SetResult {
        name,
        positions: rows.len(),
        seconds,
        nodes,
        reference: reference.map(|r| (reference_seconds, r.nodes())),
    })
}
