//! CSV files of result rows: one row per serialised record, with a header; rows read back are
//! checked field by field, and a bad one is named by its file, line and column.

use std::fs::File;
use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{ExportError, Output, io_error, write_error};

/// What is wrong with a line of a CSV file: the column at fault, by its header name, when one
/// is, and what is wrong with it and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineProblem {
    /// The column at fault.
    pub field: Option<String>,
    /// What is wrong, and what is allowed.
    pub message: String,
}

impl std::fmt::Display for LineProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "field {field}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

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

/// The error for a line of `path` that the CSV reader could not take (cut short, too long, not
/// UTF-8), or for a failure to read the file at all; `headers` name the columns, once read.
fn unreadable(
    path: &Path,
    headers: Option<&::csv::StringRecord>,
    error: ::csv::Error,
) -> ExportError {
    let line = error.position().map_or(1, |p| p.line());
    let message = match error.into_kind() {
        ::csv::ErrorKind::Io(io) => return io_error(path)(io),
        ::csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the header has {expected_len}"),
        ::csv::ErrorKind::Utf8 { err, .. } => match headers.and_then(|h| h.get(err.field())) {
            Some(name) => format!("field {name} is not UTF-8"),
            None => format!("field {} is not UTF-8", err.field() + 1),
        },
        other => format!("{other:?}"),
    };
    ExportError::Unreadable {
        path: path.display().to_string(),
        line,
        problem: LineProblem {
            field: None,
            message,
        },
    }
}

/// The deserialisation error inside a CSV error, if it is one.
fn deserialize_error(error: &::csv::Error) -> Option<&::csv::DeserializeError> {
    match error.kind() {
        ::csv::ErrorKind::Deserialize { err, .. } => Some(err),
        _ => None,
    }
}

/// The column of `record` whose value a type of `R` refused with a message of its own (an
/// outcome or a rules word it does not know): the CSV reader places only the errors of its
/// own parsing (numbers, booleans). Columns are read in the header's order and the first
/// refusal stops the row, so the column is the last of the shortest start of the line that
/// `R` refuses with the same message. A column missing from the header is named by the
/// message itself.
fn refused_column<R: DeserializeOwned>(
    headers: &::csv::StringRecord,
    record: &::csv::StringRecord,
    message: &str,
) -> Option<usize> {
    if message.starts_with("missing field") {
        return None;
    }
    (1..=record.len().min(headers.len()))
        .find(|&n| {
            let head: ::csv::StringRecord = headers.iter().take(n).collect();
            let start: ::csv::StringRecord = record.iter().take(n).collect();
            let refused = start.deserialize::<R>(Some(&head)).err();
            refused
                .as_ref()
                .and_then(deserialize_error)
                .map(|e| e.to_string())
                == Some(message.to_string())
        })
        .map(|n| n - 1)
}

/// What is wrong with the values of `record`, which `R` could not take from it: the column,
/// by its header name, with its value, where one is at fault.
fn bad_values<R: DeserializeOwned>(
    headers: &::csv::StringRecord,
    record: &::csv::StringRecord,
    error: ::csv::Error,
) -> LineProblem {
    let Some(err) = deserialize_error(&error) else {
        return LineProblem {
            field: None,
            message: error.to_string(),
        };
    };
    let at = err
        .field()
        .map(|i| i as usize)
        .or_else(|| refused_column::<R>(headers, record, &err.to_string()));
    match at.and_then(|i| Some((headers.get(i)?, record.get(i)?))) {
        Some((name, value)) => LineProblem {
            field: Some(name.to_string()),
            message: format!("{value:?}: {}", err.kind()),
        },
        None => LineProblem {
            field: None,
            message: err.kind().to_string(),
        },
    }
}

/// Reads every row of a CSV file, each with its line (the header is line 1).
///
/// # Errors
/// [`ExportError::Io`] when the file cannot be read (a missing file included),
/// [`ExportError::Directory`] for a directory, and [`ExportError::Unreadable`] naming the line,
/// and the column when one is at fault, for the first line that is not a row of `R`: a value
/// of the wrong kind, a missing column, a line cut short.
pub(crate) fn read_numbered_rows<R: DeserializeOwned>(
    path: &Path,
) -> Result<Vec<(u64, R)>, ExportError> {
    if path.is_dir() {
        return Err(ExportError::Directory {
            path: path.display().to_string(),
        });
    }
    let file = File::open(path).map_err(io_error(path))?;
    let mut reader = ::csv::Reader::from_reader(file);
    let headers = reader
        .headers()
        .map_err(|error| unreadable(path, None, error))?
        .clone();
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|error| unreadable(path, Some(&headers), error))?;
        let line = record.position().map_or(0, |p| p.line());
        let row = record
            .deserialize(Some(&headers))
            .map_err(|error| ExportError::Unreadable {
                path: path.display().to_string(),
                line,
                problem: bad_values::<R>(&headers, &record, error),
            })?;
        rows.push((line, row));
    }
    Ok(rows)
}

