//! The Quarto solver: exact values (winner and remoteness) or outcomes only, for any
//! position, and the value of every turn.

pub(crate) mod knowledge;
mod search;
mod table;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::{Depth, GameResult, Value};

use super::position::{Position, Turn};
use super::rules::Rules;

pub use search::Score;
use search::Search;

/// The search stopped before it knew the answer: at its node limit, at the deadline of
/// [`Solver::set_deadline`] or at the signal of [`Solver::set_cancel`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the search stopped before it knew the answer (its limit is {limit} nodes): allow more")]
pub struct Unfinished {
    /// The node limit.
    pub limit: u64,
}

/// The value of a position and what finding it cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solution {
    /// Winner and remoteness (plies, that is turns, until the game ends when the winner
    /// hurries and the loser delays; for a draw, the turns left in a full game).
    pub value: Value,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
}

/// One turn and the value of the position it leads to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnValue {
    /// The turn.
    pub turn: Turn,
    /// The value after it.
    pub value: Value,
}

/// Every turn of a position with its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The position's value.
    pub value: Value,
    /// Each legal turn (in [`Position::legal_turns`] order) and its value.
    pub turns: Vec<TurnValue>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
}

/// Solves Quarto positions of one set of rules, keeping its transposition table from one
/// solve to the next.
pub struct Solver {
    search: Search,
    table_bytes: usize,
}

impl Solver {
    /// A solver for `rules` with a transposition table of `table_bytes` bytes.
    pub fn new(rules: Rules, table_bytes: usize) -> Solver {
        Solver {
            search: Search::new(rules, table_bytes),
            table_bytes,
        }
    }

    /// Stops every later solve once it has searched `limit` positions (it then returns
    /// [`Unfinished`]).
    pub fn with_node_limit(mut self, limit: u64) -> Solver {
        self.search.limit = limit;
        self
    }

    /// Makes every later solve stop once it has searched `limit` positions (it then returns
    /// [`Unfinished`]); `u64::MAX` for none.
    pub fn set_node_limit(&mut self, limit: u64) {
        self.search.limit = limit;
    }

