//! Opening books: the solved values of early positions, in a compact file, looked up by every
//! solve of the same rules.
//!
//! # File format (version 1)
//!
//! Little-endian throughout. A 40-byte header, then the entries sorted by key, with no gaps:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic: the bytes `CKBOOK`, then two zero bytes |
//! | 8 | 2 | format version: 1 |
//! | 10 | 1 | variant: 0 normal, 1 misère; plus 2 on a cylinder |
//! | 11 | 1 | k |
//! | 12 | 1 | width |
//! | 13 | 1 | height |
//! | 14 | 1 | plies: the most discs of any entry's position |
//! | 15 | 1 | key bytes `K`: `ceil(width * (height + 1) / 8)` |
//! | 16 | 8 | entry count |
//! | 24 | 8 | strong entries (exact remoteness; the others give the outcome only) |
//! | 32 | 8 | checksum: 64-bit FNV-1a of every entry byte |
//!
//! Each entry is `K + 2` bytes: the position's canonical key (`K` bytes), a value byte and a
//! remoteness byte. The canonical key is the smaller of the keys of the position and of its
//! mirror image ([`Position::canonical_key`]), so mirror positions are stored once; a key is
//! `current + mask + bottom` on the column-major bitboard with one spare bit per column, which
//! also gives the number of discs and so the side to move. The value byte is the result for
//! the side to move (0 loss, 1 draw, 2 win), plus 4 when the entry is strong: then the
//! remoteness byte holds the plies to the end under perfect play (the winner hurries, the loser
//! delays; for a draw, the empty cells), and otherwise it is 0 (a reader still gives a draw its
//! remoteness, the empty cells, since a drawn game fills the board). Keys are strictly
//! increasing, so a lookup is a binary search. (The cylinder flag came after the first books:
//! a flat book's bytes are the same with it or without it.)

mod code;
mod file;

use crate::engine::bits::Bits;
use crate::engine::outcome::GameResult;
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Topology};

use super::score::{Score, Value};
use code::{Code, STRONG};

pub use file::{BookError, EXTENSION, FORMAT_VERSION, MAGIC, fnv1a};

/// Two entries that give one position different values (see [`Book::union`]).
#[derive(Debug, thiserror::Error)]
#[error(
    "two books disagree on a position of ply {plies} (canonical key {key:#x}): {} in one, {} in the other",
    describe(first),
    describe(second)
)]
pub struct Disagreement {
    /// The position's canonical key.
    pub key: u128,
    /// Its discs.
    pub plies: u32,
    /// One entry's value.
    pub first: Value,
    /// The other's.
    pub second: Value,
}

/// A value in words, such as "P1 wins in 11 plies" or "P2 wins".
fn describe(value: &Value) -> String {
    let result = match value.result {
        GameResult::Win(player) => format!("{player} wins"),
        GameResult::Draw => "a draw".to_string(),
    };
    match value.remoteness {
        Some(r) => format!("{result} in {r} plies"),
        None => result,
    }
}

/// Sorts book entries by key, a strong entry first among those of one key (which
/// [`Book::of_sorted`] keeps).
fn sort_strong_first(entries: &mut [(u128, Code)]) {
    entries.sort_unstable_by_key(|&(key, code)| (key, !code.is_strong()));
}

/// An opening book: solved values of positions of one set of rules, each stored once for a
/// position and its mirror image, weak (outcome only) or strong (with remoteness) per entry.
///
/// # Examples
/// ```
/// use connectk::{Book, Depth, Mib, Position, Rules, Solver, Variant};
/// let rules = Rules::new(3, 3, 3, Variant::Misere).unwrap();
/// let mut solver = Solver::new(Mib(1));
/// let start = Position::new(rules);
/// let value = solver.value(&start, Depth::Strong);
/// let book = Book::from_values(rules, [(start, value)]);
/// let bytes = book.to_bytes();
/// let read = Book::from_bytes(&bytes, "memory").unwrap();
/// assert_eq!(read.value(&start), Some(value));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    rules: Rules,
    plies: u32,
    keys: Vec<u128>,
    codes: Vec<Code>,
}

