//! The rows of `table1.csv`: one per solved board, appended as boards finish.

use serde::{Deserialize, Serialize};

use crate::engine::outcome::{GameResult, Player};
use crate::engine::rules::{Rules, RulesError, Variant};
use crate::experiment::export::csv::LineProblem;
use crate::experiment::export::labels;
use crate::experiment::store::Record;
use crate::experiment::sweep::{Board, SweepRow};
use crate::strategy::table1;

/// One solved board, as stored in `table1.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Always `misere` for Table I.
    pub rules: Variant,
    /// Line length.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// width * height.
    pub cells: u32,
    /// Table I's outcome (`P1`, `P2`, `Draw`), empty where the paper makes no claim.
    #[serde(with = "labels::optional_outcome")]
    pub paper: Option<GameResult>,
    /// The solver's outcome.
    #[serde(with = "labels::outcome")]
    pub solver: GameResult,
    /// Whether they agree, empty where the paper makes no claim.
    pub agree: Option<bool>,
    /// Plies until the game ends under perfect play (for a draw: the number of cells); empty
    /// after an outcome-only (weak) sweep.
    pub remoteness: Option<u32>,
    /// Nodes searched (positions by the search, reduced forms by the one-row solver); the
    /// same on every run, since each board has a solver of its own. (How long a board took
    /// depends on the machine, and is left out so that a rerun writes the same file.)
    pub nodes: u64,
}

impl Row {
    /// Checks that the row describes a Table I board and a result the solver could have given:
    /// misère rules, a board the engine takes with k >= 2, the right cell count, the paper's
    /// own prediction, an outcome label, an agreement that matches both, and a remoteness that
    /// fits the board and the outcome (a draw fills the board; under misère rules P1 wins on
    /// an even ply, when P2 completes a line, and P2 on an odd one).
    ///
    /// # Errors
    /// The first problem found, with the column at fault.
    pub(crate) fn check(&self) -> Result<(), LineProblem> {
        let problem = |field: &str, message: String| {
            Err(LineProblem {
                field: Some(field.to_string()),
                message,
            })
        };
        if self.rules != Variant::Misere {
            return problem(
                "rules",
                format!(
                    "{:?}: Table I is misère, expected \"misere\"",
                    self.rules.name()
                ),
            );
        }
        if self.k < 2 {
            return problem("k", format!("{}: Table I covers k >= 2", self.k));
        }
        if let Err(error) = Rules::new(self.k, self.width, self.height, Variant::Misere) {
            let field = match error {
                RulesError::K(_) => "k",
                RulesError::Width(_) => "width",
                RulesError::Height(_) | RulesError::TooLarge { .. } => "height",
            };
            return problem(field, error.to_string());
        }
        let cells = self.width * self.height;
        if self.cells != cells {
            return problem(
                "cells",
                format!(
                    "{} for a {}x{} board: expected {cells}",
                    self.cells, self.width, self.height
                ),
            );
        }
        let predicted = table1::predict(self.k, self.width, self.height);
        if self.paper != predicted {
            return problem(
                "paper",
                format!(
                    "{:?}: Table I says {:?} for this board",
                    self.paper.map_or("", GameResult::label),
                    predicted.map_or("", GameResult::label)
                ),
            );
        }
        let solver = self.solver;
        let agree = predicted.map(|p| p == solver);
        if self.agree != agree {
            return problem(
                "agree",
                format!("{:?}: paper and solver say {agree:?}", self.agree),
            );
        }
        if let Some(plies) = self.remoteness {
            let fits = match solver {
                GameResult::Draw => plies == cells,
                GameResult::Win(Player::P1) => plies <= cells && plies % 2 == 0 && plies > 0,
                GameResult::Win(Player::P2) => plies <= cells && plies % 2 == 1,
            };
            if !fits {
                return problem(
                    "remoteness",
                    format!(
                        "{plies} plies for a {} on {cells} cells: a draw fills the board, P1 \
                         wins on an even ply and P2 on an odd one, never past the last cell",
                        solver.label()
                    ),
                );
            }
        }
        Ok(())
    }

    /// The board this row solved.
    pub(crate) fn board(&self) -> Board {
        Board::flat(self.rules, self.k, self.width, self.height)
    }
}

impl Record for Row {
    type Key = Board;

    fn key(&self) -> Board {
        self.board()
    }
}

impl SweepRow for Row {
    const COLUMNS: &'static [&'static str] = &[
        "rules",
        "k",
        "width",
        "height",
        "cells",
        "paper",
        "solver",
        "agree",
        "remoteness",
        "nodes",
    ];

    fn check(&self) -> Result<(), LineProblem> {
        Row::check(self)
    }

    fn name(&self) -> String {
        self.board().name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> Row {
        Row {
            rules: Variant::Misere,
            k: 4,
            width: 7,
            height: 6,
            cells: 42,
            paper: Some(GameResult::Win(Player::P2)),
            solver: GameResult::Win(Player::P2),
            agree: Some(true),
            remoteness: Some(37),
            nodes: 10,
        }
    }

    #[test]
    fn a_true_row_passes_and_each_forged_field_is_named() {
        assert_eq!(row().check(), Ok(()));
        /// A field's name and a way to forge it.
        type Forgery = (&'static str, fn(&mut Row));
        let cases: [Forgery; 9] = [
            ("rules", |r| r.rules = Variant::Normal),
            ("k", |r| r.k = 1),
            ("width", |r| r.width = 0),
            ("height", |r| r.height = 0),
            ("cells", |r| r.cells = 99),
            ("paper", |r| r.paper = Some(GameResult::Win(Player::P1))),
            ("agree", |r| r.agree = Some(false)),
            ("remoteness", |r| r.remoteness = Some(36)),
            ("remoteness", |r| r.remoteness = Some(43)),
        ];
        for (field, forge) in cases {
            let mut forged = row();
            forge(&mut forged);
            let problem = forged.check().unwrap_err();
            assert_eq!(problem.field.as_deref(), Some(field), "{problem}");
        }
    }
}
