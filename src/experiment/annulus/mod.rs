//! The paper's open problem: Connect-k on an annulus (a cylinder: periodic side walls),
//! solved board by board under both rule sets, held beside Table I's flat boards, and the
//! patterns of the odd heights read off the results. Finished boards are appended to the CSV
//! as they complete, so an interrupted run loses nothing and a rerun resumes; the grid can be
//! cut into shards ([`crate::experiment::shard::Shard`]) like Table I's. A board that passes
//! its node limits goes to `open.csv` with them ([`Attempt`]), and a rerun under the same
//! limits skips it.

mod attempt;
mod patterns;
mod plot;
mod questions;
mod report;
mod row;

use std::path::Path;
use std::time::Instant;

use super::export::ExportError;
use super::export::csv::write_all;
use super::sweep::{Attempts, Board, Grid, Solved, Sweep};
use crate::engine::outcome::GameResult;
use crate::engine::position::Position;
use crate::engine::rules::{RulesError, Topology, Variant};
use crate::solver::{DEFAULT_ONE_ROW, Depth, Mib, Solver};
use crate::strategy::table1;

pub use attempt::Attempt;
pub use questions::Questions;
pub(crate) use row::Row;

/// Every cylinder board of `grid` (each size and k of Table I's grid), under both rule sets,
/// in a fixed order (by k, width, height, then misère before normal).
///
/// # Errors
/// [`RulesError`] if a board of the grid is not supported by the engine.
pub(crate) fn boards(grid: Grid) -> Result<Vec<Board>, RulesError> {
    Ok(grid
        .boards(Variant::Misere, Topology::Cylinder)?
        .into_iter()
        .flat_map(|b| [Variant::Misere, Variant::Normal].map(|variant| Board { variant, ..b }))
        .collect())
}

/// How each board of the sweep is solved.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// Transposition table per board.
    pub table: Mib,
    /// Nodes the exact solve (outcome and remoteness) may take before it gives up.
    pub strong_nodes: u64,
    /// Nodes the outcome-only solve, tried after the exact one gives up, may take.
    pub weak_nodes: u64,
    /// No board is started after this moment: the rest are given up, for a rerun to take.
    pub deadline: Option<Instant>,
}

/// Solves one board from the empty position: exactly when that takes at most
/// `effort.strong_nodes` nodes, else its outcome alone within `effort.weak_nodes` (the row
/// says which); the attempt that gave up when neither finishes. The weak solve starts with
/// what the exact one left in the table; the row counts the nodes and time of both.
pub(crate) fn solve_board(board: Board, effort: Effort) -> Result<Row, Attempt> {
    let start = Instant::now();
    let rules = board.rules();
    let empty = Position::new(rules);
    let mut solver = solver_for(&effort);
    let (value, depth) = match solver.solve_within(&empty, Depth::Strong, effort.strong_nodes) {
        Some(solution) => (solution.value, Depth::Strong),
        None => match solver.solve_within(&empty, Depth::Weak, effort.weak_nodes) {
            Some(solution) => (solution.value, Depth::Weak),
            None => {
                let seconds = start.elapsed().as_secs_f64();
                return Err(Attempt::new(board, &effort, solver.nodes(), seconds));
            }
        },
    };
    let cost = (solver.nodes(), start.elapsed().as_secs_f64());
    Ok(row_of(board, depth, value.result, value.remoteness, cost))
}

/// A solver with `effort`'s table, whose one-row solver (rings of one row) may use as much
/// memory as the table, and at least its default: a run given a large table for its hard
/// boards gives it to the hard rings too.
fn solver_for(effort: &Effort) -> Solver {
    Solver::new(effort.table).with_one_row_memory(effort.table.max(DEFAULT_ONE_ROW))
}

/// The row of `board` solved to `depth` with `outcome` (and `remoteness`, for an exact
/// solve), for `cost` nodes and seconds; beside it Table I's outcome for the flat board.
fn row_of(
    board: Board,
    depth: Depth,
    outcome: GameResult,
    remoteness: Option<u32>,
    (nodes, seconds): (u64, f64),
) -> Row {
    let flat = match board.variant {
        Variant::Misere => table1::predict(board.k, board.width, board.height),
        Variant::Normal => None,
    };
    Row {
        rules: board.variant,
        topology: Topology::Cylinder,
        k: board.k,
        width: board.width,
        height: board.height,
        cells: board.rules().cells(),
        depth,
        outcome,
        remoteness,
        flat_table1: flat,
        nodes,
        seconds,
    }
}

