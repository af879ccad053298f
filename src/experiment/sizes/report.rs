//! The Markdown of a size table: per rule set and k, a grid laid out like the published one
//! (width across, height down, winner and last ply in each cell), the comparisons, and every
//! misère game length with its principal variation.

use std::collections::{BTreeMap, BTreeSet};

use super::published::SOURCE;
use super::row::{Attempt, Row};
use crate::engine::outcome::GameResult;
use crate::engine::rules::Variant;
use crate::experiment::export::markdown::{Document, Report};
use crate::experiment::provenance::written_by;
use crate::experiment::sweep::Board;

/// `P1 41`, `P2 37`, `D 42`: a winner (or draw) and the ply the game ends on.
fn cell(outcome: GameResult, ply: u32) -> String {
    let who = match outcome {
        GameResult::Draw => "D",
        winner => winner.label(),
    };
    format!("{who} {ply}")
}

/// Counts `(agree, compared)` over `flags`.
fn tally(flags: impl Iterator<Item = Option<bool>>) -> (usize, usize) {
    flags.flatten().fold((0, 0), |(yes, all), agree| {
        (yes + usize::from(agree), all + 1)
    })
}

/// The furthest attempt of each board in `open` ([`Attempt::reach`]).
fn latest_open(open: &[Attempt]) -> BTreeMap<Board, &Attempt> {
    let mut latest: BTreeMap<Board, &Attempt> = BTreeMap::new();
    for attempt in open {
        let entry = latest.entry(attempt.board()).or_insert(attempt);
        if attempt.reach() >= entry.reach() {
            *entry = attempt;
        }
    }
    latest
}

/// The boards a table's own shape calls for that have neither a row nor an attempt: per rule
/// set and k, every board whose sides are at least the smallest side seen and whose width +
/// height is one of the sums seen (the shape of a sweep's grid, [`super::SizeGrid`]). A merge
/// sees only the rows of the shards it was given, so this is how it names a board that no
/// task has reached yet, rather than leaving a blank cell.
fn untried(rows: &[Row], open: &BTreeMap<Board, &Attempt>) -> Vec<Board> {
    let seen: BTreeSet<Board> = rows
        .iter()
        .map(Row::board)
        .chain(open.keys().copied())
        .collect();
    // Per rule set and k: the smallest side and the sums of the sides seen.
    let mut groups: BTreeMap<(&str, u32), (Variant, u32, BTreeSet<u32>)> = BTreeMap::new();
    for board in &seen {
        let (_, min_side, sums) = groups.entry((board.variant.name(), board.k)).or_insert((
            board.variant,
            u32::MAX,
            BTreeSet::new(),
        ));
        *min_side = (*min_side).min(board.width).min(board.height);
        sums.insert(board.width + board.height);
    }
    let mut missing = Vec::new();
    for ((_, k), (variant, min_side, sums)) in groups {
        for sum in sums {
            for width in min_side..=sum.saturating_sub(min_side) {
                let board = Board::flat(variant, k, width, sum - width);
                if !seen.contains(&board) {
                    missing.push(board);
                }
            }
        }
    }
    missing
}

/// The one-line verdict: boards solved, open and not tried, and the agreement with each
/// source.
fn summary(rows: &[Row], open: usize, untried: usize) -> String {
    let (published_agree, published) = tally(rows.iter().map(|r| r.agree_published));
    let (paper_agree, paper) = tally(rows.iter().map(|r| r.agree_table1));
    let (lengths_equal, lengths) = tally(
        rows.iter()
            .map(|r| r.strategy_longest.map(|longest| longest == r.remoteness)),
    );
    format!(
        "Sizes: {} boards solved exactly, {open} open, {untried} not tried yet; published \
         normal-rules values: {published_agree} of {published} agree; Table I: \
         {paper_agree} of {paper} agree; the deciding strategy's longest game equals the \
         exact game length on {lengths_equal} of {lengths} misère boards.",
        rows.len(),
    )
}

