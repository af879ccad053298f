//! The build: ply by ply from the empty board, the positions of one ply solved in parallel,
//! each row appended to the CSV at once.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use super::{BookBuildError, BookRow, BookSpec, Coverage, book_of_rows, rows_path};
use crate::arena::safest_moves;
use crate::engine::notation;
use crate::engine::outcome::Player;
use crate::engine::position::{Column, Position};
use crate::engine::rules::Rules;
use crate::experiment::export::{Output, write_bytes};
use crate::experiment::shard::Shard;
use crate::experiment::store::Store;
use crate::solver::{Book, Budget, Depth, Solver};

/// What a build reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The build reached a ply: `solve` positions to solve there, of which `kept` were in the
    /// CSV already.
    Ply {
        /// Discs on the board.
        ply: u32,
        /// Positions to solve at this ply.
        solve: usize,
        /// Of those, positions the CSV held already.
        kept: usize,
    },
    /// One position was solved (or given up at the node limit).
    Solved,
}

/// What a build did.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildReport {
    /// The book written.
    pub book: Book,
    /// Positions solved by this run.
    pub solved: usize,
    /// Positions taken from the CSV of an earlier run.
    pub kept: usize,
    /// Moves reaching the positions given up at the node limit (left out, with what lies below
    /// them in a player's tree).
    pub gave_up: Vec<String>,
    /// Nodes searched by this run.
    pub nodes: u64,
}

/// A position of the walk, with the moves that reached it.
#[derive(Clone)]
struct Node {
    pos: Position,
    moves: Vec<Column>,
}

impl Node {
    /// The node after the book move of `row`, a row of the book player's tree read back from
    /// the CSV `file` (so checked): `None` when the move ends the game.
    fn book_move(rules: Rules, row: &BookRow, file: &str) -> Result<Option<Node>, BookBuildError> {
        let bad = |problem: String| BookBuildError::BadRow {
            file: file.to_string(),
            moves: row.moves.clone(),
            problem,
        };
        let (pos, moves) = notation::parse(rules, &row.moves).map_err(|e| bad(e.to_string()))?;
        let number = row
            .best
            .ok_or_else(|| bad("no book move (field best is empty) in a player's tree".into()))?;
        let column = Column::from_number(number)
            .filter(|&column| pos.played(column).is_ok())
            .ok_or_else(|| bad(format!("its book move {number} cannot be played")))?;
        let chosen = Node { pos, moves }.child(column);
        Ok((!chosen.pos.is_over()).then_some(chosen))
    }

    /// The node after `column`, a legal move here.
    fn child(&self, column: Column) -> Node {
        let mut moves = self.moves.clone();
        moves.push(column);
        Node {
            pos: self.pos.played(column).expect("legal column"),
            moves,
        }
    }

    /// The unfinished positions one move on.
    fn children(&self) -> impl Iterator<Item = Node> + '_ {
        self.pos
            .legal_columns()
            .into_iter()
            .map(|column| self.child(column))
            .filter(|child| !child.pos.is_over())
    }
}

/// Solvers for the workers, each kept for the whole build so that its table serves one
/// position after another.
struct Solvers {
    spec: BookSpec,
    idle: Mutex<Vec<Solver>>,
}

impl Solvers {
    fn take(&self) -> Solver {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        idle.unwrap_or_else(|| Solver::new(self.spec.table))
    }

    fn give_back(&self, solver: Solver) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(solver);
    }
}

