//! `connectk bench`: solve fixed position sets, check their values and print timing and a
//! node-count signature.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use connectk::reference::ReferenceSolver;
use connectk::{GameResult, Rules, Solver, Value, Variant, notation};

/// Solve the fixed benchmark sets (benches/data/*.csv: one position per row with its known
/// value), check every value, and print the mean time and nodes per position of each set and
/// the total node count as a signature: a change to the search that alters the signature
/// changed what the search does.
///
/// A row with an empty remoteness has only its outcome known: it is always solved weak. Such
/// are the rows of normal-7x6-early.csv, lines 1, 5631, ..., 61931 (every 5,630th) of the UCI
/// Connect-4 data set with the data set's labels as outcomes.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory of benchmark sets.
    #[arg(long, default_value = "benches/data", value_name = "DIR")]
    data: PathBuf,
    /// Only sets whose file name contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Outcome only (checks the outcome column, not remoteness).
    #[arg(long)]
    weak: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256, value_name = "MIB", value_parser = super::parse_mib)]
    table_mb: usize,
    /// Threads searching each position together, sharing the large table (1 to 64). The
    /// values do not depend on it; node counts do, and vary from run to run above 1, so
    /// the signature is comparable only between runs with 1 thread.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Also solve the standard Connect Four sets (normal rules, k = 4, 7x6) with the reference
    /// solver (`connectk::reference`: a plain solver built to the design of the best-known
    /// tutorial solver), check that both give the same values, and print its mean time and
    /// nodes and the speed-up of connectk over it.
    #[arg(long)]
    reference: bool,
}

/// One benchmark position with its known value.
#[derive(Debug, Serialize, Deserialize)]
pub struct BenchRow {
    /// `normal` or `misere`.
    pub rules: String,
    /// Line length.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// Move string of the position.
    pub moves: String,
    /// Known outcome.
    pub outcome: String,
    /// Known remoteness; empty when only the outcome is known.
    pub remoteness: Option<u32>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(&args.data)
        .map_err(|e| {
            anyhow::anyhow!(
                "cannot read benchmark directory {}: {e}",
                args.data.display()
            )
        })?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .filter(|p| {
            args.filter.as_ref().is_none_or(|f| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().contains(f))
            })
        })
        .collect();
    files.sort();
    if files.is_empty() {
        anyhow::bail!("no benchmark sets (*.csv) in {}", args.data.display());
    }
    if args.reference {
        println!(
            "set,positions,mean_ms,mean_nodes,total_nodes,reference_mean_ms,reference_mean_nodes,speedup"
        );
    } else {
        println!("set,positions,mean_ms,mean_nodes,total_nodes");
    }
    let mut signature = 0u64;
    let mut total_seconds = 0.0;
    for file in files {
        let mut reader = csv::Reader::from_path(&file)
            .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let rows: Vec<BenchRow> = reader
            .deserialize()
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let mut solver = Solver::new(args.table_mb << 20).with_threads(args.threads.into());
        let standard = rows.iter().all(|r| {
            r.rules == Variant::Normal.to_string() && (r.k, r.width, r.height) == (4, 7, 6)
        });
        let mut reference = (args.reference && standard).then(ReferenceSolver::new);
        let (mut nodes, mut seconds, mut reference_seconds) = (0u64, 0.0, 0.0);
        for (i, row) in rows.iter().enumerate() {
            let rules = Rules::new(row.k, row.width, row.height, row.rules.parse()?)?;
            let (pos, moves) = notation::parse(rules, &row.moves)
                .map_err(|e| anyhow::anyhow!("{} row {}: {e}", file.display(), i + 1))?;
            let weak = args.weak || row.remoteness.is_none();
            if i == 0 {
                // Zeroing the table is not part of any position's time.
                solver.prepare(rules);
            }
            let start = Instant::now();
            let s = if weak {
                solver.solve_weak(&pos)
            } else {
                solver.solve(&pos)
            };
            seconds += start.elapsed().as_secs_f64();
            nodes += s.nodes;
            let expected = GameResult::from_label(&row.outcome);
            let wrong_remoteness = !weak && s.value.remoteness != row.remoteness;
            if expected != Some(s.value.result) || wrong_remoteness {
                let known = match row.remoteness {
                    Some(plies) => format!("{} in {plies}", row.outcome),
                    None => row.outcome.clone(),
                };
                eprintln!(
                    "error: {} row {} ({}): expected {known}, solver says {:?}",
                    file.display(),
                    i + 1,
                    row.moves,
                    s.value
                );
                return Ok(ExitCode::FAILURE);
            }
            if let Some(reference) = reference.as_mut() {
                let columns: Vec<u32> = moves.iter().map(|c| c.index()).collect();
                let start = Instant::now();
                let theirs: Value = reference.value(&columns, weak)?;
                reference_seconds += start.elapsed().as_secs_f64();
                if theirs != s.value {
                    eprintln!(
                        "error: {} row {} ({}): connectk says {:?}, the reference solver {:?}",
                        file.display(),
                        i + 1,
                        row.moves,
                        s.value,
                        theirs
                    );
                    return Ok(ExitCode::FAILURE);
                }
            }
        }
        let n = rows.len().max(1) as f64;
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        print!(
            "{name},{},{:.3},{:.0},{nodes}",
            rows.len(),
            seconds * 1e3 / n,
            nodes as f64 / n
        );
        match &reference {
            Some(reference) => println!(
                ",{:.3},{:.0},{:.2}",
                reference_seconds * 1e3 / n,
                reference.nodes() as f64 / n,
                reference_seconds / seconds
            ),
            None if args.reference => println!(",,,"),
            None => println!(),
        }
        signature += nodes;
        total_seconds += seconds;
    }
    println!("signature: {signature} nodes in {total_seconds:.2} s, all values checked");
    Ok(ExitCode::SUCCESS)
}
