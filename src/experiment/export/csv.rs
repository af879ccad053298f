//! CSV files of result rows: one row per serialised record, with a header.

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{ExportError, Output, io_error, write_error};

/// The I/O error inside a CSV error. Writing rows of this crate's own types fails only in I/O;
/// anything else is carried as an I/O error of its own.
pub(crate) fn io_of(error: ::csv::Error) -> std::io::Error {
    if !error.is_io_error() {
        return std::io::Error::other(error);
    }
    match error.into_kind() {
        ::csv::ErrorKind::Io(io) => io,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

/// Reads every row of a CSV file (a missing file has no rows).
///
/// # Errors
/// [`ExportError`] when the file exists but cannot be read or parsed.
pub fn read_rows<R: DeserializeOwned>(path: &Path) -> Result<Vec<R>, ExportError> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut reader = ::csv::Reader::from_path(path).map_err(|e| io_error(path)(io_of(e)))?;
    reader
        .deserialize()
        .collect::<Result<Vec<R>, _>>()
        .map_err(|error| ExportError::Unreadable {
            path: path.display().to_string(),
            error,
        })
}

/// Replaces `path` by a CSV of `rows`, whole (see [`super`]).
///
/// # Errors
/// [`ExportError`] naming the file when it cannot be written.
pub fn write_all<R: Serialize>(path: &Path, rows: &[R]) -> Result<(), ExportError> {
    let mut writer = RowWriter::create(path)?;
    for row in rows {
        writer.write(row)?;
    }
    writer.finish()
}

/// A CSV file written row by row, for runs too long to hold every row in memory: whole under
/// its name once [`RowWriter::finish`] is called, or not at all (see [`Output`]).
pub struct RowWriter {
    writer: ::csv::Writer<Output>,
}

impl RowWriter {
    /// Starts the file at `path` (its directory is created when missing). Called before any
    /// work, it also checks that the file can be written at all.
    ///
    /// # Errors
    /// [`ExportError`] naming the file when it cannot be created.
    pub fn create(path: &Path) -> Result<RowWriter, ExportError> {
        Ok(RowWriter {
            writer: ::csv::Writer::from_writer(Output::create(path)?),
        })
    }

    /// The error for a failure to write this file.
    fn error(&self) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
        write_error(self.writer.get_ref().path())
    }

    /// Writes one row.
    ///
    /// # Errors
    /// [`ExportError`] naming the file when the row cannot be written.
    pub fn write<R: Serialize>(&mut self, row: &R) -> Result<(), ExportError> {
        let written = self.writer.serialize(row).map_err(io_of);
        written.map_err(self.error())
    }

    /// Puts the finished file in place.
    ///
    /// # Errors
    /// [`ExportError`] naming the file when it cannot be flushed, synced or renamed.
    pub fn finish(self) -> Result<(), ExportError> {
        let path = self.writer.get_ref().path().to_path_buf();
        let output = self
            .writer
            .into_inner()
            .map_err(|error| write_error(&path)(error.into_error()))?;
        output.finish()
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Row {
        id: u32,
        note: Option<String>,
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("connectk-csv-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn rows_written_are_read_back() {
        let dir = scratch("back");
        let path = dir.join("t.csv");
        assert_eq!(read_rows::<Row>(&path).unwrap(), vec![]);
        let rows = vec![
            Row { id: 1, note: None },
            Row {
                id: 2,
                note: Some("a, b".into()),
            },
        ];
        write_all(&path, &rows).unwrap();
        assert_eq!(read_rows::<Row>(&path).unwrap(), rows);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