/// What `connectk book info` prints: the header's facts and a count per ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSummary {
    /// Entries with this many discs, for 0 to the book's plies.
    pub by_ply: Vec<u64>,
    /// Strong entries (with remoteness).
    pub strong: u64,
    /// Entries won, drawn and lost by the side to move.
    pub wins: u64,
    /// Drawn entries.
    pub draws: u64,
    /// Entries lost by the side to move.
    pub losses: u64,
}

impl Book {
    /// A book of the given values (a value with remoteness makes a strong entry). Mirror
    /// images share an entry; of two values for one key, a strong one is kept.
    ///
    /// # Panics
    /// When a position is not of `rules`, or is over (a finished game needs no book).
    pub fn from_values(rules: Rules, values: impl IntoIterator<Item = (Position, Value)>) -> Book {
        let mut entries: Vec<(u128, Code)> = values
            .into_iter()
            .map(|(pos, value)| {
                assert_eq!(
                    pos.rules(),
                    rules,
                    "a book holds positions of its own rules"
                );
                assert!(!pos.is_over(), "a book holds unfinished positions only");
                (pos.canonical_key().0, Code::of(&pos, value))
            })
            .collect();
        sort_strong_first(&mut entries);
        Book::of_sorted(rules, entries)
    }

    /// One book of every entry of `books`, all of `rules`: where two hold one position, a
    /// strong entry is kept.
    ///
    /// # Errors
    /// [`Disagreement`] when two entries of one position give different outcomes, or
    /// different remoteness where both are strong.
    ///
    /// # Panics
    /// When a book is not of `rules`.
    pub fn union(
        rules: Rules,
        books: impl IntoIterator<Item = Book>,
    ) -> Result<Book, Disagreement> {
        let mut entries = Vec::new();
        for book in books {
            assert_eq!(book.rules, rules, "books of one set of rules only");
            entries.extend(book.keys.into_iter().zip(book.codes));
        }
        sort_strong_first(&mut entries);
        if let Some(pair) = entries
            .windows(2)
            .find(|pair| pair[0].0 == pair[1].0 && pair[0].1.contradicts(pair[1].1))
        {
            let (key, plies) = (pair[0].0, plies_of_key(rules, pair[0].0));
            let [first, second] =
                [pair[0].1, pair[1].1].map(|code| code.value(plies, rules.cells()));
            return Err(Disagreement {
                key,
                plies,
                first,
                second,
            });
        }
        Ok(Book::of_sorted(rules, entries))
    }

    /// The book of `entries`, sorted by [`sort_strong_first`]: the first entry of each key is
    /// kept.
    fn of_sorted(rules: Rules, mut entries: Vec<(u128, Code)>) -> Book {
        entries.dedup_by_key(|&mut (key, _)| key);
        Book {
            rules,
            plies: entries
                .iter()
                .map(|&(key, _)| plies_of_key(rules, key))
                .max()
                .unwrap_or(0),
            keys: entries.iter().map(|e| e.0).collect(),
            codes: entries.iter().map(|e| e.1).collect(),
        }
    }

    /// The file name of the book of `rules` in a directory of books, such as
    /// `normal-k4-7x6.ckbook`, or `normal-k4-7x6-cylinder.ckbook` on a cylinder.
    pub fn file_name(rules: Rules) -> String {
        let topology = match rules.topology() {
            Topology::Flat => String::new(),
            topology => format!("-{topology}"),
        };
        format!(
            "{}-k{}-{}x{}{topology}.{EXTENSION}",
            rules.variant(),
            rules.k(),
            rules.width(),
            rules.height()
        )
    }

    /// The rules of every position in the book.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The most discs of any position in the book (positions with more are never in it).
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Entries (a position and its mirror image count once).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    fn code(&self, key: u128) -> Option<Code> {
        self.keys
            .binary_search(&key)
            .ok()
            .map(|index| self.codes[index])
    }

    /// The stored value of `pos` (with remoteness when the entry is strong), or `None` when
    /// the book does not hold it (other rules, a finished game, or not stored).
    pub fn value<B: Bits>(&self, pos: &Position<B>) -> Option<Value> {
        if pos.rules() != self.rules || pos.plies() > self.plies || pos.is_over() {
            return None;
        }
        let code = self.code(pos.canonical_key().0.to_u128())?;
        Some(code.value(pos.plies(), self.rules.cells()))
    }

