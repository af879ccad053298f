//! The Quarto solver: exact values (winner and remoteness) or outcomes only, for any
//! position, and the value of every turn.

mod search;
mod table;

use std::time::Instant;

use crate::{Depth, GameResult, Value};

use super::position::{Position, Turn};
use super::rules::Rules;

pub use search::Score;
use search::Search;

/// The search stopped at its node limit before it knew the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the search stopped at its limit of {limit} nodes: allow more nodes")]
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

    /// The rules this solver's tables are for.
    pub fn rules(&self) -> &Rules {
        self.search.rules()
    }

    /// Makes the solver fit `pos`'s rules (a new search with empty tables if they differ).
    fn fit(&mut self, pos: &Position) {
        if self.search.rules() != pos.rules() {
            let limit = self.search.limit;
            self.search = Search::new(*pos.rules(), self.table_bytes);
            self.search.limit = limit;
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
        let sign = if self.score(pos, 0, 1) >= 1 {
            1
        } else if self.score(pos, -1, 0) <= -1 {
            -1
        } else {
            0
        };
        if depth == Depth::Weak || sign == 0 {
            return sign;
        }
        let top = self.search.win_at(pos.plies() + 1);
        let (mut low, mut high) = if sign > 0 { (1, top) } else { (-top, -1) };
        while low < high && !self.search.aborted {
            let mid = low + (high - low) / 2;
            let score = self.score(pos, mid, mid + 1);
            if score <= mid {
                high = score;
            } else {
                low = score;
            }
        }
        low
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
