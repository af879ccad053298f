//! Joining the CSV files of a sweep's shards: every row checked, a job in two files must have
//! the same result in both, and shard files named `NAME.shard-I-of-N.csv` must all be there.

use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use super::SweepRow;
use crate::experiment::export::ExportError;
use crate::experiment::export::csv::{LineProblem, read_numbered_rows};
use crate::experiment::shard::Shard;

use crate::experiment::export::csv::read_header;

/// Why shard files could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A shard file could not be read, or a line of it is not a row of its kind: values of
    /// the wrong kind, or that contradict each other (the error names the file, the line and
    /// the column).
    #[error(transparent)]
    Read(#[from] ExportError),
    /// A path given as a shard file is a directory.
    #[error("{0} is a directory: give the shard CSV files themselves (DIR/NAME.shard-*-of-N.csv)")]
    Directory(PathBuf),
    /// No file holds a header.
    #[error("the files are empty: give the CSV files a sweep wrote with --shard")]
    Empty,
    /// A file holds rows of another kind than the first file.
    #[error(
        "{path} holds other rows than {first} (its header is {header:?}): merge the shards of one sweep at a time"
    )]
    OtherKind {
        /// The file.
        path: PathBuf,
        /// The first file, whose kind the merge takes.
        first: PathBuf,
        /// The file's header.
        header: String,
    },
    /// Two files give different results for one job.
    #[error(
        "{job} has different rows in {first} and {second}: merge shards of one run (or rerun the job)"
    )]
    Conflict {
        /// The job.
        job: String,
        /// Where it was first seen, as `file line N`.
        first: String,
        /// Where the other row is.
        second: String,
    },
    /// A shard's name is not UTF-8, so the name of the file beside it cannot be made from it.
    #[error(
        "{0}: the file name is not UTF-8: rename the shard and the files beside it as the sweep wrote them"
    )]
    NotUtf8(PathBuf),
    /// Shard files named `NAME.shard-I-of-N.csv` do not cover the grid.
    #[error("{problem}: give every shard file of the job array (DIR/{stem}.shard-*-of-N.csv)")]
    Coverage {
        /// The stem of the files.
        stem: String,
        /// What is missing or mixed.
        problem: String,
    },
}

/// Whether a CSV `header` is the header of rows of kind `R`, or of such rows with one column
/// lost, added or renamed: such a file is still read as rows of kind `R`, so that its refusal
/// names the column at fault rather than calling the file unknown. (The kinds of rows differ
/// in several columns each, so no header is taken for two kinds.)
pub fn holds<R: SweepRow>(header: &[String]) -> bool {
    let foreign = header
        .iter()
        .filter(|column| !R::COLUMNS.contains(&column.as_str()))
        .count();
    let absent = R::COLUMNS
        .iter()
        .filter(|&&column| !header.iter().any(|c| c == column))
        .count();
    foreign <= 1 && absent <= 1
}

/// The stem and the shard of a file named `STEM.shard-I-of-N.csv`, as `--shard I/N` names
/// its CSV; `None` for a file named otherwise.
pub fn shard_of_file(path: &Path) -> Option<(String, Shard)> {
    let name = path.file_name()?.to_str()?.strip_suffix(".csv")?;
    let (stem, rest) = name.rsplit_once(".shard-")?;
    let (index, count) = rest.split_once("-of-")?;
    let shard: Shard = format!("{index}/{count}").parse().ok()?;
    Some((stem.to_string(), shard))
}

/// The header of the first of `files` that has one: it names the kind of rows the files hold.
/// (A shard whose every job was given up leaves an empty file.)
///
/// # Errors
/// [`MergeError`] for a file that cannot be read, or when every file is empty.
pub fn header_of(files: &[PathBuf]) -> Result<Vec<String>, MergeError> {
    for path in files {
        if path.is_dir() {
            return Err(MergeError::Directory(path.clone()));
        }
        if !is_empty(path)? {
            return Ok(read_header(path)?);
        }
    }
    Err(MergeError::Empty)
}

/// Whether the file at `path` is empty.
fn is_empty(path: &Path) -> Result<bool, ExportError> {
    let metadata = std::fs::metadata(path).map_err(crate::experiment::export::io_error(path))?;
    Ok(metadata.len() == 0)
}

