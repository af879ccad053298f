//! Exact solving: the value of any position under perfect play, for both variants.
//!
//! This file is the front door ([`Solver`]); behind it, `search/` is the alpha-beta search,
//! `bounds/` the bounds that the strategies of the paper and of Allis prove, `book/` the
//! opening books, and `others/` the solvers beside the search (one-row boards, a reference
//! for standard Connect Four, plain minimax for tests). docs/solver.md has the measurements
//! behind the search's constants and orders.

pub mod book;
mod bounds;
mod keeping;
pub(crate) mod memory;
mod others;
pub(crate) mod score;
mod search;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::engine::bits::Bits;
use crate::engine::outcome::GameResult;
use crate::engine::position::{Column, Position};
use crate::engine::rules::Rules;

pub(crate) use book::Book;
pub use keeping::Keeping;
pub use memory::{Mib, MibError};
pub use others::reference;
use others::strip::StripSolver;
use score::Achievable;
pub(crate) use score::Score;
pub use score::{Partial, UnknownRemoteness, Value};
use search::Search;

/// Default transposition table size for one solver.
pub const DEFAULT_TABLE: Mib = Mib(256);

/// Default memory for the one-row solver's reduced forms (misère 36x1 with k = 2, the hardest
/// row of the 36-cell Table I sweep, needs about 1,600 MiB). It is taken only as the forms are
/// met.
pub const DEFAULT_ONE_ROW: Mib = Mib(2048);

/// How much a limited solve may spend before it gives up (see [`Solver::limited`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Search nodes (`None`: any number).
    pub nodes: Option<u64>,
    /// Wall-clock time from the moment the search starts (`None`: any).
    pub time: Option<Duration>,
}

impl Budget {
    /// No limit at all.
    pub const UNLIMITED: Budget = Budget {
        nodes: None,
        time: None,
    };

    /// At most `nodes` search nodes.
    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            nodes: Some(nodes),
            time: None,
        }
    }

    /// At most `time` of searching.
    pub fn time(time: Duration) -> Budget {
        Budget {
            nodes: None,
            time: Some(time),
        }
    }
}

/// Which solvers a [`Solver`] may use for a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// The one-row solver for outcome-only solves of one-row boards (it splits the row into
    /// independent pieces and settles rows of 64 cells at once), falling back to the search
    /// when it passes its memory; the search everywhere else.
    #[default]
    Auto,
    /// The search alone, on every board (to cross-check the one-row solver, say).
    SearchOnly,
}

/// How thoroughly to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Depth {
    /// Outcome only (win, draw or loss): fastest.
    Weak,
    /// Outcome and exact remoteness.
    Strong,
}

impl Depth {
    /// `weak` or `strong`: the lowercase name used in files.
    pub fn name(self) -> &'static str {
        match self {
            Depth::Weak => "weak",
            Depth::Strong => "strong",
        }
    }
}

/// The value of one move of an analysed position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveValue {
    /// The move.
    pub column: Column,
    /// The value of the game after this move, counted from the position before it (so a move
    /// that ends the game has remoteness 1).
    pub value: Value,
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Solution {
    /// The value of the position.
    pub value: Value,
    /// Every move that achieves the value (empty if the game is over or moves were not analysed).
    pub best_moves: Vec<Column>,
    /// Per-move values, when the position was analysed.
    pub moves: Vec<MoveValue>,
    /// Nodes searched for this answer.
    pub nodes: u64,
    /// Wall-clock seconds spent.
    pub seconds: f64,
}

enum Backend {
    Narrow(Search<u64>),
    Wide(Search<u128>),
}

impl Backend {
    /// Nodes this search has visited since it was made.
    fn nodes(&self) -> u64 {
        match self {
            Backend::Narrow(s) => s.nodes(),
            Backend::Wide(s) => s.nodes(),
        }
    }

    fn set_budget(&mut self, budget: Budget) {
        let deadline = budget.time.map(|time| Instant::now() + time);
        match self {
            Backend::Narrow(s) => s.set_budget(budget.nodes, deadline),
            Backend::Wide(s) => s.set_budget(budget.nodes, deadline),
        }
    }

    fn set_cancel(&mut self, cancel: Option<Arc<AtomicBool>>) {
        match self {
            Backend::Narrow(s) => s.set_cancel(cancel),
            Backend::Wide(s) => s.set_cancel(cancel),
        }
    }

    fn exhausted(&self) -> bool {
        match self {
            Backend::Narrow(s) => s.exhausted(),
            Backend::Wide(s) => s.exhausted(),
        }
    }
}

