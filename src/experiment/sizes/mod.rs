//! Who wins, and on which ply the game ends, on every board size: the empty board of each size
//! solved exactly for both rule sets, held against the published normal-rules table and, under
//! misère rules, against Table I and the longest game the paper's deciding strategy allows.
//!
//! Finished boards are appended to `sizes.csv` as they complete (a rerun resumes); boards not
//! settled within the time budget are written to `open.csv` with how far they got (the outcome,
//! when an outcome-only solve finished), and tried again by a rerun.

mod answer;
mod published;
mod report;
mod row;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use super::export::ExportError;
use super::export::csv::write_all;
use super::export::svg::{MapCell, MapLabels, outcome_map};
use super::sweep::{Attempts, Board, Solved, Sweep};
use crate::engine::notation;
use crate::engine::outcome::{GameResult, Player};
use crate::engine::position::{Column, Position};
use crate::engine::rules::{RulesError, Variant};
use crate::solver::{Budget, Depth, Mib, Partial, Solution, Solver, Value};
use crate::strategy::{StrategyName, table1};
use crate::verify::{Claim, Verdict, verify};

pub use answer::{AnswerError, add_answer};
pub(crate) use published::normal_connect_four;
pub use published::{NotPublished, Published};
pub(crate) use report::markdown;
pub use row::{Attempt, Row};

/// The boards of a size table: for each line length, every board with both sides at least
/// `min_side` and a width + height in `sums`, under each of `variants`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeGrid {
    /// Line lengths.
    pub ks: Vec<u32>,
    /// Rule sets.
    pub variants: Vec<Variant>,
    /// The shortest side.
    pub min_side: u32,
    /// The widths + heights covered.
    pub sums: std::ops::RangeInclusive<u32>,
}

impl SizeGrid {
    /// Every board of the grid, small boards first (by cells, then rules, k, width).
    ///
    /// # Errors
    /// [`RulesError`] for a board the engine does not take.
    pub fn boards(&self) -> Result<Vec<Board>, RulesError> {
        let mut boards = Vec::new();
        for &variant in &self.variants {
            for &k in &self.ks {
                for sum in self.sums.clone() {
                    for width in self.min_side..=sum.saturating_sub(self.min_side) {
                        let height = sum - width;
                        let board = Board::flat(variant, k, width, height);
                        board.checked_rules()?;
                        boards.push(board);
                    }
                }
            }
        }
        boards.sort_by_key(|b| (b.width * b.height, b.variant.name(), b.k, b.width));
        Ok(boards)
    }
}

/// How each board is solved.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// Transposition table per board.
    pub table: Mib,
    /// Time for the exact solve of one board, and again for its principal variation; past
    /// it, when the outcome is not known yet, an outcome-only solve gets the same time again.
    pub time: Duration,
}

/// Boards of at most this many cells get the strategy check: the checker visits every
/// position the strategy allows, which grows quickly with the board.
const STRATEGY_CHECK_CELLS: u32 = 48;

/// Larger boards get it too while (h/2 + 1)^w stays under this: under take-even and delayed
/// take-even the opponent's discs and the strategy's replies fill the columns in pairs, so
/// the positions the checker visits number a small multiple of it (misère 5x10: 26,426 for
/// 6^5 = 7,776, 0.04 s; 11x4: 980,509 for 3^11 = 177,147, 1.6 s and 250 MB), where the number
/// of cells says little (both have more than 48).
const STRATEGY_CHECK_PAIRINGS: f64 = 3e5;

/// Whether the strategy check of `board` is cheap enough to run beside its solve.
fn strategy_check_fits(board: Board) -> bool {
    let pairings = f64::from(board.height / 2 + 1).powi(board.width as i32);
    board.width * board.height <= STRATEGY_CHECK_CELLS || pairings <= STRATEGY_CHECK_PAIRINGS
}

/// The paper's take-even or delayed take-even strategy that decides a misère board, and its
/// side, where Table I's proof is one of them (Theorems 1 and 2, Corollaries 1 and 2).
fn deciding_strategy(board: Board) -> Option<(StrategyName, Player)> {
    if board.variant != Variant::Misere {
        return None;
    }
    table1::deciders(board.k, board.width, board.height)
        .into_iter()
        .filter(|d| {
            matches!(
                d.strategy,
                StrategyName::TakeEven | StrategyName::DelayedTakeEven
            )
        })
        .find_map(|d| Some((d.strategy, d.player?)))
}