/// The annulus sweep: every cylinder board of a grid under both rule sets.
#[derive(Clone, Debug)]
pub struct Annulus {
    /// The boards' sizes and line lengths; `None` for a merge of shards, whose rows give
    /// them.
    pub grid: Option<Grid>,
    /// The fewest rows a board of the grid may have: boards lower than this are left out
    /// (neither solved nor reported missing), so that a run can take the boards of one band
    /// of heights; 1 takes them all.
    pub min_height: u32,
    /// How each board is solved.
    pub effort: Effort,
    /// Where the boards that pass both node limits (now or in an earlier run) are settled by
    /// split questions instead of being listed as not solved (`None`: they are listed).
    pub questions: Option<Questions>,
}

/// The grid that `rows` cover: k from their smallest to their largest, and their largest
/// board size.
fn grid_of(rows: &[Row]) -> Grid {
    Grid {
        k_min: rows.iter().map(|r| r.k).min().unwrap_or(2),
        k_max: rows.iter().map(|r| r.k).max().unwrap_or(2),
        max_cells: rows.iter().map(|r| r.cells).max().unwrap_or(1),
    }
}

impl Annulus {
    /// A merge of shards, whose grid is the one their rows cover.
    pub fn merge() -> Annulus {
        let effort = Effort {
            table: Mib(0),
            strong_nodes: 0,
            weak_nodes: 0,
            deadline: None,
        };
        Annulus {
            grid: None,
            min_height: 1,
            effort,
            questions: None,
        }
    }

    /// The boards of `grid` at least `min_height` high.
    fn boards_of(&self, grid: Grid) -> Result<Vec<Board>, RulesError> {
        let mut all = boards(grid)?;
        all.retain(|b| b.height >= self.min_height);
        Ok(all)
    }
}

impl Sweep for Annulus {
    const NAME: &'static str = "annulus";
    const ATTEMPTS: Option<&'static str> = Some("open");
    type Job = Board;
    type Row = Row;
    type Attempt = Attempt;
    type Worker = ();

    fn jobs(&self) -> Result<Vec<Board>, RulesError> {
        self.grid
            .map_or(Ok(Vec::new()), |grid| self.boards_of(grid))
    }

    fn key(board: &Board) -> Board {
        *board
    }

    fn worker(&self) {}

    /// Past the deadline a board is given up unstarted, for a rerun to take; a board an
    /// earlier run gave up on under limits at least as large is not searched again. With
    /// questions, a board past the limits (now or then) is settled by them instead, or given
    /// up with its answers kept when the deadline comes first.
    fn solve(
        &self,
        _: &mut (),
        board: &Board,
        attempts: &Attempts<'_, Attempt>,
    ) -> Solved<Row, Attempt> {
        if self.effort.deadline.is_some_and(|d| Instant::now() >= d) {
            return Solved::GivenUp;
        }
        let covering = attempts
            .earlier()
            .iter()
            .find(|a| a.board() == *board && a.covers(&self.effort));
        let attempt = match covering {
            Some(earlier) => earlier.clone(),
            None => match solve_board(*board, self.effort) {
                Ok(row) => return Solved::Row(row),
                Err(attempt) => attempt,
            },
        };
        let Some(questions) = &self.questions else {
            return Solved::Open(attempt);
        };
        // Kept before the questions start, so that a rerun stopped in them goes straight back
        // to them rather than to the search that gave up.
        if covering.is_none() {
            attempts.checkpoint(&attempt);
        }
        match questions::settle(*board, questions, &self.effort, &|w| attempts.tell(w)) {
            Ok(Some(row)) => Solved::Row(row),
            Ok(None) => Solved::GivenUp,
            Err(e) => {
                attempts.fail(e);
                Solved::GivenUp
            }
        }
    }

    fn missing(&self, rows: &[Row]) -> Result<Vec<Board>, RulesError> {
        let solved: std::collections::HashSet<Board> = rows.iter().map(Row::board).collect();
        Ok(self
            .boards_of(self.grid.unwrap_or_else(|| grid_of(rows)))?
            .into_iter()
            .filter(|b| !solved.contains(b))
            .collect())
    }

