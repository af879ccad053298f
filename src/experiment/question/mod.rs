//! One yes-or-no question about a board's empty position, "does this player win on this ply
//! or sooner?", split into the questions a few plies down that decide it. Each of those is one
//! null-window search, and its answer is written to a CSV the moment it is found: a run cut
//! short (a time limit, a session's end) keeps every answer, and a rerun asks only what is
//! left. One monolithic search of the same question keeps nothing when it is cut short, which
//! is what left misère 7x7's game length open after run upon run of hours.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::export::ExportError;
use super::export::csv::LineProblem;
use super::store::{Record, Store};
use crate::engine::notation;
use crate::engine::outcome::{GameResult, Player};
use crate::engine::position::{Column, Position};
use crate::engine::rules::Rules;
use crate::solver::score::{Score, loss_at, win_at};
use crate::solver::{Budget, Solver};

mod watched;

use watched::Watched;

/// The question: does `player` win the game of `rules` on ply `by_ply` or sooner, whatever the
/// other side does (from the empty board, or from a start: see [`Split`])?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    /// The board and its rules.
    pub rules: Rules,
    /// The player asked about.
    pub player: Player,
    /// The last ply on which the win may come.
    pub by_ply: u32,
}

/// One answer kept: whether the score of the position after `moves` (for its side to move)
/// is above `probe`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnswerRow {
    /// The board and rules, as `misere k=4 7x7`: keys and probes mean something only on
    /// their own board, so a file holds the answers of one board.
    pub board: String,
    /// The canonical key of the position (mirror images share it), in hexadecimal.
    pub key: String,
    /// A line that reaches it, in the command line's notation.
    pub moves: String,
    /// The score the question compares with (`win_at(cells, q) = cells + 1 - q` is the score
    /// of a win on ply `q`, its negation a loss on that ply, zero a draw).
    pub probe: i32,
    /// Whether the score is above the probe.
    pub above: bool,
    /// Nodes of the search (zero for an answer above the split's depth, composed from the
    /// rows below it, which count their own).
    pub nodes: u64,
    /// Its wall time in seconds (zero likewise).
    pub seconds: f64,
}

impl Record for AnswerRow {
    type Key = (String, i32);

    fn key(&self) -> (String, i32) {
        (self.key.clone(), self.probe)
    }
}

/// Where an answered position lies in the split, one ply of its line: the move played was the
/// `tried`-th of the `of` distinct moves there (mirror images counted once), in the order they
/// are asked. Along the side that must refute every move, `tried` of `of` says how much of
/// that ply is done; a long question's progress is read from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Branch {
    /// The move's place in the order asked, from 1.
    pub tried: usize,
    /// Distinct moves of the position.
    pub of: usize,
}

/// What a run of [`ask`] tells its caller as it goes.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'r> {
    /// The search of one position of the split begins: the position after `moves` (in the
    /// board's notation), at `place` below the start. Most end at once; one of hours is the
    /// one that began last.
    Searching {
        /// The moves from the empty board.
        moves: &'r str,
        /// Where the position lies in the split, ply by ply.
        place: &'r [Branch],
    },
    /// An answer was found and kept (appended to the run's CSV), at `place` below the start.
    Answered {
        /// The answer as kept.
        row: &'r AnswerRow,
        /// Where the answered position lies in the split, ply by ply.
        place: &'r [Branch],
    },
}

