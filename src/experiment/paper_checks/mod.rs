//! The paper's claims, checked: every case of a claims file (`paper-checks/claims.json`) on
//! every board of its range, with a CSV row per board and player and a Markdown summary.

mod case;
mod one_row;
mod report;

use rayon::prelude::*;

use crate::engine::rules::Rules;
use crate::solver::Mib;
use crate::solver::Solver;

pub use case::{Case, CaseRow, Check, Heights, Side, StrategyCheck, Widths};
pub use one_row::MoveClaim;
pub use report::{fails_a_claim, publish, summary};

/// Transposition table per worker for the solver cases: the boards of the claims file have at
/// most 36 cells and are solved weak, which a small table serves well.
const TABLE: Mib = Mib(64);

/// Why a claims file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ClaimsError {
    /// The file is not a JSON list of cases (the parser's message is part of this one, so
    /// not given as its source too).
    #[error("bad claims file: {0}")]
    Json(serde_json::Error),
    /// A case's ranges select no board, or boards the engine does not take.
    #[error("case {id}: {message}")]
    Case {
        /// The case's id.
        id: String,
        /// What is wrong, and what is allowed.
        message: String,
    },
    /// The file lists no case.
    #[error("the claims file lists no case: give at least one")]
    Empty,
}

/// Reads the cases of a claims file's text and checks that each selects at least one board.
///
/// # Errors
/// [`ClaimsError`] when the text is not a list of well-formed cases, or a case (or the whole
/// file) checks nothing.
pub fn parse_claims(text: &str) -> Result<Vec<Case>, ClaimsError> {
    let cases: Vec<Case> = serde_json::from_str(text).map_err(ClaimsError::Json)?;
    if cases.is_empty() {
        return Err(ClaimsError::Empty);
    }
    for case in &cases {
        case.check_ranges().map_err(|message| ClaimsError::Case {
            id: case.id.clone(),
            message,
        })?;
    }
    Ok(cases)
}

/// Checks every case on every board of its range, in parallel on the current rayon pool, and
/// returns the rows in the order of the cases, then k, width, height and player; `done` is
/// called after each board.
pub fn run(cases: &[Case], done: impl Fn(Rules) + Sync) -> Vec<CaseRow> {
    let jobs: Vec<(usize, Rules)> = cases
        .iter()
        .enumerate()
        .flat_map(|(i, case)| case.boards().into_iter().map(move |rules| (i, rules)))
        .collect();
    let mut rows: Vec<CaseRow> = jobs
        .par_iter()
        .flat_map_iter(|&(i, rules)| {
            let rows = cases[i].run(rules, &mut Solver::new(TABLE));
            done(rules);
            rows
        })
        .collect();
    let order = |row: &CaseRow| cases.iter().position(|c| c.id == row.case);
    rows.sort_by_key(|r| (order(r), r.k, r.width, r.height, r.player.clone()));
    rows
}