    /// Smallest boards first, so that a run stopped by its deadline holds every board up to
    /// some size.
    fn schedule(&self, pending: &mut [Board]) {
        pending.sort_by_key(|b| (b.width * b.height, b.k));
    }

    /// Writes the sorted CSV, `open.csv` (for each board still without a row, the largest
    /// limits it passed), the Markdown report (with the unsolved boards) and one outcome map
    /// per variant and k.
    fn publish(
        &self,
        dir: &Path,
        mut rows: Vec<Row>,
        attempts: Vec<Attempt>,
        unsolved: &[Board],
        command: &str,
    ) -> Result<String, ExportError> {
        rows.sort_by_key(|r| (r.k, r.width, r.height, r.rules.name()));
        write_all(&dir.join("annulus.csv"), &rows)?;
        let open = furthest_attempts(attempts, unsolved);
        write_all(&dir.join("open.csv"), &open)?;
        let report = report::markdown(&rows, unsolved, &open, command);
        report.document.write(&dir.join("annulus.md"))?;
        let mut maps: Vec<(Variant, u32)> = rows.iter().map(|r| (r.rules, r.k)).collect();
        maps.sort_by_key(|&(variant, k)| (variant.name(), k));
        maps.dedup();
        for (variant, k) in maps {
            let of_map: Vec<&Row> = rows
                .iter()
                .filter(|r| r.rules == variant && r.k == k)
                .collect();
            let path = dir.join(format!("annulus-{variant}-k{k}.svg"));
            plot::outcome_map_of(&path, variant, k, &of_map)?;
        }
        Ok(report.summary)
    }
}