/// Builds the book of `spec` and writes it to `out` (for a shard of a job array, only the
/// shard's CSV: `connectk book merge` joins them). Every solved position is appended to the
/// CSV beside `out` ([`rows_path`]) at once, and a rerun takes the positions that CSV holds at
/// the depth the spec asks for instead of solving them again (to start afresh, delete it).
/// `progress` hears of every ply and every position solved.
///
/// With a shard, every task walks the first plies alike, until a ply has at least four
/// positions per shard; from there each task keeps every `count`-th position of the ply (in key
/// order) and what lies below it. The merged book is the one an unsharded build makes.
///
/// # Errors
/// [`BookBuildError`] when the CSV cannot be read or appended to, holds rows of other rules,
/// or the book cannot be written.
pub fn build(
    spec: BookSpec,
    out: &Path,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<BuildReport, BookBuildError> {
    if spec.shard.is_none() {
        Output::check(out)?;
    }
    let csv = rows_path(out, spec.shard);
    let store = Store::<BookRow>::open(&csv)?;
    let file = csv.display().to_string();
    // Later rows win, and rows too weak for the spec are solved again.
    let mut known: HashMap<String, BookRow> = HashMap::new();
    for row in store.rows()? {
        if row.remoteness.is_some() || row.plies < spec.strong_from {
            known.insert(row.key.clone(), row);
        }
    }
    let mut run = Run {
        spec,
        store: &store,
        file: file.clone(),
        known,
        solvers: Solvers {
            spec,
            idle: Mutex::new(Vec::new()),
        },
        used: BTreeMap::new(),
        solved: 0,
        kept: 0,
        gave_up: Vec::new(),
        nodes: 0,
    };
    for tree in spec.coverage.trees() {
        run.walk(tree, progress)?;
    }
    let rows: Vec<BookRow> = run.used.into_values().collect();
    let book = book_of_rows(spec.rules, &rows, &file)?;
    if spec.shard.is_none() {
        write_bytes(out, &book.to_bytes())?;
    }
    Ok(BuildReport {
        book,
        solved: run.solved,
        kept: run.kept,
        gave_up: run.gave_up,
        nodes: run.nodes,
    })
}

/// The state of one build.
struct Run<'a> {
    spec: BookSpec,
    store: &'a Store<BookRow>,
    /// The CSV's name, for errors.
    file: String,
    /// Rows of the CSV (and of this run), by key.
    known: HashMap<String, BookRow>,
    solvers: Solvers,
    /// The rows of the positions this build covers, by key.
    used: BTreeMap<String, BookRow>,
    solved: usize,
    kept: usize,
    gave_up: Vec<String>,
    nodes: u64,
}

impl Run<'_> {
    /// Walks one tree (`tree`: the book player, or `None` for every position) ply by ply.
    fn walk(
        &mut self,
        tree: Option<Player>,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<(), BookBuildError> {
        let shard = self.spec.shard.unwrap_or(Shard { index: 1, count: 1 });
        let mut split = shard.count == 1;
        let mut level: Vec<Node> = vec![Node {
            pos: Position::new(self.spec.rules),
            moves: Vec::new(),
        }];
        // A book of hints solves one ply more: the moves of the last ply's positions.
        let hints = self.spec.coverage == Coverage::Hints;
        let last = self.spec.plies + u32::from(hints);
        for ply in 0..=last {
            if !split && (level.len() >= 4 * shard.count as usize || ply == self.spec.plies) {
                level = shard.select(&level);
                split = true;
            }
            let to_solve: Vec<&Node> = level
                .iter()
                .filter(|node| tree.is_none_or(|p| node.pos.to_move() == p))
                .collect();
            let kept = to_solve
                .iter()
                .filter(|node| self.known.contains_key(&key_of(&node.pos)))
                .count();
            progress(Progress::Ply {
                ply,
                solve: to_solve.len(),
                kept,
            });
            self.kept += kept;
            self.solve_all(&to_solve, progress)?;
            let mut next: BTreeMap<u128, Node> = BTreeMap::new();
            for node in &level {
                let row = self.known.get(&key_of(&node.pos)).cloned();
                if let Some(row) = &row {
                    self.used.insert(row.key.clone(), row.clone());
                }
                let children: Vec<Node> = match tree {
                    _ if ply == last => Vec::new(),
                    Some(p) if node.pos.to_move() == p => {
                        // The book player's move, from the row's own orientation of the position.
                        let Some(row) = row else { continue };
                        Node::book_move(self.spec.rules, &row, &self.file)?
                            .into_iter()
                            .collect()
                    }
                    None if hints && ply == self.spec.plies => match row {
                        Some(row) if !row.mover_loses(&node.pos) => node.children().collect(),
                        _ => Vec::new(),
                    },
                    _ => node.children().collect(),
                };
                for child in children {
                    next.entry(child.pos.canonical_key().0).or_insert(child);
                }
            }
            level = next.into_values().collect();
        }
        Ok(())
    }

    /// Solves the positions of `nodes` that no row holds yet, in parallel, appending each row.
    fn solve_all(
        &mut self,
        nodes: &[&Node],
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<(), BookBuildError> {
        let pending: Vec<&Node> = nodes
            .iter()
            .copied()
            .filter(|node| !self.known.contains_key(&key_of(&node.pos)))
            .collect();
        let spec = self.spec;
        let solvers = &self.solvers;
        let store = self.store;
        let results: Vec<Result<Option<BookRow>, BookBuildError>> = pending
            .par_iter()
            .map_init(
                || Lease::new(solvers),
                |lease, node| {
                    let row = solve(spec, lease.solver(), node);
                    if let Some(row) = &row {
                        store.append(row)?;
                    }
                    progress(Progress::Solved);
                    Ok(row)
                },
            )
            .collect();
        for (node, result) in pending.iter().zip(results) {
            match result? {
                Some(row) => {
                    self.solved += 1;
                    self.nodes += row.nodes;
                    self.known.insert(row.key.clone(), row);
                }
                None => self.gave_up.push(notation::format(spec.rules, &node.moves)),
            }
        }
        Ok(())
    }
}

/// A solver lent to one worker, given back when the worker's share of a ply is done.
struct Lease<'a> {
    solvers: &'a Solvers,
    solver: Option<Solver>,
}

