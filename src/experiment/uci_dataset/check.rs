//! Weak-solving selected lines of the data set in parallel and storing one row per line.

use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use super::parse::{Example, LineError, parse_line};
use super::ranges::Ranges;
use crate::engine::notation;
use crate::engine::outcome::GameResult;
use crate::experiment::export::{ExportError, labels};
use crate::experiment::store::Record;
use crate::solver::{Mib, Solver};

/// One checked line, as stored in `uci.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Line number in the data set, counted from 1.
    pub line: usize,
    /// A move string reaching the line's position (columns from 1).
    pub moves: String,
    /// The data set's value for the first player: `P1` (win), `P2` (loss) or `Draw`.
    #[serde(with = "labels::outcome")]
    pub expected: GameResult,
    /// The weak solver's value, spelled the same way.
    #[serde(with = "labels::outcome")]
    pub solver: GameResult,
    /// Whether the two agree.
    pub agree: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock microseconds of the solve.
    pub micros: u64,
    /// CPU microseconds of the solving thread (unlike `micros`, not inflated when other
    /// processes compete for the cores).
    pub cpu_micros: u64,
}

impl Record for Row {
    type Key = usize;

    fn key(&self) -> usize {
        self.line
    }
}

/// The check's store: one row per line.
pub type Store = crate::experiment::store::Store<Row>;

/// Which lines to check: runs of `run` consecutive lines, one run every `every` lines, the
/// first run starting at line `offset + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    every: usize,
    offset: usize,
    run: usize,
}

/// A stride, offset or run length that selects nothing sensible.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    /// The stride is zero.
    #[error("--every 0: the stride must be at least 1")]
    ZeroStride,
    /// The run length is zero.
    #[error("--run 0: a run must be at least 1 line")]
    ZeroRun,
    /// The run does not fit in the stride after the offset.
    #[error(
        "--offset {offset} --run {run} with --every {every}: offset + run must be at most the stride ({every})"
    )]
    RunPastStride {
        /// The offset asked for.
        offset: usize,
        /// The run length asked for.
        run: usize,
        /// The stride.
        every: usize,
    },
}

impl Selection {
    /// Lines `offset + 1 ..= offset + run`, then the same lines shifted by `every`, `2 * every`,
    /// ... (so `Selection::new(1, 0, 1)` is the whole file and `Selection::new(64, 0, 1)`
    /// every 64th line).
    ///
    /// # Errors
    /// [`SelectionError`] unless `every >= 1`, `run >= 1` and `offset + run <= every`.
    pub fn new(every: usize, offset: usize, run: usize) -> Result<Selection, SelectionError> {
        if every == 0 {
            return Err(SelectionError::ZeroStride);
        }
        if run == 0 {
            return Err(SelectionError::ZeroRun);
        }
        if offset + run > every {
            return Err(SelectionError::RunPastStride { offset, run, every });
        }
        Ok(Selection { every, offset, run })
    }

    /// Whether line `line` (counted from 1) is selected.
    pub(crate) fn contains(self, line: usize) -> bool {
        line >= 1 && (self.offset..self.offset + self.run).contains(&((line - 1) % self.every))
    }

    /// Parses the selected lines of the data set's `text` (other lines are not read).
    ///
    /// # Errors
    /// The first [`LineError`] among the selected lines.
    pub fn examples(self, text: &str) -> Result<Vec<Example>, LineError> {
        text.lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line))
            .filter(|&(number, _)| self.contains(number))
            .map(|(number, line)| parse_line(number, line))
            .collect()
    }
}

/// Weak-solves `example` and compares the result with the data set.
pub(crate) fn check(solver: &mut Solver, example: &Example) -> Row {
    let cpu_start = thread_cpu_micros();
    let solution = solver.solve_weak(&example.position);
    let cpu_micros = thread_cpu_micros().saturating_sub(cpu_start);
    let found = solution.value.result;
    Row {
        line: example.line,
        moves: notation::format(example.position.rules(), &example.moves),
        expected: example.expected,
        solver: found,
        agree: found == example.expected,
        nodes: solution.nodes,
        micros: (solution.seconds * 1e6).round() as u64,
        cpu_micros,
    }
}