/// An exact solver that reuses its transposition table across positions of the same rules.
///
/// # Examples
/// ```
/// use connectk::{GameResult, Mib, Player, Position, Rules, Solver, Variant};
/// let rules = Rules::new(3, 3, 3, Variant::Misere).unwrap();
/// let mut solver = Solver::new(Mib(1));
/// let solution = solver.solve(&Position::new(rules));
/// assert_eq!(solution.value.result, GameResult::Win(Player::P1));
/// ```
pub struct Solver {
    table_bytes: usize,
    threads: usize,
    method: Method,
    one_row_bytes: usize,
    backend: Option<(Rules, Backend)>,
    /// The one-row solver of the current rules, when they have one row.
    one_row: Option<(Rules, StripSolver)>,
    /// Nodes of the searches and one-row solvers dropped (a change of rules makes new ones),
    /// kept so that [`Solver::nodes`] never goes down.
    dropped_nodes: u64,
    /// The budget of a [`Solver::limited`] under way, until the search takes it.
    budget: Option<Budget>,
    /// When the time of that budget runs out: one deadline for the one-row solver and the
    /// search after it, so that the search does not start the clock again.
    deadline: Option<Instant>,
    /// The signal that ends every budgeted search early (see [`Solver::set_cancel`]).
    cancel: Option<Arc<AtomicBool>>,
    /// The opening books, at most one per set of rules, each consulted for positions of its
    /// rules.
    books: Vec<Arc<Book>>,
}

impl Solver {
    /// A solver whose table uses at most `table` (capped further for small boards).
    pub fn new(table: Mib) -> Solver {
        Solver {
            table_bytes: table.bytes(),
            threads: 1,
            method: Method::Auto,
            one_row_bytes: DEFAULT_ONE_ROW.bytes(),
            backend: None,
            one_row: None,
            dropped_nodes: 0,
            budget: None,
            deadline: None,
            cancel: None,
            books: Vec::new(),
        }
    }

    /// Makes every search under a budget ([`Solver::limited`], [`Solver::values_each`]) give up
    /// as if its budget were spent once `cancel` is raised, until the signal is removed with
    /// `None`: a server raises it when the client that asked has gone. Searches without a budget
    /// never look at it, so that an answer returned without a budget is always complete.
    pub fn set_cancel(&mut self, cancel: Option<Arc<AtomicBool>>) {
        self.cancel = cancel;
    }

    /// The same solver consulting `book` for positions of the book's rules: [`Solver::value`]
    /// and everything built on it answer from the book where it holds the position (at the
    /// depth asked for), and the search takes the book's values as bounds wherever it passes
    /// through a stored position. A book replaces the solver's book of the same rules, if any;
    /// books of other rules stay (a server answers both rule sets with one solver).
    pub fn with_book(mut self, book: Arc<Book>) -> Solver {
        self.books.retain(|b| b.rules() != book.rules());
        self.books.push(book);
        Solver {
            backend: None,
            ..self
        }
    }

    /// The opening book this solver consults for positions of `rules`, if any.
    pub fn book(&self, rules: Rules) -> Option<&Arc<Book>> {
        self.books.iter().find(|b| b.rules() == rules)
    }

    /// The book's value of `pos` when the book holds it at `depth` or better (a weak request
    /// gets the outcome only, as a search would give it); `None` without a book. Costs no
    /// search, whatever the budget.
    pub(crate) fn book_value(&self, pos: &Position, depth: Depth) -> Option<Value> {
        self.book(pos.rules())?.value_at(pos, depth)
    }

    /// The same solver using the solvers `method` allows.
    pub fn with_method(self, method: Method) -> Solver {
        Solver { method, ..self }
    }

    /// The same solver with at most `memory` for the one-row solver (see
    /// [`DEFAULT_ONE_ROW`]); past it, a one-row position goes to the search.
    pub fn with_one_row_memory(mut self, memory: Mib) -> Solver {
        self.drop_one_row();
        Solver {
            one_row_bytes: memory.bytes(),
            ..self
        }
    }

    /// The same solver searching each position with `threads` threads (at least 1) that
    /// share the large table. Values and remoteness do not depend on the thread count; node
    /// counts do, and vary from run to run when `threads > 1`.
    pub fn with_threads(mut self, threads: usize) -> Solver {
        self.drop_search();
        Solver {
            threads: threads.max(1),
            ..self
        }
    }