/// How a question is split and kept.
#[derive(Clone, Copy, Debug)]
pub struct Split<'a> {
    /// The split's depth in plies from the empty board: positions this deep are each one
    /// search (a start as deep or deeper is one search itself).
    pub depth: u32,
    /// The CSV the answers are read from and appended to.
    pub answers: &'a Path,
    /// The moves from the empty board to the position asked about (none: the empty board).
    /// Questions from several starts answer one question from the empty board in pieces that
    /// can run side by side (a job array), each with its own CSV.
    pub start: &'a [Column],
    /// Other CSVs of answers about the same board, read and never written (another task's,
    /// which may be appending to it now: its last line is read once complete).
    pub known: &'a [PathBuf],
    /// A folder of answer CSVs: those about this board (by the board their rows name) are
    /// read as the `known` files are; other boards' are left out, and so is `answers`.
    pub known_dir: Option<&'a Path>,
    /// The least time between two looks at the `known` files and the `known_dir` folder for
    /// answers written since the last: a file new or grown is read again, so that a worker
    /// beside this run feeds it without a restart.
    pub reread: Duration,
    /// The time for the whole run (none: no limit).
    pub time: Option<Duration>,
    /// Scouting: a cap in search nodes (none: no scouting). At a position one or two plies
    /// above the depth, every move is first tried with the searches below it capped, and only
    /// the moves it left open are tried again without the cap. The side that needs one good
    /// move then takes one settled cheaply rather than the first in the order, whose pieces
    /// may take many times as long. A capped search that passes the cap keeps nothing but
    /// what the solver's table learned (counted in [`Asked::capped`]).
    pub scout: Option<u64>,
}

/// The least time between two looks at the other runs' answers by default: a look costs a
/// folder's listing, small beside a search, yet thousands of searches take milliseconds.
pub const REREAD: Duration = Duration::from_secs(10);

impl<'a> Split<'a> {
    /// A split `depth` plies deep from the empty board, kept in `answers`, with no other CSV
    /// (looked at again every [`REREAD`] when some are given) and no time limit.
    pub fn new(depth: u32, answers: &'a Path) -> Split<'a> {
        Split {
            depth,
            answers,
            start: &[],
            known: &[],
            known_dir: None,
            reread: REREAD,
            time: None,
            scout: None,
        }
    }
}

/// What a run found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Asked {
    /// The answer to the question; `None` when the time ran out first (a rerun goes on).
    pub answer: Option<bool>,
    /// Answers the run read from the CSV and used.
    pub reused: usize,
    /// Searches the run finished (each written to the CSV).
    pub searched: usize,
    /// Their nodes.
    pub nodes: u64,
    /// Their time in seconds.
    pub seconds: f64,
    /// Nodes of every answer in the CSV, earlier runs' included: what the question cost so far.
    pub all_nodes: u64,
    /// Their time in seconds.
    pub all_seconds: f64,
    /// Nodes of the search the time cut short, which kept nothing (zero when none was).
    pub dropped_nodes: u64,
    /// Its time in seconds until the deadline stopped it.
    pub dropped_seconds: f64,
    /// Scouting searches that passed the cap ([`Split::scout`]), each asked without it later if
    /// the answer needed it.
    pub capped: usize,
    /// Their nodes, up to the cap.
    pub capped_nodes: u64,
    /// Their time in seconds.
    pub capped_seconds: f64,
    /// Files of answers read besides the run's own (given, and found in the folder by the
    /// run's end).
    pub known_files: usize,
}