/// The column names in the header of a CSV file.
///
/// # Errors
/// As [`read_numbered_rows`], for the header line.
pub(crate) fn read_header(path: &Path) -> Result<Vec<String>, ExportError> {
    if path.is_dir() {
        return Err(ExportError::Directory {
            path: path.display().to_string(),
        });
    }
    let file = File::open(path).map_err(io_error(path))?;
    let mut reader = ::csv::Reader::from_reader(file);
    let headers = reader
        .headers()
        .map_err(|error| unreadable(path, None, error))?;
    Ok(headers.iter().map(str::to_string).collect())
}

/// The rows of a CSV that another process may be appending to right now, up to its last
/// complete line; its header must be `columns`, its rows `what` (as error messages name them).
///
/// # Errors
/// [`ExportError::Io`] when the file cannot be read, [`ExportError::Unreadable`] for a header
/// other than `columns` or the first line that is not a row of `R`.
pub(crate) fn read_complete_rows<R: DeserializeOwned>(
    path: &Path,
    columns: &[&str],
    what: &str,
) -> Result<Vec<R>, ExportError> {
    let bytes = std::fs::read(path).map_err(io_error(path))?;
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut reader = ::csv::Reader::from_reader(&bytes[..complete]);
    let header = reader
        .headers()
        .map(|h| h.iter().eq(columns.iter().copied()))
        .unwrap_or(false);
    let problem = |line: u64, message: String| ExportError::Unreadable {
        path: path.display().to_string(),
        line,
        problem: LineProblem {
            field: None,
            message,
        },
    };
    if complete > 0 && !header {
        let message = format!(
            "not a CSV of {what}: its header must be {}",
            columns.join(",")
        );
        return Err(problem(1, message));
    }
    let mut rows = Vec::new();
    for (i, row) in reader.deserialize::<R>().enumerate() {
        rows.push(row.map_err(|e| problem(i as u64 + 2, format!("not a row of {what} ({e})")))?);
    }
    Ok(rows)
}

/// Reads every row of a CSV file.
///
/// # Errors
/// As [`read_numbered_rows`].
pub(crate) fn read_rows<R: DeserializeOwned>(path: &Path) -> Result<Vec<R>, ExportError> {
    Ok(read_numbered_rows(path)?
        .into_iter()
        .map(|(_, row)| row)
        .collect())
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

    /// A row whose second column is checked by its own code, as outcomes and rules are.
    #[derive(Debug, PartialEq, Deserialize)]
    struct Flagged {
        id: u32,
        #[serde(deserialize_with = "flag")]
        flag: bool,
    }

    fn flag<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
        match String::deserialize(deserializer)?.as_str() {
            "on" => Ok(true),
            "off" => Ok(false),
            _ => Err(serde::de::Error::custom("not a flag: expected on or off")),
        }
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        crate::experiment::scratch_dir(&format!("csv-{name}"))
    }

    #[test]
    fn rows_written_are_read_back() {
        let dir = scratch("back");
        let path = dir.join("t.csv");
        assert!(matches!(
            read_rows::<Row>(&path),
            Err(ExportError::Io { .. })
        ));
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

    #[test]
    fn a_bad_line_is_named_by_its_line_and_column() {
        let dir = scratch("bad");
        let path = dir.join("t.csv");
        let cases = [
            (
                "id,note\n1,a\nx,b\n",
                "line 3: field id: \"x\": invalid digit",
            ),
            (
                "id,note\n1,a\n2\n",
                "line 3: 1 fields where the header has 2",
            ),
            ("note\na\n", "line 2: missing field `id`"),
        ];
        for (text, expected) in cases {
            std::fs::write(&path, text).unwrap();
            let error = read_rows::<Row>(&path).unwrap_err().to_string();
            assert!(error.contains(expected), "{error}");
            assert!(error.starts_with(&path.display().to_string()), "{error}");
        }
        // The type's own refusal names the column too, wherever it stands.
        std::fs::write(&path, "flag,id\non,1\noff,2\nyes,3\n").unwrap();
        let error = read_rows::<Flagged>(&path).unwrap_err().to_string();
        assert!(
            error.contains("line 4: field flag: \"yes\": not a flag: expected on or off"),
            "{error}"
        );
        std::fs::write(&path, "id,flag\n1,on\n").unwrap();
        let read = read_rows::<Flagged>(&path).unwrap();
        assert_eq!(read, [Flagged { id: 1, flag: true }]);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
