//! The variations experiment: the value and game length of the empty board for many sets of
//! rules, one CSV row each through the sweep runner (a rerun resumes), and a Markdown table of
//! them.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::experiment::export::markdown::Document;
use crate::experiment::export::{ExportError, labels};
use crate::experiment::store::Record;
use crate::experiment::sweep::{Attempts, NoAttempt, Solved, Sweep, SweepRow};
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

impl SweepRow for VariationRow {
    const COLUMNS: &'static [&'static str] = &[
        "variation",
        "rules",
        "size",
        "attributes",
        "criteria",
        "squares",
        "outcome",
        "length",
        "nodes",
        "seconds",
    ];

    /// Two rows of one variation agree unless both finished with different values.
    fn agrees(&self, other: &VariationRow) -> bool {
        !(self.finished() && other.finished())
            || (self.outcome, self.length) == (other.outcome, other.length)
    }

    fn name(&self) -> String {
        self.variation.clone()
    }

    fn settles(&self) -> u8 {
        u8::from(self.finished())
    }
}

impl VariationRow {
    fn finished(&self) -> bool {
        self.outcome.is_some()
    }
}

/// The variations experiment: each variation's empty board solved exactly.
#[derive(Clone, Debug)]
pub struct Variations {
    /// The variations to solve (the report covers every row of the CSV).
    pub rules: Vec<Rules>,
    /// Transposition table bytes per variation.
    pub table_bytes: usize,
    /// Positions a variation may search before it is recorded as unfinished.
    pub node_limit: u64,
}

impl Sweep for Variations {
    const NAME: &'static str = "variations";
    /// A finished variation is not solved again; an unfinished one is retried.
    const REDO_FINISHED: bool = false;
    type Job = Rules;
    type Row = VariationRow;
    type Attempt = NoAttempt;
    type Worker = ();

    fn jobs(&self) -> Result<Vec<Rules>, crate::RulesError> {
        Ok(self.rules.clone())
    }

    fn key(rules: &Rules) -> String {
        rules.to_string()
    }

    fn worker(&self) {}

    fn solve(
        &self,
        _: &mut (),
        &rules: &Rules,
        _: &Attempts<'_, NoAttempt>,
    ) -> Solved<VariationRow, NoAttempt> {
        let mut solver = Solver::new(rules, self.table_bytes).with_node_limit(self.node_limit);
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
        Solved::Row(VariationRow {
            variation: rules.to_string(),
            rules: rules.variant(),
            size: rules.size(),
            attributes: rules.attributes(),
            criteria,
            squares: rules.squares(),
            outcome,
            length,
            nodes,
            seconds: start.elapsed().as_secs_f64(),
        })
    }

    fn done(&self, row: &VariationRow) -> bool {
        row.finished()
    }

    /// Writes `variations.md`, the table of every row.
    fn publish(
        &self,
        dir: &Path,
        rows: Vec<VariationRow>,
        _: Vec<NoAttempt>,
        _: &[Rules],
        _: &str,
    ) -> Result<String, ExportError> {
        let path = dir.join("variations.md");
        markdown(&rows).write(&path)?;
        Ok(format!("{} variations in {}", rows.len(), path.display()))
    }
}

/// A Markdown table of `rows` (one per variation, as a merge gives them), normal and misère
/// side by side.
pub(crate) fn markdown(rows: &[VariationRow]) -> Document {
    let by_name: HashMap<&str, &VariationRow> =
        rows.iter().map(|r| (r.variation.as_str(), r)).collect();
    let cells = |row: Option<&&VariationRow>| match row {
        None => ["-".to_string(), String::new(), String::new()],
        Some(r) => {
            let value = match (r.outcome, r.length) {
                (Some(GameResult::Draw), Some(l)) => format!("draw ({l})"),
                (Some(winner), Some(l)) => format!("{winner} wins in {l}"),
                _ => format!("unfinished (> {} nodes)", r.nodes),
            };
            [value, r.nodes.to_string(), format!("{:.2} s", r.seconds)]
        }
    };
    let mut normal: Vec<&VariationRow> =
        rows.iter().filter(|r| r.rules == Variant::Normal).collect();
    normal.sort_by_key(|r| {
        (
            r.size,
            r.attributes,
            r.criteria != "all",
            r.criteria.clone(),
            r.squares,
        )
    });
    let lines = normal.into_iter().map(|r| {
        let misere = r.variation.replacen("normal", "misere", 1);
        let mut line = vec![
            format!("{0}x{0}", r.size),
            r.attributes.to_string(),
            r.criteria.clone(),
            if r.squares { "yes" } else { "no" }.to_string(),
        ];
        line.extend(cells(by_name.get(r.variation.as_str())));
        line.extend(cells(by_name.get(misere.as_str())));
        line
    });
    let mut doc = Document::untitled();
    doc.table(
        &[
            "board",
            "attributes",
            "criteria",
            "squares",
            "normal",
            "nodes",
            "time",
            "misère",
            "nodes",
            "time",
        ],
        lines,
    );
    doc
}
