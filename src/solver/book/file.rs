//! Book files: writing a [`Book`] as bytes and reading it back in checked steps (the format is
//! described in the parent module's documentation).

use std::path::{Path, PathBuf};

use crate::engine::rules::{Rules, Topology, Variant};

use super::code::Code;
use super::{Book, plies_of_key};

/// The first eight bytes of every book file.
pub const MAGIC: [u8; 8] = *b"CKBOOK\0\0";

/// The extension of book files.
pub const EXTENSION: &str = "ckbook";

/// The format version this code reads and writes.
pub const FORMAT_VERSION: u16 = 1;

/// Bytes of the header.
const HEADER_BYTES: usize = 40;

/// The variant byte's flag for a book of a cylinder.
pub(super) const CYLINDER: u8 = 2;

/// Why a book file was refused.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read.
    #[error("cannot access book {path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said (part of the message, so not given as its source too).
        error: std::io::Error,
    },
    /// The file does not start with the book magic.
    #[error("{path} is not a connectk book: it does not start with the bytes CKBOOK")]
    NotABook {
        /// The file.
        path: PathBuf,
    },
    /// The file has a format version this code does not read.
    #[error("book {path} has format version {found}: this connectk reads version {FORMAT_VERSION}")]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u16,
    },
    /// The file is shorter or longer than its header says.
    #[error(
        "book {path} is truncated or padded: its header promises {expected} bytes, the file has {found}"
    )]
    Length {
        /// The file.
        path: PathBuf,
        /// Header plus entries, as the header says.
        expected: u64,
        /// The file's size.
        found: u64,
    },
    /// The entries do not match the header's checksum.
    #[error(
        "book {path} is corrupted: its entries have checksum {found:016x}, the header says {expected:016x}"
    )]
    Checksum {
        /// The file.
        path: PathBuf,
        /// The checksum in the header.
        expected: u64,
        /// The checksum of the entries.
        found: u64,
    },
    /// The header or an entry holds a value no book writes.
    #[error("book {path} is corrupted: {problem}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// The book was made for other rules or another board than the one asked for.
    #[error(
        "book {path} was made for {book}, not for {wanted}: build one for {wanted} or drop --book"
    )]
    OtherRules {
        /// The file.
        path: PathBuf,
        /// The book's rules.
        book: Rules,
        /// The rules asked for.
        wanted: Rules,
    },
}

/// The 64-bit FNV-1a hash of `bytes` (the checksum of a book's entries).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The facts of a file's header, each checked on its own.
struct Header {
    rules: Rules,
    plies: u8,
    key_bytes: usize,
    count: u64,
    strong: u64,
    checksum: u64,
}

impl Header {
    /// Reads the header at the start of `bytes`: the magic, the version, the rules and the
    /// key width, refusing a file that is not a book of this version.
    fn read(bytes: &[u8], path: &Path) -> Result<Header, BookError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(BookError::NotABook { path: path.into() });
        }
        if bytes.len() < HEADER_BYTES {
            return Err(BookError::Length {
                path: path.into(),
                expected: HEADER_BYTES as u64,
                found: bytes.len() as u64,
            });
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != FORMAT_VERSION {
            return Err(BookError::Version {
                path: path.into(),
                found: version,
            });
        }
        let (variant, topology) = match bytes[10] {
            0 => (Variant::Normal, Topology::Flat),
            1 => (Variant::Misere, Topology::Flat),
            2 => (Variant::Normal, Topology::Cylinder),
            3 => (Variant::Misere, Topology::Cylinder),
            other => {
                return Err(corrupt(
                    path,
                    format!("variant byte {other} (0 normal or 1 misère, plus 2 on a cylinder)"),
                ));
            }
        };
        let [k, width, height, plies, key_bytes] = [11, 12, 13, 14, 15].map(|at| bytes[at]);
        let rules = Rules::new(k.into(), width.into(), height.into(), variant)
            .map_err(|e| corrupt(path, format!("its header's rules: {e}")))?
            .with_topology(topology);
        let key_bytes = usize::from(key_bytes);
        if key_bytes != Book::key_bytes(rules) {
            return Err(corrupt(
                path,
                format!(
                    "{key_bytes} key bytes for {rules} (it takes {})",
                    Book::key_bytes(rules)
                ),
            ));
        }
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
        Ok(Header {
            rules,
            plies,
            key_bytes,
            count: u64_at(16),
            strong: u64_at(24),
            checksum: u64_at(32),
        })
    }

    /// Bytes of the file the header describes: the header and its entries.
    fn file_bytes(&self) -> u64 {
        self.count
            .checked_mul(self.key_bytes as u64 + 2)
            .and_then(|n| n.checked_add(HEADER_BYTES as u64))
            .unwrap_or(u64::MAX)
    }
}

/// The error for a header or an entry no book writes.
fn corrupt(path: &Path, problem: String) -> BookError {
    BookError::Corrupt {
        path: path.into(),
        problem,
    }
}

