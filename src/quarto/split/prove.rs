//! Proving the outcome of the empty board with as few questions to the solver as the proof
//! needs, every answer kept in a CSV.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::experiment::export::ExportError;
use crate::experiment::export::csv::read_complete_rows;
use crate::experiment::export::markdown::Document;
use crate::experiment::shard::Shard;
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
    /// Questions the proof needs that belong to other shards and have no answer yet.
    pub pending: usize,
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
            None if self.pending > 0 => format!(
                "not known yet ({} questions wait for other shards; the next pass continues)",
                self.pending
            ),
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

/// How a proof runs.
#[derive(Clone, Debug)]
pub struct ProofSettings {
    /// Turns played before the solver takes over: the openings are the positions after them.
    pub turns: u32,
    /// Nodes each search may spend, in rounds.
    pub budget: Budget,
    /// This process's share of the questions. With more than one shard the proof runs in
    /// passes: each pass asks, below each position where a side chooses, only the first
    /// choice not yet refuted (so that every shard follows the same tree), each shard answers
    /// the questions that fall to it, and the next pass reads every shard's answers.
    pub shard: Shard,
    /// CSVs of other shards whose answers the proof uses as well (read, never written).
    pub known: Vec<PathBuf>,
    /// The outcome a sharded pass expects: where it expects the side to move to have a
    /// choice that holds, the pass asks about the first choice not yet refuted only; where it
    /// expects none to, it asks about every choice. A wrong guess costs passes, not
    /// correctness.
    pub expect: GameResult,
    /// How many choices not yet refuted a sharded pass asks about where it expects one to
    /// hold (1: the first only). More ask questions that may turn out not to be needed, and
    /// save the passes a refuted first choice costs when refutations are common.
    pub choices: u32,
}

impl ProofSettings {
    /// One process over the first `turns` turns, each search within `budget`.
    pub fn new(turns: u32, budget: Budget) -> ProofSettings {
        ProofSettings {
            turns,
            budget,
            shard: Shard { index: 1, count: 1 },
            known: Vec::new(),
            expect: GameResult::Draw,
            choices: 1,
        }
    }
}

/// Proves the outcome of the empty board by alpha-beta over the first turns, asking the
/// solver only the questions the proof needs about the openings (does P1 win, or at least
/// draw, there?), one null-window search each within the node budget of its round, and
/// keeping every answer in the CSV at `path` so that a rerun asks nothing twice. Far less work
/// than solving every opening: proving a draw needs, below each of one side's choices, one
/// answer of the other side that holds.
///
/// # Errors
/// [`ExportError`] when a CSV cannot be read or written.
pub fn prove(
    rules: Rules,
    settings: &ProofSettings,
    path: &Path,
    solver: Solver,
    on_search: &mut dyn FnMut(Asked),
) -> Result<Proof, ExportError> {
    let store = Store::<BoundRow>::open(path)?;
    let mut rows = store.rows()?;
    for other in &settings.known {
        rows.extend(complete_rows(other)?);
    }
    let mut known: HashMap<String, (i8, i8)> = HashMap::new();
    for row in rows {
        let bounds = known.entry(row.key).or_insert((-1, 1));
        *bounds = (bounds.0.max(row.lower), bounds.1.min(row.upper));
    }
    let mut prover = Prover {
        rules,
        canon: Canonizer::new(&rules),
        turns: settings.turns,
        shard: settings.shard,
        expect: p1_outcome(settings.expect),
        choices: settings.choices.max(1),
        known,
        memo: HashMap::new(),
        stopped: HashMap::new(),
        used: HashMap::new(),
        pending: HashSet::new(),
        solver,
        budget: settings.budget.first,
        store,
        on_search,
        proof: Proof {
            result: None,
            openings: 0,
            searches: 0,
            stopped: 0,
            pending: 0,
            nodes: 0,
            seconds: 0.0,
        },
        failed: None,
    };
    let root = Position::new(rules);
    let budget = settings.budget;
    let wins = prover.settle(&root, 1, budget);
    // Shards ask the draw question in the same pass even while the win question is open:
    // the two trees are independent, and a pass is a job array's whole run.
    let draws = match wins {
        Some(false) => prover.settle(&root, 0, budget),
        None if prover.sharded() => prover.settle(&root, 0, budget).and(None),
        _ => None,
    };
    if let Some(e) = prover.failed {
        return Err(e);
    }
    let mut proof = prover.proof;
    proof.openings = prover.used.len();
    proof.pending = prover.pending.len();
    proof.result = match (wins, draws) {
        (Some(true), _) => Some(GameResult::Win(Player::P1)),
        (Some(false), Some(true)) => Some(GameResult::Draw),
        (Some(false), Some(false)) => Some(GameResult::Win(Player::P2)),
        _ => None,
    };
    Ok(proof)
}

