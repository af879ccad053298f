//! Proving the outcome of the empty board with as few questions to the solver as the proof
//! needs, every answer kept in a CSV.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

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
    /// The outcome of the empty board; `None` when searches stopped at the node limit before
    /// the proof was complete.
    pub result: Option<GameResult>,
    /// Openings whose bounds the proof used.
    pub openings: usize,
    /// Searches run now (each a null-window search of one opening), stopped ones included.
    pub searches: usize,
    /// Searches that stopped at their node budget without an answer.
    pub stopped: usize,
    /// Nodes of all searches run now, stopped ones included.
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
            None => "unknown (searches stopped at the node limit; a rerun with a higher \
                     `--node-limit` continues)"
                .to_string(),
        };
        let mut doc = Document::new(&format!(
            "Quarto, {rules}: proof over the first {turns} turns"
        ));
        doc.paragraph(&format!("Outcome of the empty board: {value}."))
            .table(
                &[
                    "positions asked about",
                    "searches now",
                    "stopped at their budget",
                    "nodes",
                    "search time",
                    "wall time",
                ],
                [vec![
                    self.openings.to_string(),
                    self.searches.to_string(),
                    self.stopped.to_string(),
                    self.nodes.to_string(),
                    format!("{:.0} s", self.seconds),
                    format!("{wall:.0} s"),
                ]],
            );
        doc
    }
}

/// How many nodes a proof's searches may spend: every open question is asked first with
/// `first` nodes, then in rounds with 4 times as many as the round before, up to `last`.
///
/// A proof needs, below each position where one side chooses, one choice that holds; the
/// first choice in move order can cost a hundred times what another costs, and rounds find
/// the cheap one first. What the stopped searches cost is bounded: each round costs at most
/// a quarter of the next, and the transposition table keeps what they found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Nodes per search in the first round.
    pub first: u64,
    /// Nodes per search in the last round (`u64::MAX`: no limit).
    pub last: u64,
}

impl Budget {
    /// One round: every search runs to `limit` nodes.
    pub fn single(limit: u64) -> Budget {
        Budget {
            first: limit,
            last: limit,
        }
    }

    /// The node budget of each round in turn.
    fn rounds(self) -> impl Iterator<Item = u64> {
        let last = self.last.max(self.first);
        std::iter::successors(Some(self.first), move |&b| {
            (b < last).then(|| b.saturating_mul(4).min(last))
        })
    }
}

/// What a proof reports of each search it runs.
#[derive(Clone, Copy, Debug)]
pub enum Asked<'a> {
    /// The search answered: the bounds it added, as appended to the CSV.
    Answered(&'a BoundRow),
    /// The search stopped at its node budget without an answer (nothing is appended).
    Stopped {
        /// A record that reaches the opening.
        record: &'a str,
        /// The budget it spent.
        nodes: u64,
        /// Its wall time in seconds.
        seconds: f64,
    },
}

/// Proves the outcome of the empty board by alpha-beta over the first `turns` turns, asking
/// the solver only the questions the proof needs about the openings (does P1 win, or at least
/// draw, there?), one null-window search each within the node budget of its round, and
/// keeping every answer in the CSV at `path` so that a rerun asks nothing twice. Far less work
/// than solving every opening: proving a draw needs, below each of one side's choices, one
/// answer of the other side that holds.
///
/// # Errors
/// [`ExportError`] when the CSV cannot be read or written.
pub fn prove(
    rules: Rules,
    turns: u32,
    path: &Path,
    solver: Solver,
    budget: Budget,
    on_search: &mut dyn FnMut(Asked),
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
        stopped: HashMap::new(),
        used: HashMap::new(),
        solver,
        budget: budget.first,
        store,
        on_search,
        proof: Proof {
            result: None,
            openings: 0,
            searches: 0,
            stopped: 0,
            nodes: 0,
            seconds: 0.0,
        },
        failed: None,
    };
    let root = Position::new(rules);
    let result = match prover.settle(&root, 1, budget) {
        Some(true) => Some(GameResult::Win(Player::P1)),
        Some(false) => prover.settle(&root, 0, budget).map(|draw| match draw {
            true => GameResult::Draw,
            false => GameResult::Win(Player::P2),
        }),
        None => None,
    };
    if let Some(e) = prover.failed {
        return Err(e);
    }
    let mut proof = prover.proof;
    proof.openings = prover.used.len();
    proof.result = result;
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
    /// The largest budget at which a search of an opening for a threshold stopped.
    stopped: HashMap<(String, i8), u64>,
    /// Openings the proof asked about.
    used: HashMap<String, ()>,
    solver: Solver,
    /// Nodes each search of the current round may spend.
    budget: u64,
    store: Store<BoundRow>,
    on_search: &'a mut dyn FnMut(Asked),
    proof: Proof,
    failed: Option<ExportError>,
}