/// The longest game the opponent can force against the deciding strategy of `board`, when
/// the strategy holds there (`None` when there is none, or the board is too large to check).
fn strategy_longest(board: Board) -> Option<(StrategyName, Player, Option<u32>)> {
    let (name, side) = deciding_strategy(board)?;
    if !strategy_check_fits(board) {
        return Some((name, side, None));
    }
    let mut strategy = name.build(board.rules(), side).ok()?;
    let start = Position::new(board.rules());
    let longest = match verify(strategy.as_mut(), side, Claim::Win, &start, &[]) {
        Verdict::Holds { longest_game, .. } => Some(longest_game),
        Verdict::Refuted { .. } => None,
    };
    Some((name, side, longest))
}

/// The table for `board`: small boards reach far fewer positions than a large table holds, and
/// zeroing a table they cannot fill would cost them more than their search, so the table grows
/// with the board (32 MiB at 16 cells, doubling every 3 cells) up to `most`.
fn table_for(board: Board, most: Mib) -> Mib {
    let cells = board.width * board.height;
    Mib(1usize
        .checked_shl(cells / 3)
        .unwrap_or(usize::MAX)
        .min(most.0)
        .max(16))
}

/// Solves one board: exactly within the time budget (with a principal variation), going on
/// from where `earlier`, an unfinished attempt at it, stopped, and handing `checkpoint` an
/// attempt each time a question narrows what is known or the line gets a move longer; else
/// its outcome alone within the same time again, when the exact solve did not get as far as
/// it.
pub fn solve_board(
    board: Board,
    effort: Effort,
    earlier: Option<&Attempt>,
    checkpoint: &dyn Fn(&Attempt),
) -> Solved<Row, Attempt> {
    let rules = board.rules();
    let empty = Position::new(rules);
    let start = Instant::now();
    let (before_nodes, before_seconds) = earlier.map_or((0, 0.0), |a| (a.nodes, a.seconds_spent()));
    let attempt = |partial: Partial, outcome: Option<GameResult>, nodes: u64, line: &[Column]| {
        let (min, max) = partial.remoteness.unzip();
        Attempt {
            rules: board.variant,
            k: board.k,
            width: board.width,
            height: board.height,
            seconds_each: effort.time.as_secs_f64(),
            outcome,
            remoteness_min: min,
            remoteness_max: max,
            nodes: before_nodes + nodes,
            seconds: Some(round_ms(before_seconds + start.elapsed().as_secs_f64())),
            line: notation::format(rules, line),
        }
    };
    let mut solver = Solver::new(table_for(board, effort.table));
    let budget = Budget::time(effort.time);
    let known = earlier.map_or(Partial::UNKNOWN, Attempt::partial);
    // A start of a line that does not read as moves is not one this sweep wrote: start over.
    let prefix = earlier
        .and_then(|a| notation::parse(rules, &a.line).ok())
        .map_or_else(Vec::new, |(_, moves)| moves);
    let exact = solve_with_line(
        &mut solver,
        &empty,
        (known, &prefix),
        budget,
        &mut |p, n, l| {
            checkpoint(&attempt(p, p.result, n, l));
        },
    );
    let (solution, line) = match exact {
        Ok(found) => found,
        Err((partial, line)) => {
            let outcome = partial.result.or_else(|| {
                solver
                    .limited(budget, |solver| solver.solve_at(&empty, Depth::Weak))
                    .map(|s| s.value.result)
            });
            return Solved::Open(attempt(partial, outcome, solver.nodes(), &line));
        }
    };
    let seconds = round_ms(before_seconds + start.elapsed().as_secs_f64());
    let nodes = before_nodes + solution.nodes;
    Solved::Row(row_of(board, solution, &line, (nodes, seconds), effort))
}

