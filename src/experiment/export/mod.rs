//! Writing results: one writer per format (CSV, Markdown, SVG), every file written whole.
//!
//! Each writer puts its file beside its destination under a temporary name and renames it into
//! place, so a crash or a full disk leaves the old file or the new one, never half of one.

pub mod csv;
pub mod markdown;
pub mod svg;

use std::path::{Path, PathBuf};

/// Why a result file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A file or directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A CSV file could not be read, parsed or written.
    #[error("{path}: {source}")]
    Csv {
        /// The file.
        path: String,
        /// The underlying error.
        source: ::csv::Error,
    },
    /// A CSV file of results holds a line that is not a row of the expected columns.
    #[error(
        "{path}: {source}: fix or remove that line (or delete the file to start over; a rerun then does all of its work again)"
    )]
    Unreadable {
        /// The file.
        path: String,
        /// What the CSV reader found wrong, with the line.
        source: ::csv::Error,
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

/// The error for an I/O failure on `path`.
pub(crate) fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |source| ExportError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The temporary name a file is written under before it is renamed to `path`.
pub(crate) fn temporary(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// Creates the directory that will hold `path`, if it has one.
pub(crate) fn create_parent(path: &Path) -> Result<(), ExportError> {
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => std::fs::create_dir_all(dir).map_err(io_error(dir)),
        None => Ok(()),
    }
}

/// Writes a file whole: `fill` writes it under a temporary name, which then replaces `path`.
/// The parent directory is created when missing.
fn replace(
    path: &Path,
    fill: impl FnOnce(&Path) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    create_parent(path)?;
    let tmp = temporary(path);
    if let Err(error) = fill(&tmp) {
        // The temporary file is of no use to anyone; the error that matters is the first.
        let _ = std::fs::remove_file(&tmp);
        return Err(error);
    }
    std::fs::rename(&tmp, path).map_err(io_error(path))
}

/// Checks that files can be written into `dir` (created when missing), so that a long run can
/// refuse an unwritable output directory before its work rather than after.
///
/// # Errors
/// [`ExportError::Io`] naming the directory when it cannot be created or written into.
pub fn check_writable(dir: &Path) -> Result<(), ExportError> {
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let probe = dir.join(format!(".connectk-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(io_error(dir))?;
    std::fs::remove_file(&probe).map_err(io_error(&probe))
}

/// Replaces `path` by `text`, whole (see the module documentation).
///
/// # Errors
/// [`ExportError::Io`] when the file or its directory cannot be written.
pub fn write_text(path: &Path, text: &str) -> Result<(), ExportError> {
    replace(path, |tmp| std::fs::write(tmp, text).map_err(io_error(tmp)))
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
