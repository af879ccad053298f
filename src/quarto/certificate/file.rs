//! Writing a certificate to a file as it is found: each strategy's entries go to a file of
//! their own beside the certificate (its count comes before its entries), joined into the
//! certificate at the end, so that only the keys of the positions met stay in memory.

use std::fs::File;
use std::io::{self, BufWriter, Write as _};
use std::path::{Path, PathBuf};

use crate::{GameResult, Player};

use super::super::position::Position;
use super::super::solver::{Solver, Unfinished};
use super::{Certificate, Entries, Format, Goal, Plan, Stop, goals, root_record, strategy_line};

/// Why no certificate was written.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The solver's node limit or stop ended a search.
    #[error(transparent)]
    Unfinished(#[from] Unfinished),
    /// A file could not be written.
    #[error("cannot write {}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
}

/// Progress is reported once per this many entries.
const REPORT_EVERY: usize = 1 << 14;

/// Entries written as lines to a file, counted, with progress reported as they grow.
struct EntryFile<'a> {
    out: BufWriter<File>,
    count: usize,
    /// The strategy's place among the certificate's: its player, its number from 1, and how
    /// many there are.
    strategy: (Player, usize, usize),
    progress: &'a dyn Fn(Progress),
}

impl Entries for EntryFile<'_> {
    type Error = io::Error;

    fn push(&mut self, position: String, turn: String) -> io::Result<()> {
        self.count += 1;
        if self.count.is_multiple_of(REPORT_EVERY) {
            let (player, index, of) = self.strategy;
            (self.progress)(Progress::Entries {
                player,
                index,
                of,
                entries: self.count,
            });
        }
        writeln!(self.out, "{position} {turn}")
    }
}

/// Where [`write()`] stands, reported as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The outcome is solved; the strategies are grown next.
    Solved(GameResult),
    /// Strategy `index` (from 1) of `of`, `player`'s, has `entries` entries so far.
    Entries {
        /// The strategy's player.
        player: Player,
        /// Its number, from 1.
        index: usize,
        /// How many strategies the certificate has.
        of: usize,
        /// Its entries so far.
        entries: usize,
    },
}

/// What [`write()`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The outcome proved.
    pub claim: GameResult,
    /// Entries over every strategy.
    pub entries: usize,
    /// Bytes of the certificate file.
    pub bytes: u64,
}

/// Writes the certificate of `pos`'s outcome in `format` to `out` as [`super::certify`] makes it,
/// entries going to disk as they are found: each strategy to `OUT.strategy-N` beside `out`,
/// joined into `out` at the end and then removed. `progress` hears when the outcome is
/// solved and then every 16,384 entries.
///
/// # Errors
/// [`CertifyError::Unfinished`] when a search stopped, [`CertifyError::Io`] when a file could
/// not be written (the parts written so far are removed).
pub fn write(
    solver: &mut Solver,
    pos: &Position,
    record: &str,
    format: Format,
    out: &Path,
    progress: &dyn Fn(Progress),
) -> Result<Written, CertifyError> {
    let plan = Plan::new(solver, pos, format)?;
    progress(Progress::Solved(plan.claim));
    let mut parts = Vec::new();
    let result = write_parts(solver, pos, &plan, (out, progress), &mut parts).and_then(|counts| {
        let header = Certificate {
            format,
            rules: *pos.rules(),
            record: root_record(record),
            claim: plan.claim,
            strategies: Vec::new(),
        };
        join_parts(&header, &parts, &counts, out)
    });
    for (path, _) in &parts {
        let _ = std::fs::remove_file(path);
    }
    result
}

/// Grows each strategy into a file of its own (recorded in `parts` as it is created, with its
/// player and goal); the number of entries of each.
fn write_parts(
    solver: &mut Solver,
    pos: &Position,
    plan: &Plan,
    (out, progress): (&Path, &dyn Fn(Progress)),
    parts: &mut Vec<(PathBuf, (Player, Goal))>,
) -> Result<Vec<usize>, CertifyError> {
    let mut counts = Vec::new();
    let strategies = goals(plan.claim);
    let of = strategies.len();
    for (n, strategy) in strategies.into_iter().enumerate() {
        let mut name = out.as_os_str().to_owned();
        name.push(format!(".strategy-{}", n + 1));
        let path = PathBuf::from(name);
        let io = |source| CertifyError::Io {
            path: path.clone(),
            source,
        };
        let file = File::create(&path).map_err(io)?;
        parts.push((path.clone(), strategy));
        let mut entries = EntryFile {
            out: BufWriter::new(file),
            count: 0,
            strategy: (strategy.0, n + 1, of),
            progress,
        };
        match plan.grow(solver, pos, strategy, &mut entries) {
            Ok(()) => {}
            Err(Stop::Unfinished(e)) => return Err(e.into()),
            Err(Stop::Entries(e)) => return Err(io(e)),
        }
        entries.out.flush().map_err(io)?;
        counts.push(entries.count);
    }
    Ok(counts)
}

/// Writes `out`: the header of `header`, then each part under its strategy line.
fn join_parts(
    header: &Certificate,
    parts: &[(PathBuf, (Player, Goal))],
    counts: &[usize],
    out: &Path,
) -> Result<Written, CertifyError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| CertifyError::Io { path, source }
    };
    let mut file = BufWriter::new(File::create(out).map_err(io(out))?);
    file.write_all(header.to_text().as_bytes())
        .map_err(io(out))?;
    for ((path, (player, goal)), count) in parts.iter().zip(counts) {
        writeln!(file, "{}", strategy_line(*player, *goal, *count)).map_err(io(out))?;
        let mut part = File::open(path).map_err(io(path))?;
        io::copy(&mut part, &mut file).map_err(io(out))?;
    }
    let file = file.into_inner().map_err(|e| io(out)(e.into_error()))?;
    file.sync_all().map_err(io(out))?;
    Ok(Written {
        claim: header.claim,
        entries: counts.iter().sum(),
        bytes: std::fs::metadata(out).map_err(io(out))?.len(),
    })
}
