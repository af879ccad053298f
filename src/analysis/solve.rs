//! The solved value of a position, as a record.

use serde::Serialize;

use super::columns::ColumnValues;
use super::state::GameState;
use crate::engine::position::{Column, Position};
use crate::solver::{MoveValue, Solution, Value};

/// The value of one move, from the side to move's point of view before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveRecord {
    /// The column, from 1.
    pub column: u32,
    /// `P1`, `P2` or `Draw` under perfect play after this move; `null` when it was not found
    /// within a budget.
    pub outcome: Option<&'static str>,
    /// Plies until the end, this move included; `null` after a weak solve.
    pub remoteness: Option<u32>,
}

impl MoveRecord {
    /// The record of one analysed move.
    pub(crate) fn of(value: &MoveValue) -> MoveRecord {
        MoveRecord::known(value.column, Some(value.value))
    }

    /// The record of the move `column`, whose value may be unknown.
    pub(crate) fn known(column: Column, value: Option<Value>) -> MoveRecord {
        MoveRecord {
            column: column.number(),
            outcome: value.map(|v| v.result.label()),
            remoteness: value.and_then(|v| v.remoteness),
        }
    }
}

/// A solved position: its state, its value under perfect play and what the solve found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveRecord {
    /// The position itself.
    #[serde(flatten)]
    pub state: GameState,
    /// `P1`, `P2` or `Draw` under perfect play (P1 moved first); `null` when a budgeted solve
    /// did not find it.
    pub outcome: Option<&'static str>,
    /// Plies until the game ends under perfect play (the winner hurries, the loser delays;
    /// for a draw, the empty cells); `null` after a weak solve.
    pub remoteness: Option<u32>,
    /// Every move that keeps the value, columns from 1; absent when not looked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_moves: Option<Vec<u32>>,
    /// Every legal move's value, when the position was analysed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub move_values: Vec<MoveRecord>,
    /// A principal variation in move notation, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv: Option<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// For a solve within a budget: whether it found everything asked for (`false`: the
    /// unknown values are `null`). Absent for a solve without a budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complete: Option<bool>,
}

impl SolveRecord {
    /// The record of `solution` for the position in `state`; `best_moves` says whether the
    /// solve looked for them, and `pv` is the principal variation if one was asked for.
    pub fn new(
        state: GameState,
        solution: &Solution,
        best_moves: bool,
        pv: Option<String>,
    ) -> SolveRecord {
        SolveRecord {
            state,
            outcome: Some(solution.value.result.label()),
            remoteness: solution.value.remoteness,
            best_moves: best_moves
                .then(|| solution.best_moves.iter().map(|c| c.number()).collect()),
            move_values: solution.moves.iter().map(MoveRecord::of).collect(),
            pv,
            nodes: solution.nodes,
            seconds: solution.seconds,
            complete: None,
        }
    }

    /// The record of an analysis within a budget of `pos` (in `state`): every move's value
    /// where it was found, the position's value and best moves once all of them were.
    pub fn of_columns(state: GameState, pos: &Position, values: &ColumnValues) -> SolveRecord {
        let value = match pos.outcome() {
            Some(outcome) => Some(Value {
                result: outcome.result,
                remoteness: Some(0),
            }),
            None => values.value(pos),
        };
        SolveRecord {
            state,
            outcome: value.map(|v| v.result.label()),
            remoteness: value.and_then(|v| v.remoteness),
            best_moves: value.map(|_| {
                let best = if values.moves.is_empty() {
                    Vec::new()
                } else {
                    values.best_columns(pos)
                };
                best.iter().map(|c| c.number()).collect()
            }),
            move_values: values
                .moves
                .iter()
                .map(|&(column, value)| MoveRecord::known(column, value))
                .collect(),
            pv: None,
            nodes: values.nodes,
            seconds: values.seconds,
            complete: Some(values.complete()),
        }
    }

    /// The same record, marked as a solve within a budget that found everything (`complete`
    /// is `true`).
    pub fn within_budget(self) -> SolveRecord {
        SolveRecord {
            complete: Some(true),
            ..self
        }
    }
}