    /// Makes every later solve give up (returning [`Unfinished`]) at `deadline`; `None`
    /// removes it.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.search.stop.deadline = deadline;
    }

    /// Makes every later solve give up (returning [`Unfinished`]) once `cancel` is raised (a
    /// server's client went away); `None` removes the signal.
    pub fn set_cancel(&mut self, cancel: Option<Arc<AtomicBool>>) {
        self.search.stop.cancel = cancel;
    }

    /// Whether the signal of [`Solver::set_cancel`] is raised.
    pub fn cancelled(&self) -> bool {
        self.search
            .stop
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The rules this solver's tables are for.
    pub fn rules(&self) -> &Rules {
        self.search.rules()
    }

    /// Makes the solver fit `pos`'s rules (a new search with empty tables if they differ).
    fn fit(&mut self, pos: &Position) {
        if self.search.rules() != pos.rules() {
            let limit = self.search.limit;
            // A new table, the same limits.
            let stop = std::mem::take(&mut self.search.stop);
            self.search = Search::new(*pos.rules(), self.table_bytes);
            self.search.limit = limit;
            self.search.stop = stop;
        }
    }

    /// The score of `pos` for its side to move within (`alpha`, `beta`), fail-soft.
    fn score(&mut self, pos: &Position, alpha: Score, beta: Score) -> Score {
        match (pos.outcome(), pos.hand()) {
            (Some(outcome), _) => match outcome.result {
                // A finished game stays at the ply it ended on.
                GameResult::Win(p) if p == pos.to_move() => self.search.win_at(pos.plies()),
                GameResult::Win(_) => -self.search.win_at(pos.plies()),
                GameResult::Draw => 0,
            },
            (None, None) => {
                let board = pos.board();
                let threats = board.threats(pos.rules());
                self.search.give(board, &threats, alpha, beta)
            }
            (None, Some(piece)) => {
                let board = pos.board();
                let threats = board.threats(pos.rules());
                self.search.place(board, &threats, piece, alpha, beta)
            }
        }
    }

    /// The exact score of `pos` (or its sign only, for [`Depth::Weak`]).
    ///
    /// The sign takes two null-window searches: does the side to move win (window (0, 1)),
    /// and if not, does it lose (window (-1, 0)). With a window around zero instead, every
    /// drawn node would be an exact value and need all its moves searched; with these, a
    /// draw refutes at once. The remoteness of a win or loss is then bisected with null
    /// windows.
    fn exact(&mut self, pos: &Position, depth: Depth) -> Score {
        if pos.is_over() {
            let score = self.score(pos, -1, 1);
            return if depth == Depth::Weak {
                score.signum()
            } else {
                score
            };
        }
        let top = self.search.win_at(pos.plies() + 1);
        self.exact_by(depth, top, |s, alpha, beta| s.score(pos, alpha, beta))
    }

    /// The exact score (or its sign) that `score` searches within a window, of a game that
    /// goes on and whose scores lie within `-top..=top`: the sign by two null windows, then
    /// the remoteness by bisection (see [`Solver::exact`]).
    fn exact_by(
        &mut self,
        depth: Depth,
        top: Score,
        mut score: impl FnMut(&mut Solver, Score, Score) -> Score,
    ) -> Score {
        let sign = if score(self, 0, 1) >= 1 {
            1
        } else if score(self, -1, 0) <= -1 {
            -1
        } else {
            0
        };
        if depth == Depth::Weak || sign == 0 {
            return sign;
        }
        let (mut low, mut high) = if sign > 0 { (1, top) } else { (-top, -1) };
        while low < high && !self.search.aborted {
            let mid = low + (high - low) / 2;
            let found = score(self, mid, mid + 1);
            if found <= mid {
                high = found;
            } else {
                low = found;
            }
        }
        low
    }

    /// The value for the side to move of `pos`, which holds a piece, of placing it on `cell`
    /// and then handing over the best piece (remoteness counted from `pos`).
    ///
    /// # Errors
    /// [`Unfinished`] when the node limit or the stop ended the search.
    ///
    /// # Panics
    /// When the side to move holds no piece or `cell` is taken.
    pub fn placement(
        &mut self,
        pos: &Position,
        cell: super::Cell,
        depth: Depth,
    ) -> Result<Value, Unfinished> {
        self.fit(pos);
        let piece = pos.hand().expect("a piece to place");
        let ends = Turn {
            place: Some(cell),
            give: None,
        };
        if pos.play(ends).is_ok() {
            // The placement ends the game: nothing is handed over.
            return self.turn(pos, ends, depth);
        }
        assert!(pos.board().occupied() & cell.bit() == 0, "cell is empty");
        let board = pos.board().with(cell, piece);
        let threats = board.threats(pos.rules());
        let top = self.search.win_at(pos.plies() + 1);
        let (score, _, _) = self.measured(|s| {
            s.exact_by(depth, top, |s, alpha, beta| {
                s.search.give(&board, &threats, alpha, beta)
            })
        })?;
        Ok(value_of(pos, score, depth))
    }

    /// The value for the side to move of `pos` of playing `turn` (remoteness counted from
    /// `pos`).
    ///
    /// # Errors
    /// [`Unfinished`] when the node limit or the stop ended the search.
    ///
    /// # Panics
    /// When `turn` is not legal in `pos`.
    pub fn turn(&mut self, pos: &Position, turn: Turn, depth: Depth) -> Result<Value, Unfinished> {
        let child = pos.play(turn).expect("a legal turn");
        let value = self.solve(&child, depth)?.value;
        Ok(Value {
            remoteness: value.remoteness.map(|r| r + 1),
            ..value
        })
    }

    /// Runs `f` with fresh counters and reports its nodes, time, and whether it finished.
    fn measured<T>(
        &mut self,
        f: impl FnOnce(&mut Solver) -> T,
    ) -> Result<(T, u64, f64), Unfinished> {
        self.search.nodes = 0;
        self.search.aborted = false;
        let start = Instant::now();
        let result = f(self);
        if self.search.aborted {
            return Err(Unfinished {
                limit: self.search.limit,
            });
        }
        Ok((result, self.search.nodes, start.elapsed().as_secs_f64()))
    }

    /// The value of `pos`: winner and remoteness, or the winner only with [`Depth::Weak`].
    ///
    /// # Errors
    /// [`Unfinished`] when the node limit stopped the search.
    pub fn solve(&mut self, pos: &Position, depth: Depth) -> Result<Solution, Unfinished> {
        self.fit(pos);
        let (score, nodes, seconds) = self.measured(|s| s.exact(pos, depth))?;
        Ok(Solution {
            value: value_of(pos, score, depth),
            nodes,
            seconds,
        })
    }

    /// Whether the side to move in `pos` gets at least the outcome of `sign` (1: a win, 0: a
    /// draw or a win), by one null-window search, with its nodes and time.
    ///
    /// # Errors
    /// [`Unfinished`] when the node limit stopped the search.
    pub fn reaches(&mut self, pos: &Position, sign: Score) -> Result<(bool, u64, f64), Unfinished> {
        self.fit(pos);
        self.measured(|s| s.score(pos, sign - 1, sign) >= sign)
    }

    /// The value of `pos` and of every legal turn from it.
    ///
    /// # Errors
    /// [`Unfinished`] when the node limit stopped the search.
    pub fn analyze(&mut self, pos: &Position, depth: Depth) -> Result<Analysis, Unfinished> {
        self.fit(pos);
        let ((value, turns), nodes, seconds) = self.measured(|s| {
            let turns: Vec<TurnValue> = pos
                .legal_turns()
                .into_iter()
                .map(|turn| {
                    let child = pos.play(turn).expect("legal turn");
                    let score = s.exact(&child, depth);
                    TurnValue {
                        turn,
                        value: value_of(&child, score, depth),
                    }
                })
                .collect();
            let value = match turns.iter().map(|t| -score_for(pos, &t.value)).max() {
                Some(best) => value_of(pos, best, depth),
                None => value_of(pos, s.exact(pos, depth), depth),
            };
            (value, turns)
        })?;
        Ok(Analysis {
            value,
            turns,
            nodes,
            seconds,
        })
    }
}