    /// Total nodes this solver has searched, on every board it was given: positions by the
    /// search, reduced forms by the one-row solver. It never goes down, so the difference of
    /// two readings is what was searched between them, even across a change of rules.
    pub fn nodes(&self) -> u64 {
        let searched = self.backend.as_ref().map_or(0, |(_, b)| b.nodes());
        let one_row = self.one_row.as_ref().map_or(0, |(_, strip)| strip.nodes());
        self.dropped_nodes + searched + one_row
    }

    /// Drops the search (and its table), keeping the count of its nodes.
    fn drop_search(&mut self) {
        if let Some((_, old)) = self.backend.take() {
            self.dropped_nodes += old.nodes();
        }
    }

    /// Drops the one-row solver, keeping the count of its nodes.
    fn drop_one_row(&mut self) {
        if let Some((_, old)) = self.one_row.take() {
            self.dropped_nodes += old.nodes();
        }
    }

    /// The outcome of an unfinished `pos` from the one-row solver, when the method and the
    /// board allow it and the solver stays within its memory and the budget of a limited solve.
    fn one_row_value(&mut self, pos: &Position) -> Option<Value> {
        self.one_row(pos.rules())?.value(pos)
    }

    /// The one-row solver for `rules`, with the budget of the limited solve under way, when
    /// the method and the board allow it.
    fn one_row(&mut self, rules: Rules) -> Option<&mut StripSolver> {
        if self.method != Method::Auto || !StripSolver::applies_to(rules) {
            return None;
        }
        if self.one_row.as_ref().map(|(r, _)| *r) != Some(rules) {
            self.drop_one_row();
            let forms = self.one_row_bytes / StripSolver::BYTES_PER_FORM;
            self.one_row = Some((rules, StripSolver::new(rules.k(), rules.variant(), forms)));
        }
        // Under a limited solve, the one-row solver gets the same budget as the search after
        // it: a board that passes it is given up rather than searched on for hours.
        let budget = self.budget.map_or(Budget::UNLIMITED, |b| self.time_left(b));
        let (_, strip) = self.one_row.as_mut().expect("just set");
        strip.set_budget(budget);
        Some(strip)
    }

    /// `budget` with its time cut to what is left before the deadline of the limited solve
    /// under way, and no nodes once none is left (a search checks the clock only every so
    /// many nodes, and would otherwise finish a small search after the deadline).
    fn time_left(&self, budget: Budget) -> Budget {
        let Some(deadline) = self.deadline else {
            return budget;
        };
        let left = deadline.saturating_duration_since(Instant::now());
        Budget {
            nodes: if left.is_zero() {
                Some(0)
            } else {
                budget.nodes
            },
            time: Some(left),
        }
    }

    /// Allocates the table for `rules` now rather than at the first solve (to keep the cost of
    /// zeroing it out of a measurement, say).
    pub fn prepare(&mut self, rules: Rules) {
        self.backend(rules);
    }

    fn backend(&mut self, rules: Rules) -> &mut Backend {
        if self.backend.as_ref().map(|(r, _)| *r) != Some(rules) {
            // Free the old table first, so that a change of rules never holds two.
            self.drop_search();
            // Tiny boards have few positions: no need for a huge table.
            let positions_bound = 3f64.powi(rules.cells() as i32) * 16.0;
            let bytes = (self.table_bytes as f64).min(positions_bound) as usize;
            let threads = self.threads;
            let book = self.book(rules).cloned();
            let backend = match Search::<u64>::new(rules, bytes, threads, book.clone()) {
                Some(narrow) => Backend::Narrow(narrow),
                None => Backend::Wide(
                    Search::new(rules, bytes, threads, book).expect("all rules fit 128 bits"),
                ),
            };
            self.backend = Some((rules, backend));
        }
        let budget = self.budget.take().map(|b| self.time_left(b));
        let backend = &mut self.backend.as_mut().expect("just set").1;
        if let Some(budget) = budget {
            backend.set_budget(budget);
            backend.set_cancel(self.cancel.clone());
        }
        backend
    }

    /// The exact score of `pos` from the side to move (weak: only its sign is meaningful).
    fn score(&mut self, pos: &Position, depth: Depth) -> Score {
        fn run<B: Bits>(search: &mut Search<B>, pos: &Position, depth: Depth) -> Score {
            search.score(&pos.convert::<B>().expect("backend chosen to fit"), depth)
        }
        match self.backend(pos.rules()) {
            Backend::Narrow(s) => run(s, pos, depth),
            Backend::Wide(s) => run(s, pos, depth),
        }
    }