    /// The value of `pos` as a solve at `depth` gives it, when the book holds it well enough:
    /// a weak request gets the outcome only (even from an exact entry), a strong one needs an
    /// exact entry.
    pub(crate) fn value_at<B: Bits>(
        &self,
        pos: &Position<B>,
        depth: super::Depth,
    ) -> Option<Value> {
        let value = self.value(pos)?;
        match depth {
            super::Depth::Weak => Some(Value {
                remoteness: None,
                ..value
            }),
            super::Depth::Strong => value.remoteness.is_some().then_some(value),
        }
    }

    /// Bounds on the search score of the unfinished position of this book's rules whose
    /// canonical key is `key` and which has `plies` discs.
    pub(crate) fn score_bounds(&self, key: u128, plies: u32) -> Option<(Score, Score)> {
        if plies > self.plies {
            return None;
        }
        let code = self.code(key)?;
        Some(code.score_bounds(self.rules.cells(), plies))
    }

    /// Counts by ply and by result (see [`BookSummary`]).
    pub fn summary(&self) -> BookSummary {
        let mut summary = BookSummary {
            by_ply: vec![0; self.plies as usize + 1],
            strong: 0,
            wins: 0,
            draws: 0,
            losses: 0,
        };
        for (&key, &code) in self.keys.iter().zip(&self.codes) {
            summary.by_ply[plies_of_key(self.rules, key) as usize] += 1;
            summary.strong += u64::from(code.is_strong());
            match code.value & !STRONG {
                2 => summary.wins += 1,
                1 => summary.draws += 1,
                _ => summary.losses += 1,
            }
        }
        summary
    }
}

