//! The paper's open problem: Connect-k on an annulus (a cylinder: periodic side walls),
//! solved board by board under both rule sets, held beside Table I's flat boards, and the
//! patterns of the odd heights read off the results. Finished boards are appended to the CSV
//! as they complete, so an interrupted run loses nothing and a rerun resumes; the grid can be
//! cut into shards ([`crate::experiment::shard::Shard`]) like Table I's.

mod patterns;
mod plot;
mod report;
mod row;

use std::collections::HashSet;
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;

use super::export::ExportError;
use super::export::csv::write_all;
use super::table1::Grid;
use crate::engine::position::Position;
use crate::engine::rules::{Rules, RulesError, Topology, Variant};
use crate::solver::{Depth, Mib, Solver};
use crate::strategy::table1;

pub use patterns::{Class, Pattern, patterns};
pub use row::{Row, Store};

/// One cylinder board of the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Normal or misère.
    pub variant: Variant,
    /// Line length.
    pub k: u32,
    /// Circumference: the number of columns.
    pub width: u32,
    /// Board height.
    pub height: u32,
}

impl Board {
    /// The rules of this board: its variant, on a cylinder.
    ///
    /// # Panics
    /// Never for boards of [`boards`], which are all validated.
    pub fn rules(self) -> Rules {
        Rules::new(self.k, self.width, self.height, self.variant)
            .expect("grid boards are valid")
            .with_topology(Topology::Cylinder)
    }
}

/// Every cylinder board of `grid` (each size and k of Table I's grid), under both rule sets,
/// in a fixed order (by k, width, height, then misère before normal).
///
/// # Errors
/// [`RulesError`] if a board of the grid is not supported by the engine.
pub fn boards(grid: Grid) -> Result<Vec<Board>, RulesError> {
    Ok(grid
        .boards()?
        .into_iter()
        .flat_map(|b| {
            [Variant::Misere, Variant::Normal].map(|variant| Board {
                variant,
                k: b.k,
                width: b.width,
                height: b.height,
            })
        })
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
/// says which); `None` when neither finishes. The weak solve starts with what the exact one
/// left in the table; the row counts the nodes and time of both.
pub fn solve_board(board: Board, effort: Effort) -> Option<Row> {
    let start = Instant::now();
    let rules = board.rules();
    let empty = Position::new(rules);
    let mut solver = Solver::new(effort.table);
    let (value, depth) = match solver.solve_within(&empty, Depth::Strong, effort.strong_nodes) {
        Some(solution) => (solution.value, Depth::Strong),
        None => (
            solver
                .solve_within(&empty, Depth::Weak, effort.weak_nodes)?
                .value,
            Depth::Weak,
        ),
    };
    let flat = match board.variant {
        Variant::Misere => table1::predict(board.k, board.width, board.height),
        Variant::Normal => None,
    };
    Some(Row {
        rules: board.variant,
        topology: Topology::Cylinder,
        k: board.k,
        width: board.width,
        height: board.height,
        cells: rules.cells(),
        depth,
        outcome: value.result,
        remoteness: value.remoteness,
        flat_table1: flat,
        nodes: solver.nodes(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Solves every board of `boards` not yet in `store`, in parallel, smallest first (so that a
/// run stopped by its deadline holds every board up to some size), appending each row to the
/// store as soon as it is solved; `done` is called after each board (with `None` for a board
/// given up at the node limits or not started before the deadline). Returns the boards given
/// up, which stay out of the store so that a rerun (with larger limits, or more time) tries
/// them again.
///
/// # Errors
/// [`ExportError`] when a row cannot be written.
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
    pending.sort_by_key(|b| (b.width * b.height, b.k));
    let late = || effort.deadline.is_some_and(|d| Instant::now() >= d);
    let given_up = pending
        .par_iter()
        .map(
            |&board| match (!late()).then(|| solve_board(board, effort)).flatten() {
                Some(row) => {
                    store.append(&row)?;
                    done(board, Some(&row));
                    Ok(None)
                }
                None => {
                    done(board, None);
                    Ok(Some(board))
                }
            },
        )
        .collect::<Result<Vec<Option<Board>>, ExportError>>()?;
    Ok(given_up.into_iter().flatten().collect())
}

/// The boards of `grid` with no row in `rows`: not solved yet, whichever runs or shards wrote
/// the rows.
///
/// # Errors
/// [`RulesError`] if a board of the grid is not supported by the engine.
pub fn missing(grid: Grid, rows: &[Row]) -> Result<Vec<Board>, RulesError> {
    let solved: HashSet<Board> = rows.iter().map(Row::board).collect();
    Ok(boards(grid)?
        .into_iter()
        .filter(|b| !solved.contains(b))
        .collect())
}

/// The grid that `rows` cover: k from their smallest to their largest, and their largest
/// board size (for a merge of shards, which names no grid).
pub fn grid_of(rows: &[Row]) -> Grid {
    Grid {
        k_min: rows.iter().map(|r| r.k).min().unwrap_or(2),
        k_max: rows.iter().map(|r| r.k).max().unwrap_or(2),
        max_cells: rows.iter().map(|r| r.cells).max().unwrap_or(1),
    }
}

/// Writes the sorted CSV, the Markdown report (with the `unsolved` boards) and one outcome
/// map per variant and k for every row in `rows`, into `dir`. Returns the summary line.
///
/// # Errors
/// [`ExportError`] when a file cannot be written.
pub fn publish(
    dir: &Path,
    rows: &mut [Row],
    unsolved: &[Board],
    command: &str,
) -> Result<String, ExportError> {
    rows.sort_by_key(|r| (r.k, r.width, r.height, r.rules.name()));
    write_all(&dir.join("annulus.csv"), rows)?;
    let markdown = report::markdown(rows, unsolved, command);
    markdown.document.write(&dir.join("annulus.md"))?;
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
    Ok(markdown.summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::outcome::GameResult;

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

    /// A board the exact solve settles gets its remoteness; with no node to spare for it, the
    /// same board gets its outcome from the weak solve, marked weak.
    #[test]
    fn the_weak_solve_takes_over_where_the_exact_one_gives_up() {
        let board = Board {
            variant: Variant::Misere,
            k: 3,
            width: 4,
            height: 3,
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
        let all = boards(grid).unwrap();
        let dir = std::env::temp_dir().join(format!("connectk-annulus-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let csv = dir.join("annulus.csv");
        let _ = std::fs::remove_file(&csv);
        let (store, _) = Store::open_for(&csv, &all).unwrap();
        let late = Effort {
            deadline: Some(Instant::now()),
            ..effort(u64::MAX)
        };
        let given_up = run(&all, &store, late, |_, _| {}).unwrap();
        assert_eq!(given_up.len(), all.len());
        assert!(store.rows().unwrap().is_empty());
        let given_up = run(&all, &store, effort(u64::MAX), |_, _| {}).unwrap();
        assert!(given_up.is_empty());
        assert_eq!(store.rows().unwrap().len(), all.len());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
