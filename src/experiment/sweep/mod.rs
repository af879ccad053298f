//! One runner for every sweep (Table I, the annulus, the size tables, Quarto's split solves):
//! a grid of jobs in a fixed order, cut into deterministic shards for job arrays; each job
//! solved on the worker pool and its row appended to a CSV as soon as it finishes, so that an
//! interrupted run loses nothing and a rerun resumes; shard files merged with every row
//! checked; and the results published with a record of the run.
//!
//! A run of shard `I/N` writes `NAME.shard-I-of-N.csv` (see [`csv_path`]); [`merge`] takes the
//! shard files, checks that they are all there and agree, and publishes what one run of the
//! whole grid would have.

mod board;
mod merge;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::export::ExportError;
use super::export::csv::LineProblem;
use super::provenance::Provenance;
use super::shard::Shard;
use super::store::{Record, Resume, Resumption, Store};
use crate::engine::rules::RulesError;

pub use board::{Board, Grid};
use merge::read_run;
pub use merge::{MergeError, header_of, holds, read_shards, read_shards_checked, shard_of_file};

/// A row of a sweep's CSV: the result of one job.
pub trait SweepRow: Record<Key: Send + Sync> + Clone + PartialEq + Send + Sync {
    /// The CSV's columns, in order: the header of a file names the kind of rows it holds.
    const COLUMNS: &'static [&'static str];

    /// Checks a row read back from a file: its fields must fit each other (and, where there is
    /// one, the published claim they are held against).
    ///
    /// # Errors
    /// The first problem found, with the column at fault.
    fn check(&self) -> Result<(), LineProblem> {
        Ok(())
    }

    /// Whether `other`, a row of the same job, says the same as this one; a merge refuses two
    /// rows of one job that do not. By default the rows must be equal.
    fn agrees(&self, other: &Self) -> bool {
        self == other
    }

    /// The job of the row, as messages name it (`k = 4, 7x6`).
    fn name(&self) -> String;

    /// How much of its job the row settles; of two agreeing rows of one job a merge keeps the
    /// one that settles more (the first among equals).
    fn settles(&self) -> u8 {
        1
    }
}

/// What came of one job.
#[derive(Clone, Debug, PartialEq)]
pub enum Solved<R, A> {
    /// A row for the sweep's CSV.
    Row(R),
    /// An attempt that ran out of its budget, kept in the attempts CSV with how far it got.
    Open(A),
    /// Nothing to keep: the job is left for a rerun.
    GivenUp,
}

/// The attempts of a sweep that keeps none: a type without values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum NoAttempt {}

impl Record for NoAttempt {
    type Key = ();

    fn key(&self) {
        match *self {}
    }
}

/// One kind of sweep: its grid of jobs, how one job is solved, and how its rows are published.
pub trait Sweep: Sync {
    /// The stem of the sweep's files: `NAME.csv`, `NAME.shard-I-of-N.csv`.
    const NAME: &'static str;
    /// The stem of the attempts' files (`open.csv` beside `sizes.csv`), for a sweep that
    /// keeps its unsettled attempts apart from its rows.
    const ATTEMPTS: Option<&'static str> = None;
    /// Whether a rerun of a run whose every job is settled solves them again (rather than
    /// doing nothing): a sweep cheap enough to redo reruns, so that running the same command
    /// again does the work again instead of only reprinting it.
    const REDO_FINISHED: bool = true;

    /// One job of the grid.
    type Job: Clone + Send + Sync;
    /// The row a job writes.
    type Row: SweepRow;
    /// An unsettled attempt (see [`Sweep::ATTEMPTS`]).
    type Attempt: Record<Key: Send + Sync> + Clone + PartialEq + Send + Sync;
    /// What a worker thread keeps from one job to the next (a solver and its table).
    type Worker: Send;

    /// Every job of the grid, in a fixed order (shards are cut from it).
    ///
    /// # Errors
    /// [`RulesError`] for a board the engine does not take.
    fn jobs(&self) -> Result<Vec<Self::Job>, RulesError>;

    /// The key under which the row of `job` is stored.
    fn key(job: &Self::Job) -> <Self::Row as Record>::Key;

    /// A worker for one thread of the pool.
    fn worker(&self) -> Self::Worker;

    /// Solves one job; `attempts` holds the unsettled attempts of earlier runs, and keeps the
    /// ones this job writes down on its way (see [`Attempts`]).
    fn solve(
        &self,
        worker: &mut Self::Worker,
        job: &Self::Job,
        attempts: &Attempts<'_, Self::Attempt>,
    ) -> Solved<Self::Row, Self::Attempt>;

