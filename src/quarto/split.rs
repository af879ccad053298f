//! Big solves split by their first turns: the positions a few turns into the game, one per
//! class of symmetric positions, solved one by one into a CSV that a rerun resumes, in
//! shards, and merged back into the value of the empty board.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::experiment::export::csv::{LineProblem, read_numbered_rows};
use crate::experiment::export::{ExportError, labels};
use crate::experiment::store::{Record, Store};
use crate::{Depth, GameResult, Player, Value};

use super::notation;
use super::position::{Position, Turn};
use super::rules::Rules;
use super::solver::Solver;
use super::symmetry::Canonizer;

/// A position after the first turns of a game, standing for its class of symmetric
/// positions.
#[derive(Clone, Debug)]
pub struct Opening {
    /// Its place in the list (the order is fixed by the rules and the number of turns).
    pub index: usize,
    /// Its canonical key in hexadecimal: the same for every position of the class.
    pub key: String,
    /// A game record that reaches it.
    pub record: String,
    /// The position.
    pub position: Position,
}

/// The canonical key of a position, as text; `h` at the end when a piece is in hand (the
/// hand's attributes read as zeros in the key, so without the mark the empty board before
/// and after the opening handover would share it).
fn key_text(canon: &Canonizer, pos: &Position) -> String {
    let key = canon.key(pos.board(), pos.hand());
    let hand = if pos.hand().is_some() { "h" } else { "" };
    format!("{:04x}{:017x}{hand}", key.mask, key.columns)
}

/// The positions after `turns` turns from the empty board whose game goes on, one per class
/// under the symmetries, in the order a breadth-first walk over legal turns meets them.
pub fn openings(rules: Rules, turns: u32) -> Vec<Opening> {
    let canon = Canonizer::new(&rules);
    let mut level: Vec<(Position, Vec<Turn>)> = vec![(Position::new(rules), Vec::new())];
    for _ in 0..turns {
        let mut seen = HashMap::new();
        let mut next = Vec::new();
        for (pos, record) in &level {
            for turn in pos.legal_turns() {
                let child = pos.play(turn).expect("legal turn");
                if child.is_over() {
                    continue;
                }
                if seen.insert(key_text(&canon, &child), ()).is_none() {
                    let mut record = record.clone();
                    record.push(turn);
                    next.push((child, record));
                }
            }
        }
        level = next;
    }
    level
        .into_iter()
        .enumerate()
        .map(|(index, (position, record))| Opening {
            index,
            key: key_text(&canon, &position),
            record: notation::format(&rules, &record),
            position,
        })
        .collect()
}

/// Which openings a split solve takes: every class after `turns` turns, or a random sample
/// of them (for games too large to solve every class).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// Turns played in each opening.
    pub turns: u32,
    /// `Some((count, seed))`: `count` distinct classes reached by random turns seeded with
    /// `seed` (games that end before are skipped) instead of every class.
    pub sample: Option<(usize, u64)>,
}

impl Selection {
    /// The openings selected, in a fixed order.
    pub fn list(&self, rules: Rules) -> Vec<Opening> {
        match self.sample {
            None => openings(rules, self.turns),
            Some((count, seed)) => sample(rules, self.turns, count, seed),
        }
    }
}

/// `count` distinct classes of positions after `turns` turns, each reached by uniformly
/// random turns among those that do not end the game (fewer if 100 tries per class find no
/// new one).
fn sample(rules: Rules, turns: u32, count: usize, seed: u64) -> Vec<Opening> {
    let canon = Canonizer::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashMap::new();
    let mut found = Vec::new();
    for _ in 0..count * 100 {
        if found.len() == count {
            break;
        }
        let mut pos = Position::new(rules);
        let mut record = Vec::new();
        while pos.plies() < turns {
            let going_on: Vec<(Turn, Position)> = pos
                .legal_turns()
                .into_iter()
                .map(|t| (t, pos.play(t).expect("legal")))
                .filter(|(_, p)| !p.is_over())
                .collect();
            if going_on.is_empty() {
                break;
            }
            let (turn, next) = going_on[rng.random_range(0..going_on.len())].clone();
            record.push(turn);
            pos = next;
        }
        let key = key_text(&canon, &pos);
        if pos.plies() == turns && seen.insert(key.clone(), ()).is_none() {
            found.push(Opening {
                index: found.len(),
                key,
                record: notation::format(&rules, &record),
                position: pos,
            });
        }
    }
    found
}

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

/// Which openings one process takes: shard `index` (from 1) of `count` takes the openings
/// whose index is `index - 1` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 1.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

