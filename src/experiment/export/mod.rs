//! Writing results: one writer per format (CSV, Markdown, SVG), every file written whole.
//!
//! Every file goes through [`Output`]: written beside its destination under a temporary name,
//! synced and renamed into place, so that a crash or a full disk leaves the old file or the
//! new one, never half of one; a destination that is a device or a FIFO is written in place.

pub mod csv;
pub(crate) mod labels;
pub mod markdown;
mod output;
pub(crate) mod svg;

use std::path::Path;

pub use output::Output;
pub(crate) use output::{Destination, destination};

/// Why a result file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A file or directory could not be read.
    #[error("cannot read {path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// What the system said (part of the message, so not given as its source too).
        error: std::io::Error,
    },
    /// A file could not be written, or its directory not created.
    #[error("cannot write {path}: {error}")]
    Write {
        /// The file, as given.
        path: String,
        /// What the system said (part of the message, so not given as its source too).
        error: std::io::Error,
    },
    /// A directory was given where a file is read or written.
    #[error("{path} is a directory: give the name of a file")]
    Directory {
        /// The directory.
        path: String,
    },
    /// A file of results that a rerun reads back and appends to is a device or a FIFO.
    #[error(
        "{path} is not a regular file: a rerun reads this file of results back, so give the name of a file"
    )]
    NotRegular {
        /// The path.
        path: String,
    },
    /// A line of a CSV file of results is not a row of the expected columns and values.
    #[error("{path} line {line}: {problem}: fix or remove that line")]
    Unreadable {
        /// The file.
        path: String,
        /// The line, counted from 1 (the header is line 1).
        line: u64,
        /// What is wrong with it.
        problem: csv::LineProblem,
    },
    /// A plot could not be drawn.
    #[error("{path}: cannot draw plot: {message}")]
    Plot {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

/// The error for a failure to read `path`.
pub(crate) fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |error| ExportError::Io {
        path: path.display().to_string(),
        error,
    }
}

/// The error for a failure to write `path`.
pub(crate) fn write_error(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |error| ExportError::Write {
        path: path.display().to_string(),
        error,
    }
}

/// Checks that files can be written into `dir` (created when missing), so that a long run can
/// refuse an unwritable output directory before its work rather than after.
///
/// # Errors
/// [`ExportError`] naming the directory when it cannot be created or written into.
pub fn check_writable(dir: &Path) -> Result<(), ExportError> {
    let probe = dir.join(format!(".connectk-probe-{}", std::process::id()));
    Output::check(&probe).map_err(|error| match error {
        ExportError::Write { error, .. } => write_error(dir)(error),
        other => other,
    })
}

/// Replaces `path` by `bytes`, whole (see the module documentation).
///
/// # Errors
/// [`ExportError`] naming the file when it or its directory cannot be written.
pub(crate) fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    use std::io::Write as _;
    let mut output = Output::create(path)?;
    output.write_all(bytes).map_err(write_error(path))?;
    output.finish()
}

/// Replaces `path` by `text`, whole (see the module documentation).
///
/// # Errors
/// [`ExportError`] naming the file when it or its directory cannot be written.
pub(crate) fn write_text(path: &Path, text: &str) -> Result<(), ExportError> {
    write_bytes(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_replaces_the_file_and_leaves_no_temporary_behind() {
        let dir = std::env::temp_dir().join(format!("connectk-export-{}", std::process::id()));
        let path = dir.join("sub").join("a.md");
        write_text(&path, "one").unwrap();
        write_text(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let names: Vec<_> = std::fs::read_dir(dir.join("sub")).unwrap().collect();
        assert_eq!(names.len(), 1);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
