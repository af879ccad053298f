//! A resumable CSV of results: rows are appended as they finish and a rerun skips done keys.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::export::csv::{io_of, read_rows, write_all};
use super::export::{Destination, ExportError, destination, write_error};

/// One row of a store, identified by a key (a rerun skips the keys already stored).
pub trait Record: Serialize + DeserializeOwned {
    /// What identifies the work a row records.
    type Key: Hash + Eq;

    /// The key of this row.
    fn key(&self) -> Self::Key;
}

/// What a run found in its store when it opened it (see [`Store::open_for`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resume {
    /// The store's file.
    pub path: PathBuf,
    /// Keys of the run.
    pub total: usize,
    /// Keys already done, which the run skips.
    pub kept: usize,
    /// Whether every key was done, so the run started over.
    pub restarted: bool,
    /// A last line left cut short by an interrupted write, dropped (see [`Store::open_for`]).
    pub dropped: Option<String>,
}

impl Resume {
    /// Keys left to do.
    pub fn pending(&self) -> usize {
        self.total - self.kept
    }
}

impl std::fmt::Display for Resume {
    /// `3 already in results/t.csv, 5 to do`, or, for a run started over, `all were in
    /// results/t.csv from a finished run, 8 to do again`; either with a warning first when a
    /// line cut short was dropped.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(torn) = &self.dropped {
            write!(
                f,
                "warning: dropped the last line of {}, cut short by an interrupted write ({torn:?}); ",
                self.path.display()
            )?;
        }
        if self.restarted {
            write!(
                f,
                "all were in {} from a finished run, {} to do again",
                self.path.display(),
                self.pending()
            )
        } else {
            write!(
                f,
                "{} already in {}, {} to do",
                self.kept,
                self.path.display(),
                self.pending()
            )
        }
    }
}

/// How a run resumes from its store (see [`Store::open_resuming`]).
pub(crate) struct Resumption<'a, R> {
    /// Whether a row settles its key, so that a rerun skips the key (a row that stopped at a
    /// limit may not).
    pub settled: &'a dyn Fn(&R) -> bool,
    /// Whether a run whose every key is settled starts over (rather than doing nothing).
    pub redo_finished: bool,
}

impl<R> Default for Resumption<'_, R> {
    /// Every row settles its key, and a finished run starts over.
    fn default() -> Self {
        Resumption {
            settled: &|_| true,
            redo_finished: true,
        }
    }
}

/// A CSV file of rows appended to by worker threads. Each row is appended by opening the file
/// at its path anew, not through a handle kept open: a file replaced under a long run (by an
/// editor, a `git stash` and its `pop`, a copy put back) then receives the rows, where a kept
/// handle would write them into the replaced file, gone once the run ends.
pub struct Store<R: Record> {
    path: PathBuf,
    done: HashSet<R::Key>,
    /// Held while a row is written, so that the rows of several threads never interleave.
    writing: Mutex<()>,
    /// The end of the file that an interrupted write had left cut short, dropped at opening.
    dropped: Option<String>,
}

/// Cuts off a last line that an interrupted write left without its end of line, and returns
/// what was cut. Every row is written whole and flushed with its newline, so a file that does
/// not end in one was stopped in the middle of its last row.
fn drop_torn_line(path: &Path) -> Result<Option<String>, ExportError> {
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(None);
    };
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(None);
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let torn = String::from_utf8_lossy(&bytes[keep..]).into_owned();
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(write_error(path))?;
    file.set_len(keep as u64).map_err(write_error(path))?;
    Ok(Some(torn))
}

/// Whether the header of the CSV at `path` is the one `row`'s type writes. A file written by
/// an older version, with fewer columns (read with their defaults), is not, and appending rows
/// of more columns to it would leave a file no reader takes.
fn in_current_layout<R: Serialize>(path: &Path, row: &R) -> Result<bool, ExportError> {
    let mut current = ::csv::Writer::from_writer(Vec::new());
    current
        .serialize(row)
        .map_err(io_of)
        .map_err(write_error(path))?;
    let current = current
        .into_inner()
        .map_err(|e| write_error(path)(e.into_error()))?;
    let mut first = Vec::new();
    let file = File::open(path).map_err(write_error(path))?;
    std::io::BufRead::read_until(&mut std::io::BufReader::new(file), b'\n', &mut first)
        .map_err(write_error(path))?;
    Ok(current.starts_with(&first))
}

impl<R: Record> Store<R> {
    /// Opens (or creates) the CSV at `path`, remembering which keys it already holds.
    ///
    /// # Errors
    /// [`ExportError`] when the file is a directory, a device or a FIFO (a store is read back
    /// by a rerun), or cannot be read, parsed or opened for appending.
    pub fn open(path: &Path) -> Result<Store<R>, ExportError> {
        Store::open_settled(path, &|_| true)
    }

