//! Reading the shard files of a Table I run for a merge: every row checked, with the file,
//! the line and the field of the first that is wrong.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::grid::Board;
use super::row::{Row, RowProblem};

/// Why shard files could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// A shard file could not be opened or read.
    #[error("cannot read shard file {path}: {error}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said (part of the message, so not given as its source too).
        error: std::io::Error,
    },
    /// A path given as a shard file is a directory.
    #[error(
        "{0} is a directory: give the shard CSV files themselves (DIR/table1.shard-*-of-N.csv)"
    )]
    Directory(PathBuf),
    /// A shard file holds no row.
    #[error(
        "{0}: no rows: a shard file of `connectk table1 --shard` holds a header and one row per board"
    )]
    Empty(PathBuf),
    /// A line is not a row of the expected columns.
    #[error("{path} line {line}: {message}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The line, counted from 1 (the header is line 1).
        line: u64,
        /// What the CSV reader found wrong.
        message: String,
    },
    /// A row's fields contradict each other or the paper.
    #[error("{path} line {line}: {problem}")]
    Forged {
        /// The file.
        path: PathBuf,
        /// The line, counted from 1 (the header is line 1).
        line: u64,
        /// The field at fault.
        problem: RowProblem,
    },
    /// Two files give different results for one board.
    #[error(
        "{board} has different rows in {first} and {second}: merge shards of one run (or rerun the board)"
    )]
    Conflict {
        /// The board.
        board: String,
        /// Where it was first seen, as `file line N`.
        first: String,
        /// Where the other row is.
        second: String,
    },
}

/// Reads and checks every row of `files`; a board in several files must have the same row in
/// each (the first is kept).
///
/// # Errors
/// The first [`ShardError`] met.
pub fn read_shards(files: &[PathBuf]) -> Result<Vec<Row>, ShardError> {
    let mut rows: Vec<Row> = Vec::new();
    let mut seen: HashMap<Board, (usize, String)> = HashMap::new();
    for path in files {
        for (line, row) in read_shard(path)? {
            let here = format!("{} line {line}", path.display());
            match seen.get(&row.board()) {
                Some(&(index, ref first)) if rows[index] != row => {
                    let b = row.board();
                    return Err(ShardError::Conflict {
                        board: format!("k = {}, {}x{}", b.k, b.width, b.height),
                        first: first.clone(),
                        second: here,
                    });
                }
                Some(_) => {}
                None => {
                    seen.insert(row.board(), (rows.len(), here));
                    rows.push(row);
                }
            }
        }
    }
    Ok(rows)
}

/// The rows of one shard file, each with its line number.
fn read_shard(path: &Path) -> Result<Vec<(u64, Row)>, ShardError> {
    if path.is_dir() {
        return Err(ShardError::Directory(path.to_path_buf()));
    }
    let file = std::fs::File::open(path).map_err(|error| ShardError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    let mut reader = csv::Reader::from_reader(file);
    let malformed = |line: u64, message: String| ShardError::Malformed {
        path: path.to_path_buf(),
        line,
        message,
    };
    let headers = reader
        .headers()
        .map_err(|e| malformed(1, e.to_string()))?
        .clone();
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            malformed(line, e.to_string())
        })?;
        let line = record.position().map_or(0, |p| p.line());
        let row: Row = record.deserialize(Some(&headers)).map_err(|e| {
            let message = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => {
                    let field = err
                        .field()
                        .and_then(|i| headers.get(i as usize))
                        .map_or(String::new(), |name| format!("field {name}: "));
                    format!("{field}{}", err.kind())
                }
                _ => e.to_string(),
            };
            malformed(line, message)
        })?;
        row.check().map_err(|problem| ShardError::Forged {
            path: path.to_path_buf(),
            line,
            problem,
        })?;
        rows.push((line, row));
    }
    if rows.is_empty() {
        return Err(ShardError::Empty(path.to_path_buf()));
    }
    Ok(rows)
}