/// Every board whose value differs from the published one or from Table I's.
fn disagreements(doc: &mut Document, rows: &[Row]) {
    let wrong: Vec<&Row> = rows
        .iter()
        .filter(|r| r.agree_published == Some(false) || r.agree_table1 == Some(false))
        .collect();
    doc.heading("Disagreements");
    if wrong.is_empty() {
        doc.paragraph("None.");
        return;
    }
    doc.table(
        &[
            "rules",
            "k",
            "board",
            "solver",
            "published / Table I",
            "principal variation",
        ],
        wrong.iter().map(|r| {
            vec![
                r.rules.to_string(),
                r.k.to_string(),
                format!("{}x{}", r.width, r.height),
                cell(r.outcome, r.remoteness),
                r.published
                    .map(|p| p.to_string())
                    .or(r.table1.map(|t| t.label().to_string()))
                    .unwrap_or_default(),
                format!("`{}`", r.pv),
            ]
        }),
    );
}

/// Every misère board with its game length, deciding strategy and principal variation.
fn misere_lengths(doc: &mut Document, rows: &[Row]) {
    doc.heading("Misère game lengths");
    doc.paragraph(
        "Every misère board solved, with the ply on which perfect play ends the game and a \
         principal variation; where one of the paper's strategies decides the board, the \
         longest game the opponent can force against it (checked against every reply on boards \
         of up to 48 cells).",
    );
    doc.table(
        &[
            "k",
            "board",
            "outcome",
            "ends on ply",
            "strategy",
            "longest against it",
            "principal variation",
        ],
        rows.iter().filter(|r| r.rules == Variant::Misere).map(|r| {
            vec![
                r.k.to_string(),
                format!("{}x{}", r.width, r.height),
                r.outcome.label().to_string(),
                r.remoteness.to_string(),
                r.strategy.clone().unwrap_or_else(|| "-".into()),
                r.strategy_longest.map_or("-".into(), |l| l.to_string()),
                format!("`{}`", r.pv),
            ]
        }),
    );
}

/// The boards not settled in time, with how far their latest attempt got, the boards not tried
/// yet, and what finishes them.
fn open_boards(doc: &mut Document, latest: &BTreeMap<Board, &Attempt>, untried: &[Board]) {
    doc.heading("Open boards");
    if !untried.is_empty() {
        let names: Vec<String> = untried
            .iter()
            .map(|b| format!("{} k = {} {}x{}", b.variant, b.k, b.width, b.height))
            .collect();
        doc.paragraph(&format!(
            "Not tried yet (no run has reached them; the same command, or the job array below \
             over their width + height, solves them): {}.",
            names.join(", ")
        ));
    }
    if latest.is_empty() {
        return;
    }
    doc.paragraph(
        "A rerun of the same command tries each of them again, going on from what its \
             attempt settled (the outcome and the range of game lengths left, then the start \
             of the principal variation), so that every run narrows the range until the \
             length is known and then lengthens the line (one thread and one large table \
             per board is what they need); on a cluster, \
             `experiments/slurm/sizes-15-16.sbatch` with `SIZES_MIN_SUM` and `SIZES_MAX_SUM` \
             set to the board's width + height runs them as a job array, and `connectk merge` \
             joins its rows to these. A range of lengths too costly to narrow in one sitting is \
             asked in pieces that are kept, \"does the winner win by ply L?\", by `connectk \
             question` (`experiments/slurm/question.sbatch` on a cluster), whose `--open` adds \
             the answer here.",
    )
    .table(
        &[
            "rules",
            "k",
            "board",
            "seconds tried (exact, then outcome only)",
            "outcome",
            "game length",
            "nodes (all attempts)",
        ],
        latest.values().map(|a| {
            vec![
                a.rules.to_string(),
                a.k.to_string(),
                format!("{}x{}", a.width, a.height),
                format!("{:.0}", a.seconds_each),
                a.outcome.map_or("unknown", GameResult::label).to_string(),
                a.length_text(),
                a.nodes.to_string(),
            ]
        }),
    );
}