    /// The value of `pos` (finished or not) at the given depth.
    pub fn value(&mut self, pos: &Position, depth: Depth) -> Value {
        if let Some(value) = self.value_without_search(pos, depth) {
            return value;
        }
        let score = self.score(pos, depth);
        Self::value_of(pos, score, depth)
    }

    /// The value of `pos` when it needs no search: a finished game, a position the book holds,
    /// or (outcome only) one the one-row solver settles.
    fn value_without_search(&mut self, pos: &Position, depth: Depth) -> Option<Value> {
        if let Some(outcome) = pos.outcome() {
            return Some(Value {
                result: outcome.result,
                remoteness: Some(0),
            });
        }
        self.book_value(pos, depth).or_else(|| {
            (depth == Depth::Weak)
                .then(|| self.one_row_value(pos))
                .flatten()
        })
    }

    /// How many positions [`Solver::values_each`] searches at once under `budget`: one per
    /// thread under a budget of time alone, else one (a budget of nodes settles the same values
    /// on every run only when the positions are searched one after another).
    pub fn side_by_side(&self, budget: Budget) -> usize {
        if budget.nodes.is_some() {
            1
        } else {
            self.threads
        }
    }

    /// The value of each of `positions` (all of one set of rules) at `depth`, each found
    /// within a budget of `each` of its own; `None` where that was not enough. The solver's
    /// threads search [`Solver::side_by_side`] positions at once, one thread each, sharing the
    /// table. What the table learned stays, and serves the next solve.
    pub fn values_each(
        &mut self,
        positions: &[Position],
        depth: Depth,
        each: Budget,
    ) -> Vec<Option<Value>> {
        if self.side_by_side(each) == 1 || positions.len() < 2 {
            return positions
                .iter()
                .map(|pos| self.limited(each, |s| s.value(pos, depth)))
                .collect();
        }
        fn run<B: Bits>(
            search: &mut Search<B>,
            positions: &[&Position],
            depth: Depth,
            time: Option<Duration>,
        ) -> Vec<Option<Score>> {
            let converted: Vec<Position<B>> = positions
                .iter()
                .map(|pos| pos.convert::<B>().expect("backend chosen to fit"))
                .collect();
            search.score_each(&converted, depth, time)
        }
        let mut values: Vec<Option<Value>> = positions
            .iter()
            .map(|pos| self.value_without_search(pos, depth))
            .collect();
        let open: Vec<&Position> = positions
            .iter()
            .zip(&values)
            .filter(|(_, value)| value.is_none())
            .map(|(pos, _)| pos)
            .collect();
        let Some(first) = open.first() else {
            return values;
        };
        debug_assert!(open.iter().all(|pos| pos.rules() == first.rules()));
        let cancel = self.cancel.clone();
        let backend = self.backend(first.rules());
        backend.set_cancel(cancel);
        let scores = match backend {
            Backend::Narrow(s) => run(s, &open, depth, each.time),
            Backend::Wide(s) => run(s, &open, depth, each.time),
        };
        backend.set_cancel(None);
        let mut scores = scores.into_iter();
        for (pos, value) in positions.iter().zip(values.iter_mut()) {
            if value.is_none() {
                *value = scores
                    .next()
                    .expect("one score per open position")
                    .map(|score| Self::value_of(pos, score, depth));
            }
        }
        values
    }

    /// The value of a non-terminal position from its score at the given depth.
    fn value_of(pos: &Position, score: Score, depth: Depth) -> Value {
        match depth {
            Depth::Weak => Value::from_sign(score, pos.to_move()),
            Depth::Strong => {
                Value::from_score(score, pos.rules().cells(), pos.plies(), pos.to_move())
            }
        }
    }

    /// The exact score of `pos` that `value` stands for: `None` for a value without
    /// remoteness, or one no score stands for (a game longer than the cells left).
    fn score_of(pos: &Position, value: Value) -> Option<Score> {
        let remoteness = value.remoteness?;
        let known = Partial {
            result: Some(value.result),
            remoteness: Some((remoteness, remoteness)),
        };
        let (score, _) = known.scores(pos.rules().cells(), pos.plies(), pos.to_move());
        (Self::value_of(pos, score, Depth::Strong) == value).then_some(score)
    }

    /// Solves `pos` exactly: result and remoteness (no best moves).
    pub fn solve(&mut self, pos: &Position) -> Solution {
        self.solve_at(pos, Depth::Strong)
    }

