//! `connectk bench`: solve fixed position sets, check their values and print timing and a
//! node-count signature.

use std::path::PathBuf;
use std::process::ExitCode;

use connectk::experiment::bench::{self, BenchError, Settings};
use connectk::{DEFAULT_TABLE, Mib};

/// Solve the fixed benchmark sets and report nodes and time.
///
/// Solve the fixed benchmark sets (benches/data/*.csv: one position per row with its known
/// value), check every value, and print the mean time and nodes per position of each set and
/// the total node count as a signature: a change to the search that alters the signature
/// changed what the search does.
///
/// A row with an empty remoteness has only its outcome known: it is always solved weak. Such
/// are the rows of normal-7x6-early.csv, lines 1, 5631, ..., 61931 (every 5,630th) of the UCI
/// Connect-4 data set with the data set's labels as outcomes.
///
/// Exit status: 0 when every value is right, 1 when one is wrong (the row is named), 2 for bad
/// input.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory of benchmark sets (relative to the current directory: run from the repository
    /// root, or give the path).
    #[arg(long, default_value = "benches/data", value_name = "DIR")]
    data: PathBuf,
    /// Only sets whose file name contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Outcome only (checks the outcome column, not remoteness).
    #[arg(long)]
    weak: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_TABLE, value_name = "MIB")]
    table_mb: Mib,
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

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::check_memory("--table-mb", args.table_mb, 1)?;
    let files = bench::sets(&args.data, args.filter.as_deref())?;
    let settings = Settings {
        table: args.table_mb,
        threads: args.threads.into(),
        weak: args.weak,
        reference: args.reference,
    };
    if args.reference {
        outln!(
            "set,positions,mean_ms,mean_nodes,total_nodes,reference_mean_ms,reference_mean_nodes,speedup"
        );
    } else {
        outln!("set,positions,mean_ms,mean_nodes,total_nodes");
    }
    let (mut signature, mut total_seconds) = (0u64, 0.0);
    for file in files {
        let set = match bench::run_set(&file, settings) {
            Ok(set) => set,
            Err(wrong @ (BenchError::Wrong { .. } | BenchError::ReferenceDiffers { .. })) => {
                errln!("error: {wrong}");
                return Ok(ExitCode::FAILURE);
            }
            Err(error) => return Err(error.into()),
        };
        let n = set.positions.max(1) as f64;
        out!(
            "{},{},{:.3},{:.0},{}",
            set.name,
            set.positions,
            set.seconds * 1e3 / n,
            set.nodes as f64 / n,
            set.nodes
        );
        match set.reference {
            Some((seconds, nodes)) => outln!(
                ",{:.3},{:.0},{:.2}",
                seconds * 1e3 / n,
                nodes as f64 / n,
                seconds / set.seconds
            ),
            None if args.reference => outln!(",,,"),
            None => outln!(),
        }
        signature += set.nodes;
        total_seconds += set.seconds;
    }
    outln!("signature: {signature} nodes in {total_seconds:.2} s, all values checked");
    Ok(ExitCode::SUCCESS)
}
