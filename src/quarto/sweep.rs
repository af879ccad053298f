//! The variations experiment: the value and game length of the empty board for many sets of
//! rules, one CSV row each (a rerun resumes), and a Markdown table of them.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::experiment::export::{ExportError, labels};
use crate::experiment::store::{Record, Store};
use crate::{Depth, GameResult, Variant};

use super::position::Position;
use super::rules::Rules;
use super::solver::Solver;

/// The variations the experiment solves, smallest first: 2x2 and 3x3 boards with 1 to 4
/// attributes (3x3 also with squares and with only 1, 2 or 3 attributes counting), 4x4
/// boards with 1 to 3 attributes, and standard pieces on 4x4 with 1, 2 or 3 attributes
/// counting (the beginners' variation; which ones does not matter, the attributes being
/// alike) and with squares. Standard Quarto itself is the split solve's.
pub fn variations() -> Vec<Rules> {
    let mut all = Vec::new();
    let beginners = [Some(0b0001), Some(0b0011), Some(0b0111)];
    for variant in [Variant::Normal, Variant::Misere] {
        let mut add = |size, attributes, criteria, squares| {
            all.push(Rules::new(size, attributes, criteria, variant, squares).expect("valid"));
        };
        for attributes in 1..=4 {
            add(2, attributes, None, false);
        }
        for attributes in 1..=4 {
            add(3, attributes, None, false);
            add(3, attributes, None, true);
        }
        for criteria in beginners {
            add(3, 4, criteria, false);
        }
        for attributes in 1..=3 {
            add(4, attributes, None, false);
        }
        for criteria in beginners {
            add(4, 4, criteria, false);
        }
        for criteria in beginners {
            add(4, 4, criteria, true);
        }
        add(4, 4, None, true);
    }
    all.sort_by_key(|r| (r.size(), r.attributes(), !r.all_count(), r.squares()));
    all
}

/// One variation's result, a row of the CSV.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariationRow {
    /// The rules in words (the row's key).
    pub variation: String,
    /// `normal` or `misere`.
    pub rules: Variant,
    /// Board side.
    pub size: u32,
    /// Attributes per piece.
    pub attributes: u32,
    /// The attributes that count, e.g. `0,1`, or `all`.
    pub criteria: String,
    /// Whether 2x2 squares count.
    pub squares: bool,
    /// `P1`, `P2` or `Draw`; `unfinished` (`None`) when the node limit stopped the search.
    #[serde(with = "labels::outcome_or_unfinished")]
    pub outcome: Option<GameResult>,
    /// Game length with perfect play, in turns from the empty board (the opening handover
    /// is the first); empty when unfinished.
    pub length: Option<u32>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time in seconds.
    pub seconds: f64,
}

impl Record for VariationRow {
    type Key = String;

    fn key(&self) -> String {
        self.variation.clone()
    }
}

impl VariationRow {
    fn finished(&self) -> bool {
        self.outcome.is_some()
    }
}

/// Solves exactly, from the empty board, each of `rules` that the CSV at `path` does not
/// hold finished yet, appending its row; calls `on_row` with each.
///
/// # Errors
/// [`ExportError`] when the CSV cannot be read or written.
pub fn run(
    rules: &[Rules],
    path: &Path,
    table_bytes: usize,
    node_limit: u64,
    on_row: &mut dyn FnMut(&VariationRow),
) -> Result<Vec<VariationRow>, ExportError> {
    let store = Store::<VariationRow>::open(path)?;
    let done: Vec<String> = store
        .rows()?
        .into_iter()
        .filter(VariationRow::finished)
        .map(|r| r.variation)
        .collect();
    for &rules in rules {
        let variation = rules.to_string();
        if done.contains(&variation) {
            continue;
        }
        let mut solver = Solver::new(rules, table_bytes).with_node_limit(node_limit);
        let start = std::time::Instant::now();
        let (outcome, length, nodes) = match solver.solve(&Position::new(rules), Depth::Strong) {
            Ok(s) => (Some(s.value.result), s.value.remoteness, s.nodes),
            Err(e) => (None, None, e.limit),
        };
        let criteria = if rules.all_count() {
            "all".to_string()
        } else {
            let list: Vec<String> = (0..rules.attributes())
                .filter(|i| rules.criteria() >> i & 1 == 1)
                .map(|i| i.to_string())
                .collect();
            list.join(",")
        };
        let row = VariationRow {
            variation,
            rules: rules.variant(),
            size: rules.size(),
            attributes: rules.attributes(),
            criteria,
            squares: rules.squares(),
            outcome,
            length,
            nodes,
            seconds: start.elapsed().as_secs_f64(),
        };
        store.append(&row)?;
        on_row(&row);
    }
    store.rows()
}

/// A Markdown table of `rows` (for each variation its finished row if it has one, else its
/// last), normal and misère side by side.
pub fn markdown(rows: &[VariationRow]) -> String {
    let mut best: HashMap<&str, &VariationRow> = HashMap::new();
    for row in rows {
        if !best
            .get(row.variation.as_str())
            .is_some_and(|b| b.finished())
        {
            best.insert(&row.variation, row);
        }
    }
    let cell = |row: Option<&&VariationRow>| match row {
        None => ("-".to_string(), String::new(), String::new()),
        Some(r) => {
            let value = match (r.outcome, r.length) {
                (Some(GameResult::Draw), Some(l)) => format!("draw ({l})"),
                (Some(winner), Some(l)) => format!("{winner} wins in {l}"),
                _ => format!("unfinished (> {} nodes)", r.nodes),
            };
            (value, r.nodes.to_string(), format!("{:.2} s", r.seconds))
        }
    };
    let mut out = String::from(
        "| board | attributes | criteria | squares | normal | nodes | time | misère | nodes | time |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut keys: Vec<&VariationRow> = best
        .values()
        .copied()
        .filter(|r| r.rules == Variant::Normal)
        .collect();
    keys.sort_by_key(|r| {
        (
            r.size,
            r.attributes,
            r.criteria != "all",
            r.criteria.clone(),
            r.squares,
        )
    });
    for r in keys {
        let misere = r.variation.replacen("normal", "misere", 1);
        let (nv, nn, nt) = cell(best.get(r.variation.as_str()));
        let (mv, mn, mt) = cell(best.get(misere.as_str()));
        out.push_str(&format!(
            "| {0}x{0} | {1} | {2} | {3} | {nv} | {nn} | {nt} | {mv} | {mn} | {mt} |\n",
            r.size,
            r.attributes,
            r.criteria,
            if r.squares { "yes" } else { "no" }
        ));
    }
    out
}