    /// Solves `pos` for the result only (no best moves).
    pub fn solve_weak(&mut self, pos: &Position) -> Solution {
        self.solve_at(pos, Depth::Weak)
    }

    /// Solves `pos` at the given depth (no best moves).
    pub fn solve_at(&mut self, pos: &Position, depth: Depth) -> Solution {
        self.timed(|s| (s.value(pos, depth), Vec::new()))
    }

    /// Like [`Solver::solve_at`], but gives up (returning `None`) once the search has visited
    /// more than `node_limit` nodes (see [`Solver::limited`]).
    pub fn solve_within(
        &mut self,
        pos: &Position,
        depth: Depth,
        node_limit: u64,
    ) -> Option<Solution> {
        self.limited(Budget::nodes(node_limit), |solver| {
            solver.solve_at(pos, depth)
        })
    }

    /// Solves `pos` exactly within `budget`, going on from what an earlier, unfinished solve of
    /// it found (`known`): the solution, or how far this one got once the budget is spent. Each
    /// time a question (or `known` alone) adds to what is known, `narrowed` hears of it at
    /// once, with the nodes searched so far (to write it down, say). A long solve run in
    /// several sittings (a board that takes longer than one run is given) so loses only the
    /// question under way when each one stops, never what was settled.
    ///
    /// # Errors
    /// [`Partial`]: the budget ran out first; what is known now, at least `known`.
    pub fn solve_from(
        &mut self,
        pos: &Position,
        known: Partial,
        budget: Budget,
        mut narrowed: impl FnMut(Partial, u64),
    ) -> Result<Solution, Partial> {
        fn run<B: Bits>(
            search: &mut Search<B>,
            pos: &Position,
            from: (Score, Score),
            narrowed: &mut dyn FnMut((Score, Score), u64),
        ) -> (Score, Score) {
            let pos = pos.convert::<B>().expect("backend chosen to fit");
            search.narrow(&pos, from, narrowed)
        }
        if let Some(value) = self.value_without_search(pos, Depth::Strong) {
            return Ok(self.timed(|_| (value, Vec::new())));
        }
        let (cells, plies, to_move) = (pos.rules().cells(), pos.plies(), pos.to_move());
        let from = known.scores(cells, plies, to_move);
        // Bounds of both signs say nothing a `Partial` keeps: only news is told.
        let mut last = known;
        let mut tell = |bounds, nodes| {
            let partial = Partial::from_scores(bounds, cells, plies, to_move);
            if partial != last {
                last = partial;
                narrowed(partial, nodes);
            }
        };
        let mut reached = from;
        let solution = self.limited(budget, |solver| {
            solver.timed(|solver| {
                reached = match solver.backend(pos.rules()) {
                    Backend::Narrow(s) => run(s, pos, from, &mut tell),
                    Backend::Wide(s) => run(s, pos, from, &mut tell),
                };
                let value = Value::from_score(reached.0, cells, plies, to_move);
                (value, Vec::new())
            })
        });
        match solution {
            Some(solution) if reached.0 == reached.1 => {
                // `known` alone can settle the value with no question asked (a range of two
                // lengths is one, the winner's plies having one parity): news all the same.
                tell(reached, solution.nodes);
                Ok(solution)
            }
            _ => Err(Partial::from_scores(reached, cells, plies, to_move)),
        }
    }

    /// Runs `work` on this solver, giving up (returning `None`) once the searches it starts
    /// have spent `budget` in all (a budget of nodes runs them on the calling thread alone, so
    /// that it settles the same values on every run; a budget of time alone uses the helpers).
    /// What the table learned before giving up stays, and serves the next solve. The one-row
    /// solver gets the same budget (besides its own limit, its memory); where it gives up, the
    /// search gets the node budget again and whatever time is left: the time is one deadline
    /// for all the work, and work begun after it gives up at once.
    pub fn limited<T>(&mut self, budget: Budget, work: impl FnOnce(&mut Solver) -> T) -> Option<T> {
        // The budget reaches the search when the work first uses it (see `Solver::backend`),
        // so that work the one-row solver settles never allocates the search's table.
        self.budget = Some(budget);
        self.deadline = budget.time.map(|time| Instant::now() + time);
        let answer = work(self);
        self.budget = None;
        self.deadline = None;
        let exhausted = match &mut self.backend {
            Some((_, backend)) => {
                let exhausted = backend.exhausted();
                backend.set_budget(Budget::UNLIMITED);
                backend.set_cancel(None);
                exhausted
            }
            None => false,
        };
        (!exhausted).then_some(answer)
    }

