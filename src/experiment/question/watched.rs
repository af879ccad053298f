//! The answer CSVs a run reads besides its own: given one by one, or every file about the
//! board in a folder. They are looked at again while the run goes on, so that answers another
//! run (a worker on a later move, a task of the same job array) writes meanwhile are used by
//! this one without a restart: a new or grown file is read again.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{ANSWER_COLUMNS, AnswerRow, check_board};
use crate::experiment::export::ExportError;
use crate::experiment::export::csv::read_complete_rows;

/// The files read besides a run's own, with the length of each when it was last read.
pub(super) struct Watched {
    /// The board the answers must be about, as the rows name it.
    board: String,
    /// Files given one by one: each must hold answers about the board.
    files: Vec<PathBuf>,
    /// A folder whose CSVs about the board are read (other boards' are left out).
    dir: Option<PathBuf>,
    /// The run's own CSV, never read as another's.
    own: PathBuf,
    /// Each file's length when it was last read.
    lengths: HashMap<PathBuf, u64>,
    /// The folder's files about the board, in the order first seen (by name at first).
    pub(super) about: Vec<PathBuf>,
    /// The folder's files about other boards, left out.
    others: HashSet<PathBuf>,
    /// The least time between two looks by [`Watched::look_if_due`].
    every: Duration,
    last: Instant,
}

impl Watched {
    /// The files `files`, and those in `dir` about `board` (leaving out `own`), looked at
    /// again at most every `every`; nothing is read until the first [`Watched::look`].
    pub(super) fn new(
        board: String,
        files: &[PathBuf],
        dir: Option<&Path>,
        own: &Path,
        every: Duration,
    ) -> Watched {
        Watched {
            board,
            files: files.to_vec(),
            dir: dir.map(Path::to_path_buf),
            own: own.to_path_buf(),
            lengths: HashMap::new(),
            about: Vec::new(),
            others: HashSet::new(),
            every,
            last: Instant::now(),
        }
    }

    /// How many files about the board have been read: given, and found in the folder.
    pub(super) fn count(&self) -> usize {
        self.files.len() + self.about.len()
    }

    /// How many of the folder's files are about other boards.
    pub(super) fn others(&self) -> usize {
        self.others.len()
    }

    /// Every row of each file new or grown since the last look (of every file, at the first).
    ///
    /// # Errors
    /// [`ExportError::Io`] when a file or the folder cannot be read,
    /// [`ExportError::Unreadable`] for a CSV that is not a file of answers, or a file given
    /// (or one of the folder's about the board) with a row about another board.
    pub(super) fn look(&mut self) -> Result<Vec<AnswerRow>, ExportError> {
        self.last = Instant::now();
        let mut rows = Vec::new();
        for path in self.files.clone() {
            if let Some(grown) = self.read_if_grown(&path)? {
                check_board(&path, &grown, &self.board)?;
                rows.extend(grown);
            }
        }
        let Some(dir) = self.dir.clone() else {
            return Ok(rows);
        };
        for path in csvs_in(&dir, &self.own)? {
            if self.others.contains(&path) {
                continue;
            }
            let Some(grown) = self.read_if_grown(&path)? else {
                continue;
            };
            // A file's first row names its board; an empty file is looked at again later.
            match grown.first() {
                Some(row) if row.board == self.board => {
                    check_board(&path, &grown, &self.board)?;
                    if !self.about.contains(&path) {
                        self.about.push(path);
                    }
                    rows.extend(grown);
                }
                Some(_) => {
                    self.others.insert(path);
                }
                None => {}
            }
        }
        Ok(rows)
    }

    /// [`Watched::look`] when the least time between looks has passed since the last one;
    /// else no row.
    ///
    /// # Errors
    /// As [`Watched::look`].
    pub(super) fn look_if_due(&mut self) -> Result<Vec<AnswerRow>, ExportError> {
        if self.last.elapsed() < self.every {
            return Ok(Vec::new());
        }
        self.look()
    }

    /// The complete rows of `path` when its length changed since it was last read.
    fn read_if_grown(&mut self, path: &Path) -> Result<Option<Vec<AnswerRow>>, ExportError> {
        let length = std::fs::metadata(path)
            .map_err(|error| ExportError::Io {
                path: path.display().to_string(),
                error,
            })?
            .len();
        if self.lengths.get(path) == Some(&length) {
            return Ok(None);
        }
        let rows = read_complete_rows(path, ANSWER_COLUMNS, "answers")?;
        self.lengths.insert(path.to_path_buf(), length);
        Ok(Some(rows))
    }
}

/// The CSVs in `dir`, sorted by name, leaving out `own` (compared as canonical paths: it may
/// be named another way, and may not exist yet).
fn csvs_in(dir: &Path, own: &Path) -> Result<Vec<PathBuf>, ExportError> {
    let io = |error| ExportError::Io {
        path: dir.display().to_string(),
        error,
    };
    let own = std::fs::canonicalize(own).ok();
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().is_some_and(|e| e == "csv") && std::fs::canonicalize(&path).ok() != own
        {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}
