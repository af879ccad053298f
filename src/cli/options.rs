//! Options shared by the subcommands that solve or play: the opening book, and the perfect
//! player's time and memory.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use connectk::arena::{PERFECT_TABLE, PerfectSettings};
use connectk::{Book, Mib, Rules};

/// The environment variable naming the directory of default books.
const BOOKS_DIR_VAR: &str = "CONNECTK_BOOKS";

/// `--book`, `--no-book`.
#[derive(Args, Debug, Clone)]
pub struct BookArgs {
    /// Opening book to consult (default: RULES-kK-WxH.ckbook in the directory named by
    /// $CONNECTK_BOOKS, else in ./books, when that file exists, e.g.
    /// books/normal-k4-7x6.ckbook).
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Consult no opening book, not even the default one.
    #[arg(long, conflicts_with = "book")]
    no_book: bool,
}

impl BookArgs {
    /// The book to consult for `rules`: the one named, or the default one when it exists.
    ///
    /// # Errors
    /// When the book named (or the default one, when it exists) cannot be read, is damaged,
    /// or is of other rules.
    pub fn load(&self, rules: Rules) -> anyhow::Result<Option<Arc<Book>>> {
        if self.no_book {
            return Ok(None);
        }
        let path = match &self.book {
            Some(path) => path.clone(),
            None => {
                let path = default_path(rules);
                if !path.exists() {
                    return Ok(None);
                }
                path
            }
        };
        // The book's errors name the file and say what is wrong with it.
        Ok(Some(Arc::new(Book::read_for(&path, rules)?)))
    }
}

/// Where the default book of `rules` lives: in `$CONNECTK_BOOKS`, else in `./books`.
pub fn default_path(rules: Rules) -> PathBuf {
    let dir = std::env::var_os(BOOKS_DIR_VAR).map_or_else(|| PathBuf::from("books"), PathBuf::from);
    dir.join(Book::file_name(rules))
}

/// The perfect player's options: its book, its time per move and its table.
#[derive(Args, Debug, Clone)]
pub struct PerfectArgs {
    #[command(flatten)]
    book: BookArgs,
    /// Time budget of each move of `perfect`, in milliseconds: it proves the value first
    /// (however long that takes), then spends the rest on the fastest win or slowest loss. 0:
    /// no budget (every move the fastest win or slowest loss, and games reproducible from
    /// their seed).
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    move_ms: u64,
    /// Transposition table of each of the perfect player's solvers (one per game played at
    /// once, kept from game to game), in MiB.
    #[arg(long, default_value_t = PERFECT_TABLE, value_name = "MIB")]
    table_mb: Mib,
}

impl PerfectArgs {
    /// The perfect player's settings for `rules`.
    ///
    /// # Errors
    /// As [`BookArgs::load`].
    pub fn settings(&self, rules: Rules) -> anyhow::Result<PerfectSettings> {
        let move_time = (self.move_ms > 0).then(|| Duration::from_millis(self.move_ms));
        Ok(PerfectSettings::new(
            self.table_mb,
            self.book.load(rules)?,
            move_time,
        ))
    }
}
