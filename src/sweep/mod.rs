//! The Table I sweep: solve a grid of misère boards, compare each with the paper, and write
//! the results as CSV, Markdown and SVG plots. Finished boards are appended to the CSV as they
//! complete, so an interrupted sweep loses nothing and a rerun resumes.

pub mod grid;
pub mod plot;
pub mod report;
pub mod store;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;

use crate::engine::position::Position;
use crate::engine::rules::{Rules, RulesError, Variant};
use crate::paper::table1;
use crate::solver::strip::StripSolver;
use crate::solver::{Depth, Solver};

pub use grid::{Board, Grid, Shard};
pub use store::{Row, Store};

/// Why a sweep could not read or write its files.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The CSV store could not be read or written.
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// A plot could not be drawn.
    #[error("{path}: cannot draw plot: {message}")]
    Plot {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

/// How each board of a sweep is solved.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// Transposition table bytes per board.
    pub table_bytes: usize,
    /// Outcome only, or outcome and remoteness.
    pub depth: Depth,
    /// Give up on a board after this many nodes (`u64::MAX`: never).
    pub node_limit: u64,
    /// Memory for the one-row solver, in bytes (see [`solve_board`]).
    pub strip_bytes: usize,
}

/// Solves one board of the grid from the empty position; `None` when neither solver settles
/// it within its limits.
///
/// A one-row board can also go to the one-row solver ([`StripSolver`], outcome only, within
/// `strip_bytes` of memory). When only the outcome is asked for, it goes there first: it settles
/// every row with k >= 3 at its first form and the k = 2 rows far sooner than the search, which
/// then takes only the rows it gives up on. When the remoteness is asked for, the search goes
/// first and the one-row solver takes the rows the search gives up on (their remoteness is
/// left unknown).
pub fn solve_board(board: Board, effort: Effort) -> Option<Row> {
    let rules = board.rules();
    let empty = Position::new(rules);
    let search = || {
        let mut solver = Solver::new(effort.table_bytes);
        let solution = solver.solve_within(&empty, effort.depth, effort.node_limit)?;
        Some((solution.value, solution.nodes, solution.seconds))
    };
    let one_row = || {
        if board.height != 1 {
            return None;
        }
        let start = Instant::now();
        let forms = effort.strip_bytes / StripSolver::BYTES_PER_FORM;
        let mut strip = StripSolver::new(board.k, Variant::Misere, forms);
        let value = strip.value(&empty)?;
        Some((value, strip.nodes(), start.elapsed().as_secs_f64()))
    };
    let (value, nodes, seconds) = match effort.depth {
        Depth::Weak => one_row().or_else(search)?,
        Depth::Strong => search().or_else(one_row)?,
    };
    let paper = table1::predict(board.k, board.width, board.height);
    Some(Row {
        rules: Variant::Misere.name().to_string(),
        k: board.k,
        width: board.width,
        height: board.height,
        cells: rules.cells(),
        paper: paper.map(|p| p.label().to_string()),
        solver: value.result.label().to_string(),
        agree: paper.map(|p| p == value.result),
        remoteness: value.remoteness,
        nodes,
        seconds,
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
) -> Result<Vec<Board>, SweepError> {
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
        .collect::<Result<Vec<Option<Board>>, SweepError>>()?;
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

/// Writes the sorted CSV, the Markdown summary (listing the `unsolved` boards too) and one plot
/// per k for every row in `rows`, into `dir`. Returns the summary line.
pub fn publish(
    dir: &Path,
    rows: &mut [Row],
    unsolved: &[Board],
    table_bytes: usize,
) -> Result<String, SweepError> {
    rows.sort_by_key(|r| (r.k, r.width, r.height));
    crate::store::write_all(&dir.join("table1.csv"), rows)?;
    let markdown = report::markdown(rows, unsolved, |row| {
        let rules = Rules::new(row.k, row.width, row.height, Variant::Misere)
            .expect("rows come from valid rules");
        let mut solver = Solver::new(table_bytes);
        let line = solver.principal_variation(&Position::new(rules));
        crate::engine::notation::format(rules, &line)
    });
    let path = dir.join("table1.md");
    std::fs::write(&path, &markdown.text).map_err(|source| SweepError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let mut ks: Vec<u32> = rows.iter().map(|r| r.k).collect();
    ks.dedup();
    for k in ks {
        let of_k: Vec<&Row> = rows.iter().filter(|r| r.k == k).collect();
        plot::outcome_map(&dir.join(format!("table1-k{k}.svg")), k, &of_k)?;
    }
    Ok(markdown.summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effort(depth: Depth) -> Effort {
        Effort {
            table_bytes: 1 << 20,
            depth,
            node_limit: u64::MAX,
            strip_bytes: 64 << 20,
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
        assert_eq!((weak.solver.as_str(), weak.nodes), ("Draw", 0));
        assert_eq!(weak.remoteness, None);
        let exact = solve_board(board, effort(Depth::Strong)).unwrap();
        assert_eq!(exact.solver, "Draw");
        assert_eq!(exact.remoteness, Some(12), "a draw: the board fills up");
        assert!(exact.nodes > 0);
    }
}