    /// [`Store::open`], counting as done only the keys of the rows that `settled` accepts.
    fn open_settled(path: &Path, settled: &dyn Fn(&R) -> bool) -> Result<Store<R>, ExportError> {
        if let Destination::InPlace = destination(path)? {
            return Err(ExportError::NotRegular {
                path: path.display().to_string(),
            });
        }
        let dropped = drop_torn_line(path)?;
        let existing: Vec<R> = if path.exists() {
            read_rows(path)?
        } else {
            Vec::new()
        };
        let fresh = existing.is_empty();
        if !fresh && !in_current_layout(path, &existing[0])? {
            write_all(path, &existing)?;
        }
        // A file without rows is started afresh (even if a header or nothing was left behind),
        // and the first row appended puts the header before itself. Opening it here also
        // tells at once when it cannot be written.
        if fresh {
            File::create(path)
        } else {
            OpenOptions::new().append(true).open(path)
        }
        .map_err(write_error(path))?;
        Ok(Store {
            path: path.to_path_buf(),
            done: existing
                .iter()
                .filter(|row| settled(row))
                .map(Record::key)
                .collect(),
            writing: Mutex::new(()),
            dropped,
        })
    }

    /// Opens (or creates) the CSV at `path` for the work `keys`: an unfinished run resumes
    /// (the keys already in the file are kept and skipped), and a finished one, with every key
    /// in the file, starts over, so that running the same command again does the work again
    /// instead of only reprinting it. Rows of other keys stay either way. Returns the store
    /// and what it kept.
    ///
    /// # Errors
    /// [`ExportError`] when the file cannot be read, parsed, rewritten or opened for appending.
    pub fn open_for(path: &Path, keys: &[R::Key]) -> Result<(Store<R>, Resume), ExportError> {
        Store::open_resuming(path, keys, &Resumption::default())
    }

    /// [`Store::open_for`] under the rules of `resumption`: which rows settle their key, and
    /// whether a finished run starts over.
    ///
    /// # Errors
    /// [`ExportError`] when the file cannot be read, parsed, rewritten or opened for appending.
    pub(crate) fn open_resuming(
        path: &Path,
        keys: &[R::Key],
        resumption: &Resumption<'_, R>,
    ) -> Result<(Store<R>, Resume), ExportError> {
        let store = Store::open_settled(path, resumption.settled)?;
        let kept = keys.iter().filter(|&k| store.contains(k)).count();
        let mut resume = Resume {
            path: path.to_path_buf(),
            total: keys.len(),
            kept,
            restarted: false,
            dropped: store.dropped.clone(),
        };
        if keys.is_empty() || kept < keys.len() || !resumption.redo_finished {
            return Ok((store, resume));
        }
        let redone: HashSet<&R::Key> = keys.iter().collect();
        let mut others = store.rows()?;
        others.retain(|row| !redone.contains(&row.key()));
        drop(store);
        write_all(path, &others)?;
        resume.kept = 0;
        resume.restarted = true;
        Ok((Store::open_settled(path, resumption.settled)?, resume))
    }

    /// Whether the file already held this key when opened.
    pub(crate) fn contains(&self, key: &R::Key) -> bool {
        self.done.contains(key)
    }

    /// Appends one row to the file now at the store's path (created, with the header, if it
    /// is gone or empty) and flushes it, so that an interrupted run keeps it.
    ///
    /// # Errors
    /// [`ExportError::Write`] naming the file when the row cannot be written.
    pub(crate) fn append(&self, row: &R) -> Result<(), ExportError> {
        let _writing = self.writing.lock().unwrap_or_else(|e| e.into_inner());
        let file = OpenOptions::new()
            .append(true)
            .create(true)
            .open(&self.path)
            .map_err(write_error(&self.path))?;
        let empty = file.metadata().map_err(write_error(&self.path))?.len() == 0;
        let mut writer = csv::WriterBuilder::new()
            .has_headers(empty)
            .from_writer(file);
        writer
            .serialize(row)
            .map_err(io_of)
            .and_then(|()| writer.flush())
            .map_err(write_error(&self.path))
    }

