//! Reading the shard files of a Table I run for a merge: every row checked, with the file,
//! the line and the field of the first that is wrong.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::grid::Board;
use super::row::Row;
use crate::experiment::export::ExportError;
use crate::experiment::export::csv::read_numbered_rows;

/// Why shard files could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// A shard file could not be read, or a line of it is not a row of Table I: values of the
    /// wrong kind, or that contradict each other or the paper (the error names the file, the
    /// line and the column).
    #[error(transparent)]
    Read(#[from] ExportError),
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

/// The rows of one shard file, each with its line number, each checked.
fn read_shard(path: &Path) -> Result<Vec<(u64, Row)>, ShardError> {
    if path.is_dir() {
        return Err(ShardError::Directory(path.to_path_buf()));
    }
    let rows = read_checked(path)?;
    if rows.is_empty() {
        return Err(ShardError::Empty(path.to_path_buf()));
    }
    Ok(rows)
}

/// The rows of a CSV file of Table I, each with its line number, each checked (see
/// [`Row::check`]).
///
/// # Errors
/// [`ShardError::Read`] for a file that cannot be read, a line that is not a row, or a row
/// whose fields contradict each other or the paper.
pub fn read_checked(path: &Path) -> Result<Vec<(u64, Row)>, ShardError> {
    let rows = read_numbered_rows::<Row>(path)?;
    for (line, row) in &rows {
        row.check().map_err(|problem| ExportError::Unreadable {
            path: path.display().to_string(),
            line: *line,
            problem,
        })?;
    }
    Ok(rows)
}