/// The row of `board`, solved as `solution` with its principal variation `line`, after
/// `nodes` and `seconds` in all.
fn row_of(
    board: Board,
    solution: Solution,
    line: &[Column],
    (nodes, seconds): (u64, f64),
    effort: Effort,
) -> Row {
    let rules = board.rules();
    let outcome = solution.value.result;
    let remoteness = solution.value.remoteness.expect("an exact solve");
    let published = (board.variant == Variant::Normal && board.k == 4)
        .then(|| normal_connect_four(board.width, board.height))
        .flatten();
    let paper = (board.variant == Variant::Misere)
        .then(|| table1::predict(board.k, board.width, board.height))
        .flatten();
    let checked = strategy_longest(board);
    Row {
        rules: board.variant,
        k: board.k,
        width: board.width,
        height: board.height,
        cells: rules.cells(),
        outcome,
        remoteness,
        published,
        agree_published: published
            .map(|p| p.result == outcome && p.last.is_none_or(|l| l == remoteness)),
        table1: paper,
        agree_table1: paper.map(|p| p == outcome),
        strategy: checked.map(|(name, side, _)| format!("{name} {side}")),
        strategy_longest: checked.and_then(|(_, _, longest)| longest),
        pv: notation::format(rules, line),
        nodes,
        seconds,
        table_mb: table_for(board, effort.table).0,
        commit: env!("CONNECTK_COMMIT").to_string(),
    }
}

/// The exact value of `pos`, going on from the bounds `known` (see [`Solver::solve_from`],
/// which tells `narrowed`), and then its principal variation, going on from `prefix`, the
/// start of one an earlier attempt found, each within `budget`; else how far it got and the
/// start of the line it had. `narrowed` is told each narrowing of the value and each move the
/// line gains, with the nodes searched so far and the line's start.
fn solve_with_line(
    solver: &mut Solver,
    pos: &Position,
    (known, prefix): (Partial, &[Column]),
    budget: Budget,
    narrowed: &mut dyn FnMut(Partial, u64, &[Column]),
) -> Result<(Solution, Vec<Column>), (Partial, Vec<Column>)> {
    let solution = solver
        .solve_from(pos, known, budget, |partial, nodes| {
            narrowed(partial, nodes, &[]);
        })
        .map_err(|partial| (partial, Vec::new()))?;
    // A value settled without its line is kept as settled: a rerun finds only the line.
    let settled = Partial {
        result: Some(solution.value.result),
        remoteness: solution.value.remoteness.map(|r| (r, r)),
    };
    let mut reached = Vec::new();
    let line = solver.limited(budget, |solver| {
        let mut stepped = |line: &[Column], nodes: u64| {
            reached = line.to_vec();
            narrowed(settled, nodes, line);
        };
        line_going_on(solver, pos, solution.value, prefix, &mut stepped)
    });
    match line {
        Some(line) => Ok((solution, line)),
        None => Err((settled, reached)),
    }
}

/// The principal variation of `pos`, whose exact value is `value`, going on from the end of
/// `prefix` when it is the start of one (each of its moves keeps the value, as a line found
/// earlier does: checked at its end), else from `pos`; `stepped` is told the whole line so far
/// after each move.
fn line_going_on(
    solver: &mut Solver,
    pos: &Position,
    value: Value,
    prefix: &[Column],
    stepped: &mut dyn FnMut(&[Column], u64),
) -> Vec<Column> {
    // The line from the start's end keeps the value it is given, and at each step finds a move
    // that achieves it; whether the start's end can do better (a start that left the
    // principal variation, as in an edited file) takes one search of its own. Only the end is
    // checked: each position of the start would cost a search as large as the board's solve
    // near the root, and a start this program wrote kept the value at every move.
    let after =
        after_prefix(pos, value, prefix).filter(|(at, left)| solver.no_better_than(at, *left));
    let rest = after.and_then(|(at, left)| {
        let mut tell = |rest: &[Column], nodes: u64| stepped(&[prefix, rest].concat(), nodes);
        solver.line_keeping(&at, left, prefix.last().copied(), &mut tell)
    });
    // A start that was not a principal variation's (an edited file) shows in most cases as
    // a line that ends the game otherwise than `value` says; the line is then found afresh.
    let line = rest.map(|rest| [prefix, &rest].concat());
    match line.filter(|line| ends_as(pos, line, value)) {
        Some(line) => line,
        None => solver
            .line_keeping(pos, value, None, stepped)
            .unwrap_or_else(|| solver.principal_variation(pos)),
    }
}

/// Whether `line` from `pos` ends the game as `value` says: with its result, after its
/// remoteness in plies.
fn ends_as(pos: &Position, line: &[Column], value: Value) -> bool {
    let mut end = *pos;
    line.iter().all(|&column| end.play(column).is_ok())
        && end.outcome().map(|o| o.result) == Some(value.result)
        && u32::try_from(line.len()).ok() == value.remoteness
}

