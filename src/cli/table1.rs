//! `connectk table1`: Table I of the paper.

use std::path::PathBuf;
use std::process::ExitCode;

use connectk::experiment::shard::Shard;
use connectk::experiment::sweep::{Grid, Solved};
use connectk::experiment::table1::{Effort, Table1};
use connectk::{DEFAULT_ONE_ROW, DEFAULT_TABLE, Depth, Mib};

/// Reproduce Table I: solve a grid of misère boards and hold each against the paper.
///
/// Solve every misère board of a grid exactly and hold each outcome against Table I of Steele &
/// Larremore. Writes DIR/table1.csv (one row per board, appended as boards finish, so a rerun
/// of an unfinished run resumes; once every board of the grid is there, a rerun solves the
/// grid again), DIR/table1.md (agreement counts and every disagreement with a principal
/// variation), DIR/table1-k{K}.svg (one outcome map per k) and DIR/run.json (version, commit,
/// command, date, machine, wall time). The CSV, Markdown and plots hold nothing that depends
/// on the machine, so a rerun writes them byte for byte the same.
///
/// Exit status: 0 when done (whether or not every board was settled: see table1.md), 2 for
/// bad input.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Largest board: every width and height >= 1 with width * height <= N.
    #[arg(long, default_value_t = 24, value_name = "N")]
    max_cells: u32,
    /// Smallest line length k.
    #[arg(long, default_value_t = 2, value_name = "K")]
    k_min: u32,
    /// Largest line length k.
    #[arg(long, default_value_t = 6, value_name = "K")]
    k_max: u32,
    /// Output directory.
    #[arg(long, default_value = "results/table1", value_name = "DIR")]
    out: PathBuf,
    /// Solve only the I-th of N interleaved slices of the grid (for job arrays), writing
    /// DIR/table1.shard-I-of-N.csv; join the shards with `connectk merge`.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size per worker, in MiB.
    #[arg(long, default_value_t = DEFAULT_TABLE, value_name = "MIB")]
    table_mb: Mib,
    /// Memory per worker for the one-row solver, in MiB (misère 36x1 with k = 2 needs about
    /// 1,600 for its 17.1 million reduced forms). It settles one-row boards, outcome only:
    /// every one with --weak, before the search; otherwise those the search gives up on at the
    /// node limit.
    #[arg(long, default_value_t = DEFAULT_ONE_ROW, value_name = "MIB")]
    strip_mb: Mib,
    /// Outcome only: skip the exact remoteness (left empty in the CSV), which is much faster
    /// on large boards.
    #[arg(long)]
    weak: bool,
    /// Give up on a board after this many search nodes; such boards are listed in table1.md,
    /// kept out of table1.csv, and tried again by a rerun. Default: no limit.
    #[arg(long, value_name = "NODES")]
    node_limit: Option<u64>,
}

/// The files a Table I run writes beside run.json.
pub const FILES: &[&str] = &["table1.csv", "table1.md", "table1-k*.svg"];

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::check_grid(args.k_min, args.k_max, args.max_cells, "Table I")?;
    super::check_memory("--table-mb", args.table_mb, super::workers(args.threads))?;
    let grid = Grid {
        k_min: args.k_min,
        k_max: args.k_max,
        max_cells: args.max_cells,
    };
    let effort = Effort {
        table: args.table_mb,
        depth: if args.weak {
            Depth::Weak
        } else {
            Depth::Strong
        },
        node_limit: args.node_limit.unwrap_or(u64::MAX),
        one_row: args.strip_mb,
    };
    let described = format!(
        "boards (k {}..{}, width*height <= {})",
        args.k_min, args.k_max, args.max_cells
    );
    super::in_worker_pool(args.threads, || {
        super::sweep::run(
            &Table1::run(grid, effort),
            &args.out,
            args.shard,
            &described,
            FILES,
            |solved| match solved {
                Solved::Row(row) => row.solver.label().to_string(),
                _ => "node limit reached".to_string(),
            },
        )
    })?;
    Ok(ExitCode::SUCCESS)
}