impl Prover<'_> {
    /// Whether the outcome of `pos` for P1 is at least `t`, asked in rounds of growing node
    /// budgets until one answers; `None` when the last round leaves it open.
    fn settle(&mut self, pos: &Position, t: i8, budget: Budget) -> Option<bool> {
        for nodes in budget.rounds() {
            self.budget = nodes;
            self.solver.set_node_limit(nodes);
            let answer = self.at_least(pos, &[], t);
            if answer.is_some() || self.failed.is_some() {
                return answer;
            }
        }
        None
    }

    /// Whether the outcome of `pos` for P1 is at least `t` (1: P1 wins; 0: P1 draws or wins);
    /// `None` when searches within this round's budget do not tell.
    fn at_least(&mut self, pos: &Position, record: &[Turn], t: i8) -> Option<bool> {
        if self.failed.is_some() {
            return None;
        }
        if let Some(outcome) = pos.outcome() {
            let v = match outcome.result {
                GameResult::Win(Player::P1) => 1,
                GameResult::Win(Player::P2) => -1,
                GameResult::Draw => 0,
            };
            return Some(v >= t);
        }
        let key = key_text(&self.canon, pos);
        if pos.plies() == self.turns {
            self.used.insert(key.clone(), ());
            return self.opening(pos, record, key, t);
        }
        if let Some(&answer) = self.memo.get(&(key.clone(), t)) {
            return Some(answer);
        }
        // P1 needs one child at least t, P2 one child below it: a child answering `decisive`
        // decides the node; the node is open while an open child could still do so.
        let decisive = pos.to_move() == Player::P1;
        let mut open = false;
        let mut seen = HashMap::new();
        for turn in pos.legal_turns() {
            let child = pos.play(turn).expect("legal");
            if seen.insert(key_text(&self.canon, &child), ()).is_some() {
                continue;
            }
            let longer = [record, &[turn]].concat();
            match self.at_least(&child, &longer, t) {
                Some(answer) if answer == decisive => {
                    self.memo.insert((key, t), decisive);
                    return Some(decisive);
                }
                Some(_) => {}
                None if self.failed.is_some() => return None,
                None => open = true,
            }
        }
        if open {
            return None;
        }
        self.memo.insert((key, t), !decisive);
        Some(!decisive)
    }

    /// Whether the outcome of the opening `pos` for P1 is at least `t`: from its known
    /// bounds, or else by a null-window search within the round's budget whose answer is
    /// kept; `None` when the search stopped at the budget.
    fn opening(&mut self, pos: &Position, record: &[Turn], key: String, t: i8) -> Option<bool> {
        let (lower, upper) = self.known.get(&key).copied().unwrap_or((-1, 1));
        if lower >= t {
            return Some(true);
        }
        if upper < t {
            return Some(false);
        }
        let question = (key, t);
        if self
            .stopped
            .get(&question)
            .is_some_and(|&b| b >= self.budget)
        {
            return None;
        }
        // For the side to move: P1 asks for at least t; P2 for at least 1 - t, which holds
        // exactly when P1 stays below t.
        let (sign, p1) = match pos.to_move() {
            Player::P1 => (i32::from(t), true),
            Player::P2 => (1 - i32::from(t), false),
        };
        let start = Instant::now();
        self.proof.searches += 1;
        let (reached, nodes, seconds) = match self.solver.reaches(pos, sign) {
            Ok(answer) => answer,
            Err(_) => {
                let seconds = start.elapsed().as_secs_f64();
                self.proof.stopped += 1;
                self.proof.nodes += self.budget;
                self.proof.seconds += seconds;
                self.stopped.insert(question, self.budget);
                let record = notation::format(&self.rules, record);
                (self.on_search)(Asked::Stopped {
                    record: &record,
                    nodes: self.budget,
                    seconds,
                });
                return None;
            }
        };
        let (key, _) = question;
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
        (self.on_search)(Asked::Answered(&row));
        self.proof.nodes += nodes;
        self.proof.seconds += seconds;
        Some(holds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Depth, Variant};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fresh CSV path for one proof of this test process.
    fn fresh_csv() -> std::path::PathBuf {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        std::env::temp_dir().join(format!("connectk-prove-{}-{n}.csv", std::process::id()))
    }

    fn proved(rules: Rules, turns: u32, csv: &Path, budget: Budget) -> Proof {
        let solver = Solver::new(rules, 1 << 20);
        prove(rules, turns, csv, solver, budget, &mut |_| {}).unwrap()
    }

    /// Every small variation under both rules: a proof in one round without a limit and one in
    /// rounds from a single node up reach the outcome that a plain solve of the empty board
    /// finds, and the rounds do stop searches on the way.
    #[test]
    fn rounds_of_growing_budgets_prove_what_a_solve_finds() {
        let mut stopped = 0;
        for (size, attributes) in [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4)] {
            for variant in [Variant::Normal, Variant::Misere] {
                let rules = Rules::new(size, attributes, None, variant, false).unwrap();
                let root = Position::new(rules);
                let solved = Solver::new(rules, 1 << 20)
                    .solve(&root, Depth::Weak)
                    .unwrap();
                for budget in [
                    Budget::single(u64::MAX),
                    Budget {
                        first: 1,
                        last: u64::MAX,
                    },
                ] {
                    let csv = fresh_csv();
                    let proof = proved(rules, size, &csv, budget);
                    std::fs::remove_file(&csv).ok();
                    assert_eq!(
                        proof.result,
                        Some(solved.value.result),
                        "{rules} {budget:?}"
                    );
                    stopped += proof.stopped;
                }
            }
        }
        assert!(stopped > 0, "no search ever stopped at a budget");
    }

    /// A budget too small for any answer leaves the outcome unknown and appends nothing it
    /// did not learn; a rerun with a larger one proves it from the same CSV.
    #[test]
    fn a_budget_too_small_leaves_the_outcome_open_for_a_rerun() {
        let rules = Rules::new(3, 4, None, Variant::Misere, false).unwrap();
        let csv = fresh_csv();
        let open = proved(rules, 3, &csv, Budget::single(2));
        assert_eq!(open.result, None);
        assert!(open.stopped > 0);
        let rows = Store::<BoundRow>::open(&csv).unwrap().rows().unwrap();
        assert!(
            rows.iter().all(|r| (r.lower, r.upper) != (-1, 1)),
            "{rows:?}"
        );
        let settled = proved(rules, 3, &csv, Budget::single(u64::MAX));
        std::fs::remove_file(&csv).ok();
        assert_eq!(settled.result, Some(GameResult::Win(Player::P1)));
    }
}
