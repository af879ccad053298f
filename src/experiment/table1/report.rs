//! The Markdown summary of a Table I run: agreement counts and every disagreement.

use std::collections::BTreeMap;

use super::Unsolved;
use super::row::Row;
use crate::engine::outcome::{GameResult, Player};
use crate::experiment::export::markdown::{Document, Report};
use crate::experiment::provenance::written_by;
use crate::experiment::sweep::Board;

/// What the `unsolved` boards are listed under, for the reason `why`.
fn unsolved_heading(why: Unsolved) -> &'static str {
    match why {
        Unsolved::NodeLimit => "not solved within the node limit",
        Unsolved::MissingFromShards => "missing from the shard files",
    }
}

/// The one-line verdict: agreements over the boards the paper makes a claim on, the grid the
/// rows cover, and how many boards are unsolved.
fn summary(rows: &[Row], unsolved: &[Board], why: Unsolved) -> String {
    let compared = rows.iter().filter(|r| r.agree.is_some()).count();
    let agreeing = rows.iter().filter(|r| r.agree == Some(true)).count();
    let disagreeing = rows.iter().filter(|r| r.agree == Some(false)).count();
    let k_min = rows.iter().map(|r| r.k).min().unwrap_or(0);
    let k_max = rows.iter().map(|r| r.k).max().unwrap_or(0);
    let max_cells = rows.iter().map(|r| r.cells).max().unwrap_or(0);
    let mut summary = format!(
        "Table I: {agreeing} of {compared} misère boards agree with the solver ({disagreeing} disagree); k {k_min}..{k_max}, width*height <= {max_cells}."
    );
    if !unsolved.is_empty() {
        summary.push_str(&format!(
            " {} boards {}.",
            unsolved.len(),
            unsolved_heading(why)
        ));
    }
    summary
}

/// One line per k: boards, agreements, outcomes and nodes.
fn counts_by_k(doc: &mut Document, rows: &[Row]) {
    let mut by_k: BTreeMap<u32, Vec<&Row>> = BTreeMap::new();
    for row in rows {
        by_k.entry(row.k).or_default().push(row);
    }
    doc.table(
        &[
            "k", "boards", "agree", "disagree", "P1", "P2", "Draw", "nodes",
        ],
        by_k.iter().map(|(k, of_k)| {
            let count = |f: &dyn Fn(&Row) -> bool| of_k.iter().filter(|r| f(r)).count();
            vec![
                k.to_string(),
                of_k.len().to_string(),
                count(&|r| r.agree == Some(true)).to_string(),
                count(&|r| r.agree == Some(false)).to_string(),
                count(&|r| r.solver == GameResult::Win(Player::P1)).to_string(),
                count(&|r| r.solver == GameResult::Win(Player::P2)).to_string(),
                count(&|r| r.solver == GameResult::Draw).to_string(),
                of_k.iter().map(|r| r.nodes).sum::<u64>().to_string(),
            ]
        }),
    );
}

/// Every board where the solver and the paper disagree, with a line of play that shows the
/// solver's outcome (from `line_of`).
fn disagreements(
    doc: &mut Document,
    rows: &[Row],
    line_of: &mut dyn FnMut(&Row) -> Option<String>,
) {
    doc.heading("Disagreements");
    let disagreeing: Vec<&Row> = rows.iter().filter(|r| r.agree == Some(false)).collect();
    if disagreeing.is_empty() {
        doc.paragraph("None.");
        return;
    }
    doc.table(
        &[
            "k",
            "width",
            "height",
            "paper",
            "solver",
            "remoteness",
            "principal variation",
        ],
        disagreeing.into_iter().map(|row| {
            vec![
                row.k.to_string(),
                row.width.to_string(),
                row.height.to_string(),
                row.paper.map_or("-", GameResult::label).to_string(),
                row.solver.label().to_string(),
                row.remoteness.map_or("-".to_string(), |r| r.to_string()),
                line_of(row).map_or("(none found in time)".to_string(), |line| {
                    format!("`{line}`")
                }),
            ]
        }),
    );
}

/// Renders `rows` (sorted by k, width, height) and the `unsolved` boards (with the reason
/// `why`), quoting `command`; `line_of` gives a move sequence that shows the solver's outcome
/// for a disagreeing board (a principal variation), or `None` when none was found in time.
pub(crate) fn markdown(
    rows: &[Row],
    unsolved: &[Board],
    why: Unsolved,
    command: &str,
    mut line_of: impl FnMut(&Row) -> Option<String>,
) -> Report {
    let summary = summary(rows, unsolved, why);
    let mut doc = Document::new("Table I of Steele & Larremore against the exact solver");
    doc.paragraph(&summary).paragraph(&format!(
        "{}; one row per board in `table1.csv`. Remoteness is the number of plies of the game \
         under perfect play (the winner hurries, the loser delays).",
        written_by(command)
    ));
    counts_by_k(&mut doc, rows);
    disagreements(&mut doc, rows, &mut line_of);
    if !unsolved.is_empty() {
        let mut unsolved = unsolved.to_vec();
        unsolved.sort_by_key(|b| (b.k, b.width, b.height));
        let mut heading = unsolved_heading(why).to_string();
        heading[..1].make_ascii_uppercase();
        doc.heading(&heading)
            .bullets(unsolved.into_iter().map(Board::name));
    }
    Report {
        document: doc,
        summary,
    }
}