/// Answers `question` from the start of `split` by alpha-beta down to the split's depth,
/// asking the solver about the positions that deep (null-window searches) only as the answer
/// needs them, within the split's time; at each position a move that the answers kept settle
/// alone is taken before any search, wherever it stands in the order. Answers are read from
/// the split's CSVs and appended to its own; `on_progress` is told of each search as it
/// begins and each new answer ([`Progress`]). The other CSVs are looked at again while the run
/// goes on (at most every `split.reread`), and answers written to them since are used.
///
/// # Errors
/// [`ExportError`] when a CSV cannot be read or written, or holds another board's answers.
///
/// # Panics
/// If the start is not a line of legal moves of the board (the command line checks it first).
pub fn ask(
    question: Question,
    split: &Split<'_>,
    solver: &mut Solver,
    on_progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Asked, ExportError> {
    let store = Store::<AnswerRow>::open(split.answers)?;
    let board = question.rules.to_string();
    let rows = store.rows()?;
    check_board(split.answers, &rows, &board)?;
    let earlier_nodes = rows.iter().map(|r| r.nodes).sum::<u64>();
    let earlier_seconds = rows.iter().map(|r| r.seconds).sum::<f64>();
    let mut watched = Watched::new(
        board,
        split.known,
        split.known_dir,
        split.answers,
        split.reread,
    );
    let kept = watched.look()?;
    let mut asker = Asker {
        rules: question.rules,
        depth: split.depth,
        deadline: split.time.map(|t| Instant::now() + t),
        known: HashMap::new(),
        lines: HashSet::new(),
        watched,
        memo: HashMap::new(),
        store,
        solver,
        on_progress,
        path: Vec::new(),
        scout: split.scout,
        capped: HashSet::new(),
        asked: Asked::default(),
        failed: None,
    };
    for row in rows.into_iter().chain(kept) {
        asker.remember(row);
    }
    let mut root = Position::new(question.rules);
    for &column in split.start {
        root = root.played(column).expect("a legal start");
    }
    // "`player` wins on ply `by_ply` or sooner" is "the side to move's score is at least the
    // score of that win" when `player` is to move, and "at most the score of that loss" when
    // the other side is.
    let win = win_at(question.rules.cells(), question.by_ply);
    let asks_mover = root.to_move() == question.player;
    let probe = if asks_mover { win - 1 } else { -win };
    let above = asker.answer(&root, &mut split.start.to_vec(), probe);
    if let Some(e) = asker.failed {
        return Err(e);
    }
    let answer = above.map(|above| above == asks_mover);
    let asked = asker.asked;
    Ok(Asked {
        answer,
        known_files: asker.watched.count(),
        all_nodes: earlier_nodes + asked.nodes,
        all_seconds: earlier_seconds + asked.seconds,
        ..asked
    })
}

/// The CSVs in `dir` that hold answers about the board of `rules` (named in their rows' first
/// column), sorted by name, leaving out `own` (a run's own `--answers`, which it reads
/// anyway), files with no row yet and CSVs of other boards (whose number is returned too), so
/// that one folder can keep the answers of several boards' questions.
///
/// # Errors
/// [`ExportError::Io`] when `dir` or a CSV in it cannot be read, [`ExportError::Unreadable`]
/// for a CSV in it that is not a file of answers, or one about the board with a row about
/// another.
pub fn known_in(
    dir: &Path,
    rules: Rules,
    own: &Path,
) -> Result<(Vec<PathBuf>, usize), ExportError> {
    let mut watched = Watched::new(rules.to_string(), &[], Some(dir), own, REREAD);
    watched.look()?;
    let others = watched.others();
    Ok((watched.about, others))
}

/// The columns of an answers CSV, in order.
const ANSWER_COLUMNS: &[&str] = &[
    "board", "key", "moves", "probe", "above", "nodes", "seconds",
];

/// Refuses `rows` of `path` where one is about another board than `board`.
fn check_board(path: &Path, rows: &[AnswerRow], board: &str) -> Result<(), ExportError> {
    match rows.iter().enumerate().find(|(_, r)| r.board != board) {
        None => Ok(()),
        Some((i, row)) => Err(ExportError::Unreadable {
            path: path.display().to_string(),
            line: i as u64 + 2,
            problem: LineProblem {
                field: Some("board".into()),
                message: format!(
                    "an answer about {}, not {board}: give each board a file of its own",
                    row.board
                ),
            },
        }),
    }
}

/// Plies above the split's depth within which positions are scouted ([`Split::scout`]): the
/// choice of a move whose pieces are one or two plies below. Higher up, a capped pass would
/// walk a large part of the question before any piece is searched in full, and a rerun would
/// repeat every capped search it made, which is not kept.
const SCOUTED_PLIES: u32 = 2;

/// What a look at a position found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    /// Whether its score is above the probe.
    Answer(bool),
    /// A search below it passed the scouting cap and left the answer open.
    Capped,
}

