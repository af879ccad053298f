//! Big solves split by their first turns: the positions a few turns into the game, one per
//! class of symmetric positions, solved one by one through the sweep runner (shards, a CSV
//! that a rerun resumes, a checked merge) and merged back into the value of the empty board.

mod openings;
mod prove;
mod root;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::experiment::export::csv::LineProblem;
use crate::experiment::export::markdown::Document;
use crate::experiment::export::{ExportError, labels};
use crate::experiment::store::Record;
use crate::experiment::sweep::{Attempts, NoAttempt, Solved, Sweep, SweepRow};
use crate::{Depth, GameResult, Player, Value};

use super::rules::Rules;
use super::solver::Solver;
use super::value_text;

pub use openings::{Opening, Selection, openings};
pub use prove::{Asked, BoundRow, Budget, Proof, ProofSettings, prove};

/// One solved opening, a row of the CSV.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningRow {
    /// The opening's index in [`openings`].
    pub index: usize,
    /// Its canonical key.
    pub key: String,
    /// A record that reaches it.
    pub record: String,
    /// `P1`, `P2` or `Draw`; `unfinished` (`None`) when the node limit stopped the search.
    #[serde(with = "labels::outcome_or_unfinished")]
    pub outcome: Option<GameResult>,
    /// Remoteness from the opening (empty after a weak solve or when unfinished).
    pub remoteness: Option<u32>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time of the solve in seconds.
    pub seconds: f64,
}

impl Record for OpeningRow {
    type Key = String;

    fn key(&self) -> String {
        self.key.clone()
    }
}

impl SweepRow for OpeningRow {
    const COLUMNS: &'static [&'static str] = &[
        "index",
        "key",
        "record",
        "outcome",
        "remoteness",
        "nodes",
        "seconds",
    ];

    /// Two rows of one opening agree when both finished with the same outcome, and the same
    /// remoteness where both have one, or when one of them did not finish.
    fn agrees(&self, other: &OpeningRow) -> bool {
        let remoteness = match (self.remoteness, other.remoteness) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        match (self.outcome, other.outcome) {
            (Some(a), Some(b)) => a == b && remoteness,
            _ => true,
        }
    }

    fn name(&self) -> String {
        format!("position #{} ({})", self.index, self.record)
    }

    /// A finished row settles more than an unfinished one, an exact one more than a weak one.
    fn settles(&self) -> u8 {
        u8::from(self.outcome.is_some()) + u8::from(self.remoteness.is_some())
    }
}

impl OpeningRow {
    /// The value the row records, if the solve finished.
    pub fn value(&self) -> Option<Value> {
        self.outcome.map(|result| Value {
            result,
            remoteness: self.remoteness,
        })
    }

    /// Whether the row answers a solve of `depth`: it finished, and gives the remoteness
    /// if asked for (a draw's remoteness follows from the rules, so a weak draw is exact).
    fn answers(&self, depth: Depth) -> bool {
        self.value().is_some_and(|v| {
            depth == Depth::Weak || v.remoteness.is_some() || v.result == GameResult::Draw
        })
    }
}

/// A split solve: the openings of a selection, each solved from its position.
#[derive(Clone, Debug)]
pub struct Split {
    /// The rules.
    pub rules: Rules,
    /// The openings.
    pub selection: Selection,
    /// Outcome only, or remoteness too.
    pub depth: Depth,
    /// Transposition table bytes per thread.
    pub table_bytes: usize,
    /// Positions each opening may search before it is recorded as unfinished.
    pub node_limit: Option<u64>,
    /// Where a merge writes its report (run.json goes beside it).
    pub report: Option<PathBuf>,
}

impl Sweep for Split {
    const NAME: &'static str = "split";
    /// Openings are expensive: a finished split is not solved again.
    const REDO_FINISHED: bool = false;
    type Job = Opening;
    type Row = OpeningRow;
    type Attempt = NoAttempt;
    type Worker = Solver;

    fn jobs(&self) -> Result<Vec<Opening>, crate::RulesError> {
        Ok(self.selection.list(self.rules))
    }

    fn key(opening: &Opening) -> String {
        opening.key.clone()
    }

    fn worker(&self) -> Solver {
        let solver = Solver::new(self.rules, self.table_bytes);
        match self.node_limit {
            Some(limit) => solver.with_node_limit(limit),
            None => solver,
        }
    }

    /// A row either way: an opening stopped by the node limit is recorded as unfinished.
    fn solve(
        &self,
        solver: &mut Solver,
        opening: &Opening,
        _: &Attempts<'_, NoAttempt>,
    ) -> Solved<OpeningRow, NoAttempt> {
        let start = std::time::Instant::now();
        let (outcome, remoteness, nodes) = match solver.solve(&opening.position, self.depth) {
            Ok(s) => (Some(s.value.result), s.value.remoteness, s.nodes),
            Err(e) => (None, None, e.limit),
        };
        Solved::Row(OpeningRow {
            index: opening.index,
            key: opening.key.clone(),
            record: opening.record.clone(),
            outcome,
            remoteness,
            nodes,
            seconds: start.elapsed().as_secs_f64(),
        })
    }

