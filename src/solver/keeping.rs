//! The moves that keep a position's value, found within a time budget.

use std::time::Instant;

use crate::engine::outcome::GameResult;
use crate::engine::position::{Column, Position};

use super::{Budget, Depth, Solver, Value};

/// Nodes each unsettled move may search in the first round of [`Solver::keeping_moves`]; each
/// later round allows this many times more.
const FIRST_ROUND_NODES: u64 = 4_000;

/// How much larger each round's node budget is than the last one's.
const ROUND_GROWTH: u64 = 8;

/// A position's value and the moves proven to keep it (see [`Solver::keeping_moves`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keeping {
    /// The value of the position (outcome only).
    pub value: Value,
    /// Moves proven to keep the value, the cheapest to prove first (fewest nodes, then column
    /// order); at least one for an unfinished position.
    pub moves: Vec<Column>,
    /// Whether every legal move was settled, so that `moves` holds all the moves that keep the
    /// value; false when time ran out with some moves unsettled.
    pub complete: bool,
}

impl Solver {
    /// The outcome of `pos` and the moves proven to keep it, settling moves until `deadline`
    /// (never before one is found: a position's value is always kept by some move).
    ///
    /// The outcome is proved first, whatever that costs. A lost position is kept by every move.
    /// Otherwise the moves are settled in rounds, each giving every unsettled move a node
    /// budget `ROUND_GROWTH` times the last: a move that wins, or draws from a drawn
    /// position, is often settled in a few thousand nodes, while one that throws the game away
    /// can take a search far longer than the position's own proof (misère 7x6 after one disc:
    /// the second player's answer on top is settled at once, another answer took minutes). So
    /// the cheap moves are found first, and the costly ones, when time runs out, are left
    /// unsettled (and are never played, as nothing proves they keep the value). The first
    /// round, a few milliseconds, always runs to its end; the deadline ends a later round.
    pub fn keeping_moves(&mut self, pos: &Position, deadline: Option<Instant>) -> Keeping {
        let value = self.value(pos, Depth::Weak);
        let legal = if pos.is_over() {
            Vec::new()
        } else {
            pos.legal_columns()
        };
        let lost = matches!(value.result, GameResult::Win(p) if p != pos.to_move());
        if lost || legal.len() <= 1 {
            return Keeping {
                value,
                moves: legal,
                complete: true,
            };
        }
        // Moves proven to keep the value, with the nodes each proof took.
        let mut keeping: Vec<(u64, Column)> = Vec::new();
        let mut unsettled = legal;
        let mut nodes = FIRST_ROUND_NODES;
        while !unsettled.is_empty() {
            let time_up = deadline.is_some_and(|d| Instant::now() >= d);
            if time_up && !keeping.is_empty() {
                break;
            }
            let mut still = Vec::new();
            for column in unsettled {
                let child = pos.played(column).expect("legal column");
                // Past the first round, once a keeping move is known, the deadline bounds each
                // search too.
                let time = deadline
                    .filter(|_| !keeping.is_empty() && nodes > FIRST_ROUND_NODES)
                    .map(|d| d.saturating_duration_since(Instant::now()));
                let budget = Budget {
                    nodes: Some(nodes),
                    time,
                };
                let before = self.nodes();
                match self.limited(budget, |s| s.achieves(&child, None, value)) {
                    Some(true) => keeping.push((self.nodes() - before, column)),
                    Some(false) => {}
                    None => still.push(column),
                }
            }
            unsettled = still;
            nodes = nodes.saturating_mul(ROUND_GROWTH);
        }
        keeping.sort_unstable();
        Keeping {
            value,
            moves: keeping.into_iter().map(|(_, column)| column).collect(),
            complete: unsettled.is_empty(),
        }
    }
}