/// The state of one run.
struct Asker<'a> {
    rules: Rules,
    depth: u32,
    deadline: Option<Instant>,
    /// Answers in the CSVs, by canonical key and probe.
    known: HashMap<(String, i32), bool>,
    /// The canonical keys of the positions on the lines of those answers (from the empty
    /// board to the answered position): where a proof from the kept answers looks first
    /// ([`Asker::proves`]), since an earlier walk went that way.
    lines: HashSet<String>,
    /// The other runs' CSVs, looked at again for answers written since.
    watched: Watched,
    /// Answers found above the searched positions in this run (each also appended to the CSV
    /// as a row of no nodes, so that a rerun, or a run above a later move, reads it).
    memo: HashMap<(String, i32), bool>,
    store: Store<AnswerRow>,
    solver: &'a mut Solver,
    on_progress: &'a mut dyn FnMut(Progress<'_>),
    /// The place of the position under way, ply by ply.
    path: Vec<Branch>,
    /// The cap of a scouting search, in nodes (`None`: no scouting; see [`Split::scout`]).
    scout: Option<u64>,
    /// The positions (and probes) whose search passed the scouting cap: not searched capped
    /// again.
    capped: HashSet<(String, i32)>,
    asked: Asked,
    failed: Option<ExportError>,
}