/// Reads and checks every row of `files`, shard files of one sweep: each file must hold rows
/// of kind `R` (its header says so; an empty file, left by a shard that kept nothing, holds
/// none), each passing [`SweepRow::check`]; a job in several files must have agreeing rows
/// (the one that settles most is kept); and files named `STEM.shard-I-of-N.csv` must be
/// every shard of one job array. Returns one row per job, in the order the files first give
/// them.
///
/// # Errors
/// The first [`MergeError`] met.
pub fn read_shards<R: SweepRow>(files: &[PathBuf]) -> Result<Vec<R>, MergeError> {
    read_shards_checked(files, &R::check)
}

/// [`read_shards`], with each row checked by `check` (which knows the grid of the run) besides
/// [`SweepRow::check`].
///
/// # Errors
/// The first [`MergeError`] met.
pub fn read_shards_checked<R: SweepRow>(
    files: &[PathBuf],
    check: &dyn Fn(&R) -> Result<(), LineProblem>,
) -> Result<Vec<R>, MergeError> {
    check_coverage(files)?;
    let mut joined = Joined::default();
    for path in files {
        if path.is_dir() {
            return Err(MergeError::Directory(path.clone()));
        }
        if is_empty(path)? {
            continue;
        }
        let header = read_header(path)?;
        if !holds::<R>(&header) {
            return Err(MergeError::OtherKind {
                path: path.clone(),
                first: files[0].clone(),
                header: header.join(","),
            });
        }
        for (line, row) in read_checked::<R>(path, check)? {
            joined.add(row, format!("{} line {line}", path.display()))?;
        }
    }
    Ok(joined.rows)
}

/// The rows of one CSV file of a run, checked by `check` too, one per job as [`read_shards`] joins them (a
/// file with no rows gives none).
///
/// # Errors
/// The first [`MergeError`] met.
pub(super) fn read_run<R: SweepRow>(
    path: &Path,
    check: &dyn Fn(&R) -> Result<(), LineProblem>,
) -> Result<Vec<R>, MergeError> {
    let mut joined = Joined::default();
    for (line, row) in read_checked::<R>(path, check)? {
        joined.add(row, format!("{} line {line}", path.display()))?;
    }
    Ok(joined.rows)
}

/// The rows of a CSV file, each with its line number, each checked by `check` (and
/// [`SweepRow::check`]).
fn read_checked<R: SweepRow>(
    path: &Path,
    check: &dyn Fn(&R) -> Result<(), LineProblem>,
) -> Result<Vec<(u64, R)>, ExportError> {
    let rows = read_numbered_rows::<R>(path)?;
    for (line, row) in &rows {
        row.check()
            .and_then(|()| check(row))
            .map_err(|problem| ExportError::Unreadable {
                path: path.display().to_string(),
                line: *line,
                problem,
            })?;
    }
    Ok(rows)
}

/// Rows joined so far: one per job, with where each was read.
struct Joined<R: SweepRow> {
    rows: Vec<R>,
    seen: HashMap<R::Key, (usize, String)>,
}

impl<R: SweepRow> Default for Joined<R> {
    fn default() -> Self {
        Joined {
            rows: Vec::new(),
            seen: HashMap::new(),
        }
    }
}

impl<R: SweepRow> Joined<R> {
    /// Adds `row`, read at `here`: a new job, or one already seen, whose rows must agree.
    fn add(&mut self, row: R, here: String) -> Result<(), MergeError> {
        match self.seen.entry(row.key()) {
            Entry::Vacant(entry) => {
                entry.insert((self.rows.len(), here));
                self.rows.push(row);
            }
            Entry::Occupied(mut entry) => {
                let (index, first) = entry.get();
                let kept = &mut self.rows[*index];
                if !kept.agrees(&row) {
                    return Err(MergeError::Conflict {
                        job: row.name(),
                        first: first.clone(),
                        second: here,
                    });
                }
                if row.settles() > kept.settles() {
                    *kept = row;
                    entry.get_mut().1 = here;
                }
            }
        }
        Ok(())
    }
}

