//! Building opening books: which positions a book holds, solved in parallel ply by ply, each
//! appended to a CSV as it is finished (so an interrupted build resumes), shardable for a job
//! array, and written as a book file ([`crate::Book`]).

mod build;

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::notation;
use crate::engine::outcome::{GameResult, Player};
use crate::engine::position::{Column, Position};
use crate::engine::rules::Rules;
use crate::experiment::export::csv::read_rows;
use crate::experiment::export::{ExportError, Output, labels, write_bytes};
use crate::experiment::shard::Shard;
use crate::experiment::store::Record;
use crate::solver::{Book, Mib, Value, book};

pub use build::{BuildReport, Progress, build};

/// Which positions a book holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Every unfinished position with at most the book's plies of discs.
    All,
    /// The positions a perfect player of one side meets in the first plies when it plays one
    /// value-keeping move (of the best, the one to the smallest canonical key) and its
    /// opponent plays anything:
    /// every such position with the player to move, solved, and the position after its move.
    Player(Player),
    /// The positions of [`Coverage::Player`] for both sides.
    Players,
    /// Every position of [`Coverage::All`], and one ply further the positions after each move
    /// of a position whose mover does not lose: what a hint (the value of every move) needs at
    /// the book's last ply. Where the mover loses, every move loses, which the position's own
    /// entry says. (Misère 7x6 to ply 8: the mover wins 13,042 of the 91,295 positions of ply
    /// 8 and draws 83, and their moves lead to 51,757 positions, where every position of ply 9
    /// would be about 280,000.)
    Hints,
}

impl Coverage {
    /// The trees a build walks: `None` for every position, or the book player of one tree.
    fn trees(self) -> Vec<Option<Player>> {
        match self {
            Coverage::All | Coverage::Hints => vec![None],
            Coverage::Player(player) => vec![Some(player)],
            Coverage::Players => vec![Some(Player::P1), Some(Player::P2)],
        }
    }

    /// Whether each entry holds its player's book move (the trees of players do).
    fn with_moves(self) -> bool {
        matches!(self, Coverage::Player(_) | Coverage::Players)
    }
}

/// What a book build covers and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookSpec {
    /// The rules of the book.
    pub rules: Rules,
    /// The deepest positions, in discs.
    pub plies: u32,
    /// Which positions.
    pub coverage: Coverage,
    /// Positions with at least this many discs are solved exactly (with remoteness), earlier
    /// ones for the outcome only (`u32::MAX`: every entry weak).
    pub strong_from: u32,
    /// A position whose search passes this many nodes is left out, with everything below it
    /// in a player's tree (`None`: no limit).
    pub node_limit: Option<u64>,
    /// The transposition table of each worker's solver.
    pub table: Mib,
    /// The part of the work of this task of a job array (`None`: all of it).
    pub shard: Option<Shard>,
}

/// One solved position, as the build's CSV holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct BookRow {
    /// The canonical key of the position (see [`Position::canonical_key`]), in hexadecimal.
    pub key: String,
    /// Moves that reach the position (the column of `best` is a column of this position).
    pub moves: String,
    /// Discs on the board.
    pub plies: u32,
    /// `P1`, `P2` or `Draw` under perfect play.
    #[serde(with = "labels::outcome")]
    pub outcome: GameResult,
    /// Plies to the end under perfect play; empty when only the outcome was solved.
    pub remoteness: Option<u32>,
    /// The book player's move (a column from 1): of the moves that keep the value (the fastest
    /// win or slowest loss when the remoteness is known), the one to the position with the
    /// smallest canonical key; empty in a book of every position.
    pub best: Option<u32>,
    /// Search nodes spent.
    pub nodes: u64,
    /// Milliseconds spent.
    pub ms: f64,
}

impl Record for BookRow {
    type Key = String;

    fn key(&self) -> String {
        self.key.clone()
    }
}