/// Discs of the position with `key` under `rules`: in each column the key holds the column's
/// discs plus one, a power of two (see [`Position::key`]), so the top set bit of each
/// column's part sits at the column's height.
fn plies_of_key(rules: Rules, key: u128) -> u32 {
    let stride = rules.height() + 1;
    (0..rules.width())
        .map(|column| {
            let part = (key >> (column * stride)) & ((1u128 << stride) - 1);
            127u32.saturating_sub(part.leading_zeros())
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation;
    use crate::engine::outcome::Player;
    use crate::engine::rules::Variant;
    use file::CYLINDER;

    fn sample() -> (Rules, Book, Vec<(Position, Value)>) {
        let rules = Rules::new(4, 5, 4, Variant::Misere).unwrap();
        let values: Vec<(Position, Value)> = [
            ("", GameResult::Win(Player::P2), Some(17)),
            ("1", GameResult::Win(Player::P2), None),
            ("3", GameResult::Draw, Some(19)),
            ("12", GameResult::Win(Player::P1), Some(9)),
        ]
        .into_iter()
        .map(|(moves, result, remoteness)| {
            let (pos, _) = notation::parse(rules, moves).unwrap();
            (pos, Value { result, remoteness })
        })
        .collect();
        (rules, Book::from_values(rules, values.clone()), values)
    }

    #[test]
    fn values_survive_the_file_and_mirror_images_share_an_entry() {
        let (rules, book, values) = sample();
        let read = Book::from_bytes(&book.to_bytes(), "t").unwrap();
        assert_eq!(read, book);
        assert_eq!(read.plies(), 2);
        for (pos, value) in &values {
            assert_eq!(read.value(pos), Some(*value));
            assert_eq!(read.value(&pos.mirrored()), Some(*value));
        }
        let (absent, _) = notation::parse(rules, "2").unwrap();
        assert_eq!(read.value(&absent), None);
        let summary = read.summary();
        assert_eq!(summary.by_ply, vec![1, 2, 1]);
        assert_eq!(
            (summary.strong, summary.wins, summary.draws, summary.losses),
            (3, 2, 1, 1)
        );
    }

    #[test]
    fn a_cylinder_book_reads_back_as_one_and_has_a_name_of_its_own() {
        let (rules, book, _) = sample();
        let ring = rules.with_topology(Topology::Cylinder);
        let (pos, _) = notation::parse(ring, "12").unwrap();
        let value = Value {
            result: GameResult::Draw,
            remoteness: None,
        };
        let cylinder = Book::from_values(ring, [(pos, value)]);
        let bytes = cylinder.to_bytes();
        assert_eq!(bytes[10], 1 | CYLINDER);
        assert_eq!(Book::from_bytes(&bytes, "c").unwrap().rules(), ring);
        // A flat book is written as before the flag.
        assert_eq!(book.to_bytes()[10], 1);
        assert_eq!(Book::file_name(rules), "misere-k4-5x4.ckbook");
        assert_eq!(Book::file_name(ring), "misere-k4-5x4-cylinder.ckbook");
    }

    #[test]
    fn strong_entries_give_the_exact_score_and_weak_ones_its_sign() {
        // Misère 5x4 (20 cells), P1 to move at ply 0 loses at ply 17: score -(21 - 17).
        let (_, book, values) = sample();
        let key = |i: usize| values[i].0.canonical_key().0;
        assert_eq!(book.score_bounds(key(0), 0), Some((-4, -4)));
        assert_eq!(book.score_bounds(key(1), 1), Some((1, Score::MAX)));
        assert_eq!(book.score_bounds(key(2), 1), Some((0, 0)));
        assert_eq!(book.score_bounds(key(3), 2), Some((10, 10)));
    }

    #[test]
    fn a_union_keeps_strong_entries_and_refuses_contradictions() {
        let (rules, book, values) = sample();
        // The same positions, outcomes only, plus one more: the strong entries win.
        let weak: Vec<(Position, Value)> = values
            .iter()
            .map(|(pos, value)| {
                let weak = Value {
                    result: value.result,
                    remoteness: None,
                };
                (*pos, weak)
            })
            .chain([(
                notation::parse(rules, "123").unwrap().0,
                Value {
                    result: GameResult::Draw,
                    remoteness: None,
                },
            )])
            .collect();
        let union = Book::union(
            rules,
            [Book::from_values(rules, weak.clone()), book.clone()],
        )
        .unwrap();
        assert_eq!(union.len(), book.len() + 1);
        assert_eq!(union.plies(), 3);
        for (pos, value) in &values {
            assert_eq!(union.value(pos), Some(*value));
        }
        let wrong = |moves: &str, value: Value| {
            let pos = notation::parse(rules, moves).unwrap().0;
            Book::union(
                rules,
                [book.clone(), Book::from_values(rules, [(pos, value)])],
            )
            .unwrap_err()
            .to_string()
        };
        // Another outcome, or another remoteness of a strong entry.
        let p1 = Value {
            result: GameResult::Win(Player::P1),
            remoteness: None,
        };
        assert_eq!(
            wrong("1", p1),
            "two books disagree on a position of ply 1 (canonical key 0x108422): \
             P2 wins in one, P1 wins in the other"
        );
        let slower = Value {
            result: GameResult::Win(Player::P2),
            remoteness: Some(19),
        };
        assert!(wrong("", slower).contains("P2 wins in 17 plies in one, P2 wins in 19 plies"));
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let (rules, book, _) = sample();
        let bytes = book.to_bytes();
        let refuse = |bytes: &[u8]| Book::from_bytes(bytes, "b.ckbook").unwrap_err().to_string();
        assert!(refuse(b"hello").contains("b.ckbook is not a connectk book"));
        assert!(refuse(&bytes[..bytes.len() - 1]).contains("truncated"));
        assert!(refuse(&bytes[..30]).contains("truncated"));
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(refuse(&flipped).contains("corrupted: its entries have checksum"));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(refuse(&version).contains("format version 9"));
        let mut variant = bytes.clone();
        variant[10] = 7;
        assert!(refuse(&variant).contains("variant byte 7"));
        let normal = rules.with_variant(Variant::Normal);
        let dir = std::env::temp_dir().join(format!("connectk-book-{}", std::process::id()));
        let path = dir.join("b.ckbook");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, book.to_bytes()).unwrap();
        let err = Book::read_for(&path, normal).unwrap_err().to_string();
        assert!(
            err.contains("was made for misere k=4 5x4, not for normal k=4 5x4"),
            "{err}"
        );
        assert_eq!(Book::read_for(&path, rules).unwrap(), book);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn keys_give_their_disc_counts() {
        let rules = Rules::standard();
        for moves in ["", "4", "4444", "1234567", "77777712"] {
            let (pos, _) = notation::parse(rules, moves).unwrap();
            assert_eq!(plies_of_key(rules, pos.key()), pos.plies(), "{moves}");
        }
    }
}
