//! Proving the outcome of the empty board with as few questions to the solver as the proof
//! needs, every answer kept in a CSV.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::experiment::export::ExportError;
use crate::experiment::export::markdown::Document;
use crate::experiment::store::{Record, Store};
use crate::{GameResult, Player, Value};

use super::super::notation;
use super::super::position::{Position, Turn};
use super::super::rules::Rules;
use super::super::solver::Solver;
use super::super::symmetry::Canonizer;
use super::super::value_text;
use super::openings::key_text;

/// What a proof knows about one opening: bounds on its outcome for P1 (1 P1 wins, 0 draw,
/// -1 P2 wins), a row of a proof's CSV. Rows for the same key add up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoundRow {
    /// The opening's canonical key.
    pub key: String,
    /// A record that reaches it.
    pub record: String,
    /// The outcome for P1 is at least this.
    pub lower: i8,
    /// The outcome for P1 is at most this.
    pub upper: i8,
    /// Positions the search that found the bound visited.
    pub nodes: u64,
    /// Its wall time in seconds.
    pub seconds: f64,
}

impl Record for BoundRow {
    type Key = String;

    fn key(&self) -> String {
        self.key.clone()
    }
}

/// The result of a proof.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proof {
    /// The outcome of the empty board; `None` when a search hit the node limit.
    pub result: Option<GameResult>,
    /// Openings whose bounds the proof used.
    pub openings: usize,
    /// Searches run now (each a null-window search of one opening).
    pub searches: usize,
    /// Their nodes.
    pub nodes: u64,
    /// Their time in seconds.
    pub seconds: f64,
}

impl Proof {
    /// The report of a proof of `rules` over the first `turns` turns that took `wall`
    /// seconds: the outcome of the empty board and what the searches cost.
    pub fn document(&self, rules: &Rules, turns: u32, wall: f64) -> Document {
        let value = match self.result {
            Some(result) => {
                let remoteness = (result == GameResult::Draw).then(|| rules.last_ply());
                format!("**{}**", value_text(Value { result, remoteness }))
            }
            None => "unknown (a search hit the node limit)".to_string(),
        };
        let mut doc = Document::new(&format!(
            "Quarto, {rules}: proof over the first {turns} turns"
        ));
        doc.paragraph(&format!("Outcome of the empty board: {value}."))
            .table(
                &[
                    "positions asked about",
                    "searches now",
                    "nodes",
                    "search time",
                    "wall time",
                ],
                [vec![
                    self.openings.to_string(),
                    self.searches.to_string(),
                    self.nodes.to_string(),
                    format!("{:.0} s", self.seconds),
                    format!("{wall:.0} s"),
                ]],
            );
        doc
    }
}

/// Proves the outcome of the empty board by alpha-beta over the first `turns` turns, asking
/// the solver only the questions the proof needs about the openings (does P1 win, or at least
/// draw, there?), one null-window search each, and keeping every answer in the CSV at `path`
/// so that a rerun asks nothing twice. Far less work than solving every opening: proving a
/// draw needs, below each of one side's choices, one answer of the other side that holds.
///
/// # Errors
/// [`ExportError`] when the CSV cannot be read or written.
pub fn prove(
    rules: Rules,
    turns: u32,
    path: &Path,
    solver: Solver,
    on_row: &mut dyn FnMut(&BoundRow),
) -> Result<Proof, ExportError> {
    let store = Store::<BoundRow>::open(path)?;
    let mut known: HashMap<String, (i8, i8)> = HashMap::new();
    for row in store.rows()? {
        let bounds = known.entry(row.key).or_insert((-1, 1));
        *bounds = (bounds.0.max(row.lower), bounds.1.min(row.upper));
    }
    let mut prover = Prover {
        rules,
        canon: Canonizer::new(&rules),
        turns,
        known,
        memo: HashMap::new(),
        used: HashMap::new(),
        solver,
        store,
        on_row,
        proof: Proof {
            result: None,
            openings: 0,
            searches: 0,
            nodes: 0,
            seconds: 0.0,
        },
        failed: None,
        unfinished: false,
    };
    let root = Position::new(rules);
    let result = if prover.at_least(&root, &[], 1) {
        GameResult::Win(Player::P1)
    } else if prover.at_least(&root, &[], 0) {
        GameResult::Draw
    } else {
        GameResult::Win(Player::P2)
    };
    if let Some(e) = prover.failed {
        return Err(e);
    }
    let mut proof = prover.proof;
    proof.openings = prover.used.len();
    proof.result = (!prover.unfinished).then_some(result);
    Ok(proof)
}