/// The keys and codes of the entries, each valid and in increasing key order.
fn read_entries(
    entries: &[u8],
    key_bytes: usize,
    path: &Path,
) -> Result<(Vec<u128>, Vec<Code>), BookError> {
    let count = entries.len() / (key_bytes + 2);
    let mut keys = Vec::with_capacity(count);
    let mut codes = Vec::with_capacity(count);
    for (index, entry) in entries.chunks_exact(key_bytes + 2).enumerate() {
        let mut key = [0u8; 16];
        key[..key_bytes].copy_from_slice(&entry[..key_bytes]);
        let key = u128::from_le_bytes(key);
        let code = Code {
            value: entry[key_bytes],
            remoteness: entry[key_bytes + 1],
        };
        if !code.is_valid() {
            return Err(corrupt(
                path,
                format!(
                    "entry {index} has value bytes {} {} (value 0-2, plus 4 with remoteness)",
                    code.value, code.remoteness
                ),
            ));
        }
        if keys.last().is_some_and(|&last| last >= key) {
            return Err(corrupt(path, format!("entry {index} is out of key order")));
        }
        keys.push(key);
        codes.push(code);
    }
    Ok((keys, codes))
}

impl Book {
    /// Bytes of each key in the file.
    pub(super) fn key_bytes(rules: Rules) -> usize {
        (rules.width() * (rules.height() + 1)).div_ceil(8) as usize
    }

    /// The book as a file (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let key_bytes = Self::key_bytes(self.rules);
        let mut entries = Vec::with_capacity(self.len() * (key_bytes + 2));
        for (&key, &code) in self.keys.iter().zip(&self.codes) {
            entries.extend_from_slice(&key.to_le_bytes()[..key_bytes]);
            entries.push(code.value);
            entries.push(code.remoteness);
        }
        let strong = self.codes.iter().filter(|c| c.is_strong()).count() as u64;
        let mut bytes = Vec::with_capacity(HEADER_BYTES + entries.len());
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        let variant = match self.rules.variant() {
            Variant::Normal => 0,
            Variant::Misere => 1,
        };
        bytes.push(
            variant
                | if self.rules.is_cylinder() {
                    CYLINDER
                } else {
                    0
                },
        );
        for field in [
            self.rules.k(),
            self.rules.width(),
            self.rules.height(),
            self.plies,
        ] {
            bytes.push(u8::try_from(field).expect("rules and plies fit a byte"));
        }
        bytes.push(key_bytes as u8);
        bytes.extend_from_slice(&(self.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&strong.to_le_bytes());
        bytes.extend_from_slice(&fnv1a(&entries).to_le_bytes());
        bytes.extend_from_slice(&entries);
        bytes
    }

    /// Reads a book file.
    ///
    /// # Errors
    /// [`BookError`] when the file cannot be read, or is not a book of this format version, or
    /// is truncated or corrupted.
    pub fn read(path: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(|error| BookError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        Book::from_bytes(&bytes, path)
    }

    /// Reads a book file made for `rules`.
    ///
    /// # Errors
    /// As [`Book::read`], and [`BookError::OtherRules`] when the book is of other rules.
    pub fn read_for(path: &Path, rules: Rules) -> Result<Book, BookError> {
        let book = Book::read(path)?;
        if book.rules != rules {
            return Err(BookError::OtherRules {
                path: path.to_path_buf(),
                book: book.rules,
                wanted: rules,
            });
        }
        Ok(book)
    }

    /// Reads a book from the bytes of a file; `path` names it in errors.
    ///
    /// # Errors
    /// As [`Book::read`].
    pub fn from_bytes(bytes: &[u8], path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let header = Header::read(bytes, path)?;
        if header.file_bytes() != bytes.len() as u64 {
            return Err(BookError::Length {
                path: path.into(),
                expected: header.file_bytes(),
                found: bytes.len() as u64,
            });
        }
        let entries = &bytes[HEADER_BYTES..];
        let found = fnv1a(entries);
        if found != header.checksum {
            return Err(BookError::Checksum {
                path: path.into(),
                expected: header.checksum,
                found,
            });
        }
        let (keys, codes) = read_entries(entries, header.key_bytes, path)?;
        let book = Book {
            rules: header.rules,
            plies: header.plies.into(),
            keys,
            codes,
        };
        book.check_counts(&header, path)?;
        Ok(book)
    }

    /// Checks what the header counts against the entries read: the strong entries, and the
    /// discs of every position.
    fn check_counts(&self, header: &Header, path: &Path) -> Result<(), BookError> {
        let strong = self.codes.iter().filter(|c| c.is_strong()).count() as u64;
        if strong != header.strong {
            return Err(corrupt(
                path,
                format!("{strong} strong entries, the header says {}", header.strong),
            ));
        }
        if let Some(&key) = self
            .keys
            .iter()
            .find(|&&key| plies_of_key(self.rules, key) > self.plies)
        {
            return Err(corrupt(
                path,
                format!(
                    "an entry has {} discs, more than its header's {}",
                    plies_of_key(self.rules, key),
                    header.plies
                ),
            ));
        }
        Ok(())
    }
}
