//! `connectk.verify`: a paper strategy against every reply of an unrestricted opponent.

use connectk::strategy::StrategyName;
use connectk::verify::{Claim, Rulebook, Verdict, verify_under};
use connectk::{Rules, notation};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::error::value_error;
use crate::players::parse_side;
use crate::position::PyPosition;
use crate::rules::PyRules;

/// The checker's answer: whether the claim holds against every opponent, the distinct
/// positions examined, the longest game the opponent can force (when it holds), and when it
/// fails a shortest refuting line (move notation from the empty board, the starting moves
/// included) and why it refutes the claim.
#[pyclass(module = "connectk._core", name = "Verdict", frozen, get_all)]
pub struct PyVerdict {
    /// Whether the claim holds.
    pub holds: bool,
    /// Distinct positions examined.
    pub positions: usize,
    /// The longest game the opponent can force, in plies from the empty board (when it holds).
    pub longest_game: Option<u32>,
    /// A shortest refuting line, in move notation (when it fails).
    pub line: Option<String>,
    /// Why the line refutes the claim (when it fails).
    pub reason: Option<String>,
}

#[pymethods]
impl PyVerdict {
    fn __bool__(&self) -> bool {
        self.holds
    }

    fn __repr__(&self) -> String {
        match (&self.line, &self.reason) {
            (Some(line), Some(reason)) => format!(
                "Verdict(holds=False, positions={}, line='{line}', reason='{reason}')",
                self.positions
            ),
            _ => format!(
                "Verdict(holds=True, positions={}, longest_game={})",
                self.positions,
                self.longest_game.unwrap_or(0)
            ),
        }
    }
}

/// The claim named `claim`: "win" or "draw-or-better".
fn parse_claim(claim: &str) -> PyResult<Claim> {
    match claim {
        "win" => Ok(Claim::Win),
        "draw-or-better" => Ok(Claim::DrawOrBetter),
        _ => Err(PyValueError::new_err(format!(
            "unknown claim {claim:?}: expected \"win\" or \"draw-or-better\""
        ))),
    }
}

/// Checks that `strategy` (a paper strategy's name) playing `player` ("P1" or "P2") achieves
/// `claim` ("win" or "draw-or-better") under `rules` from the position after `moves`,
/// against every possible reply; `opponent_cannot_lose` checks Appendix A's relaxed game
/// (lines the opponent completes are ignored). As `connectk verify`.
///
/// Raises ValueError when the strategy does not apply to these rules and player.
#[pyfunction]
#[pyo3(signature = (strategy, player, rules=None, claim="win", moves="", opponent_cannot_lose=false))]
pub fn verify(
    py: Python<'_>,
    strategy: &str,
    player: &str,
    rules: Option<PyRules>,
    claim: &str,
    moves: &str,
    opponent_cannot_lose: bool,
) -> PyResult<PyVerdict> {
    let rules = rules.map_or_else(Rules::standard, |r| r.rules);
    let name: StrategyName = strategy.parse().map_err(value_error)?;
    let (side, claim) = (parse_side(player)?, parse_claim(claim)?);
    let start = PyPosition::parse(rules, moves)?;
    let mut strategy = name.build(rules, side).map_err(value_error)?;
    let rulebook = if opponent_cannot_lose {
        Rulebook::OpponentCannotLose
    } else {
        Rulebook::Standard
    };
    let verdict = py.detach(|| {
        verify_under(
            rulebook,
            strategy.as_mut(),
            side,
            claim,
            &start.position,
            &start.moves,
        )
    });
    Ok(match verdict {
        Verdict::Holds {
            positions,
            longest_game,
        } => PyVerdict {
            holds: true,
            positions,
            longest_game: Some(longest_game),
            line: None,
            reason: None,
        },
        Verdict::Refuted {
            positions,
            line,
            reason,
        } => {
            let mut full = start.moves.clone();
            full.extend(line);
            PyVerdict {
                holds: false,
                positions,
                longest_game: None,
                line: Some(notation::format(rules, &full)),
                reason: Some(reason),
            }
        }
    })
}