/// The [`Value`] of a score of `pos` (its sign only for [`Depth::Weak`]).
fn value_of(pos: &Position, score: Score, depth: Depth) -> Value {
    match depth {
        Depth::Weak => Value::from_sign(score, pos.to_move()),
        Depth::Strong => {
            Value::from_score(score, pos.rules().last_ply(), pos.plies(), pos.to_move())
        }
    }
}

/// The score, for the side to move in the position after one turn from `pos`, of `value`,
/// the value of that position; comparable across turns (its sign only after a weak solve).
fn score_for(pos: &Position, value: &Value) -> Score {
    let next = pos.to_move().other();
    let magnitude = match value.remoteness {
        Some(r) => pos.rules().last_ply() as Score + 1 - (pos.plies() + 1 + r) as Score,
        None => 1,
    };
    match value.result {
        GameResult::Win(p) if p == next => magnitude,
        GameResult::Win(_) => -magnitude,
        GameResult::Draw => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::quarto::notation;

    /// On 3x3 boards with three attributes, both rules: placing on a cell is worth the best
    /// turn through that cell, as the full analysis finds it.
    #[test]
    fn a_placement_is_worth_its_best_turn() {
        for variant in [Variant::Normal, Variant::Misere] {
            let rules = Rules::new(3, 3, None, variant, false).unwrap();
            let (pos, _) = notation::parse(rules, "LSR a1:DTQ b2:LTR").unwrap();
            let mut solver = Solver::new(rules, 1 << 20);
            let analysis = solver.analyze(&pos, Depth::Strong).unwrap();
            let me = pos.to_move();
            for cell in super::super::piece::bits_of(pos.empty_cells()) {
                let cell = super::super::Cell::from_index(cell);
                let best = analysis
                    .turns
                    .iter()
                    .filter(|t| t.turn.place == Some(cell))
                    .map(|t| t.value)
                    .max_by_key(|v| -score_for(&pos, v));
                let mut best = best.unwrap();
                best.remoteness = best.remoteness.map(|r| r + 1);
                let placed = solver.placement(&pos, cell, Depth::Strong).unwrap();
                assert_eq!(placed, best, "{variant:?} {me} on {cell:?}");
            }
            for t in &analysis.turns {
                let value = solver.turn(&pos, t.turn, Depth::Strong).unwrap();
                let remoteness = t.value.remoteness.map(|r| r + 1);
                assert_eq!(
                    (value.result, value.remoteness),
                    (t.value.result, remoteness)
                );
            }
        }
    }

    #[test]
    fn a_passed_deadline_or_a_raised_signal_stops_the_search() {
        let rules = Rules::standard();
        let pos = Position::new(rules);
        let mut solver = Solver::new(rules, 1 << 20);
        solver.set_deadline(Some(Instant::now()));
        assert!(solver.solve(&pos, Depth::Weak).is_err());
        solver.set_deadline(None);
        solver.set_cancel(Some(Arc::new(AtomicBool::new(true))));
        assert!(solver.cancelled() && solver.solve(&pos, Depth::Weak).is_err());
        solver.set_cancel(None);
        let small = Rules::new(2, 2, None, Variant::Normal, false).unwrap();
        assert!(solver.solve(&Position::new(small), Depth::Strong).is_ok());
    }
}