/// The file that a sweep writes beside its CSV `file` under the stem `other`
/// (`open.shard-I-of-N.csv` beside `sizes.shard-I-of-N.csv` for `stem` `sizes`); `None` for a
/// file whose name does not start with `STEM.`.
///
/// # Errors
/// [`MergeError::NotUtf8`] for a file whose name is not UTF-8.
pub(super) fn beside(file: &Path, stem: &str, other: &str) -> Result<Option<PathBuf>, MergeError> {
    let Some(name) = file.file_name() else {
        return Ok(None);
    };
    let name = name
        .to_str()
        .ok_or_else(|| MergeError::NotUtf8(file.to_path_buf()))?;
    Ok(name
        .strip_prefix(&format!("{stem}."))
        .map(|rest| file.with_file_name(format!("{other}.{rest}"))))
}

/// Checks that the files named `STEM.shard-I-of-N.csv` among `files` share one stem and one
/// N, and hold every I from 1 to N.
fn check_coverage(files: &[PathBuf]) -> Result<(), MergeError> {
    let named: Vec<(String, Shard)> = files.iter().filter_map(|f| shard_of_file(f)).collect();
    let Some((stem, first)) = named.first().cloned() else {
        return Ok(());
    };
    let coverage = |problem: String| MergeError::Coverage {
        stem: stem.clone(),
        problem,
    };
    if let Some((other, shard)) = named
        .iter()
        .find(|(s, n)| *s != stem || n.count != first.count)
    {
        return Err(coverage(format!(
            "shard files of different runs: {stem}.shard-{}-of-{} and {other}.shard-{}-of-{}",
            first.index, first.count, shard.index, shard.count
        )));
    }
    let present: BTreeSet<u32> = named.iter().map(|(_, s)| s.index).collect();
    let missing: Vec<String> = (1..=first.count)
        .filter(|i| !present.contains(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(coverage(format!(
            "shard{} {} of {} missing",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            first.count
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_files_are_named_by_stem_and_shard() {
        let (stem, shard) = shard_of_file(Path::new("d/table1.shard-3-of-8.csv")).unwrap();
        assert_eq!(
            (stem.as_str(), shard),
            ("table1", Shard { index: 3, count: 8 })
        );
        assert_eq!(shard_of_file(Path::new("d/table1.csv")), None);
        assert_eq!(shard_of_file(Path::new("d/x.shard-9-of-8.csv")), None);
    }

    #[test]
    fn a_header_names_its_kind_even_with_a_column_lost_or_renamed() {
        use crate::experiment::{annulus, sizes, table1};
        let header = |columns: &[&str]| columns.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        let table1 = header(<table1::Row as SweepRow>::COLUMNS);
        assert!(holds::<table1::Row>(&table1));
        assert!(!holds::<annulus::Row>(&table1) && !holds::<sizes::Row>(&table1));
        let mut lost = header(<annulus::Row as SweepRow>::COLUMNS);
        lost.retain(|c| c != "outcome");
        assert!(holds::<annulus::Row>(&lost) && !holds::<table1::Row>(&lost));
        let mut renamed = header(<sizes::Row as SweepRow>::COLUMNS);
        renamed[0] = "ruleset".to_string();
        assert!(holds::<sizes::Row>(&renamed));
        renamed[1] = "line".to_string();
        assert!(!holds::<sizes::Row>(&renamed));
    }

    #[test]
    fn every_shard_must_be_given() {
        let files = |names: &[&str]| names.iter().map(PathBuf::from).collect::<Vec<_>>();
        assert!(check_coverage(&files(&["t.shard-1-of-2.csv", "t.shard-2-of-2.csv"])).is_ok());
        let missing = check_coverage(&files(&["t.shard-2-of-3.csv"])).unwrap_err();
        assert!(
            missing.to_string().starts_with("shards 1, 3 of 3 missing"),
            "{missing}"
        );
        let mixed = check_coverage(&files(&["t.shard-1-of-1.csv", "u.shard-1-of-1.csv"]));
        assert!(mixed.is_err());
        assert!(check_coverage(&files(&["a.csv", "b.csv"])).is_ok());
    }
}
