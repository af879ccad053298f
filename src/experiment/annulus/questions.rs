//! Boards past the node limits settled by split questions ([`crate::experiment::question`]):
//! "does P1 win on the last ply or sooner?", then, if not, "does P2?" (the other way round on
//! a misère ring of an odd number of cells: see `first_asked`). Each question is split
//! a few plies deep and every answer is appended to a CSV in a folder the moment it is found.
//! One search of a board that needs hours keeps nothing when the machine or the session stops
//! it; the split keeps each answer, and a rerun asks only what is left. What the two answers
//! give is the board's outcome (a weak row).

use std::path::PathBuf;
use std::time::{Instant, SystemTime};

use super::{Effort, Row, row_of, solver_for};
use crate::engine::outcome::{GameResult, Player};
use crate::engine::rules::Variant;
use crate::experiment::export::{ExportError, write_error};
use crate::experiment::provenance::utc_date;
use crate::experiment::question::{self, AnswerRow, Progress, Question, Split};
use crate::experiment::sweep::Board;
use crate::solver::{Depth, Solver};

/// Where and how the questions of the boards past the node limits are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Questions {
    /// The folder of the answer CSVs: one per board and player, named as
    /// `normal-k7-15x2-P2.csv`; answers in its other CSVs about the same board are used too
    /// (a `connectk question` run kept there, say), and so are answers that land in the
    /// folder while a run goes on (a worker started beside it).
    pub dir: PathBuf,
    /// Plies from the empty board at which the questions are split into searches.
    pub depth: u32,
    /// The scouting cap of the questions' searches, in nodes (none: no scouting; see
    /// [`Split::scout`]).
    pub scout: Option<u64>,
}

impl Questions {
    /// The CSV of the answers to "does `player` win?" on `board`.
    fn file(&self, board: Board, player: Player) -> PathBuf {
        self.dir.join(format!(
            "{}-k{}-{}x{}-{}.csv",
            board.variant, board.k, board.width, board.height, player
        ))
    }

    /// Whether `player` wins `rules`'s board by its last ply, from the answers kept and
    /// searches split at [`Questions::depth`] until `effort`'s deadline; `None` when the
    /// deadline came first. Adds the nodes and seconds of every answer in the player's CSV
    /// (earlier runs' too) to `cost`; `tell` is told, in words, of each answer found and of
    /// each search as it begins (with its start time: the one under way for hours shows).
    fn wins(
        &self,
        board: Board,
        player: Player,
        solver: &mut Solver,
        effort: &Effort,
        tell: &dyn Fn(&str),
        cost: &mut (u64, f64),
    ) -> Result<Option<bool>, ExportError> {
        let rules = board.rules();
        let own = self.file(board, player);
        let split = Split {
            known_dir: Some(&self.dir),
            time: effort
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now())),
            scout: self.scout,
            ..Split::new(self.depth, &own)
        };
        let asked = Question {
            rules,
            player,
            by_ply: rules.cells(),
        };
        let mut found = Found::default();
        let mut on_progress = |progress: Progress<'_>| {
            let words = match progress {
                Progress::Searching { moves, .. } => format!(
                    "{}; searching after {moves} since {}",
                    found.words(player),
                    utc_date(SystemTime::now())
                ),
                Progress::Answered { row, .. } => {
                    found.add(row);
                    found.words(player)
                }
            };
            tell(&words);
        };
        let asked = question::ask(asked, &split, solver, &mut on_progress)?;
        cost.0 += asked.all_nodes;
        cost.1 += asked.all_seconds;
        Ok(asked.answer)
    }
}

/// The answers one run of a question has found so far, for its progress line.
#[derive(Default)]
struct Found {
    count: usize,
    nodes: u64,
    seconds: f64,
    last: String,
}

impl Found {
    /// Counts one more answer.
    fn add(&mut self, row: &AnswerRow) {
        self.count += 1;
        self.nodes += row.nodes;
        self.seconds += row.seconds;
        self.last.clone_from(&row.moves);
    }

    /// "asking the questions: P2's, 35 answers found (5766692 nodes, 68 s), the last after
    /// 1,3,7,9,11,13,8", or "..., no answer found yet".
    fn words(&self, player: Player) -> String {
        if self.count == 0 {
            return format!("asking the questions: {player}'s, no answer found yet");
        }
        format!(
            "asking the questions: {player}'s, {} answers found ({} nodes, {:.0} s), the last \
             after {}",
            self.count, self.nodes, self.seconds, self.last
        )
    }
}