    /// Every row now in the file.
    ///
    /// # Errors
    /// [`ExportError`] when the file cannot be read back.
    pub fn rows(&self) -> Result<Vec<R>, ExportError> {
        read_rows(&self.path)
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

    impl Record for Row {
        type Key = u32;
        fn key(&self) -> u32 {
            self.id
        }
    }

    fn row(id: u32) -> Row {
        Row {
            id,
            note: id.is_multiple_of(2).then(|| format!("n{id}")),
        }
    }

    /// A file an older version wrote, without the `note` column its rows have now, is
    /// rewritten in the current layout when opened, so that appended rows line up with it.
    #[test]
    fn a_file_of_fewer_columns_is_rewritten_before_rows_are_appended() {
        let dir = std::env::temp_dir().join(format!("connectk-layout-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("old.csv");
        std::fs::write(&path, "id\n1\n2\n").unwrap();
        let store = Store::<Row>::open(&path).unwrap();
        store.append(&row(4)).unwrap();
        drop(store);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(text, "id,note\n1,\n2,\n4,n4\n");
    }

    /// A file replaced under an open store (written anew and renamed over it, as `git stash`
    /// and its `pop` do) receives the rows appended after, and a file removed is created again
    /// with its header: the rows never go to a file no longer at the path.
    #[test]
    fn rows_go_to_the_file_at_the_path_even_after_it_was_replaced() {
        let dir = std::env::temp_dir().join(format!("connectk-store-r-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.csv");
        let store = Store::<Row>::open(&path).unwrap();
        store.append(&row(1)).unwrap();
        let copy = dir.join("copy.csv");
        std::fs::copy(&path, &copy).unwrap();
        std::fs::rename(&copy, &path).unwrap();
        store.append(&row(2)).unwrap();
        assert_eq!(read_rows::<Row>(&path).unwrap(), vec![row(1), row(2)]);
        std::fs::remove_file(&path).unwrap();
        store.append(&row(3)).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(text, "id,note\n3,\n");
    }

    #[test]
    fn appended_rows_survive_a_reopen() {
        let dir = std::env::temp_dir().join(format!("connectk-store-{}", std::process::id()));
        let path = dir.join("t.csv");
        let _ = std::fs::remove_file(&path);
        {
            let store = Store::<Row>::open(&path).unwrap();
            assert!(store.done.is_empty());
            store.append(&row(3)).unwrap();
            store.append(&row(4)).unwrap();
        }
        let store = Store::<Row>::open(&path).unwrap();
        assert_eq!(store.done.len(), 2);
        assert!(store.contains(&3));
        assert!(!store.contains(&5));
        store.append(&row(5)).unwrap();
        assert_eq!(store.rows().unwrap(), vec![row(3), row(4), row(5)]);
        write_all(&path, &[row(5)]).unwrap();
        assert_eq!(read_rows::<Row>(&path).unwrap(), vec![row(5)]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_finished_run_starts_over_and_an_unfinished_one_resumes() {
        let dir = std::env::temp_dir().join(format!("connectk-store-f-{}", std::process::id()));
        let path = dir.join("t.csv");
        let _ = std::fs::remove_file(&path);
        {
            let store = Store::<Row>::open(&path).unwrap();
            for id in [1, 2, 7] {
                store.append(&row(id)).unwrap();
            }
        }
        // Keys 1..=3: 3 is missing, so the run resumes with every row kept.
        let (store, resume) = Store::<Row>::open_for(&path, &[1, 2, 3]).unwrap();
        assert!(!resume.restarted);
        assert_eq!((resume.kept, resume.pending()), (2, 1));
        assert!(store.contains(&1) && !store.contains(&3));
        store.append(&row(3)).unwrap();
        drop(store);
        // Keys 1..=3 are all there now: they start over, and the row of key 7 stays.
        let (store, resume) = Store::<Row>::open_for(&path, &[1, 2, 3]).unwrap();
        assert!(resume.restarted);
        assert_eq!((resume.kept, resume.pending()), (0, 3));
        assert!(
            resume
                .to_string()
                .ends_with("from a finished run, 3 to do again")
        );
        assert!(!store.contains(&1) && store.contains(&7));
        assert_eq!(store.rows().unwrap(), vec![row(7)]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_last_line_cut_short_is_dropped_and_the_run_resumes() {
        let dir = std::env::temp_dir().join(format!("connectk-store-t-{}", std::process::id()));
        let path = dir.join("t.csv");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, "id,note\n1,\n2,n2\n3,n").unwrap();
        let (store, resume) = Store::<Row>::open_for(&path, &[1, 2, 3]).unwrap();
        assert_eq!(resume.dropped.as_deref(), Some("3,n"));
        assert_eq!((resume.kept, resume.pending()), (2, 1));
        assert!(
            resume
                .to_string()
                .starts_with("warning: dropped the last line")
        );
        store.append(&row(3)).unwrap();
        assert_eq!(store.rows().unwrap(), vec![row(1), row(2), row(3)]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_file_left_with_only_a_header_is_started_afresh() {
        let dir = std::env::temp_dir().join(format!("connectk-store-h-{}", std::process::id()));
        let path = dir.join("t.csv");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, "id,note\n").unwrap();
        let store = Store::<Row>::open(&path).unwrap();
        store.append(&row(1)).unwrap();
        assert_eq!(store.rows().unwrap(), vec![row(1)]);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
