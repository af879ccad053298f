//! Table I: solve a grid of misère boards, compare each with the paper, and write the results
//! as CSV, Markdown and SVG plots. Finished boards are appended to the CSV as they complete,
//! so an interrupted run loses nothing and a rerun resumes.

mod grid;
mod plot;
mod report;
mod row;
mod shards;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::Duration;

use rayon::prelude::*;

use super::export::ExportError;
use super::export::csv::write_all;
use crate::engine::notation;
use crate::engine::position::Position;
use crate::engine::rules::{RulesError, Variant};
use crate::solver::{Budget, Depth, Mib, Solver};
use crate::strategy::table1;

pub use grid::{Board, Grid};
pub use report::Markdown;
pub use row::{Row, Store};
pub use shards::{ShardError, read_checked, read_shards};

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

/// Solves every board of `boards` not yet in `store`, in parallel, largest first, appending each
/// row to the store as soon as it is solved; `done` is called after each board (with `None`
/// for a board given up at the node limit). Returns the boards given up, which stay out of
/// the store so that a rerun tries them again.
pub fn run(
    boards: &[Board],
    store: &Store,
    effort: Effort,
    done: impl Fn(Board, Option<&Row>) + Sync,
) -> Result<Vec<Board>, ExportError> {
    let mut pending: Vec<Board> = boards
        .iter()
        .copied()
        .filter(|b| !store.contains(b))
        .collect();
    pending.sort_by_key(|b| std::cmp::Reverse((b.width * b.height, b.k)));
    let given_up = pending
        .par_iter()
        .map(|&board| match solve_board(board, effort) {
            Some(row) => {
                store.append(&row)?;
                done(board, Some(&row));
                Ok(None)
            }
            None => {
                done(board, None);
                Ok(Some(board))
            }
        })
        .collect::<Result<Vec<Option<Board>>, ExportError>>()?;
    Ok(given_up.into_iter().flatten().collect())
}

/// The boards with no row in `rows` among: every board of `requested`, and for each k with
/// rows, every board of that k up to the largest board size among them. These are the boards
/// not solved yet, whichever runs or shards wrote the rows, so that a rerun of part of the
/// grid keeps listing the unsolved boards of the rest.
///
/// # Errors
/// [`RulesError`] if a board of the grid is not supported by the engine.
pub fn missing(requested: Option<Grid>, rows: &[Row]) -> Result<Vec<Board>, RulesError> {
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
        missing.extend(of_k.boards()?.into_iter().filter(|b| !solved.contains(b)));
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

/// What a Table I report is written for: the rows, the boards without one and why, the table
/// size for the principal variations of disagreements, and the command quoted in the report.
pub struct Report<'a> {
    /// Every row, in any order.
    pub rows: &'a mut [Row],
    /// Boards of the grid without a row.
    pub unsolved: &'a [Board],
    /// Why they have none.
    pub why: Unsolved,
    /// Transposition table for the principal variations.
    pub table: Mib,
    /// The command that made the rows, as typed.
    pub command: &'a str,
}

/// Writes the sorted CSV, the Markdown summary (listing the unsolved boards too) and one plot
/// per k of `report`, into `dir`. Returns the summary line.
///
/// # Errors
/// [`ExportError`] naming the first file that could not be written.
pub fn publish(dir: &Path, report: Report<'_>) -> Result<String, ExportError> {
    let rows = report.rows;
    rows.sort_by_key(|r| (r.k, r.width, r.height));
    write_all(&dir.join("table1.csv"), rows)?;
    let markdown = report::markdown(rows, report.unsolved, report.why, report.command, |row| {
        let board = row.board();
        let mut solver = Solver::new(report.table);
        let line = solver.limited(Budget::time(LINE_TIME), |solver| {
            solver.principal_variation(&Position::new(board.rules()))
        })?;
        Some(notation::format(board.rules(), &line))
    });
    markdown.document.write(&dir.join("table1.md"))?;
    let mut ks: Vec<u32> = rows.iter().map(|r| r.k).collect();
    ks.dedup();
    for k in ks {
        let of_k: Vec<&Row> = rows.iter().filter(|r| r.k == k).collect();
        plot::outcome_map_of_k(&dir.join(format!("table1-k{k}.svg")), k, &of_k)?;
    }
    Ok(markdown.summary)
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
        let board = Board {
            k: 3,
            width: 12,
            height: 1,
        };
        let weak = solve_board(board, effort(Depth::Weak)).unwrap();
        assert_eq!((weak.solver, weak.nodes), (GameResult::Draw, 0));
        assert_eq!(weak.remoteness, None);
        let exact = solve_board(board, effort(Depth::Strong)).unwrap();
        assert_eq!(exact.solver, GameResult::Draw);
        assert_eq!(exact.remoteness, Some(12), "a draw: the board fills up");
        assert!(exact.nodes > 0);
    }
}