impl Asker<'_> {
    /// Whether the score of `pos` (reached by `moves`) is above `probe`; `None` when the time
    /// ran out (or a write failed) before it was known.
    fn answer(&mut self, pos: &Position, moves: &mut Vec<Column>, probe: Score) -> Option<bool> {
        match self.above(pos, moves, probe, false)? {
            Look::Answer(answer) => Some(answer),
            Look::Capped => unreachable!("a look without the cap settles every position"),
        }
    }

    /// Whether the score of `pos` (reached by `moves`) is above `probe`, with every search
    /// within the scouting cap when `scouting` ([`Look::Capped`] when one passed it and left
    /// the answer open); `None` when the time ran out (or a write failed) before it was known.
    fn above(
        &mut self,
        pos: &Position,
        moves: &mut Vec<Column>,
        probe: Score,
        scouting: bool,
    ) -> Option<Look> {
        self.learn()?;
        let mut used = 0;
        let key = match self.answered(pos, probe, &mut used) {
            Ok(answer) => {
                self.asked.reused += used;
                return Some(Look::Answer(answer));
            }
            Err(key) => key,
        };
        if moves.len() as u32 >= self.depth {
            return self.search(pos, moves, key, scouting);
        }
        // Above the probe exactly when some move leaves the opponent at or below its
        // negation. Mirror images of a position ask the same question: one is enough.
        let mut seen = Vec::new();
        let mut children = Vec::new();
        // The search's own order: the likeliest refutation first.
        for column in self.solver.move_order(pos, moves.last().copied()) {
            let child = pos.played(column).expect("legal column");
            let image = child.canonical_key().0;
            if !seen.contains(&image) {
                seen.push(image);
                children.push((column, child));
            }
        }
        // A child the kept answers settle alone wins the node without a search, wherever it
        // stands in the order: answers from a run under a later move (`--moves`), say.
        let plies = moves.len() + 1;
        let mut budget = PROOF_BUDGET;
        for (_, child) in &children {
            let mut used = 0;
            if self.proves(child, -probe - 1, plies, false, &mut budget, &mut used) {
                self.asked.reused += used;
                return self.compose(moves, key, true);
            }
        }
        // Near the split's depth, with a cap, every move is first tried with capped searches
        // below it: a move settled cheaply is found before one earlier in the order whose
        // pieces take hours. Capped mode is not nested: the moves below are tried once each.
        let near = self.depth - moves.len() as u32 <= SCOUTED_PLIES;
        let passes: &[bool] = if scouting {
            &[true]
        } else if self.scout.is_some() && near && children.len() > 1 {
            &[true, false]
        } else {
            &[false]
        };
        match self.first_refuted(&children, moves, probe, passes)? {
            Look::Answer(answer) => self.compose(moves, key, answer),
            Look::Capped => Some(Look::Capped),
        }
    }

    /// Whether one of `children` (each a move and the position it leads to, from the position
    /// reached by `moves`) leaves the opponent at or below `-probe - 1`, trying them in order
    /// once a pass (capped searches in a pass marked `true`; a later pass tries only the moves
    /// an earlier one left open); [`Look::Capped`] when a capped pass left one open and no
    /// later pass settled it. `None` when the time ran out or a write failed.
    fn first_refuted(
        &mut self,
        children: &[(Column, Position)],
        moves: &mut Vec<Column>,
        probe: Score,
        passes: &[bool],
    ) -> Option<Look> {
        let of = children.len();
        let mut open: Vec<usize> = (0..of).collect();
        for &capped in passes {
            let mut left_open = Vec::new();
            for i in open {
                let (column, child) = &children[i];
                self.path.push(Branch { tried: i + 1, of });
                moves.push(*column);
                let look = self.above(child, moves, -probe - 1, capped);
                moves.pop();
                self.path.pop();
                match look? {
                    Look::Answer(false) => return Some(Look::Answer(true)),
                    Look::Answer(true) => {}
                    Look::Capped => left_open.push(i),
                }
            }
            open = left_open;
        }
        Some(if open.is_empty() {
            Look::Answer(false)
        } else {
            Look::Capped
        })
    }

    /// Takes the answers the other runs wrote since the last look, when one is due; `None`
    /// when a file could not be read (the error is kept for the caller).
    fn learn(&mut self) -> Option<()> {
        match self.watched.look_if_due() {
            Ok(rows) => {
                for row in rows {
                    self.remember(row);
                }
                Some(())
            }
            Err(e) => {
                self.failed = Some(e);
                None
            }
        }
    }

    /// Keeps the answer of `row`, and the positions on its line (a line that does not read as
    /// moves of the board adds only the answer: a walk through it is lost, not a result).
    fn remember(&mut self, row: AnswerRow) {
        if let Ok((_, columns)) = notation::parse(self.rules, &row.moves) {
            let mut pos = Position::new(self.rules);
            self.lines.insert(key_of(&pos));
            for column in columns {
                let Ok(next) = pos.played(column) else { break };
                pos = next;
                self.lines.insert(key_of(&pos));
            }
        }
        self.known.insert((row.key, row.probe), row.above);
    }

    /// Whether the score of `pos` is above `probe` when that is known without a search: a
    /// finished game's score, an answer found above it in this run, or one kept (a search of
    /// this position kept from a run with a shallower split answers it too), counted in `used`;
    /// else the position's key for the answer.
    fn answered(
        &self,
        pos: &Position,
        probe: Score,
        used: &mut usize,
    ) -> Result<bool, (String, i32)> {
        if pos.is_over() {
            return Ok(final_score(pos) > probe);
        }
        let key = (key_of(pos), probe);
        if let Some(&answer) = self.memo.get(&key) {
            return Ok(answer);
        }
        match self.known.get(&key) {
            Some(&answer) => {
                *used += 1;
                Ok(answer)
            }
            None => Err(key),
        }
    }

    /// Whether the answers kept and found so far show, with no search, that the score of `pos`
    /// (`plies` plies from the empty board) is above `probe` (`want`) or not above it (not
    /// `want`): some move leaving the opponent not above `-probe - 1`, or every move leaving
    /// it above. Rows are keyed by the position, not by the order of its moves, so a proof
    /// may run through positions no kept line passes (answers found under another order);
    /// it looks no deeper than the split and at no more than `budget` positions (spent as it
    /// goes: false once none is left), trying first the moves whose positions lie on kept
    /// lines where one move is enough, and last where every move is needed, so that a proof
    /// that fails fails early. `used` counts the kept answers it read.
    fn proves(
        &self,
        pos: &Position,
        probe: Score,
        plies: usize,
        want: bool,
        budget: &mut u64,
        used: &mut usize,
    ) -> bool {
        match self.answered(pos, probe, used) {
            Ok(answer) => return answer == want,
            Err(_) if plies as u32 >= self.depth || *budget == 0 => return false,
            Err(_) => *budget -= 1,
        }
        let mut seen = Vec::new();
        let mut children = Vec::new();
        for column in pos.legal_columns() {
            let child = pos.played(column).expect("legal column");
            let key = key_of(&child);
            if !seen.contains(&key) {
                children.push((self.lines.contains(&key) != want, child));
                seen.push(key);
            }
        }
        children.sort_by_key(|(later, _)| *later);
        let mut below =
            |child: &Position| self.proves(child, -probe - 1, plies + 1, !want, budget, used);
        if want {
            children.iter().any(|(_, c)| below(c))
        } else {
            children.iter().all(|(_, c)| below(c))
        }
    }

    /// Keeps `answer`, found for the position reached by `moves` (with `key`) from the answers
    /// below it, in this run's memo and as a row of its own with no nodes (its searches are
    /// counted in their rows): a rerun, or a run above it whose walk would reach it only
    /// through other positions, reads it at once. `None` when the row could not be written.
    fn compose(&mut self, moves: &[Column], key: (String, i32), answer: bool) -> Option<Look> {
        let row = AnswerRow {
            board: self.rules.to_string(),
            key: key.0.clone(),
            moves: notation::format(self.rules, moves),
            probe: key.1,
            above: answer,
            nodes: 0,
            seconds: 0.0,
        };
        if let Err(e) = self.store.append(&row) {
            self.failed = Some(e);
            return None;
        }
        self.memo.insert(key, answer);
        Some(Look::Answer(answer))
    }

    /// The answer for the position `pos` at the split's depth, by a null-window search within
    /// the time left (and the scouting cap when `scouting`), whose answer is appended to the
    /// CSV; [`Look::Capped`] when the search passed the cap.
    fn search(
        &mut self,
        pos: &Position,
        moves: &[Column],
        (key, probe): (String, i32),
        scouting: bool,
    ) -> Option<Look> {
        let cap = self.scout.filter(|_| scouting);
        if cap.is_some() && self.capped.contains(&(key.clone(), probe)) {
            return Some(Look::Capped);
        }
        let time = match self.deadline {
            Some(deadline) => Some(deadline.checked_duration_since(Instant::now())?),
            None => None,
        };
        let moves = notation::format(self.rules, moves);
        (self.on_progress)(Progress::Searching {
            moves: &moves,
            place: &self.path,
        });
        let (start, before) = (Instant::now(), self.solver.nodes());
        let budget = Budget { nodes: cap, time };
        let Some(above) = self.solver.limited(budget, |s| s.above(pos, probe)) else {
            let (nodes, seconds) = (self.solver.nodes() - before, start.elapsed().as_secs_f64());
            if cap.is_some() && self.deadline.is_none_or(|d| Instant::now() < d) {
                self.asked.capped += 1;
                self.asked.capped_nodes += nodes;
                self.asked.capped_seconds += seconds;
                self.capped.insert((key, probe));
                return Some(Look::Capped);
            }
            // Said to the user: a run cut short in its first search has found nothing, yet
            // spent its time.
            self.asked.dropped_nodes = nodes;
            self.asked.dropped_seconds = seconds;
            return None;
        };
        let row = AnswerRow {
            board: self.rules.to_string(),
            key,
            moves,
            probe,
            above,
            nodes: self.solver.nodes() - before,
            seconds: start.elapsed().as_secs_f64(),
        };
        if let Err(e) = self.store.append(&row) {
            self.failed = Some(e);
            return None;
        }
        self.asked.searched += 1;
        self.asked.nodes += row.nodes;
        self.asked.seconds += row.seconds;
        (self.on_progress)(Progress::Answered {
            row: &row,
            place: &self.path,
        });
        self.remember(row);
        Some(Look::Answer(above))
    }
}

/// Positions a proof from the kept answers may look at, per position of the walk: a few
/// tenths of a second, where a proof through the answers of an earlier run of the same
/// question (tens of positions a ply, four plies) saves its searches, hours on the misère ring
/// of 35 cells.
const PROOF_BUDGET: u64 = 200_000;

/// The canonical key of `pos` as the answers keep it, in hexadecimal.
fn key_of(pos: &Position) -> String {
    format!("{:x}", pos.canonical_key().0)
}

/// The score of a finished game for the side to move of its last position.
fn final_score(pos: &Position) -> Score {
    let (cells, ply) = (pos.rules().cells(), pos.plies());
    match pos.outcome().map(|o| o.result) {
        Some(GameResult::Win(p)) if p == pos.to_move() => win_at(cells, ply),
        Some(GameResult::Win(_)) => loss_at(cells, ply),
        _ => 0,
    }
}
