//! CSV files of result rows: one row per serialised record, with a header.

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{ExportError, io_error, replace};

/// The error for a CSV failure on `path`.
pub(crate) fn csv_error(path: &Path) -> impl FnOnce(::csv::Error) -> ExportError + '_ {
    move |source| ExportError::Csv {
        path: path.display().to_string(),
        source,
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
    let mut reader = ::csv::Reader::from_path(path).map_err(csv_error(path))?;
    reader
        .deserialize()
        .collect::<Result<Vec<R>, _>>()
        .map_err(|source| ExportError::Unreadable {
            path: path.display().to_string(),
            source,
        })
}

/// Replaces `path` by a CSV of `rows`, whole (see [`super`]).
///
/// # Errors
/// [`ExportError`] when the file cannot be written.
pub fn write_all<R: Serialize>(path: &Path, rows: &[R]) -> Result<(), ExportError> {
    replace(path, |tmp| {
        let mut writer = ::csv::Writer::from_path(tmp).map_err(csv_error(tmp))?;
        for row in rows {
            writer.serialize(row).map_err(csv_error(tmp))?;
        }
        writer.flush().map_err(io_error(tmp))
    })
}

/// A CSV file written row by row, for runs too long to hold every row in memory: the rows go
/// to a temporary file, which [`RowWriter::finish`] renames into place, so that the file is
/// there whole or not at all.
pub struct RowWriter {
    path: std::path::PathBuf,
    tmp: std::path::PathBuf,
    writer: ::csv::Writer<std::fs::File>,
}

impl RowWriter {
    /// Starts the file at `path` (its directory is created when missing). Called before any
    /// work, it also checks that the file can be written at all.
    ///
    /// # Errors
    /// [`ExportError`] when the file cannot be created.
    pub fn create(path: &Path) -> Result<RowWriter, ExportError> {
        super::create_parent(path)?;
        let tmp = super::temporary(path);
        let writer = ::csv::Writer::from_path(&tmp).map_err(csv_error(&tmp))?;
        Ok(RowWriter {
            path: path.to_path_buf(),
            tmp,
            writer,
        })
    }

    /// Writes one row.
    ///
    /// # Errors
    /// [`ExportError`] when the row cannot be written.
    pub fn write<R: Serialize>(&mut self, row: &R) -> Result<(), ExportError> {
        self.writer.serialize(row).map_err(csv_error(&self.tmp))
    }

    /// Puts the finished file in place.
    ///
    /// # Errors
    /// [`ExportError`] when the file cannot be flushed or renamed.
    pub fn finish(mut self) -> Result<(), ExportError> {
        self.writer.flush().map_err(io_error(&self.tmp))?;
        std::fs::rename(&self.tmp, &self.path).map_err(io_error(&self.path))
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

    #[test]
    fn rows_written_are_read_back() {
        let dir = std::env::temp_dir().join(format!("connectk-csv-{}", std::process::id()));
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
