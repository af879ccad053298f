//! Options shared by the subcommands that solve or play: the opening book, and the perfect
//! player's time and memory.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::Args;

use connectk::arena::{PERFECT_TABLE, PerfectSettings};
use connectk::{Book, BookError, Mib, Rules};

/// The environment variable naming the directory of default books.
const BOOKS_DIR_VAR: &str = "CONNECTK_BOOKS";

/// The smallest boards the committed books cover (6x5); on smaller ones a search from the
/// empty board takes well under a second, and a missing book is not worth a note.
const BOOKED_CELLS: u32 = 30;

/// `--book`, `--no-book`.
#[derive(Args, Debug, Clone)]
pub struct BookArgs {
    /// Opening book to consult (default: RULES-kK-WxH.ckbook, or RULES-kK-WxH-cylinder.ckbook
    /// on a cylinder, in the directory named by $CONNECTK_BOOKS, else in ./books, when that
    /// file exists and is a book of the same rules, e.g. books/normal-k4-7x6.ckbook).
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Consult no opening book, not even the default one.
    #[arg(long, conflicts_with = "book")]
    no_book: bool,
}

impl BookArgs {
    /// The book to consult for `rules`: the one named, or else the default one when it exists
    /// and is of the same rules (k, board, variant and topology).
    ///
    /// # Errors
    /// When the book named is of other rules, or it (or the default one, when it exists)
    /// cannot be read or is damaged.
    pub fn load(&self, rules: Rules) -> anyhow::Result<Option<Arc<Book>>> {
        if self.no_book {
            return Ok(None);
        }
        // The book's errors name the file and say what is wrong with it.
        if let Some(path) = &self.book {
            return Ok(Some(Arc::new(Book::read_for(path, rules)?)));
        }
        let path = default_path(rules);
        if !path.exists() {
            return Ok(None);
        }
        match Book::read_for(&path, rules) {
            Ok(book) => Ok(Some(Arc::new(book))),
            // The user asked for no book in particular, so one that does not fit (a file put
            // under another book's name) is none: these rules are searched without a book.
            Err(BookError::OtherRules { .. }) => Ok(None),
            Err(error) => Err(error.into()),
        }
    }
}

/// The directory of default books: `$CONNECTK_BOOKS`, else `./books`.
pub fn books_dir() -> PathBuf {
    std::env::var_os(BOOKS_DIR_VAR).map_or_else(|| PathBuf::from("books"), PathBuf::from)
}

/// Where the default book of `rules` lives: in [`books_dir`].
pub fn default_path(rules: Rules) -> PathBuf {
    books_dir().join(Book::file_name(rules))
}

/// `--book` (any number), `--no-book`, for a program that answers any rules (the server).
#[derive(Args, Debug, Clone)]
pub struct BooksArgs {
    /// Opening book to consult, once per book (default: every *.ckbook file in the directory
    /// named by $CONNECTK_BOOKS, else in ./books, when it exists).
    #[arg(long, value_name = "FILE")]
    book: Vec<PathBuf>,
    /// Consult no opening book, not even the default ones.
    #[arg(long, conflicts_with = "book")]
    no_book: bool,
}

impl BooksArgs {
    /// The books named, or the default ones.
    ///
    /// # Errors
    /// When a book cannot be read or is damaged, or the directory of default books cannot be
    /// listed.
    pub fn load(&self) -> anyhow::Result<Vec<Arc<Book>>> {
        if self.no_book {
            return Ok(Vec::new());
        }
        let paths = if self.book.is_empty() {
            let dir = books_dir();
            if !dir.is_dir() {
                return Ok(Vec::new());
            }
            let mut paths = Vec::new();
            for entry in std::fs::read_dir(&dir)
                .with_context(|| format!("cannot list the books in {}", dir.display()))?
            {
                let path = entry?.path();
                if path
                    .extension()
                    .is_some_and(|e| e == connectk::book::EXTENSION)
                {
                    paths.push(path);
                }
            }
            paths.sort();
            paths
        } else {
            self.book.clone()
        };
        // The book's errors name the file and say what is wrong with it.
        paths
            .iter()
            .map(|path| Ok(Arc::new(Book::read(path)?)))
            .collect()
    }
}

/// The perfect player's options: its book, its time per move and its table.
#[derive(Args, Debug, Clone)]
pub struct PerfectArgs {
    #[command(flatten)]
    book: BookArgs,
    /// Time budget of each move of `perfect`, in milliseconds: it proves the value first
    /// (however long that takes), then spends the rest on the fastest win or slowest loss
    /// (not where the book holds outcomes only: it plays from the book at once). 0: no budget
    /// (every move the fastest win or slowest loss, and games reproducible from their seed).
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    move_ms: u64,
    /// Transposition table of each of the perfect player's solvers (one per game played at
    /// once, kept from game to game), in MiB.
    #[arg(long, default_value_t = PERFECT_TABLE, value_name = "MIB")]
    table_mb: Mib,
}

impl PerfectArgs {
    /// The perfect player's settings for `rules`. When `searched` (the perfect player or the
    /// hint will search these rules) on a board of at least [`BOOKED_CELLS`] cells, and no book
    /// is named while the directory of default books does not exist, a one-line note on stderr
    /// says so: run from outside the repository, perfect play on 7x6 would otherwise take
    /// minutes a move early on, unexplained.
    ///
    /// # Errors
    /// As [`BookArgs::load`].
    pub fn settings(&self, rules: Rules, searched: bool) -> anyhow::Result<PerfectSettings> {
        let dir = books_dir();
        let unbooked = !self.book.no_book && self.book.book.is_none() && !dir.is_dir();
        if searched && unbooked && rules.cells() >= BOOKED_CELLS {
            eprintln!(
                "note: no opening books (no directory '{}' here; set {BOOKS_DIR_VAR} or give \
                 --book): perfect play searches from scratch, slowly early in the game",
                dir.display()
            );
        }
        let move_time = (self.move_ms > 0).then(|| Duration::from_millis(self.move_ms));
        Ok(PerfectSettings::new(
            self.table_mb,
            self.book.load(rules)?,
            move_time,
        ))
    }
}