/// Renders the finished `rows` and the `open` attempts, which are those of boards without a
/// row (only the latest of each board is shown), quoting `command`.
pub(crate) fn markdown(rows: &[Row], open: &[Attempt], command: &str) -> Report {
    let latest = latest_open(open);
    let untried = untried(rows, &latest);
    let summary = summary(rows, latest.len(), untried.len());
    let mut doc = Document::new("Who wins, and on which ply, by board size");
    doc.paragraph(&summary).paragraph(&format!(
        "Last {}; one row per board in `sizes.csv` with its nodes, time, principal \
         variation and commit; boards not settled in time in `open.csv`. Each cell \
         gives the winner with perfect play (D: draw) and the ply on which the game ends: the \
         winner hurries, the loser delays, and a draw ends on the last cell (a board no run has \
         reached yet reads \"not tried\"). The published \
         normal-rules values are those of {SOURCE}; a cell that differs from them or from \
         Table I shows the other value after `≠`.",
        written_by(command).replacen("Written", "written", 1)
    ));
    let mut groups: BTreeMap<(&str, u32), Vec<&Row>> = BTreeMap::new();
    for row in rows {
        groups
            .entry((row.rules.name(), row.k))
            .or_default()
            .push(row);
    }
    for ((rules, k), of_group) in &groups {
        group_table(&mut doc, rules, *k, of_group, &latest, &untried);
    }
    disagreements(&mut doc, rows);
    misere_lengths(&mut doc, rows);
    if !latest.is_empty() || !untried.is_empty() {
        open_boards(&mut doc, &latest, &untried);
    }
    Report {
        document: doc,
        summary,
    }
}

/// The grid of one rule set and k: width across, height down.
fn group_table(
    doc: &mut Document,
    rules: &str,
    k: u32,
    rows: &[&Row],
    open: &BTreeMap<Board, &Attempt>,
    untried: &[Board],
) {
    let open_here: Vec<&&Attempt> = open
        .values()
        .filter(|a| a.rules.name() == rules && a.k == k)
        .collect();
    let untried_here: Vec<&Board> = untried
        .iter()
        .filter(|b| b.variant.name() == rules && b.k == k)
        .collect();
    let widths: BTreeSet<u32> = rows
        .iter()
        .map(|r| r.width)
        .chain(open_here.iter().map(|a| a.width))
        .chain(untried_here.iter().map(|b| b.width))
        .collect();
    let heights: BTreeSet<u32> = rows
        .iter()
        .map(|r| r.height)
        .chain(open_here.iter().map(|a| a.height))
        .chain(untried_here.iter().map(|b| b.height))
        .collect();
    let header: Vec<String> = std::iter::once("height \\ width".to_string())
        .chain(widths.iter().map(u32::to_string))
        .collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    doc.heading(&format!("{rules}, k = {k}"));
    doc.paragraph(&format!("![{rules} k = {k}](sizes-{rules}-k{k}.svg)"));
    doc.table(
        &header,
        heights.iter().map(|&height| {
            std::iter::once(height.to_string())
                .chain(widths.iter().map(|&width| {
                    if let Some(row) = rows.iter().find(|r| (r.width, r.height) == (width, height))
                    {
                        let mut text = cell(row.outcome, row.remoteness);
                        if row.agree_published == Some(false) {
                            let published = row.published.map(|p| p.to_string());
                            text.push_str(&format!(" ≠ {}", published.unwrap_or_default()));
                        }
                        if row.agree_table1 == Some(false) {
                            let paper = row.table1.map_or("", GameResult::label);
                            text.push_str(&format!(" ≠ {paper}"));
                        }
                        text
                    } else if let Some(a) = open_here
                        .iter()
                        .find(|a| (a.width, a.height) == (width, height))
                    {
                        match a.outcome {
                            Some(outcome) => format!("{outcome} (length open)"),
                            None => "open".into(),
                        }
                    } else if untried_here
                        .iter()
                        .any(|b| (b.width, b.height) == (width, height))
                    {
                        "not tried".into()
                    } else {
                        String::new()
                    }
                }))
                .collect()
        }),
    );
}
