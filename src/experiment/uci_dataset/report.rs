//! The Markdown summary of a UCI check: counts, totals and every disagreement.

use super::check::Row;
use crate::experiment::export::markdown::{Document, Report};
use crate::experiment::provenance::written_by;

/// How the latest invocation went, for the report's record of the machine's work.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// Lines solved by this invocation (the rest of the CSV came from earlier runs).
    pub solved: usize,
    /// Wall-clock seconds of this invocation's solving.
    pub wall_seconds: f64,
    /// Worker threads.
    pub workers: usize,
    /// Transposition table per worker, in MiB.
    pub table_mb: usize,
    /// The machine's load averages over 1, 5 and 15 minutes at the end, when known.
    pub load: Option<String>,
}

/// Totals over the rows checked: lines, agreements, outcomes, nodes and times.
fn totals(doc: &mut Document, rows: &[&Row], lines: usize) {
    let count = |label: &str| rows.iter().filter(|r| r.solver.label() == label).count();
    let agreeing = rows.iter().filter(|r| r.agree).count();
    let cpu_seconds = rows.iter().map(|r| r.cpu_micros).sum::<u64>() as f64 / 1e6;
    let solve_seconds = rows.iter().map(|r| r.micros).sum::<u64>() as f64 / 1e6;
    let max_cpu_seconds = rows.iter().map(|r| r.cpu_micros).max().unwrap_or(0) as f64 / 1e6;
    doc.table(
        &[
            "lines checked",
            "of",
            "agree",
            "disagree",
            "P1",
            "P2",
            "Draw",
            "nodes",
            "CPU s",
            "solve s (wall)",
            "mean CPU ms",
            "max CPU s",
        ],
        [vec![
            rows.len().to_string(),
            lines.to_string(),
            agreeing.to_string(),
            (rows.len() - agreeing).to_string(),
            count("P1").to_string(),
            count("P2").to_string(),
            count("Draw").to_string(),
            rows.iter().map(|r| r.nodes).sum::<u64>().to_string(),
            format!("{cpu_seconds:.1}"),
            format!("{solve_seconds:.1}"),
            format!("{:.1}", cpu_seconds * 1e3 / rows.len().max(1) as f64),
            format!("{max_cpu_seconds:.2}"),
        ]],
    );
    doc.paragraph(
        "CPU s is the solving threads' CPU time; solve s adds up each solve's wall-clock time, \
         which grows when other processes compete for the cores.",
    );
}

/// Every line where the solver and the data set disagree.
fn disagreements(doc: &mut Document, rows: &[&Row]) {
    doc.heading("Disagreements");
    let disagreeing: Vec<&&Row> = rows.iter().filter(|r| !r.agree).collect();
    if disagreeing.is_empty() {
        doc.paragraph("None.");
        return;
    }
    doc.table(
        &["line", "moves", "data set", "solver"],
        disagreeing.into_iter().map(|row| {
            vec![
                row.line.to_string(),
                format!("`{}`", row.moves),
                row.expected.label().to_string(),
                row.solver.label().to_string(),
            ]
        }),
    );
}

/// Renders `rows` (in any order; the report lists them by line) of a data set of `lines`
/// lines, with `run` describing the invocation that wrote them, if any, made by `command`.
pub fn markdown(rows: &[Row], lines: usize, run: Option<&RunInfo>, command: &str) -> Report {
    let mut rows: Vec<&Row> = rows.iter().collect();
    rows.sort_by_key(|r| r.line);
    let agreeing = rows.iter().filter(|r| r.agree).count();
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    let cpu_seconds = rows.iter().map(|r| r.cpu_micros).sum::<u64>() as f64 / 1e6;
    let summary = format!(
        "UCI Connect-4: {agreeing} of {} checked lines agree with the weak solver ({} disagree); \
         {} of {lines} lines checked, {nodes} nodes, {cpu_seconds:.0} s of CPU.",
        rows.len(),
        rows.len() - agreeing,
        rows.len()
    );
    let mut doc = Document::new("The UCI Connect-4 data set against the weak solver");
    doc.paragraph(&summary).paragraph(&format!(
        "{}; one row per line in `uci.csv`. Values are for the first player (x, P1): the data \
         set's win, loss and draw are P1, P2 and Draw.",
        written_by(command)
    ));
    totals(&mut doc, &rows, lines);
    if let Some(run) = run {
        doc.paragraph(&format!(
            "Latest run: {} lines solved in {:.1} s of wall time by {} workers with a {} MiB \
             table each{}.",
            run.solved,
            run.wall_seconds,
            run.workers,
            run.table_mb,
            run.load
                .as_ref()
                .map(|l| format!("; load average (1, 5, 15 min) at the end: {l}"))
                .unwrap_or_default()
        ));
    }
    disagreements(&mut doc, &rows);
    Report {
        document: doc,
        summary,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::outcome::GameResult;

    fn row(line: usize, expected: &str, solver: &str) -> Row {
        Row {
            line,
            moves: "44444455".into(),
            expected: GameResult::from_label(expected).unwrap(),
            solver: GameResult::from_label(solver).unwrap(),
            agree: expected == solver,
            nodes: 1_000,
            micros: 2_000_000,
            cpu_micros: 1_400_000,
        }
    }

    #[test]
    fn the_report_counts_and_lists_disagreements_by_line() {
        let rows = [
            row(9, "P1", "P2"),
            row(1, "P1", "P1"),
            row(5, "Draw", "Draw"),
        ];
        let run = RunInfo {
            solved: 2,
            wall_seconds: 3.0,
            workers: 2,
            table_mb: 64,
            load: Some("1.00 0.50 0.25".into()),
        };
        let md = markdown(&rows, 67_557, Some(&run), "connectk uci-dataset");
        assert_eq!(
            md.summary,
            "UCI Connect-4: 2 of 3 checked lines agree with the weak solver (1 disagree); \
             3 of 67557 lines checked, 3000 nodes, 4 s of CPU."
        );
        assert!(md.document.text().contains("| 9 | `44444455` | P1 | P2 |"));
        assert!(
            md.document
                .text()
                .contains("| 3 | 67557 | 2 | 1 | 1 | 1 | 1 | 3000 | 4.2 | 6.0 | 1400.0 | 1.40 |")
        );
        assert!(md.document.text().contains("2 lines solved in 3.0 s"));
        assert!(
            md.document
                .text()
                .contains("load average (1, 5, 15 min) at the end: 1.00 0.50 0.25")
        );
    }

    #[test]
    fn an_empty_report_has_no_disagreements() {
        let md = markdown(&[], 67_557, None, "connectk uci-dataset");
        assert!(
            md.summary
                .starts_with("UCI Connect-4: 0 of 0 checked lines agree")
        );
        assert!(md.document.text().ends_with("None.\n"));
        assert!(!md.document.text().contains("Latest run"));
    }
}