    /// Orders the jobs left to do before they are handed to the pool (by default, the grid's
    /// order).
    fn schedule(&self, _pending: &mut [Self::Job]) {}

    /// Whether a row already in the CSV settles its job for this run, so that the run skips
    /// it (by default every row does).
    fn done(&self, _row: &Self::Row) -> bool {
        true
    }

    /// Checks a row read back from a file against the sweep (besides [`SweepRow::check`]).
    ///
    /// # Errors
    /// The problem found, with the column at fault.
    fn check(&self, _row: &Self::Row) -> Result<(), LineProblem> {
        Ok(())
    }

    /// The jobs of the grid that have no row in `rows`.
    ///
    /// # Errors
    /// [`RulesError`] for a board the engine does not take.
    fn missing(&self, rows: &[Self::Row]) -> Result<Vec<Self::Job>, RulesError> {
        let solved: std::collections::HashSet<_> = rows.iter().map(Record::key).collect();
        Ok(self
            .jobs()?
            .into_iter()
            .filter(|job| !solved.contains(&Self::key(job)))
            .collect())
    }

    /// Writes the results of `rows` (in any order), the unsettled `attempts` and the jobs of
    /// the grid left `unsolved` into `dir`, quoting `command`; returns the summary line.
    ///
    /// # Errors
    /// [`ExportError`] naming the first file that could not be written.
    fn publish(
        &self,
        dir: &Path,
        rows: Vec<Self::Row>,
        attempts: Vec<Self::Attempt>,
        unsolved: &[Self::Job],
        command: &str,
    ) -> Result<String, ExportError>;
}

/// Why a sweep could not run or publish.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// A file could not be read or written.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// A board of the grid is not one the engine takes.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// Shard files could not be merged.
    #[error(transparent)]
    Merge(#[from] MergeError),
}

/// The CSV a run of `stem` writes into `dir`: `STEM.csv`, or `STEM.shard-I-of-N.csv` for a
/// shard of a job array.
pub fn csv_path(dir: &Path, stem: &str, shard: Option<Shard>) -> PathBuf {
    dir.join(match shard {
        None => format!("{stem}.csv"),
        Some(s) => format!("{stem}.shard-{}-of-{}.csv", s.index, s.count),
    })
}

/// What a job sees of the unsettled attempts of a sweep that keeps them: those the run's
/// attempts file held when the run opened, and a way to write down a new one the moment the
/// job gets further, so that a run stopped in the middle of a long job (a cluster's time
/// limit, a machine going down) keeps what the job had settled.
pub struct Attempts<'a, A: Record> {
    earlier: &'a [A],
    store: Option<&'a Store<A>>,
    /// Told of each attempt written down, so that the run's progress can show it.
    noted: &'a (dyn Fn(&A) + Sync),
    /// Told of the job's progress in words, written nowhere (see [`Attempts::tell`]).
    told: &'a (dyn Fn(&str) + Sync),
    /// The first write that failed, reported when the job ends.
    failed: Mutex<Option<ExportError>>,
}

impl<'a, A: Record> Attempts<'a, A> {
    /// The attempts of earlier runs, of every job (a job picks its own).
    pub fn earlier(&self) -> &'a [A] {
        self.earlier
    }

    /// Appends `attempt` to the attempts file now (for a sweep without one, does nothing) and
    /// tells the run's watcher. A write that fails makes the run fail once the job ends, as its
    /// row's would.
    pub fn checkpoint(&self, attempt: &A) {
        if let Some(Err(e)) = self.store.map(|store| store.append(attempt)) {
            self.fail(e);
        }
        (self.noted)(attempt);
    }

    /// Tells the run's watcher how far the job has got, in words written to no file: for the
    /// steps of a job that keeps its own files (the annulus's answers to its questions), so
    /// that an hours-long job shows it is moving.
    pub fn tell(&self, words: &str) {
        (self.told)(words);
    }

    /// Records a failure of a file the job keeps of its own (the first one makes the run fail
    /// once the job ends, as a failed write of its row would).
    pub fn fail(&self, e: ExportError) {
        let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        failed.get_or_insert(e);
    }

    /// The first write that failed, if any.
    fn failure(self) -> Option<ExportError> {
        self.failed.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

/// A run of a sweep, its store open: the jobs of its shard and what the CSV already held.
pub struct Run<'a, S: Sweep> {
    sweep: &'a S,
    /// Jobs in the whole grid.
    pub grid: usize,
    jobs: Vec<S::Job>,
    store: Store<S::Row>,
    attempts: Option<Store<S::Attempt>>,
    /// The attempts the run found in its attempts file.
    earlier: Vec<S::Attempt>,
    /// What the run found in its CSV.
    pub resume: Resume,
}

