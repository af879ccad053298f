//! The sweep's CSV file: one row per solved board, appended as boards finish.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::SweepError;
use super::grid::Board;

/// One solved board, as stored in `table1.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Always `misere` for Table I.
    pub rules: String,
    /// Line length.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// width * height.
    pub cells: u32,
    /// Table I's outcome (`P1`, `P2`, `Draw`), empty where the paper makes no claim.
    pub paper: Option<String>,
    /// The solver's outcome.
    pub solver: String,
    /// Whether they agree, empty where the paper makes no claim.
    pub agree: Option<bool>,
    /// Plies until the game ends under perfect play (for a draw: the number of cells); empty
    /// after an outcome-only (weak) sweep.
    pub remoteness: Option<u32>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Row {
    /// The board this row solved.
    pub fn board(&self) -> Board {
        Board {
            k: self.k,
            width: self.width,
            height: self.height,
        }
    }
}

/// A CSV file of rows open for appending, shared by the worker threads.
pub struct Store {
    path: PathBuf,
    done: HashSet<Board>,
    writer: Mutex<csv::Writer<File>>,
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> SweepError + '_ {
    move |source| SweepError::Io {
        path: path.display().to_string(),
        source,
    }
}

fn csv_error(path: &Path) -> impl FnOnce(csv::Error) -> SweepError + '_ {
    move |source| SweepError::Csv {
        path: path.display().to_string(),
        source,
    }
}

/// Reads every row of a CSV file written by a sweep (a missing file has no rows).
///
/// # Errors
/// [`SweepError`] when the file exists but cannot be read or parsed.
pub fn read_rows(path: &Path) -> Result<Vec<Row>, SweepError> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut reader = csv::Reader::from_path(path).map_err(csv_error(path))?;
    reader
        .deserialize()
        .collect::<Result<Vec<Row>, _>>()
        .map_err(csv_error(path))
}

/// Replaces `path` by a CSV of `rows` (written to a temporary file first, then renamed, so a
/// crash never leaves a half-written file).
///
/// # Errors
/// [`SweepError`] when the file cannot be written.
pub fn write_all(path: &Path, rows: &[Row]) -> Result<(), SweepError> {
    let tmp = path.with_extension("csv.tmp");
    let mut writer = csv::Writer::from_path(&tmp).map_err(csv_error(&tmp))?;
    for row in rows {
        writer.serialize(row).map_err(csv_error(&tmp))?;
    }
    writer.flush().map_err(io_error(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io_error(path))
}

impl Store {
    /// Opens (or creates) the CSV at `path`, remembering which boards it already holds.
    ///
    /// # Errors
    /// [`SweepError`] when the file cannot be read, parsed or opened for appending.
    pub fn open(path: &Path) -> Result<Store, SweepError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io_error(dir))?;
        }
        let existing = read_rows(path)?;
        let fresh = existing.is_empty();
        if fresh {
            // Start from a clean file with a header, even if an empty file was left behind.
            let mut header = csv::Writer::from_path(path).map_err(csv_error(path))?;
            header
                .write_record([
                    "rules",
                    "k",
                    "width",
                    "height",
                    "cells",
                    "paper",
                    "solver",
                    "agree",
                    "remoteness",
                    "nodes",
                    "seconds",
                ])
                .map_err(csv_error(path))?;
            header.flush().map_err(io_error(path))?;
        }
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io_error(path))?;
        let writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        Ok(Store {
            path: path.to_path_buf(),
            done: existing.iter().map(Row::board).collect(),
            writer: Mutex::new(writer),
        })
    }

    /// Whether the file already holds this board.
    pub fn contains(&self, board: Board) -> bool {
        self.done.contains(&board)
    }

    /// How many boards the file held when opened.
    pub fn len(&self) -> usize {
        self.done.len()
    }

    /// Whether the file held no boards when opened.
    pub fn is_empty(&self) -> bool {
        self.done.is_empty()
    }

    /// Appends one row and flushes it to disk.
    ///
    /// # Errors
    /// [`SweepError`] when the row cannot be written.
    pub fn append(&self, row: &Row) -> Result<(), SweepError> {
        let mut writer = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        writer.serialize(row).map_err(csv_error(&self.path))?;
        writer.flush().map_err(io_error(&self.path))
    }

    /// Every row now in the file.
    ///
    /// # Errors
    /// [`SweepError`] when the file cannot be read back.
    pub fn rows(&self) -> Result<Vec<Row>, SweepError> {
        read_rows(&self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(k: u32) -> Row {
        Row {
            rules: "misere".into(),
            k,
            width: 3,
            height: 1,
            cells: 3,
            paper: Some("Draw".into()),
            solver: "Draw".into(),
            agree: Some(true),
            remoteness: Some(3),
            nodes: 10,
            seconds: 0.5,
        }
    }

    #[test]
    fn appended_rows_survive_a_reopen() {
        let dir = std::env::temp_dir().join(format!("connectk-store-{}", std::process::id()));
        let path = dir.join("t.csv");
        let _ = std::fs::remove_file(&path);
        {
            let store = Store::open(&path).unwrap();
            assert!(store.is_empty());
            store.append(&row(3)).unwrap();
            store.append(&row(4)).unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(store.len(), 2);
        assert!(store.contains(row(3).board()));
        assert!(!store.contains(row(5).board()));
        assert_eq!(store.rows().unwrap(), vec![row(3), row(4)]);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