    fn done(&self, row: &OpeningRow) -> bool {
        row.answers(self.depth)
    }

    /// A remoteness must fit the turns left after the opening (the empty board's score is
    /// computed from them).
    fn check(&self, row: &OpeningRow) -> Result<(), LineProblem> {
        let turns = self.selection.turns;
        let left = self.rules.last_ply().saturating_sub(turns);
        match row.remoteness.filter(|&r| r > left) {
            Some(plies) => Err(LineProblem {
                field: Some("remoteness".to_string()),
                message: format!(
                    "{plies}: at most {left} turns are left after {turns} of {}",
                    self.rules
                ),
            }),
            None => Ok(()),
        }
    }

    /// Writes the report to [`Split::report`], where there is one; returns its text.
    fn publish(
        &self,
        _: &Path,
        rows: Vec<OpeningRow>,
        _: Vec<NoAttempt>,
        _: &[Opening],
        _: &str,
    ) -> Result<String, ExportError> {
        let document = self.document(&self.summary(&rows));
        if let Some(path) = &self.report {
            document.write(path)?;
        }
        Ok(document.text().to_string())
    }
}

/// What the rows of a split solve say together.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Openings in the list.
    pub openings: usize,
    /// Openings with a finished row.
    pub solved: usize,
    /// Finished openings won by P1, drawn, won by P2.
    pub counts: [usize; 3],
    /// The value of the empty board, once every opening is solved: exact when every row
    /// has its remoteness (or is a draw), the winner only otherwise.
    pub root: Option<Value>,
    /// Nodes over every finished row.
    pub nodes: u64,
    /// Solve time over every finished row, in seconds (CPU time of the threads, roughly).
    pub seconds: f64,
}

impl Split {
    /// What `rows` (one per opening, as a merge gives them) say: the value of each opening,
    /// and when every class was selected, by minimax over the first turns, the value of the
    /// empty board.
    pub fn summary(&self, rows: &[OpeningRow]) -> Summary {
        let by_key: std::collections::HashMap<&str, &OpeningRow> =
            rows.iter().map(|r| (r.key.as_str(), r)).collect();
        let list = self.selection.list(self.rules);
        let found: Vec<(&OpeningRow, Value)> = list
            .iter()
            .filter_map(|o| by_key.get(o.key.as_str()))
            .filter_map(|r| Some((*r, r.value()?)))
            .collect();
        let mut counts = [0; 3];
        for (_, value) in &found {
            counts[match value.result {
                GameResult::Win(Player::P1) => 0,
                GameResult::Draw => 1,
                GameResult::Win(Player::P2) => 2,
            }] += 1;
        }
        let exact = found
            .iter()
            .all(|(_, v)| v.remoteness.is_some() || v.result == GameResult::Draw);
        let every_class = found.len() == list.len() && self.selection.sample.is_none();
        let root = every_class.then(|| {
            let values: Vec<(String, Value)> =
                found.iter().map(|(r, v)| (r.key.clone(), *v)).collect();
            root::root_value(&self.rules, self.selection.turns, &values, exact)
        });
        Summary {
            openings: list.len(),
            solved: found.len(),
            counts,
            root,
            nodes: found.iter().map(|(r, _)| r.nodes).sum(),
            seconds: found.iter().map(|(r, _)| r.seconds).sum(),
        }
    }

    /// The report of `summary`: the value of the empty board and the counts.
    pub fn document(&self, summary: &Summary) -> Document {
        let turns = self.selection.turns;
        let (title, root) = match (self.selection.sample.is_some(), summary.root) {
            (true, _) => (
                format!("a random sample of positions after {turns} turns"),
                "a sample does not decide the empty board".to_string(),
            ),
            (false, Some(value)) => (
                format!("every position after {turns} turns"),
                format!("**{}**", value_text(value)),
            ),
            (false, None) => (
                format!("every position after {turns} turns"),
                format!(
                    "not known yet ({} of {} positions solved)",
                    summary.solved, summary.openings
                ),
            ),
        };
        let s = summary;
        let mut doc = Document::new(&format!("Quarto, {}: {title}", self.rules));
        doc.paragraph(&format!("Value of the empty board: {root}."))
            .table(
                &[
                    "positions",
                    "solved",
                    "P1 wins",
                    "draws",
                    "P2 wins",
                    "nodes",
                    "solve time",
                ],
                [vec![
                    s.openings.to_string(),
                    s.solved.to_string(),
                    s.counts[0].to_string(),
                    s.counts[1].to_string(),
                    s.counts[2].to_string(),
                    s.nodes.to_string(),
                    format!("{:.0} s", s.seconds),
                ]],
            );
        doc
    }
}