impl<'a> Lease<'a> {
    fn new(solvers: &'a Solvers) -> Lease<'a> {
        Lease {
            solvers,
            solver: Some(solvers.take()),
        }
    }

    fn solver(&mut self) -> &mut Solver {
        self.solver.as_mut().expect("held until dropped")
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if let Some(solver) = self.solver.take() {
            self.solvers.give_back(solver);
        }
    }
}

/// The book player's move among the `best` moves of `pos` (the fastest wins or slowest
/// losses): the one to the position with the smallest canonical key, the choice
/// [`crate::arena::Perfect`] makes from a book, whichever mirror image of the position it meets.
fn book_move(pos: &Position, best: &[Column]) -> Column {
    *best
        .iter()
        .min_by_key(|&&c| pos.played(c).expect("legal column").canonical_key().0)
        .expect("an unfinished position has a best move")
}

/// The canonical key of `pos`, as the CSV writes it.
fn key_of(pos: &Position) -> String {
    format!("{:x}", pos.canonical_key().0)
}

/// Solves one position of the spec: its value, and in a player's tree its book move; `None`
/// when the search passed the node limit.
///
/// An exact entry's move is the fastest win or slowest loss (of those, the one to the smallest
/// canonical key). An outcome-only entry's move is the one proven to keep the value with the
/// fewest nodes in the first round of [`Solver::keeping_moves`] (with no time to settle the
/// others): settling every move would cost, for a move that throws the game away, far more than
/// the position's own proof (misère 7x6 after one disc: the answer on top is settled at once,
/// another answer took minutes), and the cheapest proof keeps the book's tree where proofs stay
/// cheap. In a lost position every move keeps the value at no cost, so the first of
/// [`safest_moves`] is taken: never a move that loses at once while another does not (the
/// first column was taken before, and a misère 7x6 first player's tree to ply 10, outcomes
/// only, completed its own line in 111 of the 1,202 positions it solved, ending there).
fn solve(spec: BookSpec, solver: &mut Solver, node: &Node) -> Option<BookRow> {
    let start = Instant::now();
    let pos = &node.pos;
    let depth = if pos.plies() >= spec.strong_from {
        Depth::Strong
    } else {
        Depth::Weak
    };
    let budget = Budget {
        nodes: spec.node_limit,
        time: None,
    };
    let with_move = spec.coverage.with_moves();
    let (value, moves, nodes) = solver.limited(budget, |s| {
        let before = s.nodes();
        match (with_move, depth) {
            (false, _) => {
                let solution = s.solve_at(pos, depth);
                (solution.value, Vec::new(), solution.nodes)
            }
            (true, Depth::Strong) => {
                let solution = s.solve_with_best_moves(pos, depth);
                (solution.value, solution.best_moves, solution.nodes)
            }
            (true, Depth::Weak) => {
                let keeping = s.keeping_moves(pos, Some(Instant::now()));
                (keeping.value, keeping.moves, s.nodes() - before)
            }
        }
    })?;
    Some(BookRow {
        key: key_of(pos),
        moves: notation::format(spec.rules, &node.moves),
        plies: pos.plies(),
        outcome: value.result,
        remoteness: value.remoteness,
        best: with_move.then(|| match depth {
            Depth::Strong => book_move(pos, &moves).number(),
            Depth::Weak => safest_moves(pos, moves)[0].number(),
        }),
        nodes,
        ms: start.elapsed().as_secs_f64() * 1e3,
    })
}