/// CPU time consumed so far by the calling thread, in microseconds.
fn thread_cpu_micros() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec and the clock id is a constant the kernel
    // knows; on failure the call leaves `now` at zero, which only loses the measurement.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    now.tv_sec as u64 * 1_000_000 + now.tv_nsec as u64 / 1_000
}

/// Checks every example not yet in `store` and appends its row to the store as soon as it is
/// solved; `done` is called after each line.
///
/// Each thread of the current rayon pool runs one worker with one [`Solver`] of `table`,
/// whose table is reused from one position to the next. The pending examples, in file order,
/// are shared out by `Ranges`: each worker works through a contiguous run of them (taking
/// over half of another's run when its own is done), so that its table keeps serving
/// neighbouring lines. The first solve of each worker also pays for allocating its table.
///
/// # Errors
/// [`ExportError`] when a row cannot be written (the workers then stop after their current
/// line).
pub fn run(
    examples: &[Example],
    store: &Store,
    table: Mib,
    done: impl Fn(&Row) + Sync,
) -> Result<(), ExportError> {
    let pending: Vec<&Example> = examples
        .iter()
        .filter(|e| !store.contains(&e.line))
        .collect();
    let ranges = Ranges::new(pending.len(), rayon::current_num_threads());
    let failed = AtomicBool::new(false);
    let worker = |index: usize| -> Result<(), ExportError> {
        let mut solver = Solver::new(table);
        while let Some(next) = ranges.next(index) {
            if failed.load(Ordering::Relaxed) {
                return Ok(());
            }
            let row = check(&mut solver, pending[next]);
            store
                .append(&row)
                .inspect_err(|_| failed.store(true, Ordering::Relaxed))?;
            done(&row);
        }
        Ok(())
    };
    rayon::broadcast(|context| worker(context.index()))
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::outcome::{GameResult, Player};

    #[test]
    fn selections_take_every_nth_line_from_the_offset() {
        let s = Selection::new(3, 1, 1).unwrap();
        let picked: Vec<usize> = (1..=10).filter(|&l| s.contains(l)).collect();
        assert_eq!(picked, [2, 5, 8]);
        let runs = Selection::new(5, 1, 2).unwrap();
        let picked: Vec<usize> = (1..=12).filter(|&l| runs.contains(l)).collect();
        assert_eq!(picked, [2, 3, 7, 8, 12]);
        assert!((1..=10).all(|l| Selection::new(1, 0, 1).unwrap().contains(l)));
        assert_eq!(Selection::new(0, 0, 1), Err(SelectionError::ZeroStride));
        assert_eq!(Selection::new(4, 0, 0), Err(SelectionError::ZeroRun));
        assert_eq!(
            Selection::new(4, 3, 2).unwrap_err().to_string(),
            "--offset 3 --run 2 with --every 4: offset + run must be at most the stride (4)"
        );
    }

    #[test]
    fn checking_stores_one_row_per_line_and_resumes() {
        // x on a1..a3 and o on b1..b3 with x to move: x wins at once by a4, so the second
        // line, labelled a loss, disagrees.
        let text = "x,x,x,b,b,b,o,o,o,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,\
                    b,b,b,b,b,b,b,b,b,b,b,b,win\n\
                    x,x,x,b,b,b,o,o,o,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,\
                    b,b,b,b,b,b,b,b,b,b,b,b,loss\n";
        let examples = Selection::new(1, 0, 1).unwrap().examples(text).unwrap();
        assert_eq!(examples.len(), 2);
        assert_eq!(examples[0].expected, GameResult::Win(Player::P1));
        let dir = std::env::temp_dir().join(format!("connectk-uci-check-{}", std::process::id()));
        let path = dir.join("uci.csv");
        let _ = std::fs::remove_file(&path);
        let store = Store::open(&path).unwrap();
        run(&examples[..1], &store, Mib(1), |_| {}).unwrap();
        let store = Store::open(&path).unwrap();
        assert!(store.contains(&1));
        run(&examples, &store, Mib(1), |row| assert_eq!(row.line, 2)).unwrap();
        let rows = store.rows().unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].moves, "121212");
        assert!(rows[0].agree);
        assert_eq!((rows[1].expected.label(), rows[1].agree), ("P2", false));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