/// The rows of another process's CSV of bounds, up to its last complete line (that process
/// may be appending a row right now).
fn complete_rows(path: &Path) -> Result<Vec<BoundRow>, ExportError> {
    let columns = ["key", "record", "lower", "upper", "nodes", "seconds"];
    read_complete_rows(path, &columns, "bounds")
}

/// A result as an outcome for P1: 1 a win, 0 a draw, -1 a loss.
fn p1_outcome(result: GameResult) -> i8 {
    match result {
        GameResult::Win(Player::P1) => 1,
        GameResult::Win(Player::P2) => -1,
        GameResult::Draw => 0,
    }
}

/// The shard that asks the question about the opening `key`: by a hash of the key's text, so
/// that every process and machine agrees.
fn shard_of(key: &str, count: u32) -> u32 {
    // FNV-1a: small, and the same on every platform and Rust version (std's hashers are not
    // promised to be).
    let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    (hash % u64::from(count)) as u32 + 1
}

/// The state of a proof.
struct Prover<'a> {
    rules: Rules,
    canon: Canonizer,
    turns: u32,
    shard: Shard,
    /// The expected outcome for P1 (1, 0, -1), steering sharded passes.
    expect: i8,
    /// How many open choices a sharded pass follows where it expects one to hold.
    choices: u32,
    /// Bounds known for each opening, for P1.
    known: HashMap<String, (i8, i8)>,
    /// Answers found for positions before the openings, by key and threshold.
    memo: HashMap<(String, i8), bool>,
    /// The largest budget at which a search of an opening for a threshold stopped.
    stopped: HashMap<(String, i8), u64>,
    /// Openings the proof asked about.
    used: HashMap<String, ()>,
    /// Openings whose questions fall to other shards and have no answer yet.
    pending: HashSet<String>,
    solver: Solver,
    /// Nodes each search of the current round may spend.
    budget: u64,
    store: Store<BoundRow>,
    on_search: &'a mut dyn FnMut(Asked),
    proof: Proof,
    failed: Option<ExportError>,
}

