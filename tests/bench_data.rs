//! The known values of the benchmark sets (`benches/data/*.csv`), checked with the solver.

use std::path::{Path, PathBuf};
use std::time::Instant;

use connectk::{Depth, GameResult, Mib, Rules, Solver, Variant, notation};
use serde::Deserialize;

/// The sets the directory held when this test was written: the test fails if one goes
/// missing, so that it cannot pass over an emptied or moved directory. New sets are checked
/// too.
const CURRENT_SETS: [&str; 8] = [
    "empty-small.csv",
    "misere-7x6-early.csv",
    "misere-7x6-late.csv",
    "misere-7x6-middle.csv",
    "misere-odd-heights.csv",
    "normal-7x6-early.csv",
    "normal-7x6-late.csv",
    "normal-7x6-middle.csv",
];

/// Transposition table of each set's solver.
const TABLE: Mib = Mib(64);

/// One row of a set: a position with its known value.
#[derive(Deserialize)]
struct Row {
    /// `normal` or `misere`.
    rules: String,
    /// Line length.
    k: u32,
    /// Board width.
    width: u32,
    /// Board height.
    height: u32,
    /// Move string of the position.
    moves: String,
    /// Known outcome: `P1`, `P2` or `Draw`.
    outcome: String,
    /// Known remoteness; empty when only the outcome is known (the row is then solved weak).
    remoteness: Option<u32>,
}

/// The benchmark sets, sorted by name.
fn sets() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|x| x == "csv"))
        .collect();
    files.sort();
    files
}

/// The file name of `path`.
fn name(path: &Path) -> String {
    path.file_name()
        .expect("a file")
        .to_string_lossy()
        .into_owned()
}

/// What is wrong with `row`, if anything: the solver's value against the known one.
fn check_row(solver: &mut Solver, row: &Row) -> Result<(), String> {
    let variant: Variant = row.rules.parse().map_err(|e| format!("{e}"))?;
    let rules = Rules::new(row.k, row.width, row.height, variant).map_err(|e| format!("{e}"))?;
    let (pos, _) =
        notation::parse(rules, &row.moves).map_err(|e| format!("moves {:?}: {e}", row.moves))?;
    let expected = GameResult::from_label(&row.outcome)
        .ok_or_else(|| format!("unknown outcome {:?}", row.outcome))?;
    let depth = match row.remoteness {
        Some(_) => Depth::Strong,
        None => Depth::Weak,
    };
    let value = solver.solve_at(&pos, depth).value;
    let remoteness_wrong = depth == Depth::Strong && value.remoteness != row.remoteness;
    if value.result != expected || remoteness_wrong {
        let known = match row.remoteness {
            Some(plies) => format!("{} in {plies}", row.outcome),
            None => row.outcome.clone(),
        };
        let found = match value.remoteness {
            Some(plies) if depth == Depth::Strong => format!("{} in {plies}", value.result.label()),
            _ => value.result.label().to_string(),
        };
        return Err(format!(
            "{} {}x{} k={} moves {:?}: expected {known}, solver says {found}",
            row.rules, row.width, row.height, row.k, row.moves
        ));
    }
    Ok(())
}

/// The line (1-based) of `text` on which a record starts, from the byte offset the csv crate
/// gives for it.
///
/// The record starts at the first byte at or after `byte` that does not end a line: the csv
/// crate reads only the `\r` of a CRLF line end before it returns a record, so the next
/// record's offset (and its line count, rust-csv issue #395) points at the `\n` before it.
fn line_of(text: &str, byte: u64) -> usize {
    let bytes = text.as_bytes();
    let start = bytes[byte as usize..]
        .iter()
        .position(|&b| b != b'\r' && b != b'\n')
        .map_or(bytes.len(), |skipped| byte as usize + skipped);
    1 + bytes[..start].iter().filter(|&&b| b == b'\n').count()
}

/// Checks every row of the set at `path` with a solver of its own, adds a line naming the
/// file and line (1-based, the header is line 1) to `failures` for each row that is wrong or
/// unreadable, and one for a set without rows. Returns the number of rows.
///
/// Half of the sets end their lines with CRLF, hence [`line_of`].
fn check_set(path: &Path, failures: &mut Vec<String>) -> usize {
    let file = name(path);
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            failures.push(format!("{file}: {e}"));
            return 0;
        }
    };
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = match reader.headers() {
        Ok(headers) => headers.clone(),
        Err(e) => {
            failures.push(format!("{file} line 1: {e}"));
            return 0;
        }
    };
    let mut solver = Solver::new(TABLE);
    let mut rows = 0;
    for record in reader.records() {
        rows += 1;
        let checked = match record {
            Ok(record) => {
                let line = record.position().map_or(0, |p| line_of(&text, p.byte()));
                record
                    .deserialize::<Row>(Some(&headers))
                    .map_err(|e| e.to_string())
                    .and_then(|row| check_row(&mut solver, &row))
                    .map_err(|e| format!("line {line}: {e}"))
            }
            Err(e) => Err(match e.position() {
                Some(p) => format!("line {}: {e}", line_of(&text, p.byte())),
                None => format!("row {rows}: {e}"),
            }),
        };
        if let Err(e) = checked {
            failures.push(format!("{file} {e}"));
        }
    }
    if rows == 0 {
        failures.push(format!("{file}: no rows"));
    }
    rows
}

/// Every row of every benchmark set has its known value: outcome and remoteness when the
/// remoteness is given (a strong solve), else the outcome (a weak solve). All wrong rows are
/// listed before the test fails.
///
/// Each set's time is printed (`cargo test --release --test library bench_data --
/// --nocapture`): 9 to 12 s in all in release on our 2-core VM, about 3 s each for
/// misere-7x6-early, misere-odd-heights and normal-7x6-early and under 0.5 s for each other
/// set, so every set runs by default.
#[test]
fn every_benchmark_row_has_its_known_value() {
    let files = sets();
    let names: Vec<String> = files.iter().map(|path| name(path)).collect();
    for set in CURRENT_SETS {
        assert!(
            names.iter().any(|name| name == set),
            "benches/data/{set} is missing (found {names:?})"
        );
    }
    let mut failures = Vec::new();
    for path in &files {
        let start = Instant::now();
        let rows = check_set(path, &mut failures);
        eprintln!(
            "{}: {rows} rows in {:.2} s",
            name(path),
            start.elapsed().as_secs_f64()
        );
    }
    assert!(
        failures.is_empty(),
        "{} wrong or unreadable rows in benches/data:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
