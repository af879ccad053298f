//! The Markdown summary of a sweep: agreement counts and every disagreement with Table I.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::grid::Board;
use super::store::Row;

/// A rendered summary.
pub struct Markdown {
    /// The whole document.
    pub text: String,
    /// Its one-line verdict, also printed by the CLI and quoted in README.md.
    pub summary: String,
}

/// Renders `rows` (sorted by k, width, height) and the boards left `unsolved` at the node
/// limit; `line_of` gives a move sequence that shows the solver's outcome for a disagreeing
/// board (a principal variation).
pub fn markdown(
    rows: &[Row],
    unsolved: &[Board],
    mut line_of: impl FnMut(&Row) -> String,
) -> Markdown {
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
        let _ = write!(
            summary,
            " {} boards not solved within the node limit.",
            unsolved.len()
        );
    }

    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Table I of Steele & Larremore against the exact solver\n"
    );
    let _ = writeln!(text, "{summary}\n");
    let _ = writeln!(
        text,
        "Written by `connectk reproduce`; one row per board in `table1.csv`. Remoteness is the \
         number of plies of the game under perfect play (the winner hurries, the loser delays).\n"
    );
    let _ = writeln!(
        text,
        "| k | boards | agree | disagree | P1 | P2 | Draw | nodes | seconds |"
    );
    let _ = writeln!(text, "|---|---|---|---|---|---|---|---|---|");
    let mut by_k: BTreeMap<u32, Vec<&Row>> = BTreeMap::new();
    for row in rows {
        by_k.entry(row.k).or_default().push(row);
    }
    for (k, of_k) in &by_k {
        let count = |f: &dyn Fn(&Row) -> bool| of_k.iter().filter(|r| f(r)).count();
        let _ = writeln!(
            text,
            "| {k} | {} | {} | {} | {} | {} | {} | {} | {:.1} |",
            of_k.len(),
            count(&|r| r.agree == Some(true)),
            count(&|r| r.agree == Some(false)),
            count(&|r| r.solver == "P1"),
            count(&|r| r.solver == "P2"),
            count(&|r| r.solver == "Draw"),
            of_k.iter().map(|r| r.nodes).sum::<u64>(),
            of_k.iter().map(|r| r.seconds).sum::<f64>(),
        );
    }
    let _ = writeln!(text, "\n## Disagreements\n");
    if disagreeing.is_empty() {
        let _ = writeln!(text, "None.");
    } else {
        let _ = writeln!(
            text,
            "| k | width | height | paper | solver | remoteness | principal variation |"
        );
        let _ = writeln!(text, "|---|---|---|---|---|---|---|");
        for row in disagreeing {
            let _ = writeln!(
                text,
                "| {} | {} | {} | {} | {} | {} | `{}` |",
                row.k,
                row.width,
                row.height,
                row.paper.as_deref().unwrap_or("-"),
                row.solver,
                row.remoteness.map_or("-".to_string(), |r| r.to_string()),
                line_of(row)
            );
        }
    }
    if !unsolved.is_empty() {
        let _ = writeln!(text, "\n## Not solved within the node limit\n");
        let mut unsolved = unsolved.to_vec();
        unsolved.sort_by_key(|b| (b.k, b.width, b.height));
        for b in unsolved {
            let _ = writeln!(text, "- k = {}, {}x{}", b.k, b.width, b.height);
        }
    }
    Markdown { text, summary }
}