/// The outcome of `board` by the two questions kept in `questions`, as a weak row whose nodes
/// and seconds are those of every answer kept (earlier runs' included); `None` when
/// `effort`'s deadline came first (the answers found are kept for a rerun). Each answer found
/// and each search begun is told to `tell`, in words (the run's progress shows them).
///
/// # Errors
/// [`ExportError`] when the folder or a CSV in it cannot be read or written.
pub(crate) fn settle(
    board: Board,
    questions: &Questions,
    effort: &Effort,
    tell: &dyn Fn(&str),
) -> Result<Option<Row>, ExportError> {
    std::fs::create_dir_all(&questions.dir).map_err(write_error(&questions.dir))?;
    let mut solver = solver_for(effort);
    let mut cost = (0, 0.0);
    let mut wins = |player| questions.wins(board, player, &mut solver, effort, tell, &mut cost);
    let first = first_asked(board);
    let outcome = match wins(first)? {
        None => return Ok(None),
        Some(true) => GameResult::Win(first),
        Some(false) => match wins(first.other())? {
            None => return Ok(None),
            Some(true) => GameResult::Win(first.other()),
            Some(false) => GameResult::Draw,
        },
    };
    Ok(Some(row_of(board, Depth::Weak, outcome, None, cost)))
}

/// The player asked about first: P1, but on a misère one-row ring the player who would move
/// at the full board (the closer: P2 on an odd number of cells), whose question the sums of
/// games answer alone at every position of the split (see `StripSolver::above`), where the
/// other player's needs the one-row search.
fn first_asked(board: Board) -> Player {
    let closer = if board.rules().cells().is_multiple_of(2) {
        Player::P1
    } else {
        Player::P2
    };
    match (board.variant, board.height) {
        (Variant::Misere, 1) => closer,
        _ => Player::P1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::annulus::{Annulus, solve_board};
    use crate::experiment::scratch_dir;
    use crate::experiment::sweep::{Grid, Run};
    use crate::solver::Mib;
    use std::path::Path;

    fn effort(nodes: u64, deadline: Option<Instant>) -> Effort {
        Effort {
            table: Mib(1),
            strong_nodes: nodes,
            weak_nodes: nodes,
            deadline,
        }
    }

    /// With node limits too small for a search, the boards of a small grid are settled by the
    /// questions, each with the outcome the plain exact solve finds, and marked weak, each
    /// answer found told to the run's watcher; a second run into another folder reads the kept
    /// answers and searches nothing (the answer files stay as they were, and the rows cost
    /// what they did).
    #[test]
    fn the_questions_settle_the_boards_the_limits_gave_up() {
        let out = scratch_dir("annulus-q-out");
        let questions = Questions {
            dir: out.join("questions"),
            depth: 3,
            scout: None,
        };
        let sweep = Annulus {
            grid: Some(Grid {
                k_min: 2,
                k_max: 3,
                max_cells: 8,
            }),
            min_height: 1,
            effort: effort(2, None),
            questions: Some(questions.clone()),
        };
        let run = Run::open_in(&sweep, &out, None).unwrap();
        // Words told of answers, and of searches begun.
        let told = std::sync::Mutex::new((0, 0));
        let tell = |_: &Board, words: &str| {
            assert!(words.starts_with("asking the questions: "), "{words}");
            let mut told = told.lock().unwrap();
            if words.contains("; searching after ") {
                told.1 += 1;
            } else {
                told.0 += 1;
            }
        };
        let solving = run
            .solve_watching(|_| {}, |_, _| {}, tell, |_, _| {})
            .unwrap();
        assert_eq!((solving.unsettled, solving.given_up.len()), (0, 0));
        let rows: Vec<Row> = read(&out.join("annulus.csv"));
        assert_eq!(rows.len(), solving.settled);
        let mut outcomes = std::collections::HashSet::new();
        for row in &rows {
            let exact = solve_board(row.board(), effort(u64::MAX, None)).unwrap();
            assert_eq!(row.outcome, exact.outcome, "{:?}", row.board());
            // Boards of a cell or two end within the two nodes the searches are given.
            assert!(row.depth == Depth::Weak || row.nodes <= 2, "{row:?}");
            outcomes.insert(row.outcome);
        }
        let weak = rows.iter().filter(|r| r.depth == Depth::Weak).count();
        assert!(
            weak * 2 > rows.len(),
            "{weak} of {} rows by questions",
            rows.len()
        );
        assert_eq!(
            outcomes.len(),
            3,
            "the grid has wins for both sides and draws"
        );
        let kept = std::fs::read_dir(&questions.dir).unwrap().count();
        assert!(kept >= weak, "{kept} answer files");
        // The rows at the split's depth are the searches; those above it were composed (one
        // digit a move: the grid's boards are at most 8 wide).
        let searched = |row: &AnswerRow| row.moves.len() as u32 == questions.depth;
        let found: usize = files(&questions.dir)
            .iter()
            .map(|p| read::<AnswerRow>(p).iter().filter(|r| searched(r)).count())
            .sum();
        // No deadline: each search begun was answered.
        assert_eq!(*told.lock().unwrap(), (found, found));
        assert!(found > 0);
        let answers = |path: &Path| std::fs::read_to_string(path).unwrap();
        let before: Vec<String> = files(&questions.dir).iter().map(|p| answers(p)).collect();

        let again = scratch_dir("annulus-q-again");
        let run = Run::open_in(&sweep, &again, None).unwrap();
        run.solve(|_, _| {}).unwrap();
        let after: Vec<String> = files(&questions.dir).iter().map(|p| answers(p)).collect();
        assert_eq!(after, before);
        assert_eq!(summary(read(&again.join("annulus.csv"))), summary(rows));
        std::fs::remove_dir_all(&out).unwrap();
        std::fs::remove_dir_all(&again).unwrap();
    }

    /// Past the deadline the questions stop before their first search and say so; the board
    /// is left for a rerun, which settles it.
    #[test]
    fn questions_past_the_deadline_leave_the_board_for_a_rerun() {
        let dir = scratch_dir("annulus-q-late");
        let questions = Questions {
            dir: dir.clone(),
            depth: 2,
            scout: None,
        };
        let board = Board {
            topology: crate::engine::rules::Topology::Cylinder,
            ..Board::flat(crate::engine::rules::Variant::Normal, 3, 4, 2)
        };
        let late = effort(2, Some(Instant::now()));
        assert_eq!(settle(board, &questions, &late, &|_| {}).unwrap(), None);
        let row = settle(board, &questions, &effort(2, None), &|_| {})
            .unwrap()
            .unwrap();
        let exact = solve_board(board, effort(u64::MAX, None)).unwrap();
        assert_eq!(row.outcome, exact.outcome);
        assert!(row.nodes > 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// On a misère ring the closer (P2 on 11 cells) is asked about first, each position of
    /// the split by the sums of games, and its "yes" settles the board: the other player's
    /// question is never asked. The outcome is the exact solve's.
    #[test]
    fn a_misere_ring_asks_the_closer_first() {
        let dir = scratch_dir("annulus-q-closer");
        let questions = Questions {
            dir: dir.clone(),
            depth: 3,
            scout: None,
        };
        let board = Board {
            topology: crate::engine::rules::Topology::Cylinder,
            ..Board::flat(Variant::Misere, 3, 11, 1)
        };
        let row = settle(board, &questions, &effort(2, None), &|_| {})
            .unwrap()
            .unwrap();
        let exact = solve_board(board, effort(u64::MAX, None)).unwrap();
        assert_eq!(row.outcome, GameResult::Win(Player::P2));
        assert_eq!(row.outcome, exact.outcome);
        let names: Vec<PathBuf> = files(&dir)
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().into())
            .collect();
        assert_eq!(names, [PathBuf::from("misere-k3-11x1-P2.csv")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Each row's board, outcome, depth and nodes, by board: what a rerun must repeat (the
    /// direct searches' seconds vary, and the pool finishes boards in any order).
    fn summary(rows: Vec<Row>) -> Vec<(String, GameResult, Depth, u64)> {
        let mut all: Vec<_> = rows
            .into_iter()
            .map(|r| (format!("{:?}", r.board()), r.outcome, r.depth, r.nodes))
            .collect();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    }

    fn files(dir: &Path) -> Vec<PathBuf> {
        let mut all: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        all.sort();
        all
    }

    fn read<T: serde::de::DeserializeOwned>(path: &Path) -> Vec<T> {
        csv::Reader::from_path(path)
            .unwrap()
            .deserialize()
            .map(Result::unwrap)
            .collect()
    }
}