impl Prover<'_> {
    /// Whether the questions are shared between shards (the proof then runs in passes).
    fn sharded(&self) -> bool {
        self.shard.count > 1
    }

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
            return Some(p1_outcome(outcome.result) >= t);
        }
        let key = key_text(&self.canon, pos);
        if pos.plies() == self.turns {
            self.used.insert(key.clone(), ());
            return self.opening(pos, record, key, t);
        }
        // Bounds kept from a proof split at fewer turns answer this position as they stand,
        // so a proof may be split deeper than the one before without asking again.
        if let Some(&(lower, upper)) = self.known.get(&key)
            && (lower >= t || upper < t)
        {
            self.used.insert(key, ());
            return Some(lower >= t);
        }
        if let Some(&answer) = self.memo.get(&(key.clone(), t)) {
            return Some(answer);
        }
        // P1 needs one child at least t, P2 one child below it: a child answering `decisive`
        // decides the node; the node is open while an open child could still do so.
        let decisive = pos.to_move() == Player::P1;
        // A shard asks only about the first choices not yet refuted where it expects one to
        // hold, as every shard does, so that they all follow one tree.
        let narrow = self.sharded() && (self.expect >= t) == decisive;
        let mut open = 0;
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
                None => {
                    open += 1;
                    if narrow && open >= self.choices {
                        return None;
                    }
                }
            }
        }
        if open > 0 {
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
        if self.sharded() && shard_of(&key, self.shard.count) != self.shard.index {
            self.pending.insert(key);
            return None;
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
        let settings = ProofSettings::new(turns, budget);
        prove(rules, &settings, csv, solver, &mut |_| {}).unwrap()
    }

    /// The variations of these sizes and attributes under both rules, each with the outcome of
    /// its empty board by a plain solve.
    fn solved_variations(shapes: &[(u32, u32)]) -> Vec<(Rules, GameResult)> {
        let mut found = Vec::new();
        for &(size, attributes) in shapes {
            for variant in [Variant::Normal, Variant::Misere] {
                let rules = Rules::new(size, attributes, None, variant, false).unwrap();
                let root = Position::new(rules);
                let solved = Solver::new(rules, 1 << 20).solve(&root, Depth::Weak);
                found.push((rules, solved.unwrap().value.result));
            }
        }
        found
    }

    /// Every small variation under both rules: a proof in one round without a limit and one in
    /// rounds from a single node up reach the outcome that a plain solve of the empty board
    /// finds, and the rounds do stop searches on the way.
    #[test]
    fn rounds_of_growing_budgets_prove_what_a_solve_finds() {
        let mut stopped = 0;
        let shapes = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4)];
        for (rules, outcome) in solved_variations(&shapes) {
            let rounds = Budget {
                first: 1,
                last: u64::MAX,
            };
            for budget in [Budget::single(u64::MAX), rounds] {
                let csv = fresh_csv();
                let proof = proved(rules, rules.size(), &csv, budget);
                std::fs::remove_file(&csv).ok();
                assert_eq!(proof.result, Some(outcome), "{rules} {budget:?}");
                stopped += proof.stopped;
            }
        }
        assert!(stopped > 0, "no search ever stopped at a budget");
    }

    /// A proof shared by three shards, run in passes (each shard in turn reading the others'
    /// CSVs), reaches the outcome a plain solve finds on every small variation, whichever
    /// outcome the shards expect.
    #[test]
    fn shards_in_passes_prove_what_a_solve_finds() {
        let mut passes = [0; 2];
        for (rules, outcome) in solved_variations(&[(2, 3), (3, 3), (3, 4)]) {
            for expect in [GameResult::Draw, GameResult::Win(Player::P1)] {
                for (choices, passes) in [1, 3].into_iter().zip(&mut passes) {
                    let (result, used) = sharded_proof(rules, rules.size(), 3, (expect, choices));
                    assert_eq!(result, outcome, "{rules}, expecting {expect:?}, {choices}");
                    *passes += used;
                }
            }
        }
        // Three choices a pass find a refuted first choice's successor in the same pass.
        assert!(passes[1] < passes[0], "passes {passes:?}");
    }

    /// Runs passes of `count` shards, each pass expecting `expect` and following up to
    /// `choices` choices, until one of them settles the empty board: the outcome and the
    /// passes it took.
    fn sharded_proof(
        rules: Rules,
        turns: u32,
        count: u32,
        (expect, choices): (GameResult, u32),
    ) -> (GameResult, u32) {
        let csvs: Vec<_> = (0..count).map(|_| fresh_csv()).collect();
        for pass in 1..=40 {
            for index in 1..=count {
                let own = &csvs[index as usize - 1];
                let settings = ProofSettings {
                    shard: Shard { index, count },
                    known: csvs
                        .iter()
                        .filter(|c| *c != own && c.exists())
                        .cloned()
                        .collect(),
                    expect,
                    choices,
                    ..ProofSettings::new(turns, Budget::single(u64::MAX))
                };
                let solver = Solver::new(rules, 1 << 20);
                let proof = prove(rules, &settings, own, solver, &mut |_| {}).unwrap();
                if let Some(result) = proof.result {
                    csvs.iter().for_each(|c| drop(std::fs::remove_file(c)));
                    return (result, pass);
                }
                assert!(proof.pending > 0, "{rules}: open with nothing pending");
            }
        }
        panic!("{rules}: no outcome after 40 passes of {count} shards");
    }

    /// A proof split deeper than the one before reads the shallower answers from the same CSV
    /// where they decide a position: it asks nothing, and proves the same outcome. Split
    /// deeper on its own it asks other positions, so the test can tell the difference.
    #[test]
    fn a_deeper_split_goes_on_from_shallower_answers() {
        for (rules, outcome) in solved_variations(&[(3, 3), (3, 4)]) {
            let csv = fresh_csv();
            let shallow = proved(rules, 2, &csv, Budget::single(u64::MAX));
            assert_eq!(shallow.result, Some(outcome), "{rules}");
            let deeper = proved(rules, 4, &csv, Budget::single(u64::MAX));
            assert_eq!(
                (deeper.result, deeper.searches),
                (Some(outcome), 0),
                "{rules}"
            );
            std::fs::remove_file(&csv).ok();
            let alone = proved(rules, 4, &csv, Budget::single(u64::MAX));
            assert_eq!(alone.result, Some(outcome), "{rules}");
            assert!(alone.searches > 0, "{rules}");
            std::fs::remove_file(&csv).ok();
        }
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
