//! The Markdown summary of a Table I run: agreement counts and every disagreement.

use std::collections::BTreeMap;

use super::Unsolved;
use crate::experiment::sweep::Board;
use super::row::Row;
use crate::engine::outcome::{GameResult, Player};
use crate::experiment::export::markdown::{Document, Report};
use crate::experiment::provenance::written_by;

/// Renders `rows` (sorted by k, width, height) and the `unsolved` boards (with the reason
/// `why`), quoting `command`; `line_of` gives a move sequence that shows the solver's outcome
/// for a disagreeing board (a principal variation), or `None` when none was found in time.
pub fn markdown(
    rows: &[Row],
    unsolved: &[Board],
    why: Unsolved,
    command: &str,
    mut line_of: impl FnMut(&Row) -> Option<String>,
) -> Report {
    let unsolved_heading = match why {
        Unsolved::NodeLimit => "not solved within the node limit",
        Unsolved::MissingFromShards => "missing from the shard files",
    };
    let compared: Vec<&Row> = rows.iter().filter(|r| r.agree.is_some()).collect();
    let agreeing = compared.iter().filter(|r| r.agree == Some(true)).count();
    let disagreeing: Vec<&Row> = compared
        .iter()
        .copied()
        .filter(|r| r.agree == Some(false))
        .collect();
    let (k_min, k_max) = (
        rows.iter().map(|r| r.k).min().unwrap_or(0),
        rows.iter().map(|r| r.k).max().unwrap_or(0),
    );
    let max_cells = rows.iter().map(|r| r.cells).max().unwrap_or(0);
    let mut summary = format!(
        "Table I: {agreeing} of {} misère boards agree with the solver ({} disagree); k {k_min}..{k_max}, width*height <= {max_cells}.",
        compared.len(),
        disagreeing.len()
    );
    if !unsolved.is_empty() {
        summary.push_str(&format!(" {} boards {unsolved_heading}.", unsolved.len()));
    }

    let mut doc = Document::new("Table I of Steele & Larremore against the exact solver");
    doc.paragraph(&summary).paragraph(&format!(
        "{}; one row per board in `table1.csv`. Remoteness is the number of plies of the game \
         under perfect play (the winner hurries, the loser delays).",
        written_by(command)
    ));
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
    doc.heading("Disagreements");
    if disagreeing.is_empty() {
        doc.paragraph("None.");
    } else {
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
    if !unsolved.is_empty() {
        let mut unsolved = unsolved.to_vec();
        unsolved.sort_by_key(|b| (b.k, b.width, b.height));
        let mut heading = unsolved_heading.to_string();
        heading[..1].make_ascii_uppercase();
        doc.heading(&heading)
            .bullets(unsolved.into_iter().map(Board::name));
    }
    Report {
        document: doc,
        summary,
    }
}