    /// Solves `pos` at the given depth and finds every move that achieves its value, with one
    /// narrow-window search per move (much cheaper than [`Solver::analyze`]).
    pub fn solve_with_best_moves(&mut self, pos: &Position, depth: Depth) -> Solution {
        let start = Instant::now();
        let before = self.nodes();
        let (value, best_moves) = if pos.is_over() {
            (self.value(pos, depth), Vec::new())
        } else {
            // A weak solve compares the children's outcomes (the one-row solver gives no
            // score); an exact one tests each child against the parent's score.
            let (value, score) = match depth {
                Depth::Weak => (self.value(pos, depth), None),
                Depth::Strong => {
                    let score = self.score(pos, depth);
                    (Self::value_of(pos, score, depth), Some(score))
                }
            };
            let best = pos
                .legal_columns()
                .into_iter()
                .filter(|&column| {
                    let child = pos.played(column).expect("legal column");
                    self.achieves(&child, score, value)
                })
                .collect();
            (value, best)
        };
        Solution {
            value,
            best_moves,
            moves: Vec::new(),
            nodes: self.nodes() - before,
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// Whether the move to `child` keeps the value `value` of its parent, whose exact score is
    /// `score` after an exact solve (`None` after a weak one). Given a score above the
    /// parent's, no child keeps it; given one below, a child that scores at most its negation
    /// does.
    fn achieves(&mut self, child: &Position, score: Option<Score>, value: Value) -> bool {
        let one_row = self.method == Method::Auto && StripSolver::applies_to(child.rules());
        if child.is_over() || (score.is_none() && one_row) {
            // Compare values: a finished child has no score to search, and the one-row solver
            // gives outcomes only.
            let depth = if score.is_some() {
                Depth::Strong
            } else {
                Depth::Weak
            };
            let after = self.value(child, depth);
            // A finished child has remoteness 0 even at weak depth, which then compares the
            // outcome alone (a weak solve once missed every move that wins at once this way).
            return after.result == value.result
                && (depth == Depth::Weak || after.remoteness.map(|r| r + 1) == value.remoteness);
        }
        match score {
            // The child keeps the value exactly when its own score is `-score`. No child scores
            // less (the parent's score is the best of its children's), so one null window
            // settles it: is the child's score at most `-score`? Asked nearest zero.
            Some(score) => {
                let achievable = Achievable::new(child.empty_cells(), child.rules().variant());
                let probe = achievable.toward_zero(-score);
                self.window(child, probe, probe + 1) <= probe
            }
            // Weak: the child's score must have the opposite sign of the parent's, which one
            // null window settles for a won parent (is the child lost?) and a window of width
            // two for a drawn one; from a lost parent every move loses.
            None => match value.result {
                GameResult::Win(p) if p == child.to_move().other() => self.window(child, -1, 0) < 0,
                GameResult::Draw => self.window(child, -1, 1) == 0,
                GameResult::Win(_) => true,
            },
        }
    }

    /// Whether the score of `pos` for its side to move is above `probe`: one null-window
    /// search (none for a finished game). Inside [`Solver::limited`], an answer after the
    /// budget ran out means nothing.
    #[cfg(feature = "experiments")]
    pub(crate) fn above(&mut self, pos: &Position, probe: Score) -> bool {
        // Questions about the outcome alone go to the one-row solver where it applies (on a
        // misère row it asks the sums of games whether the closer wins, and nothing else).
        if (probe == -1 || probe == 0)
            && !pos.is_over()
            && let Some(answer) = self.one_row(pos.rules()).and_then(|s| s.above(pos, probe))
        {
            return answer;
        }
        let known = self.value_without_search(pos, Depth::Strong);
        match known.and_then(|value| Self::score_of(pos, value)) {
            Some(score) => score > probe,
            None => self.window(pos, probe, probe + 1) > probe,
        }
    }

    /// Whether the side to move in `pos` can do no better than the exact `value` (false for a
    /// value no score of `pos` stands for): one null-window search. With a move that keeps
    /// `value` (as each step of [`Solver::line_keeping`] finds) it makes `value` the
    /// position's own, which a line going on from a start read from a file needs checked.
    #[cfg(feature = "experiments")]
    pub(crate) fn no_better_than(&mut self, pos: &Position, value: Value) -> bool {
        Self::score_of(pos, value).is_some_and(|score| !self.above(pos, score))
    }

    /// The legal moves of `pos` (not over), reached by the move `last`, in the order the
    /// search tries them (see `Search::move_order`).
    #[cfg(feature = "experiments")]
    pub(crate) fn move_order(&mut self, pos: &Position, last: Option<Column>) -> Vec<Column> {
        self.ordered(pos, last, true)
    }

    /// The moves of `pos` (not over) after `last` in the search's order, with the table's best
    /// move first when `hint` (`Search::move_order`) or without it, the same in every run
    /// (`Search::static_order`).
    fn ordered(&mut self, pos: &Position, last: Option<Column>, hint: bool) -> Vec<Column> {
        fn run<B: Bits>(
            search: &mut Search<B>,
            pos: &Position,
            last: Option<u32>,
            hint: bool,
        ) -> Vec<u32> {
            let pos = pos.convert::<B>().expect("backend chosen to fit");
            if hint {
                search.move_order(&pos, last)
            } else {
                search.static_order(&pos, last)
            }
        }
        let last = last.map(Column::index);
        let columns = match self.backend(pos.rules()) {
            Backend::Narrow(s) => run(s, pos, last, hint),
            Backend::Wide(s) => run(s, pos, last, hint),
        };
        columns.into_iter().map(Column::new).collect()
    }

    /// Fail-soft alpha-beta score of a non-terminal position inside `alpha..beta`.
    fn window(&mut self, pos: &Position, alpha: Score, beta: Score) -> Score {
        fn run<B: Bits>(
            search: &mut Search<B>,
            pos: &Position,
            alpha: Score,
            beta: Score,
        ) -> Score {
            let pos = pos.convert::<B>().expect("backend chosen to fit");
            search.negamax(&pos, alpha, beta)
        }
        match self.backend(pos.rules()) {
            Backend::Narrow(s) => run(s, pos, alpha, beta),
            Backend::Wide(s) => run(s, pos, alpha, beta),
        }
    }

    /// Solves every move of `pos` at the given depth; the best moves are those whose value is
    /// best for the side to move (at weak depth: best result).
    pub fn analyze(&mut self, pos: &Position, depth: Depth) -> Solution {
        self.timed(|s| {
            let moves = s.move_values(pos, depth);
            let value = match moves.iter().map(|m| m.value).max_by_key(|v| rank(pos, *v)) {
                Some(best) => best,
                None => s.value(pos, depth),
            };
            (value, moves)
        })
    }

    fn timed(&mut self, f: impl FnOnce(&mut Solver) -> (Value, Vec<MoveValue>)) -> Solution {
        let start = Instant::now();
        let before = self.nodes();
        let (value, moves) = f(self);
        let nodes = self.nodes() - before;
        let best_moves = moves
            .iter()
            .filter(|m| m.value == value)
            .map(|m| m.column)
            .collect();
        Solution {
            value,
            best_moves,
            moves,
            nodes,
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// The value after each legal move, seen from `pos` (remoteness includes the move itself).
    pub fn move_values(&mut self, pos: &Position, depth: Depth) -> Vec<MoveValue> {
        pos.legal_columns()
            .into_iter()
            .map(|column| {
                let child = pos.played(column).expect("legal column");
                let after = self.value(&child, depth);
                let value = Value {
                    result: after.result,
                    remoteness: after.remoteness.map(|r| r + 1),
                };
                MoveValue { column, value }
            })
            .collect()
    }

    /// A principal variation: from `pos`, best moves for both sides until the game ends (at
    /// each step the first best move in the search's own order without the table's hint,
    /// which depends on the position and the move before it alone, so the line is the same in
    /// every run: under misère rules the answer on top of the opponent's disc first, the
    /// paper's take-even). Each step settles one move at a time with a narrow window, so it
    /// costs far less than analysing every move; trying the likeliest move first spares most
    /// of the searches that prove a move does not keep the value, which on a large board cost
    /// as much as a solve. Inside [`Solver::limited`], a budget that runs out ends the line
    /// where it is (the searches' answers mean nothing from then on, and `limited` returns no
    /// answer).
    pub fn principal_variation(&mut self, pos: &Position) -> Vec<Column> {
        if pos.is_over() {
            return Vec::new();
        }
        let score = self.score(pos, Depth::Strong);
        self.line_from(*pos, score, None, &mut |_, _| {})
            .expect("every solved position has a move that keeps its value")
    }

    /// [`Solver::principal_variation`] of a position whose exact `value` a solve has already
    /// found (its [`Solution::value`]), without solving it again: on a large board that solve
    /// is most of the cost. A value without remoteness (a weak solve's) is solved again.
    /// A value that is not the position's own gives either a line that ends the game with
    /// that value and plays best moves after its first, or the principal variation.
    pub fn principal_variation_of(&mut self, pos: &Position, value: Value) -> Vec<Column> {
        if pos.is_over() || value.remoteness.is_none() {
            return self.principal_variation(pos);
        }
        self.line_keeping(pos, value, None, &mut |_, _| {})
            .unwrap_or_else(|| self.principal_variation(pos))
    }

    /// The line from `pos` along moves that keep `value`, an exact value a solve has found
    /// (see [`Solver::principal_variation_of`]), telling `stepped` the line so far and the
    /// nodes this solver has searched in all after each move it settles, so that a caller can
    /// keep what an interrupted line had found and go on from its end later (the value there
    /// is the same result with that many plies less, and `last`, the move that reached
    /// `pos`, is the line's last move: given it, the line goes on as it would have).
    /// `None` when no move keeps `value` at some step (it was not the value of the position
    /// reached), or the value has no exact score. Inside [`Solver::limited`], a budget that
    /// runs out ends the line where it is.
    pub fn line_keeping(
        &mut self,
        pos: &Position,
        value: Value,
        last: Option<Column>,
        stepped: &mut dyn FnMut(&[Column], u64),
    ) -> Option<Vec<Column>> {
        if pos.is_over() {
            return (value == self.value(pos, Depth::Strong)).then(Vec::new);
        }
        // A value no score stands for (a game longer than the cells left) has no line.
        let score = Self::score_of(pos, value)?;
        self.line_from(*pos, score, last, stepped)
    }

    /// The line from `pos` (reached by the move `last`, if known) along moves that keep the
    /// exact score `score`, tried in [`Solver::principal_variation`]'s order: each child found
    /// has score `-score`, so the next step needs no search for its own score; `stepped` is
    /// told the line and the nodes so far after each move. `None` when no move keeps it (`score`
    /// was not the position's), unless the budget ran out.
    fn line_from(
        &mut self,
        mut pos: Position,
        mut score: Score,
        last: Option<Column>,
        stepped: &mut dyn FnMut(&[Column], u64),
    ) -> Option<Vec<Column>> {
        let mut line = Vec::new();
        while !pos.is_over() {
            let value = Self::value_of(&pos, score, Depth::Strong);
            let before = line.last().copied().or(last);
            let order = self.ordered(&pos, before, false);
            let found = order.into_iter().find(|&column| {
                let child = pos.played(column).expect("legal column");
                self.achieves(&child, Some(score), value)
            });
            let Some(column) = found else {
                // The searches' answers mean nothing once the budget ran out (see `limited`).
                return self.exhausted().then_some(line);
            };
            pos.play(column).expect("legal column");
            line.push(column);
            stepped(&line, self.nodes());
            score = -score;
        }
        Some(line)
    }

    /// Whether the budget of [`Solver::limited`] has run out in the searches so far.
    fn exhausted(&self) -> bool {
        self.backend
            .as_ref()
            .is_some_and(|(_, backend)| backend.exhausted())
    }
}

/// Orders values from the point of view of the side to move in `pos`: higher is better.
///
/// Wins rank above draws above losses; a quicker win and a slower loss rank higher; a value
/// without remoteness ranks as the quickest of its kind.
pub fn rank(pos: &Position, value: Value) -> i64 {
    value.rank_for(pos.to_move(), UnknownRemoteness::Quickest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Topology, Variant};

    /// A solver given one board after another (two rows, one row, another two rows, the first
    /// again) counts on across each change of rules: every board adds exactly the nodes a
    /// fresh solver spends on it, so a difference of two readings never underflows.
    #[test]
    fn nodes_count_on_across_a_change_of_rules() {
        let ring = Rules::new(3, 9, 1, Variant::Misere)
            .unwrap()
            .with_topology(Topology::Cylinder);
        let boards = [
            Rules::new(4, 5, 4, Variant::Misere).unwrap(),
            ring,
            Rules::new(4, 4, 4, Variant::Normal).unwrap(),
            Rules::new(4, 5, 4, Variant::Misere).unwrap(),
        ];
        let mut solver = Solver::new(Mib(16));
        for rules in boards {
            let mut fresh = Solver::new(Mib(16));
            fresh.solve(&Position::new(rules));
            assert!(fresh.nodes() > 0, "{rules}");
            let before = solver.nodes();
            solver.solve(&Position::new(rules));
            assert_eq!(solver.nodes() - before, fresh.nodes(), "{rules}");
        }
    }
}