/// The state of a proof.
struct Prover<'a> {
    rules: Rules,
    canon: Canonizer,
    turns: u32,
    /// Bounds known for each opening, for P1.
    known: HashMap<String, (i8, i8)>,
    /// Answers found for positions before the openings, by key and threshold.
    memo: HashMap<(String, i8), bool>,
    /// Openings the proof asked about.
    used: HashMap<String, ()>,
    solver: Solver,
    store: Store<BoundRow>,
    on_row: &'a mut dyn FnMut(&BoundRow),
    proof: Proof,
    failed: Option<ExportError>,
    /// Whether a search hit the node limit (the answer is then unknown).
    unfinished: bool,
}

impl Prover<'_> {
    /// Whether the outcome of `pos` for P1 is at least `t` (1: P1 wins; 0: P1 draws or wins).
    fn at_least(&mut self, pos: &Position, record: &[Turn], t: i8) -> bool {
        if self.unfinished || self.failed.is_some() {
            return false;
        }
        if let Some(outcome) = pos.outcome() {
            let v = match outcome.result {
                GameResult::Win(Player::P1) => 1,
                GameResult::Win(Player::P2) => -1,
                GameResult::Draw => 0,
            };
            return v >= t;
        }
        let key = key_text(&self.canon, pos);
        if pos.plies() == self.turns {
            self.used.insert(key.clone(), ());
            return self.opening(pos, record, key, t);
        }
        if let Some(&answer) = self.memo.get(&(key.clone(), t)) {
            return answer;
        }
        let mut seen = HashMap::new();
        let mut answer = pos.to_move() == Player::P2;
        for turn in pos.legal_turns() {
            let child = pos.play(turn).expect("legal");
            if seen.insert(key_text(&self.canon, &child), ()).is_some() {
                continue;
            }
            // P1 needs one child at least t, P2 one child below it.
            let longer = [record, &[turn]].concat();
            if self.at_least(&child, &longer, t) != answer {
                answer = !answer;
                break;
            }
        }
        self.memo.insert((key, t), answer);
        answer
    }

    /// Whether the outcome of the opening `pos` for P1 is at least `t`: from its known
    /// bounds, or else by a null-window search whose answer is kept.
    fn opening(&mut self, pos: &Position, record: &[Turn], key: String, t: i8) -> bool {
        let (lower, upper) = self.known.get(&key).copied().unwrap_or((-1, 1));
        if lower >= t {
            return true;
        }
        if upper < t {
            return false;
        }
        // For the side to move: P1 asks for at least t; P2 for at least 1 - t, which holds
        // exactly when P1 stays below t.
        let (sign, p1) = match pos.to_move() {
            Player::P1 => (i32::from(t), true),
            Player::P2 => (1 - i32::from(t), false),
        };
        let (reached, nodes, seconds) = match self.solver.reaches(pos, sign) {
            Ok(answer) => answer,
            Err(_) => {
                self.unfinished = true;
                return false;
            }
        };
        let holds = reached == p1;
        let bounds = if holds { (t, upper) } else { (lower, t - 1) };
        self.known.insert(key.clone(), bounds);
        let row = BoundRow {
            key,
            record: notation::format(&self.rules, record),
            lower: bounds.0,
            upper: bounds.1,
            nodes,
            seconds,
        };
        if let Err(e) = self.store.append(&row) {
            self.failed = Some(e);
        }
        (self.on_row)(&row);
        self.proof.searches += 1;
        self.proof.nodes += nodes;
        self.proof.seconds += seconds;
        holds
    }
}
