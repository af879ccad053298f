//! The boards a run gave up on, kept in `open.csv` with the node limits they passed: a rerun
//! under limits no larger than those skips them (the same search would give up again), and
//! the report names what is left and what it was given.

use serde::{Deserialize, Serialize};

use super::Effort;
use crate::engine::rules::{Topology, Variant};
use crate::experiment::store::Record;
use crate::experiment::sweep::Board;

/// A cylinder board whose exact and outcome-only solves both passed their node limits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// `normal` or `misere`.
    pub rules: Variant,
    /// Always `cylinder`, as in `annulus.csv`.
    pub topology: Topology,
    /// Line length.
    pub k: u32,
    /// Circumference: the number of columns.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// The exact solve's node limit that was passed.
    pub strong_nodes: u64,
    /// The outcome-only solve's node limit that was passed (on top of the exact one's).
    pub weak_nodes: u64,
    /// The transposition table the solves had, in MiB.
    pub table_mb: usize,
    /// Nodes searched by both solves.
    pub nodes: u64,
    /// Wall-clock seconds of both solves.
    pub seconds: f64,
    /// The commit of the binary that gave up. A later search is not assumed to do better:
    /// to try a board again under the same limits, remove its line.
    pub commit: String,
}

impl Attempt {
    /// The attempt on `board` that gave up after `nodes` in `seconds` under `effort`'s limits.
    pub(crate) fn new(board: Board, effort: &Effort, nodes: u64, seconds: f64) -> Attempt {
        Attempt {
            rules: board.variant,
            topology: board.topology,
            k: board.k,
            width: board.width,
            height: board.height,
            strong_nodes: effort.strong_nodes,
            weak_nodes: effort.weak_nodes,
            table_mb: effort.table.0,
            nodes,
            seconds,
            commit: env!("CONNECTK_COMMIT").to_string(),
        }
    }

    /// The board given up on.
    pub(crate) fn board(&self) -> Board {
        Board {
            topology: self.topology,
            ..Board::flat(self.rules, self.k, self.width, self.height)
        }
    }

    /// Whether searching again under `effort` would only repeat this attempt: neither its
    /// node limits nor its table is larger than this attempt's. Each board is searched by one
    /// thread from an empty table, so the same limits give up at the same node.
    pub(crate) fn covers(&self, effort: &Effort) -> bool {
        effort.strong_nodes <= self.strong_nodes
            && effort.weak_nodes <= self.weak_nodes
            && effort.table.0 <= self.table_mb
    }

    /// Its limits as the report gives them: `2e7 + 2e8 nodes`.
    pub fn limits(&self) -> String {
        format!(
            "{} + {} nodes",
            short_count(self.strong_nodes),
            short_count(self.weak_nodes)
        )
    }
}

/// `n` in the short form of the command's node limits: `2e7` for 20,000,000, the digits
/// themselves when they are not a digit and zeros.
fn short_count(n: u64) -> String {
    let text = n.to_string();
    let zeros = text.len() - text.trim_end_matches('0').len();
    if zeros >= 3 && text.trim_end_matches('0').len() == 1 {
        format!("{}e{zeros}", &text[..1])
    } else {
        text
    }
}

impl Record for Attempt {
    type Key = Board;

    fn key(&self) -> Board {
        self.board()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Mib;

    fn effort(strong_nodes: u64, weak_nodes: u64) -> Effort {
        Effort {
            table: Mib(1),
            strong_nodes,
            weak_nodes,
            deadline: None,
        }
    }

    #[test]
    fn an_attempt_covers_no_larger_limits_only() {
        let board = Board {
            topology: Topology::Cylinder,
            ..Board::flat(Variant::Misere, 3, 27, 1)
        };
        let attempt = Attempt::new(board, &effort(20_000_000, 200_000_000), 220_000_000, 240.0);
        assert_eq!(attempt.board(), board);
        assert!(attempt.covers(&effort(20_000_000, 200_000_000)));
        assert!(attempt.covers(&effort(1_000, 1_000)));
        assert!(!attempt.covers(&effort(100_000_000, 200_000_000)));
        assert!(!attempt.covers(&effort(20_000_000, 1_000_000_000)));
        let larger_table = Effort {
            table: Mib(2),
            ..effort(20_000_000, 200_000_000)
        };
        assert!(!attempt.covers(&larger_table));
        assert_eq!(attempt.limits(), "2e7 + 2e8 nodes");
        assert_eq!(short_count(1_500_000), "1500000");
        assert_eq!(short_count(10), "10");
    }
}
