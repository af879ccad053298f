//! What a paper check writes: `paper-checks.csv` (one row per case, board and player) and
//! `paper-checks.md` (one line per claim).

use std::path::Path;

use super::case::{Case, CaseRow};
use crate::engine::rules::Topology;
use crate::experiment::export::ExportError;
use crate::experiment::export::csv::write_all;
use crate::experiment::export::markdown::Document;
use crate::experiment::provenance::written_by;

/// Whether `row` refutes a claim: it failed, and its case is a claim, not an exploration.
pub fn fails_a_claim(cases: &[Case], row: &CaseRow) -> bool {
    !row.holds && cases.iter().any(|c| c.id == row.case && !c.explore)
}

/// The one-line verdict over `rows` of `cases`: checks, claims, holds and fails (and the
/// refutations found by explorations, which are no failures).
pub fn summary(cases: &[Case], rows: &[CaseRow]) -> String {
    let failures = rows.iter().filter(|r| fails_a_claim(cases, r)).count();
    let refuted = rows.iter().filter(|r| !r.holds).count() - failures;
    let explorations = cases.iter().filter(|c| c.explore).count();
    let mut line = format!(
        "{} checks over {} claims: {} hold, {failures} fail.",
        rows.len(),
        cases.len() - explorations,
        rows.len() - failures - refuted
    );
    if explorations > 0 {
        line = format!(
            "{} checks over {} claims and {explorations} explorations: {} hold, {failures} fail; the explorations were refuted on {refuted} boards.",
            rows.len(),
            cases.len() - explorations,
            rows.len() - failures - refuted
        );
    }
    line
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
            let first = fails.first().map_or("-".to_string(), |r| refutation(r));
            let on_cylinders = match case.topology {
                Topology::Flat => "",
                Topology::Cylinder => ", cylinders",
            };
            let exploration = if case.explore {
                " (exploration, not a claim)"
            } else {
                ""
            };
            vec![
                format!("{}{exploration}", case.claim),
                format!(
                    "{} (k {}..{}, w*h <= {}{on_cylinders})",
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
    for case in cases.iter().filter(|c| c.explore) {
        let refuted: Vec<&CaseRow> = rows
            .iter()
            .filter(|r| r.case == case.id && !r.holds)
            .collect();
        if refuted.is_empty() {
            continue;
        }
        // An exploration is read for where it breaks, so every refuted board is listed.
        doc.heading(&format!("Where it is refuted: {}", case.claim))
            .bullets(refuted.iter().map(|r| refutation(r)));
    }
    doc
}

/// `k=3 5x3 P1: <detail> `52134``: a refuted board, its player and the refuting line.
fn refutation(row: &CaseRow) -> String {
    format!(
        "k={} {}x{} {}: {} `{}`",
        row.k,
        row.width,
        row.height,
        row.player.as_deref().unwrap_or(""),
        row.detail,
        row.refutation.as_deref().unwrap_or("")
    )
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
