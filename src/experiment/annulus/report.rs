//! The Markdown report of an annulus sweep: counts, the patterns of the classes of boards,
//! where the cylinder differs from Table I's flat board, and every board beside Table I.

use std::collections::BTreeMap;

use super::attempt::Attempt;
use super::patterns::{Pattern, patterns};
use super::row::Row;
use crate::engine::outcome::{GameResult, Player};
use crate::engine::rules::Variant;
use crate::experiment::export::markdown::{Document, Report};
use crate::experiment::provenance::written_by;
use crate::experiment::sweep::Board;
use crate::solver::Depth;

/// `P2 in 17`, or `P2 (weak)` for a row solved for its outcome only.
fn value(row: &Row) -> String {
    match (row.depth, row.remoteness) {
        (Depth::Strong, Some(plies)) => format!("{} in {plies}", row.outcome),
        _ => format!("{} (weak)", row.outcome),
    }
}

/// `k=3 5x3`.
fn board_name(row: &Row) -> String {
    format!("k={} {}x{}", row.k, row.width, row.height)
}

/// The boards of `rows`, grouped by k: `k=3: 5x3, 7x3; k=4: 7x3`.
fn boards_by_k(rows: &[&Row]) -> String {
    let mut by_k: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for row in rows {
        by_k.entry(row.k)
            .or_default()
            .push(format!("{}x{}", row.width, row.height));
    }
    by_k.into_iter()
        .map(|(k, sizes)| format!("k={k}: {}", sizes.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// One line on a pattern: its outcome and boards, and every board that breaks it.
fn pattern_line(pattern: &Pattern<'_>) -> String {
    let total: usize = pattern.counts.iter().map(|&(_, n)| n).sum();
    let head = if pattern.exceptions.is_empty() {
        format!(
            "**{}**: {} on all {total} boards ({})",
            pattern.class,
            pattern.outcome(),
            boards_by_k(&pattern.supporting)
        )
    } else {
        let others: Vec<String> = pattern.counts[1..]
            .iter()
            .map(|(result, n)| format!("{result} on {n}"))
            .collect();
        let exceptions: Vec<String> = pattern
            .exceptions
            .iter()
            .map(|r| format!("{} ({})", board_name(r), value(r)))
            .collect();
        format!(
            "**{}**: {} on {} of {total} boards ({}); {}: {}",
            pattern.class,
            pattern.outcome(),
            pattern.supporting.len(),
            boards_by_k(&pattern.supporting),
            others.join(", "),
            exceptions.join(", ")
        )
    };
    let weak = pattern
        .supporting
        .iter()
        .chain(&pattern.exceptions)
        .filter(|r| r.depth == Depth::Weak)
        .count();
    if weak > 0 {
        format!("{head} [{weak} of them outcome only]")
    } else {
        head
    }
}

/// The one-line summary: boards solved, exactly or not, the grid, and how many misère boards
/// differ from Table I's flat board.
fn summary(rows: &[Row], unsolved: &[Board]) -> String {
    if rows.is_empty() {
        return "Annulus: no board solved yet.".to_string();
    }
    let weak = rows.iter().filter(|r| r.depth == Depth::Weak).count();
    let misere = || rows.iter().filter(|r| r.rules == Variant::Misere);
    let differ = misere().filter(|r| r.differs_from_flat()).count();
    let compared = misere().filter(|r| r.flat_table1.is_some()).count();
    let grid = super::grid_of(rows);
    format!(
        "Annulus: {} cylinder boards solved ({} exactly, {weak} outcome only), {} not solved; k {}..{}, width*height <= {}, both rule sets. Misère: {differ} of {compared} boards differ from Table I's flat board.",
        rows.len(),
        rows.len() - weak,
        unsolved.len(),
        grid.k_min,
        grid.k_max,
        grid.max_cells,
    )
}

/// One line per k and rule set: outcomes, outcome-only boards, differences from Table I,
/// nodes and time.
fn counts(doc: &mut Document, rows: &[Row]) {
    let mut by_key: BTreeMap<(u32, &str), Vec<&Row>> = BTreeMap::new();
    for row in rows {
        by_key
            .entry((row.k, row.rules.name()))
            .or_default()
            .push(row);
    }
    doc.table(
        &[
            "k",
            "rules",
            "boards",
            "P1",
            "P2",
            "Draw",
            "outcome only",
            "differ from Table I",
            "nodes",
            "seconds",
        ],
        by_key.iter().map(|((k, rules), of_key)| {
            let count = |f: &dyn Fn(&Row) -> bool| of_key.iter().filter(|r| f(r)).count();
            vec![
                k.to_string(),
                rules.to_string(),
                of_key.len().to_string(),
                count(&|r| r.outcome == GameResult::Win(Player::P1)).to_string(),
                count(&|r| r.outcome == GameResult::Win(Player::P2)).to_string(),
                count(&|r| r.outcome == GameResult::Draw).to_string(),
                count(&|r| r.depth == Depth::Weak).to_string(),
                if *rules == Variant::Misere.name() {
                    count(&|r| r.differs_from_flat()).to_string()
                } else {
                    "-".to_string()
                },
                of_key.iter().map(|r| r.nodes).sum::<u64>().to_string(),
                format!("{:.1}", of_key.iter().map(|r| r.seconds).sum::<f64>()),
            ]
        }),
    );
}

/// The patterns of each rule set's classes of boards.
fn pattern_sections(doc: &mut Document, rows: &[Row]) {
    for variant in [Variant::Misere, Variant::Normal] {
        doc.heading(&format!("Patterns, {variant} rules"));
        doc.paragraph(
            "Each class of boards with the outcome most of them share, the boards that share \
             it, and every board that breaks it.",
        );
        doc.bullets(
            patterns(rows)
                .iter()
                .filter(|p| p.variant == variant)
                .map(pattern_line),
        );
    }
}

/// The misère boards whose cylinder outcome differs from Table I's flat board.
fn differences(doc: &mut Document, rows: &[Row]) {
    doc.heading("Where the cylinder differs from Table I's flat board (misère)");
    let differ: Vec<&Row> = rows
        .iter()
        .filter(|r| r.rules == Variant::Misere && r.differs_from_flat())
        .collect();
    if differ.is_empty() {
        doc.paragraph("Nowhere.");
        return;
    }
    doc.table(
        &["k", "width", "height", "Table I (flat)", "cylinder"],
        differ.iter().map(|r| {
            vec![
                r.k.to_string(),
                r.width.to_string(),
                r.height.to_string(),
                r.flat_table1.map_or("", GameResult::label).to_string(),
                value(r),
            ]
        }),
    );
}

/// Every board size with both rule sets' cylinder values and Table I's flat outcome.
fn every_board(doc: &mut Document, rows: &[Row]) {
    doc.heading("Every board");
    let mut sizes: BTreeMap<(u32, u32, u32), [Option<&Row>; 2]> = BTreeMap::new();
    for row in rows {
        let slot = usize::from(row.rules == Variant::Normal);
        sizes.entry((row.k, row.width, row.height)).or_default()[slot] = Some(row);
    }
    doc.table(
        &[
            "k",
            "width",
            "height",
            "misère, cylinder",
            "misère, Table I (flat)",
            "normal, cylinder",
        ],
        sizes.iter().map(|(&(k, w, h), [misere, normal])| {
            let shown = |row: &Option<&Row>| row.map_or("-".to_string(), value);
            vec![
                k.to_string(),
                w.to_string(),
                h.to_string(),
                shown(misere),
                misere
                    .and_then(|r| r.flat_table1)
                    .map_or("-", GameResult::label)
                    .to_string(),
                shown(normal),
            ]
        }),
    );
}

/// Renders `rows` (sorted by k, width, height, rules) and the boards left `unsolved` (with
/// the limits they passed, from `open`, where an attempt was kept), as written by `command`.
pub(crate) fn markdown(
    rows: &[Row],
    unsolved: &[Board],
    open: &[Attempt],
    command: &str,
) -> Report {
    let summary = summary(rows, unsolved);
    let mut doc = Document::new("Connect-k on an annulus: cylinder boards against Table I");
    doc.paragraph(&summary).paragraph(&format!(
        "{}; one row per board in `annulus.csv`. On a cylinder \
         column w is next to column 1: a line is k distinct cells in a row, a column or a \
         diagonal with the column taken modulo w, so a row of k exists only for k <= w, while \
         a diagonal may wind around a cylinder narrower than k. Remoteness is the number of \
         plies of the game under perfect play (the winner hurries, the loser delays; for a \
         draw, the number of cells). Boards whose exact solve passed its node limit have their \
         outcome only, marked (weak). Table I gives the outcome of the flat board of the same \
         size under misère rules.",
        written_by(command)
    ));
    counts(&mut doc, rows);
    pattern_sections(&mut doc, rows);
    differences(&mut doc, rows);
    every_board(&mut doc, rows);
    if !unsolved.is_empty() {
        let mut unsolved = unsolved.to_vec();
        unsolved.sort_by_key(|b| (b.k, b.width, b.height, b.variant.name()));
        let passed = |board: &Board| match open.iter().find(|a| a.board() == *board) {
            Some(a) => format!(" (passed {}: `open.csv`)", a.limits()),
            None => String::new(),
        };
        doc.heading("Not solved within the node limits").bullets(
            unsolved
                .into_iter()
                .map(|b| format!("{}, {}{}", b.variant, b.name(), passed(&b))),
        );
    }
    Report {
        document: doc,
        summary,
    }
}