/// A shard written other than `I/N` with 1 <= I <= N.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad shard {0:?}: write I/N with 1 <= I <= N, e.g. 2/4")]
pub struct ShardError(pub String);

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(text.to_string());
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The whole list in one shard.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Whether the opening of this index belongs to the shard.
    pub fn takes(self, index: usize) -> bool {
        index % self.count == self.index - 1
    }
}

/// How to run a split solve.
#[derive(Clone, Debug)]
pub struct SplitPlan {
    /// The openings.
    pub selection: Selection,
    /// Outcome only, or remoteness too.
    pub depth: Depth,
    /// Which openings this run takes.
    pub shard: Shard,
    /// Transposition table bytes per thread.
    pub table_bytes: usize,
    /// Positions each opening may search before it is recorded as unfinished.
    pub node_limit: Option<u64>,
    /// Threads, each with its own solver, taking openings in turn.
    pub threads: usize,
}

/// What a split run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitRun {
    /// Openings in the whole list.
    pub openings: usize,
    /// Openings of this shard.
    pub in_shard: usize,
    /// Openings of this shard already answered in the CSV, skipped.
    pub skipped: usize,
    /// Openings solved now.
    pub solved: usize,
    /// Openings stopped by the node limit now.
    pub unfinished: usize,
}

