//! Table I: solve a grid of misère boards, compare each with the paper, and write the results
//! as CSV, Markdown and SVG plots. Finished boards are appended to the CSV as they complete,
//! so an interrupted run loses nothing and a rerun resumes.

mod plot;
mod report;
mod row;

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::Duration;

use super::export::ExportError;
use super::export::csv::write_all;
use super::sweep::{Attempts, Board, Grid, NoAttempt, Solved, Sweep};
use crate::engine::notation;
use crate::engine::position::Position;
use crate::engine::rules::{RulesError, Topology, Variant};
use crate::solver::{Budget, Depth, Mib, Solver};
use crate::strategy::table1;

pub use row::Row;

/// How each board of the grid is solved.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// Transposition table per board.
    pub table: Mib,
    /// Outcome only, or outcome and remoteness.
    pub depth: Depth,
    /// Give up on a board after this many nodes (`u64::MAX`: never).
    pub node_limit: u64,
    /// Memory for the one-row solver (see [`solve_board`]).
    pub one_row: Mib,
}

/// Solves one board of the grid from the empty position; `None` when it is not settled within
/// the limits.
///
/// The solver picks its method by the board (see [`crate::Method::Auto`]): an outcome-only
/// solve of a one-row board goes to the one-row solver, which settles every row with k >= 3 at
/// its first form and the k = 2 rows far sooner than the search. When the remoteness is asked
/// for, the search goes first; a one-row board it gives up on still gets its outcome from the
/// one-row solver (remoteness left unknown).
pub fn solve_board(board: Board, effort: Effort) -> Option<Row> {
    let rules = board.rules();
    let empty = Position::new(rules);
    let mut solver = Solver::new(effort.table).with_one_row_memory(effort.one_row);
    let solution = solver
        .solve_within(&empty, effort.depth, effort.node_limit)
        .or_else(|| {
            let outcome_only = effort.depth == Depth::Strong && board.height == 1;
            outcome_only
                .then(|| solver.solve_within(&empty, Depth::Weak, effort.node_limit))
                .flatten()
        })?;
    let (value, nodes) = (solution.value, solution.nodes);
    let paper = table1::predict(board.k, board.width, board.height);
    Some(Row {
        rules: Variant::Misere,
        k: board.k,
        width: board.width,
        height: board.height,
        cells: rules.cells(),
        paper,
        solver: value.result,
        agree: paper.map(|p| p == value.result),
        remoteness: value.remoteness,
        nodes,
    })
}

/// The boards with no row in `rows` among: every board of `requested`, and for each k with
/// rows, every board of that k up to the largest board size among them. These are the boards
/// not solved yet, whichever runs or shards wrote the rows, so that a rerun of part of the
/// grid keeps listing the unsolved boards of the rest.
fn missing(requested: Option<Grid>, rows: &[Row]) -> Result<Vec<Board>, RulesError> {
    let mut largest: BTreeMap<u32, u32> = BTreeMap::new();
    if let Some(grid) = requested {
        largest.extend((grid.k_min..=grid.k_max).map(|k| (k, grid.max_cells)));
    }
    for row in rows {
        let cells = largest.entry(row.k).or_insert(row.cells);
        *cells = (*cells).max(row.cells);
    }
    let solved: HashSet<Board> = rows.iter().map(Row::board).collect();
    let mut missing = Vec::new();
    for (&k, &max_cells) in &largest {
        let of_k = Grid {
            k_min: k,
            k_max: k,
            max_cells,
        };
        let boards = of_k.boards(Variant::Misere, Topology::Flat)?;
        missing.extend(boards.into_iter().filter(|b| !solved.contains(b)));
    }
    Ok(missing)
}

/// Why boards of the grid have no row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsolved {
    /// A run gave up on them at its node limit (a rerun tries them again).
    NodeLimit,
    /// No shard file had a row for them.
    MissingFromShards,
}

/// How long a disagreement's principal variation may take before the report gives it up: a
/// forged or mistaken row of a large board must not hold the report for minutes.
const LINE_TIME: Duration = Duration::from_secs(30);

/// The Table I sweep: every misère board of a grid solved from the empty position and held
/// against the paper.
#[derive(Clone, Copy, Debug)]
pub struct Table1 {
    /// The grid of a run; `None` for a merge of shards, whose rows give the grid.
    pub grid: Option<Grid>,
    /// How each board is solved (for a merge, only the table counts: it finds the principal
    /// variations of disagreements).
    pub effort: Effort,
    /// Why boards of the grid may have no row.
    pub why: Unsolved,
}