/// The position after `prefix` from `pos` and the value a line keeping `value` has there (the
/// same result, with as many plies less), when `prefix` is a non-empty sequence of moves that
/// is shorter than the game and does not end it.
fn after_prefix(pos: &Position, value: Value, prefix: &[Column]) -> Option<(Position, Value)> {
    if prefix.is_empty() {
        return None;
    }
    let plies = u32::try_from(prefix.len()).ok()?;
    let left = value.remoteness?.checked_sub(plies).filter(|&l| l > 0)?;
    let mut at = *pos;
    for &column in prefix {
        at.play(column).ok()?;
    }
    (!at.is_over()).then_some((
        at,
        Value {
            result: value.result,
            remoteness: Some(left),
        },
    ))
}

/// `seconds` to the millisecond, as the CSVs keep them.
fn round_ms(seconds: f64) -> f64 {
    (seconds * 1e3).round() / 1e3
}

/// The size tables: the empty board of every size of a grid solved exactly.
#[derive(Clone, Debug)]
pub struct Sizes {
    /// The boards; `None` for a merge of shards, which lists only what the rows hold.
    pub grid: Option<SizeGrid>,
    /// How each board is solved.
    pub effort: Effort,
}

impl Sizes {
    /// A merge of shards.
    pub fn merge() -> Sizes {
        let effort = Effort {
            table: Mib(0),
            time: Duration::ZERO,
        };
        Sizes { grid: None, effort }
    }
}

impl Sweep for Sizes {
    const NAME: &'static str = "sizes";
    const ATTEMPTS: Option<&'static str> = Some("open");
    type Job = Board;
    type Row = Row;
    type Attempt = Attempt;
    type Worker = ();

    fn jobs(&self) -> Result<Vec<Board>, RulesError> {
        self.grid.as_ref().map_or(Ok(Vec::new()), SizeGrid::boards)
    }

    fn key(board: &Board) -> Board {
        *board
    }

    fn worker(&self) {}

    /// Goes on from the furthest earlier attempt at the board, if any, and writes down an
    /// attempt each time the exact solve narrows the board's value.
    fn solve(
        &self,
        _: &mut (),
        board: &Board,
        attempts: &Attempts<'_, Attempt>,
    ) -> Solved<Row, Attempt> {
        let furthest = attempts
            .earlier()
            .iter()
            .filter(|a| a.board() == *board)
            .max_by_key(|a| a.reach());
        solve_board(*board, self.effort, furthest, &|a| attempts.checkpoint(a))
    }

    /// Open boards are listed from their attempts, not as missing.
    fn missing(&self, _: &[Row]) -> Result<Vec<Board>, RulesError> {
        Ok(Vec::new())
    }

    /// Writes `sizes.csv` (sorted), `open.csv` (the attempts of boards still without a row),
    /// `sizes.md` and one outcome map per rule set and k.
    fn publish(
        &self,
        dir: &Path,
        mut rows: Vec<Row>,
        open: Vec<Attempt>,
        _: &[Board],
        command: &str,
    ) -> Result<String, ExportError> {
        rows.sort_by_key(|r| (r.rules.name(), r.k, r.width, r.height));
        let open = still_open(open, &rows);
        write_all(&dir.join("sizes.csv"), &rows)?;
        write_all(&dir.join("open.csv"), &open)?;
        let report = markdown(&rows, &open, command);
        report.document.write(&dir.join("sizes.md"))?;
        let mut maps: Vec<(Variant, u32)> = rows.iter().map(|r| (r.rules, r.k)).collect();
        maps.dedup();
        for (rules, k) in maps {
            outcome_map_of(dir, &rows, rules, k)?;
        }
        Ok(report.summary)
    }
}

