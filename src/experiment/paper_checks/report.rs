//! What a paper check writes: `paper-checks.csv` (one row per case, board and player) and
//! `paper-checks.md` (one line per claim).

use std::path::Path;

use super::case::{Case, CaseRow};
use crate::experiment::export::ExportError;
use crate::experiment::export::csv::write_all;
use crate::experiment::export::markdown::Document;
use crate::experiment::provenance::written_by;

/// The one-line verdict over `rows` of `cases`: checks, claims, holds and fails.
pub fn summary(cases: &[Case], rows: &[CaseRow]) -> String {
    let failures = rows.iter().filter(|r| !r.holds).count();
    format!(
        "{} checks over {} claims: {} hold, {failures} fail.",
        rows.len(),
        cases.len(),
        rows.len() - failures
    )
}

/// The Markdown summary: one line per claim with its boards, holds, fails and the first
/// refutation, then the verdict.
fn markdown(cases: &[Case], rows: &[CaseRow], command: &str) -> Document {
    let mut doc = Document::new("The paper's claims, checked");
    doc.paragraph(&format!(
        "{}; one row per board in `paper-checks.csv`.",
        written_by(command)
    ));
    doc.table(
        &[
            "claim",
            "boards checked",
            "holds",
            "fails",
            "first refutation",
        ],
        cases.iter().map(|case| {
            let of_case: Vec<&CaseRow> = rows.iter().filter(|r| r.case == case.id).collect();
            let fails: Vec<&&CaseRow> = of_case.iter().filter(|r| !r.holds).collect();
            let first = fails.first().map_or("-".to_string(), |r| {
                format!(
                    "k={} {}x{} {}: {} `{}`",
                    r.k,
                    r.width,
                    r.height,
                    r.player.as_deref().unwrap_or(""),
                    r.detail,
                    r.refutation.as_deref().unwrap_or("")
                )
            });
            vec![
                case.claim.clone(),
                format!(
                    "{} (k {}..{}, w*h <= {})",
                    of_case.len(),
                    case.k.0,
                    case.k.1,
                    case.max_cells
                ),
                (of_case.len() - fails.len()).to_string(),
                fails.len().to_string(),
                first,
            ]
        }),
    );
    doc.paragraph(&summary(cases, rows));
    doc
}

/// Writes `paper-checks.csv` and `paper-checks.md` for `rows` of `cases` into `dir`, quoting
/// `command`.
///
/// # Errors
/// [`ExportError`] naming the first file that could not be written.
pub fn publish(
    dir: &Path,
    cases: &[Case],
    rows: &[CaseRow],
    command: &str,
) -> Result<(), ExportError> {
    write_all(&dir.join("paper-checks.csv"), rows)?;
    markdown(cases, rows, command).write(&dir.join("paper-checks.md"))
}