/// Why a book could not be built or merged.
#[derive(Debug, thiserror::Error)]
pub enum BookBuildError {
    /// The build's CSV could not be read or written, or the book file not written.
    #[error(transparent)]
    Store(#[from] ExportError),
    /// A book file could not be read.
    #[error(transparent)]
    Book(#[from] crate::solver::book::BookError),
    /// Two of the files merged give one position different values.
    #[error(transparent)]
    Disagreement(#[from] crate::solver::book::Disagreement),
    /// A row of a CSV is not a position of the rules asked for.
    #[error("{file}: row with moves {moves:?}: {problem}")]
    BadRow {
        /// The CSV file.
        file: String,
        /// The row's moves.
        moves: String,
        /// What is wrong with it.
        problem: String,
    },
}

impl BookRow {
    /// Whether the row, of position `pos`, says its side to move loses.
    fn mover_loses(&self, pos: &Position) -> bool {
        self.outcome == GameResult::Win(pos.to_move().other())
    }

    /// The row's position and value, and the position after its book move with that move's
    /// value (when there is a move and the game goes on after it).
    fn entries(&self, rules: Rules, file: &str) -> Result<Vec<(Position, Value)>, BookBuildError> {
        let bad = |problem: String| BookBuildError::BadRow {
            file: file.to_string(),
            moves: self.moves.clone(),
            problem,
        };
        let (pos, _) = notation::parse(rules, &self.moves).map_err(|e| bad(e.to_string()))?;
        if pos.is_over() {
            return Err(bad("the game is over there".to_string()));
        }
        let empty = rules.cells() - pos.plies();
        if let Some(plies) = self.remoteness.filter(|&r| r == 0 || r > empty) {
            return Err(bad(format!(
                "remoteness {plies}: the game goes on for 1 to {empty} plies (the empty cells)"
            )));
        }
        let result = self.outcome;
        let value = Value {
            result,
            remoteness: self.remoteness,
        };
        let mut entries = vec![(pos, value)];
        if let Some(number) = self.best {
            let child = Column::from_number(number)
                .and_then(|column| pos.played(column).ok())
                .ok_or_else(|| bad(format!("its book move {number} cannot be played")))?;
            if !child.is_over() {
                // The move keeps the value; the remoteness, if known, is one ply shorter after it.
                let after = Value {
                    result,
                    remoteness: value.remoteness.map(|r| r - 1),
                };
                entries.push((child, after));
            }
        }
        Ok(entries)
    }
}

/// The book of `rows` (each a solved position, from CSV `file`), all of `rules`.
///
/// # Errors
/// [`BookBuildError::BadRow`] for a row that is not an unfinished position of `rules` or whose
/// book move cannot be played.
pub(crate) fn book_of_rows(
    rules: Rules,
    rows: &[BookRow],
    file: &str,
) -> Result<Book, BookBuildError> {
    let mut entries = Vec::with_capacity(rows.len() * 2);
    for row in rows {
        entries.extend(row.entries(rules, file)?);
    }
    Ok(Book::from_values(rules, entries))
}

/// Joins the CSV files of book builds (the shards of one, `connectk book build --shard`, or
/// builds of different positions) and book files (`.ckbook`) into one book and writes it to
/// `out`. Where two hold one position, a strong entry is kept.
///
/// # Errors
/// [`BookBuildError`] when a file cannot be read, holds a row that is not a position of
/// `rules`, is a book of other rules, gives a position another value than a second file does,
/// or the book cannot be written.
pub fn merge(rules: Rules, inputs: &[&Path], out: &Path) -> Result<Book, BookBuildError> {
    Output::check(out)?;
    let mut books = Vec::with_capacity(inputs.len());
    for file in inputs {
        if file.extension().is_some_and(|e| e == book::EXTENSION) {
            books.push(Book::read_for(file, rules)?);
        } else {
            let rows: Vec<BookRow> = read_rows(file)?;
            books.push(book_of_rows(rules, &rows, &file.display().to_string())?);
        }
    }
    let book = Book::union(rules, books)?;
    write_bytes(out, &book.to_bytes())?;
    Ok(book)
}

/// The CSV of the rows of a build writing the book `out`: `out` with `.rows.csv` in place of
/// its extension, or `.shard-I-of-N.csv` for one shard of a job array.
pub fn rows_path(out: &Path, shard: Option<Shard>) -> std::path::PathBuf {
    match shard {
        None => out.with_extension("rows.csv"),
        Some(shard) => out.with_extension(format!("shard-{}-of-{}.csv", shard.index, shard.count)),
    }
}
