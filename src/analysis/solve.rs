//! The solved value of a position, as a record.

use serde::Serialize;

use super::state::GameState;
use crate::solver::{MoveValue, Solution};

/// The value of one move, from the side to move's point of view before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveRecord {
    /// The column, from 1.
    pub column: u32,
    /// `P1`, `P2` or `Draw` under perfect play after this move.
    pub outcome: &'static str,
    /// Plies until the end, this move included; `null` after a weak solve.
    pub remoteness: Option<u32>,
}

impl MoveRecord {
    /// The record of one analysed move.
    pub fn of(value: &MoveValue) -> MoveRecord {
        MoveRecord {
            column: value.column.number(),
            outcome: value.value.result.label(),
            remoteness: value.value.remoteness,
        }
    }
}

/// A solved position: its state, its value under perfect play and what the solve found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveRecord {
    /// The position itself.
    #[serde(flatten)]
    pub state: GameState,
    /// `P1`, `P2` or `Draw` under perfect play (P1 moved first).
    pub outcome: &'static str,
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
            outcome: solution.value.result.label(),
            remoteness: solution.value.remoteness,
            best_moves: best_moves
                .then(|| solution.best_moves.iter().map(|c| c.number()).collect()),
            move_values: solution.moves.iter().map(MoveRecord::of).collect(),
            pv,
            nodes: solution.nodes,
            seconds: solution.seconds,
        }
    }
}