/// Solves the openings of `plan`'s shard that `store` (opened by the caller, so that a CSV
/// that cannot be used is refused before anything else) does not answer yet, appending a row
/// as each finishes (or hits the node limit), and calls `on_row` with it.
///
/// # Errors
/// [`ExportError`] when the CSV cannot be read or written.
pub fn run(
    rules: Rules,
    plan: &SplitPlan,
    store: &Store<OpeningRow>,
    on_row: &(dyn Fn(&OpeningRow) + Sync),
) -> Result<SplitRun, ExportError> {
    let all = plan.selection.list(rules);
    let answered: HashMap<String, ()> = store
        .rows()?
        .into_iter()
        .filter(|r| r.answers(plan.depth))
        .map(|r| (r.key, ()))
        .collect();
    let mine: Vec<&Opening> = all.iter().filter(|o| plan.shard.takes(o.index)).collect();
    let todo: Vec<&Opening> = mine
        .iter()
        .copied()
        .filter(|o| !answered.contains_key(&o.key))
        .collect();
    let next = AtomicUsize::new(0);
    let counts = Mutex::new((0usize, 0usize));
    let failure: Mutex<Option<ExportError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..plan.threads.max(1) {
            scope.spawn(|| {
                let mut solver = Solver::new(rules, plan.table_bytes);
                if let Some(limit) = plan.node_limit {
                    solver = solver.with_node_limit(limit);
                }
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(opening) = todo.get(i) else { break };
                    let start = std::time::Instant::now();
                    let solved = solver.solve(&opening.position, plan.depth);
                    let (outcome, remoteness, nodes) = match solved {
                        Ok(s) => (Some(s.value.result), s.value.remoteness, s.nodes),
                        Err(e) => (None, None, e.limit),
                    };
                    let row = OpeningRow {
                        index: opening.index,
                        key: opening.key.clone(),
                        record: opening.record.clone(),
                        outcome,
                        remoteness,
                        nodes,
                        seconds: start.elapsed().as_secs_f64(),
                    };
                    if let Err(e) = store.append(&row) {
                        *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        break;
                    }
                    let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
                    if row.value().is_some() {
                        c.0 += 1
                    } else {
                        c.1 += 1
                    }
                    drop(c);
                    on_row(&row);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let (solved, unfinished) = counts.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(SplitRun {
        openings: all.len(),
        in_shard: mine.len(),
        skipped: mine.len() - todo.len(),
        solved,
        unfinished,
    })
}

/// What the rows of a split solve say together.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
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

/// Merges the rows of one or more CSV files of a split solve: the value of each opening,
/// and when every class was selected, by minimax over the first turns, the value of the
/// empty board.
///
/// # Errors
/// [`ExportError`] when a file cannot be read.
pub fn merge(rules: Rules, selection: Selection, paths: &[&Path]) -> Result<Merged, ExportError> {
    let turns = selection.turns;
    let mut rows: HashMap<String, OpeningRow> = HashMap::new();
    for path in paths {
        for row in read_openings(rules, turns, path)? {
            // A finished row wins over an unfinished one; an exact one over a weak one.
            let better = |old: &OpeningRow| {
                (row.value().is_some(), row.remoteness.is_some())
                    > (old.value().is_some(), old.remoteness.is_some())
            };
            if rows.get(&row.key).is_none_or(better) {
                rows.insert(row.key.clone(), row);
            }
        }
    }
    let list = selection.list(rules);
    // The finished rows of the openings, with their values.
    let found: Vec<(&OpeningRow, Value)> = list
        .iter()
        .filter_map(|o| rows.get(&o.key))
        .filter_map(|r| Some((r, r.value()?)))
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
    let root = (found.len() == list.len() && selection.sample.is_none()).then(|| {
        let canon = Canonizer::new(&rules);
        let scores: HashMap<String, i32> = found
            .iter()
            .map(|&(r, value)| (r.key.clone(), p1_score(&rules, value, turns, exact)))
            .collect();
        let mut walk = Walk {
            rules: &rules,
            canon: &canon,
            turns,
            scores,
            exact,
        };
        let score = walk.score(&Position::new(rules));
        let result = match score.signum() {
            1 => GameResult::Win(Player::P1),
            -1 => GameResult::Win(Player::P2),
            _ => GameResult::Draw,
        };
        // A draw lasts the whole game, so its remoteness is known even from weak rows.
        let remoteness = match (score, exact) {
            (0, _) => Some(rules.last_ply()),
            (_, true) => Some(rules.last_ply() + 1 - score.unsigned_abs()),
            (_, false) => None,
        };
        Value { result, remoteness }
    });
    Ok(Merged {
        openings: list.len(),
        solved: found.len(),
        counts,
        root,
        nodes: found.iter().map(|(r, _)| r.nodes).sum(),
        seconds: found.iter().map(|(r, _)| r.seconds).sum(),
    })
}

/// The rows of a CSV of a split solve of `rules` after `turns` turns, each remoteness checked
/// against the turns left (the score of the empty board is computed from them).
///
/// # Errors
/// [`ExportError`] naming the file, the line and the field of the first row that is wrong.
fn read_openings(rules: Rules, turns: u32, path: &Path) -> Result<Vec<OpeningRow>, ExportError> {
    let left = rules.last_ply().saturating_sub(turns);
    let mut rows = Vec::new();
    for (line, row) in read_numbered_rows::<OpeningRow>(path)? {
        if let Some(plies) = row.remoteness.filter(|&r| r > left) {
            return Err(ExportError::Unreadable {
                path: path.display().to_string(),
                line,
                problem: LineProblem {
                    field: Some("remoteness".to_string()),
                    message: format!(
                        "{plies}: at most {left} turns are left after {turns} of {rules}"
                    ),
                },
            });
        }
        rows.push(row);
    }
    Ok(rows)
}

/// A value at a position after `plies` turns as a score for P1 (positive when P1 wins,
/// larger the sooner; a game ending at turn q scores `last_ply + 1 - q`), or its sign only.
fn p1_score(rules: &Rules, value: Value, plies: u32, exact: bool) -> i32 {
    let magnitude = match (exact, value.remoteness) {
        (true, Some(r)) => rules.last_ply() as i32 + 1 - (plies + r) as i32,
        _ => 1,
    };
    match value.result {
        GameResult::Win(Player::P1) => magnitude,
        GameResult::Win(Player::P2) => -magnitude,
        GameResult::Draw => 0,
    }
}

/// A minimax walk over the first turns of the game down to the openings.
struct Walk<'a> {
    rules: &'a Rules,
    canon: &'a Canonizer,
    turns: u32,
    /// P1 scores by canonical key: the openings' to start with, then every position walked
    /// (symmetric positions have the same value, so each class is walked once).
    scores: HashMap<String, i32>,
    exact: bool,
}

impl Walk<'_> {
    /// The P1 score of `pos`, by minimax over the turns left until the openings.
    fn score(&mut self, pos: &Position) -> i32 {
        if let Some(outcome) = pos.outcome() {
            let value = Value {
                result: outcome.result,
                remoteness: Some(0),
            };
            return p1_score(self.rules, value, pos.plies(), self.exact);
        }
        let key = key_text(self.canon, pos);
        if let Some(&score) = self.scores.get(&key) {
            return score;
        }
        assert!(pos.plies() < self.turns, "every opening has a score");
        let children = pos
            .legal_turns()
            .into_iter()
            .map(|t| self.score(&pos.play(t).expect("legal")));
        let score = match pos.to_move() {
            Player::P1 => children.max(),
            Player::P2 => children.min(),
        }
        .expect("a game that goes on has turns");
        self.scores.insert(key, score);
        score
    }
}

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