/// The attempts of boards that no row settles, in their order, one per board: an attempt that
/// ran out of time is superseded once a later run (given longer, or resumed elsewhere)
/// finishes its board, and listing it still would call a solved board open; of several
/// attempts at one open board, the one that went furthest ([`Attempt::reach`]) stands in the
/// place of the first.
fn still_open(attempts: Vec<Attempt>, rows: &[Row]) -> Vec<Attempt> {
    let solved: HashSet<Board> = rows.iter().map(Row::board).collect();
    let mut open: Vec<Attempt> = Vec::new();
    let mut at: HashMap<Board, usize> = HashMap::new();
    for attempt in attempts {
        let board = attempt.board();
        if solved.contains(&board) {
            continue;
        }
        match at.get(&board) {
            Some(&i) if attempt.reach() > open[i].reach() => open[i] = attempt,
            Some(_) => {}
            None => {
                at.insert(board, open.len());
                open.push(attempt);
            }
        }
    }
    open
}

/// Draws the outcome map of the `rows` of `rules` and `k` into `dir`.
fn outcome_map_of(dir: &Path, rows: &[Row], rules: Variant, k: u32) -> Result<(), ExportError> {
    let cells: Vec<MapCell> = rows
        .iter()
        .filter(|r| r.rules == rules && r.k == k)
        .map(|r| MapCell {
            x: r.width,
            y: r.height,
            result: r.outcome,
            marked: r.agree_published == Some(false) || r.agree_table1 == Some(false),
        })
        .collect();
    let title = format!(
        "{rules} Connect {k}: who wins with perfect play (x = differs from the published value)"
    );
    let labels = MapLabels {
        title: &title,
        x: "width",
        y: "height",
    };
    outcome_map(&dir.join(format!("sizes-{rules}-k{k}.svg")), labels, &cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small table and time enough for any board the tests solve.
    fn ample() -> Effort {
        Effort {
            table: Mib(16),
            time: Duration::from_secs(600),
        }
    }

    /// An attempt at misère 5x5 that knows its outcome and a range of lengths, with the start
    /// of a line.
    fn misere_5x5_attempt(outcome: GameResult, (min, max): (u32, u32), line: &str) -> Attempt {
        Attempt {
            rules: Variant::Misere,
            k: 4,
            width: 5,
            height: 5,
            seconds_each: 600.0,
            outcome: Some(outcome),
            remoteness_min: Some(min),
            remoteness_max: Some(max),
            nodes: 0,
            seconds: Some(0.0),
            line: line.to_string(),
        }
    }

    fn solve(variant: Variant, width: u32, height: u32) -> Row {
        let board = Board::flat(variant, 4, width, height);
        match solve_board(board, ample(), None, &|_| {}) {
            Solved::Row(row) => row,
            _ => panic!("{width}x{height} not settled"),
        }
    }

    /// Small boards against the published table, Table I and the strategy checker, each an
    /// independent source: normal 4x4 and 5x4 are draws on the last cell (Tromp), misère 4x4 and
    /// 4x5 are second-player wins (Table I) as long as take-even or delayed take-even lets the
    /// first player last.
    #[test]
    fn small_boards_agree_with_every_independent_source() {
        for (width, height) in [(4, 4), (5, 4)] {
            let row = solve(Variant::Normal, width, height);
            assert_eq!(
                (row.outcome, row.remoteness),
                (GameResult::Draw, width * height)
            );
            assert_eq!(row.agree_published, Some(true));
        }
        for (width, height) in [(4, 4), (4, 5)] {
            let row = solve(Variant::Misere, width, height);
            assert_eq!(row.agree_table1, Some(true), "{width}x{height}");
            assert_eq!(
                row.strategy_longest,
                Some(row.remoteness),
                "{width}x{height}"
            );
            // The principal variation replays to a finished game of that length.
            let rules = crate::Rules::new(4, width, height, Variant::Misere).unwrap();
            let (end, _) = notation::parse(rules, &row.pv).unwrap();
            assert!(end.is_over());
            assert_eq!(end.plies(), row.remoteness);
        }
    }

    /// An attempt at normal k = 4 `width`x`height` given 1 s that settled nothing.
    fn blank_attempt(width: u32, height: u32) -> Attempt {
        Attempt {
            rules: Variant::Normal,
            k: 4,
            width,
            height,
            seconds_each: 1.0,
            outcome: None,
            remoteness_min: None,
            remoteness_max: None,
            nodes: 10,
            seconds: None,
            line: String::new(),
        }
    }

    /// A board that ran out of time in one run and was finished by a later one is no longer
    /// open: `open.csv` and the report drop its attempt, and keep those still unsettled, one
    /// per board.
    #[test]
    fn a_finished_board_leaves_the_open_list() {
        let row = solve(Variant::Normal, 4, 4);
        let attempt = |width| blank_attempt(width, 4);
        let dir = std::env::temp_dir().join(format!("connectk-sizes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Two attempts at 9x4: only the one given longer stays, where the first stood.
        let longer = Attempt {
            seconds_each: 2.0,
            outcome: Some(GameResult::Draw),
            ..attempt(9)
        };
        let attempts = vec![attempt(4), attempt(9), attempt(10), longer.clone()];
        let summary = Sizes::merge()
            .publish(&dir, vec![row], attempts, &[], "test")
            .unwrap();
        let kept: Vec<Attempt> =
            crate::experiment::export::csv::read_rows(&dir.join("open.csv")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(kept, vec![longer, attempt(10)]);
        assert!(
            summary.contains("1 boards solved exactly, 2 open"),
            "{summary}"
        );
    }

    /// A board that no run has reached, though the table's shape calls for it (its sides at
    /// least the smallest seen, its width + height one of the sums seen), is named in the
    /// summary, in its grid cell and in the open section; a board of another sum is not.
    #[test]
    fn a_board_no_run_reached_is_named_not_tried() {
        let row = solve(Variant::Normal, 4, 4);
        let open = blank_attempt(5, 4);
        let dir = std::env::temp_dir().join(format!("connectk-untried-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let summary = Sizes::merge()
            .publish(&dir, vec![row], vec![open], &[], "test")
            .unwrap();
        let report = std::fs::read_to_string(dir.join("sizes.md")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(summary.contains("1 open, 1 not tried yet"), "{summary}");
        assert!(report.contains("them): normal k = 4 4x5."), "{report}");
        assert!(report.contains("| 5 | not tried |  |"), "{report}");
        assert!(
            !report.contains("5x5") && !report.contains("4x6"),
            "{report}"
        );
    }

    /// A board attempted in sittings of growing time, each going on from the attempt before
    /// (by way of `open.csv`'s columns, written and read back), ends with the row a single
    /// solve finds, its nodes counting every sitting's; an attempt that knows the outcome and
    /// a range of lengths keeps what it knew, and so does every one written down on the way.
    #[test]
    fn a_board_goes_on_from_its_last_attempt() {
        let board = Board::flat(Variant::Misere, 4, 5, 5);
        let direct = solve(Variant::Misere, 5, 5);
        let dir = std::env::temp_dir().join(format!("connectk-sittings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("open.csv");
        let mut earlier: Option<Attempt> = None;
        let mut time = Duration::from_micros(200);
        let row = loop {
            let effort = Effort {
                table: Mib(16),
                time,
            };
            let written = std::sync::Mutex::new(Vec::new());
            let checkpoint = |a: &Attempt| written.lock().unwrap().push(a.clone());
            let solved = solve_board(board, effort, earlier.as_ref(), &checkpoint);
            // Every attempt written down on the way holds the true value, and the start of
            // the line it found is the start of the principal variation.
            for a in written.into_inner().unwrap() {
                assert!(direct.pv.starts_with(&a.line), "{a:?}");
                assert_eq!(a.outcome, Some(direct.outcome), "{a:?}");
                let (min, max) = (a.remoteness_min.unwrap(), a.remoteness_max.unwrap());
                assert!(
                    min <= direct.remoteness && direct.remoteness <= max,
                    "{a:?}"
                );
            }
            match solved {
                Solved::Row(row) => break row,
                Solved::Open(attempt) => {
                    if let Some(before) = &earlier {
                        assert!(attempt.reach() >= before.reach(), "{attempt:?}");
                        assert!(attempt.nodes >= before.nodes);
                    }
                    write_all(&file, std::slice::from_ref(&attempt)).unwrap();
                    let read: Vec<Attempt> =
                        crate::experiment::export::csv::read_rows(&file).unwrap();
                    assert_eq!(read, vec![attempt.clone()]);
                    earlier = Some(attempt);
                }
                Solved::GivenUp => unreachable!("sizes keeps every attempt"),
            }
            time *= 2;
        };
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            (row.outcome, row.remoteness, &row.pv),
            (direct.outcome, direct.remoteness, &direct.pv)
        );
        assert!(row.nodes >= earlier.map_or(0, |a| a.nodes));
        // Told the outcome and length, a sitting only finds the line.
        let length = (direct.remoteness, direct.remoteness);
        let settled = misere_5x5_attempt(direct.outcome, length, "");
        let Solved::Row(told) = solve_board(board, ample(), Some(&settled), &|_| {}) else {
            panic!("a settled attempt's board is solved");
        };
        assert_eq!(told.pv, direct.pv);
        assert_eq!(told.remoteness, direct.remoteness);
    }

    /// A range of two lengths is one length, the winner's plies having one parity: a sitting
    /// from it writes the length down before it looks for the line's first move.
    #[test]
    fn a_range_the_parity_settles_is_written_down_at_once() {
        let board = Board::flat(Variant::Misere, 4, 5, 5);
        let direct = solve(Variant::Misere, 5, 5);
        let length = direct.remoteness;
        let ranged = misere_5x5_attempt(direct.outcome, (length - 1, length), "");
        let written = std::sync::Mutex::new(Vec::new());
        let checkpoint = |a: &Attempt| written.lock().unwrap().push(a.clone());
        let Solved::Row(row) = solve_board(board, ample(), Some(&ranged), &checkpoint) else {
            panic!("a settled range's board is solved");
        };
        assert_eq!(row.pv, direct.pv);
        let written = written.into_inner().unwrap();
        let first = written.first().expect("the settled length is written down");
        assert_eq!(
            (first.remoteness_min, first.remoteness_max),
            (Some(length), Some(length))
        );
        assert_eq!(first.line, "");
        assert_eq!(first.length_text(), format!("{length} (line not started)"));
        assert_eq!(ranged.length_text(), format!("{} to {length}", length - 1));
        let started = Attempt {
            line: "33".into(),
            ..first.clone()
        };
        assert_eq!(
            started.length_text(),
            format!("{length} (line found to 33)")
        );
    }

    /// A settled attempt with the start of its line goes on from the line's end: every start
    /// of the principal variation gives the principal variation, each move written down
    /// extending the start; a start that reads as no moves, or whose first move is not a
    /// best one, gives a principal variation all the same (each of its positions has the
    /// value the line claims, solved afresh).
    #[test]
    fn a_line_goes_on_from_the_start_an_attempt_found() {
        let board = Board::flat(Variant::Misere, 4, 5, 5);
        let rules = board.rules();
        let direct = solve(Variant::Misere, 5, 5);
        let length = (direct.remoteness, direct.remoteness);
        let settled = |line: &str| misere_5x5_attempt(direct.outcome, length, line);
        let pv_from = |earlier: &Attempt| {
            let written = std::sync::Mutex::new(Vec::new());
            let checkpoint = |a: &Attempt| written.lock().unwrap().push(a.line.clone());
            let Solved::Row(row) = solve_board(board, ample(), Some(earlier), &checkpoint) else {
                panic!("a settled attempt's board is solved");
            };
            (row.pv, written.into_inner().unwrap())
        };
        for cut in 1..direct.pv.len() {
            let start = &direct.pv[..cut];
            let (pv, written) = pv_from(&settled(start));
            assert_eq!(pv, direct.pv, "from {start}");
            assert!(
                written
                    .iter()
                    .all(|l| l.starts_with(start) && l.len() > cut)
            );
        }
        let root = Position::new(rules);
        let (_, pv) = notation::parse(rules, &direct.pv).unwrap();
        // The principal variation up to its first position with a move that is not best, and
        // that move.
        let mut solver = Solver::new(Mib(16));
        let mut astray = Vec::new();
        let mut pos = root;
        for &column in &pv {
            let best = solver.solve_with_best_moves(&pos, Depth::Strong).best_moves;
            if let Some(other) = pos.legal_columns().into_iter().find(|c| !best.contains(c)) {
                astray.push(other);
                break;
            }
            astray.push(column);
            pos.play(column).unwrap();
        }
        for start in ["x9", &notation::format(rules, &astray)] {
            let (pv, _) = pv_from(&settled(start));
            let (_, moves) = notation::parse(rules, &pv).unwrap();
            let mut pos = root;
            for (i, &column) in moves.iter().enumerate() {
                let left = direct.remoteness - i as u32;
                let value = solver.solve(&pos).value;
                assert_eq!(value.remoteness, Some(left), "{pv} after {i}");
                assert_eq!(value.result, direct.outcome, "{pv} after {i}");
                pos.play(column).unwrap();
            }
            assert!(pos.is_over(), "{pv}");
        }
    }

    /// A line ends the game as a value says only with the value's result after exactly its
    /// remoteness in plies.
    #[test]
    fn a_line_ends_as_its_value_says_or_not() {
        let rules = crate::Rules::new(4, 5, 4, Variant::Misere).unwrap();
        let root = Position::new(rules);
        let value = |result, plies| Value {
            result,
            remoteness: Some(plies),
        };
        // P1 completes a line in column 1 on ply 7: under misère rules, P2 wins.
        let p2 = GameResult::Win(Player::P2);
        let (_, four) = notation::parse(rules, "1213141").unwrap();
        assert!(ends_as(&root, &four, value(p2, 7)));
        assert!(!ends_as(&root, &four, value(p2, 8)));
        assert!(!ends_as(
            &root,
            &four,
            value(GameResult::Win(Player::P1), 7)
        ));
        assert!(!ends_as(&root, &four[..6], value(p2, 6)));
    }

    /// Through the sweep's runner: each rerun of an open board reads the attempts the runs
    /// before it wrote (the last one's, and the ones written down on the way) and goes on
    /// from them, every attempt lands in the attempts file and is shown to the run's watcher
    /// as it is written, and the last run's row is the one a single solve finds.
    #[test]
    fn reruns_of_an_open_board_go_on_through_the_attempts_file() {
        use crate::experiment::sweep::Run;
        let dir = std::env::temp_dir().join(format!("connectk-reruns-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let grid = SizeGrid {
            ks: vec![4],
            variants: vec![Variant::Misere],
            min_side: 5,
            sums: 10..=10,
        };
        let direct = solve(Variant::Misere, 5, 5);
        let mut time = Duration::from_micros(200);
        let mut open_runs = 0;
        let watched = std::sync::Mutex::new(Vec::new());
        let row = loop {
            let sizes = Sizes {
                grid: Some(grid.clone()),
                effort: Effort {
                    table: Mib(16),
                    time,
                },
            };
            let run = Run::open_in(&sizes, &dir, None).unwrap();
            let solving = run
                .solve_watching(
                    |_| {},
                    |_, a| watched.lock().unwrap().push(a.clone()),
                    |_, _| {},
                    |_, _| {},
                )
                .unwrap();
            drop(run);
            if solving.settled == 1 {
                let rows: Vec<Row> =
                    crate::experiment::export::csv::read_rows(&dir.join("sizes.csv")).unwrap();
                break rows[0].clone();
            }
            open_runs += 1;
            let attempts: Vec<Attempt> =
                crate::experiment::export::csv::read_rows(&dir.join("open.csv")).unwrap();
            assert!(attempts.len() >= open_runs, "{attempts:?}");
            time *= 2;
        };
        let written: Vec<Attempt> =
            crate::experiment::export::csv::read_rows(&dir.join("open.csv")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let watched = watched.into_inner().unwrap();
        assert!(!watched.is_empty());
        assert!(watched.iter().all(|a| written.contains(a)), "{watched:?}");
        assert_eq!(
            (row.outcome, row.remoteness),
            (direct.outcome, direct.remoteness)
        );
    }

    /// Boards past 48 cells are checked when their columns are few or short: misère 5x10 is
    /// (take-even lets the first player last 41 plies, the exact length `sizes` finds for it),
    /// and 8x8 is not (5^8 pairings).
    #[test]
    fn the_strategy_check_reaches_boards_with_few_pairings() {
        let board = |width, height| Board::flat(Variant::Misere, 4, width, height);
        assert!(strategy_check_fits(board(11, 4)));
        assert!(!strategy_check_fits(board(8, 8)));
        assert_eq!(
            strategy_longest(board(5, 10)),
            Some((StrategyName::TakeEven, Player::P2, Some(41)))
        );
    }

    #[test]
    fn the_grid_lists_boards_by_the_sum_of_their_sides() {
        let grid = SizeGrid {
            ks: vec![4],
            variants: vec![Variant::Normal, Variant::Misere],
            min_side: 4,
            sums: 8..=10,
        };
        // Sums 8, 9, 10: 1 + 2 + 3 boards, under each rule set.
        assert_eq!(grid.boards().unwrap().len(), 12);
    }
}