impl Table1 {
    /// A run over `grid`.
    pub fn run(grid: Grid, effort: Effort) -> Table1 {
        Table1 {
            grid: Some(grid),
            effort,
            why: Unsolved::NodeLimit,
        }
    }

    /// A merge of shards, with `table` for the principal variations of disagreements.
    pub fn merge(table: Mib) -> Table1 {
        let effort = Effort {
            table,
            depth: Depth::Strong,
            node_limit: u64::MAX,
            one_row: Mib(0),
        };
        Table1 {
            grid: None,
            effort,
            why: Unsolved::MissingFromShards,
        }
    }

    /// A principal variation of `row`'s board, within [`LINE_TIME`].
    fn line_of(&self, row: &Row) -> Option<String> {
        let rules = row.board().rules();
        let mut solver = Solver::new(self.effort.table);
        let line = solver.limited(Budget::time(LINE_TIME), |solver| {
            solver.principal_variation(&Position::new(rules))
        })?;
        Some(notation::format(rules, &line))
    }
}

impl Sweep for Table1 {
    const NAME: &'static str = "table1";
    type Job = Board;
    type Row = Row;
    type Attempt = NoAttempt;
    type Worker = ();

    fn jobs(&self) -> Result<Vec<Board>, RulesError> {
        self.grid.map_or(Ok(Vec::new()), |grid| {
            grid.boards(Variant::Misere, Topology::Flat)
        })
    }

    fn key(board: &Board) -> Board {
        *board
    }

    fn worker(&self) {}

    fn solve(
        &self,
        _: &mut (),
        board: &Board,
        _: &Attempts<'_, NoAttempt>,
    ) -> Solved<Row, NoAttempt> {
        solve_board(*board, self.effort).map_or(Solved::GivenUp, Solved::Row)
    }

    /// Largest boards first, so that the last to finish are small.
    fn schedule(&self, pending: &mut [Board]) {
        pending.sort_by_key(|b| Reverse((b.width * b.height, b.k)));
    }

    fn missing(&self, rows: &[Row]) -> Result<Vec<Board>, RulesError> {
        missing(self.grid, rows)
    }

    /// Writes the sorted CSV, the Markdown summary (listing the unsolved boards too) and one
    /// plot per k.
    fn publish(
        &self,
        dir: &Path,
        mut rows: Vec<Row>,
        _: Vec<NoAttempt>,
        unsolved: &[Board],
        command: &str,
    ) -> Result<String, ExportError> {
        rows.sort_by_key(|r| (r.k, r.width, r.height));
        write_all(&dir.join("table1.csv"), &rows)?;
        let report = report::markdown(&rows, unsolved, self.why, command, |row| self.line_of(row));
        report.document.write(&dir.join("table1.md"))?;
        let mut ks: Vec<u32> = rows.iter().map(|r| r.k).collect();
        ks.dedup();
        for k in ks {
            let of_k: Vec<&Row> = rows.iter().filter(|r| r.k == k).collect();
            plot::outcome_map_of_k(&dir.join(format!("table1-k{k}.svg")), k, &of_k)?;
        }
        Ok(report.summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::outcome::GameResult;

    fn effort(depth: Depth) -> Effort {
        Effort {
            table: Mib(1),
            depth,
            node_limit: u64::MAX,
            one_row: Mib(64),
        }
    }

    /// A weak sweep settles a one-row board with the one-row solver first (the pairing bound
    /// decides misère 12x1 with k = 3 at its first form, no node searched); an exact sweep
    /// searches it for the remoteness.
    #[test]
    fn weak_sweeps_take_rows_to_the_one_row_solver_first() {
        let board = Board::flat(Variant::Misere, 3, 12, 1);
        let weak = solve_board(board, effort(Depth::Weak)).unwrap();
        assert_eq!((weak.solver, weak.nodes), (GameResult::Draw, 0));
        assert_eq!(weak.remoteness, None);
        let exact = solve_board(board, effort(Depth::Strong)).unwrap();
        assert_eq!(exact.solver, GameResult::Draw);
        assert_eq!(exact.remoteness, Some(12), "a draw: the board fills up");
        assert!(exact.nodes > 0);
    }
}