/// What [`Run::solve`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solving<J> {
    /// Jobs whose row settles them.
    pub settled: usize,
    /// Jobs with a row or an attempt that does not settle them (a rerun tries them again).
    pub unsettled: usize,
    /// Jobs given up with nothing to keep.
    pub given_up: Vec<J>,
}

impl<'a, S: Sweep> Run<'a, S> {
    /// Opens the run of `shard` (the whole grid for `None`) of `sweep` that appends to the CSV
    /// at `csv` (and its attempts to `attempts`, for a sweep that keeps them).
    ///
    /// # Errors
    /// [`SweepError`] when the grid cannot be listed or a CSV cannot be read or opened.
    pub fn open(
        sweep: &'a S,
        csv: &Path,
        attempts: Option<&Path>,
        shard: Option<Shard>,
    ) -> Result<Run<'a, S>, SweepError> {
        let all = sweep.jobs()?;
        let grid = all.len();
        let jobs = match shard {
            Some(shard) => shard.select(&all),
            None => all,
        };
        let keys: Vec<_> = jobs.iter().map(S::key).collect();
        let resumption = Resumption {
            settled: &|row| sweep.done(row),
            redo_finished: S::REDO_FINISHED,
        };
        let (store, resume) = Store::open_resuming(csv, &keys, &resumption)?;
        let attempts = attempts.map(Store::open).transpose()?;
        let earlier = attempts
            .as_ref()
            .map(Store::rows)
            .transpose()?
            .unwrap_or_default();
        Ok(Run {
            sweep,
            grid,
            jobs,
            store,
            attempts,
            earlier,
            resume,
        })
    }

    /// Opens the run of `shard` of `sweep` in `dir`, with its files named as [`csv_path`] says.
    ///
    /// # Errors
    /// As [`Run::open`].
    pub fn open_in(
        sweep: &'a S,
        dir: &Path,
        shard: Option<Shard>,
    ) -> Result<Run<'a, S>, SweepError> {
        let attempts = S::ATTEMPTS.map(|stem| csv_path(dir, stem, shard));
        Run::open(
            sweep,
            &csv_path(dir, S::NAME, shard),
            attempts.as_deref(),
            shard,
        )
    }

    /// The jobs of this run's shard.
    pub fn jobs(&self) -> &[S::Job] {
        &self.jobs
    }

    /// Solves every job of the shard that the CSV does not settle yet, in parallel on the
    /// current worker pool, appending each row (or attempt) as soon as it is found; `done` is
    /// called after each job.
    ///
    /// # Errors
    /// [`ExportError`] when a row cannot be written.
    pub fn solve(
        &self,
        done: impl Fn(&S::Job, &Solved<S::Row, S::Attempt>) + Sync,
    ) -> Result<Solving<S::Job>, ExportError> {
        self.solve_watching(|_| {}, |_, _| {}, |_, _| {}, done)
    }

    /// As [`Run::solve`], also calling `started` as each job is taken up, `narrowed` each
    /// time a job writes down an attempt on its way and `told` with the words of
    /// [`Attempts::tell`] (an hours-long job shows which it is and how far it has got, not
    /// only that it has not finished).
    ///
    /// # Errors
    /// As [`Run::solve`].
    pub fn solve_watching(
        &self,
        started: impl Fn(&S::Job) + Sync,
        narrowed: impl Fn(&S::Job, &S::Attempt) + Sync,
        told: impl Fn(&S::Job, &str) + Sync,
        done: impl Fn(&S::Job, &Solved<S::Row, S::Attempt>) + Sync,
    ) -> Result<Solving<S::Job>, ExportError> {
        let mut pending: Vec<S::Job> = self
            .jobs
            .iter()
            .filter(|job| !self.store.contains(&S::key(job)))
            .cloned()
            .collect();
        self.sweep.schedule(&mut pending);
        // Workers go back to this pool after each job, so that a solver (and its table) is
        // made once per thread rather than once per job.
        let idle: Mutex<Vec<S::Worker>> = Mutex::new(Vec::new());
        let take = || idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let results = pending
            .par_iter()
            .map(|job| {
                let mut worker = take().unwrap_or_else(|| self.sweep.worker());
                started(job);
                let noted = |attempt: &S::Attempt| narrowed(job, attempt);
                let words = |words: &str| told(job, words);
                let attempts = Attempts {
                    earlier: &self.earlier,
                    store: self.attempts.as_ref(),
                    noted: &noted,
                    told: &words,
                    failed: Mutex::new(None),
                };
                let solved = self.sweep.solve(&mut worker, job, &attempts);
                idle.lock().unwrap_or_else(|e| e.into_inner()).push(worker);
                if let Some(e) = attempts.failure() {
                    return Err(e);
                }
                let settled = self.keep(&solved)?;
                done(job, &solved);
                Ok((
                    settled,
                    matches!(solved, Solved::GivenUp).then(|| job.clone()),
                ))
            })
            .collect::<Result<Vec<(Option<bool>, Option<S::Job>)>, ExportError>>()?;
        let count = |wanted| results.iter().filter(|(s, _)| *s == Some(wanted)).count();
        Ok(Solving {
            settled: count(true),
            unsettled: count(false),
            given_up: results.iter().filter_map(|(_, j)| j.clone()).collect(),
        })
    }

    /// Appends what `solved` found to its CSV; whether it settles its job (`None`: nothing to
    /// keep).
    fn keep(&self, solved: &Solved<S::Row, S::Attempt>) -> Result<Option<bool>, ExportError> {
        Ok(match solved {
            Solved::Row(row) => {
                self.store.append(row)?;
                Some(self.sweep.done(row))
            }
            Solved::Open(attempt) => {
                // A job may hand back an earlier attempt unchanged (the annulus skips a board
                // given up under the same limits): the file holds it already.
                if let Some(attempts) = self
                    .attempts
                    .as_ref()
                    .filter(|_| !self.earlier.contains(attempt))
                {
                    attempts.append(attempt)?;
                }
                Some(false)
            }
            Solved::GivenUp => None,
        })
    }

    /// Publishes every row of the CSV (rows kept from earlier runs are checked as a merge
    /// checks its shards) into `dir`, with the jobs of the grid still without a row, and
    /// writes `dir/run.json` for `command` (its words after the program's name), which started
    /// at `start`. Returns the summary line.
    ///
    /// # Errors
    /// [`SweepError`] when a CSV cannot be read back or a file cannot be written.
    pub fn publish(
        self,
        dir: &Path,
        command: &[String],
        start: Instant,
    ) -> Result<String, SweepError> {
        let path = self.resume.path.clone();
        drop(self.store);
        let rows: Vec<S::Row> = read_run(&path, &|row| self.sweep.check(row))?;
        let attempts = self
            .attempts
            .map(|a| a.rows())
            .transpose()?
            .unwrap_or_default();
        publish(self.sweep, dir, rows, attempts, command, start)
    }
}