/// For each board of `unsolved` that has attempts, the one with the largest limits (by nodes
/// searched), in the order of `unsolved` sorted as the report lists it.
fn furthest_attempts(attempts: Vec<Attempt>, unsolved: &[Board]) -> Vec<Attempt> {
    let mut furthest: std::collections::HashMap<Board, Attempt> = std::collections::HashMap::new();
    for attempt in attempts {
        let board = attempt.board();
        if !unsolved.contains(&board) {
            continue;
        }
        match furthest.get(&board) {
            Some(kept) if kept.nodes >= attempt.nodes => {}
            _ => {
                furthest.insert(board, attempt);
            }
        }
    }
    let mut open: Vec<Attempt> = furthest.into_values().collect();
    open.sort_by_key(|a| (a.k, a.width, a.height, a.rules.name()));
    open
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::outcome::GameResult;
    use crate::experiment::sweep::Run;

    fn effort(strong_nodes: u64) -> Effort {
        Effort {
            table: Mib(1),
            strong_nodes,
            weak_nodes: u64::MAX,
            deadline: None,
        }
    }

    #[test]
    fn the_grid_has_both_rule_sets_of_every_board() {
        let grid = Grid {
            k_min: 2,
            k_max: 3,
            max_cells: 6,
        };
        // Sizes with w*h <= 6: 6 + 3 + 2 + 1 + 1 + 1 = 14, for 2 values of k and 2 variants.
        let all = boards(grid).unwrap();
        assert_eq!(all.len(), 14 * 2 * 2);
        assert!(all.iter().all(|b| b.rules().is_cylinder()));
    }

    /// A run given a least height takes only the boards that high: its jobs and the boards it
    /// names missing are the grid's boards of that height or more, and a merge (no grid of
    /// its own) still counts every height its rows cover.
    #[test]
    fn a_least_height_leaves_the_lower_boards_out() {
        let grid = Grid {
            k_min: 3,
            k_max: 3,
            max_cells: 6,
        };
        let band = Annulus {
            grid: Some(grid),
            min_height: 2,
            questions: None,
            effort: effort(u64::MAX),
        };
        let jobs = band.jobs().unwrap();
        // Sizes with w*h <= 6 and h >= 2: 1x2..1x6, 2x2, 2x3, 3x2, both rule sets.
        let expected: Vec<Board> = boards(grid)
            .unwrap()
            .into_iter()
            .filter(|b| b.height >= 2)
            .collect();
        assert_eq!(jobs, expected);
        assert_eq!(jobs.len(), 8 * 2);
        assert_eq!(band.missing(&[]).unwrap(), expected);
        let merged = Annulus::merge().missing(&[]).unwrap();
        assert!(merged.iter().any(|b| b.height == 1));
    }

    /// A board the exact solve settles gets its remoteness; with no node to spare for it, the
    /// same board gets its outcome from the weak solve, marked weak.
    #[test]
    fn the_weak_solve_takes_over_where_the_exact_one_gives_up() {
        let board = Board {
            topology: Topology::Cylinder,
            ..Board::flat(Variant::Misere, 3, 4, 3)
        };
        let exact = solve_board(board, effort(u64::MAX)).unwrap();
        assert_eq!(exact.depth, Depth::Strong);
        assert!(exact.remoteness.is_some());
        let weak = solve_board(board, effort(1)).unwrap();
        assert_eq!((weak.depth, weak.remoteness), (Depth::Weak, None));
        assert_eq!(weak.outcome, exact.outcome);
        assert_eq!(exact.flat_table1.map(GameResult::label), Some("P2"));
        assert_eq!(exact.topology, Topology::Cylinder);
    }

    /// A run past its deadline starts no board: every pending board comes back given up and
    /// the store stays empty, so a rerun takes them all; without a deadline the same run
    /// solves them smallest first.
    #[test]
    fn a_run_past_its_deadline_gives_every_board_back() {
        let grid = Grid {
            k_min: 3,
            k_max: 3,
            max_cells: 4,
        };
        let dir = std::env::temp_dir().join(format!("connectk-annulus-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let _ = std::fs::remove_file(dir.join("annulus.csv"));
        let late = Annulus {
            grid: Some(grid),
            min_height: 1,
            questions: None,
            effort: Effort {
                deadline: Some(Instant::now()),
                ..effort(u64::MAX)
            },
        };
        let run = Run::open_in(&late, &dir, None).unwrap();
        let all = run.jobs().len();
        let solving = run.solve(|_, _| {}).unwrap();
        assert_eq!(solving.given_up.len(), all);
        drop(run);
        let on_time = Annulus {
            grid: Some(grid),
            min_height: 1,
            questions: None,
            effort: effort(u64::MAX),
        };
        let run = Run::open_in(&on_time, &dir, None).unwrap();
        assert_eq!(run.resume.pending(), all);
        let solving = run.solve(|_, _| {}).unwrap();
        assert!(solving.given_up.is_empty());
        assert_eq!(solving.settled, all);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Boards that pass tiny limits go to the attempts file; a rerun under the same limits
    /// leaves that file as it was (no board searched again: a new search would write its own
    /// time), and one with larger limits solves them. The published `open.csv` and report
    /// name each board left with its limits.
    #[test]
    fn a_rerun_under_the_same_limits_skips_the_boards_given_up() {
        let grid = Grid {
            k_min: 3,
            k_max: 3,
            max_cells: 9,
        };
        let dir =
            std::env::temp_dir().join(format!("connectk-annulus-open-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let tiny = Annulus {
            grid: Some(grid),
            min_height: 1,
            questions: None,
            effort: Effort {
                weak_nodes: 2,
                ..effort(2)
            },
        };
        let run = Run::open_in(&tiny, &dir, None).unwrap();
        let first = run.solve(|_, _| {}).unwrap();
        assert!(first.unsettled > 0 && first.given_up.is_empty());
        let open = dir.join("open.csv");
        let written = std::fs::read_to_string(&open).unwrap();
        assert_eq!(written.lines().count(), first.unsettled + 1);
        drop(run);

        let run = Run::open_in(&tiny, &dir, None).unwrap();
        let again = run.solve(|_, _| {}).unwrap();
        assert_eq!(again.unsettled, first.unsettled);
        assert_eq!(std::fs::read_to_string(&open).unwrap(), written);
        let summary = run
            .publish(&dir, &["annulus".to_string()], Instant::now())
            .unwrap();
        assert!(summary.contains(&first.unsettled.to_string()), "{summary}");
        let published = std::fs::read_to_string(&open).unwrap();
        assert_eq!(published.lines().count(), first.unsettled + 1);
        let report = std::fs::read_to_string(dir.join("annulus.md")).unwrap();
        assert!(
            report.contains("(passed 2 + 2 nodes: `open.csv`)"),
            "{report}"
        );

        let larger = Annulus {
            grid: Some(grid),
            min_height: 1,
            questions: None,
            effort: effort(u64::MAX),
        };
        let run = Run::open_in(&larger, &dir, None).unwrap();
        let last = run.solve(|_, _| {}).unwrap();
        assert_eq!((last.settled, last.unsettled), (first.unsettled, 0));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