/// Publishes `rows` and `attempts` of `sweep` into `dir` with the jobs of its grid that have
/// no row, and writes `dir/run.json` for `command`, which started at `start`.
///
/// # Errors
/// [`SweepError`] when the grid cannot be listed or a file cannot be written.
pub(crate) fn publish<S: Sweep>(
    sweep: &S,
    dir: &Path,
    rows: Vec<S::Row>,
    attempts: Vec<S::Attempt>,
    command: &[String],
    start: Instant,
) -> Result<String, SweepError> {
    let unsolved = sweep.missing(&rows)?;
    let line = super::provenance::command_line(command);
    let summary = sweep.publish(dir, rows, attempts, &unsolved, &line)?;
    Provenance::now(command, start.elapsed()).write(dir)?;
    Ok(summary)
}

/// Merges `files`, the shard files of one run of `sweep`, and publishes in `dir` what one run
/// of the grid would have, with `dir/run.json` for `command`, which started at `start`. The
/// attempts of a sweep that keeps them are read from the files beside the shards
/// (`open.shard-I-of-N.csv` beside `sizes.shard-I-of-N.csv`), where there are such files.
///
/// # Errors
/// [`SweepError`] for a shard file that cannot be read or merged, or an output that cannot
/// be written.
pub fn merge<S: Sweep>(
    sweep: &S,
    files: &[PathBuf],
    dir: &Path,
    command: &[String],
    start: Instant,
) -> Result<String, SweepError> {
    let rows = read_shards_checked::<S::Row>(files, &|row| sweep.check(row))?;
    let mut attempts = Vec::new();
    if let Some(stem) = S::ATTEMPTS {
        for file in files {
            let beside = merge::beside(file, S::NAME, stem)?;
            if let Some(path) = beside.filter(|p| p.exists()) {
                attempts.extend(super::export::csv::read_rows::<S::Attempt>(&path)?);
            }
        }
    }
    publish(sweep, dir, rows, attempts, command, start)
}
