//! `connectk sizes`: who wins, and on which ply, on every board size.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use connectk::experiment::shard::Shard;
use connectk::experiment::sizes::{Attempt, Effort, SizeGrid, Sizes};
use connectk::experiment::sweep::Solved;
use connectk::{Mib, Variant};

/// Solve the empty board of every size of a grid, under both rule sets.
///
/// Solve the empty board of every size of a grid exactly, under each rule set: the winner with
/// perfect play and the ply on which the game ends, with a principal variation. Normal Connect
/// Four (k = 4) is held against the published table (Tromp; Steininger), misère boards against
/// Table I, and where the paper's take-even or delayed take-even decides a misère board, the
/// longest game against it is checked against the exact length.
///
/// Writes DIR/sizes.csv (one row per board, appended as boards finish, so a rerun resumes),
/// DIR/open.csv (boards not settled within --time-limit, with how far they got: the outcome,
/// the range of game lengths still possible and then the start of the principal variation,
/// written down each time it narrows or grows; a rerun goes on from there), DIR/sizes.md
/// (tables laid out like the published one),
/// DIR/sizes-RULES-kK.svg and DIR/run.json. With --shard, only DIR/sizes.shard-I-of-N.csv and
/// its open file are written; join the shards with `connectk merge`. Exit status: 0 when done
/// (open boards are listed, not failures), 2 for bad input.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Line lengths, comma-separated.
    #[arg(short, value_delimiter = ',', default_value = "4")]
    k: Vec<u32>,
    /// Rule sets, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "normal,misere",
        value_name = "RULES"
    )]
    rules: Vec<Variant>,
    /// The shortest side of a board.
    #[arg(long, default_value_t = 4, value_name = "N")]
    min_side: u32,
    /// The smallest width + height.
    #[arg(long, value_name = "N")]
    min_sum: Option<u32>,
    /// The largest width + height.
    #[arg(long, default_value_t = 13, value_name = "N")]
    max_sum: u32,
    /// Seconds for the exact solve of one board (past them the board is listed as open, and
    /// when its outcome is not known yet an outcome-only solve gets as long again).
    #[arg(long, default_value_t = 3600.0, value_name = "SECONDS")]
    time_limit: f64,
    /// Transposition table per worker, in MiB.
    #[arg(long, default_value_t = Mib(1024), value_name = "MIB")]
    table_mb: Mib,
    /// Worker threads, one board each (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Solve only the I-th of N interleaved slices of the grid (for job arrays).
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Output directory.
    #[arg(long, default_value = "results/sizes", value_name = "DIR")]
    out: PathBuf,
}

/// The files a size table writes beside run.json.
pub const FILES: &[&str] = &["sizes.csv", "sizes.md", "sizes-*.svg"];

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let min_sum = args.min_sum.unwrap_or(2 * args.min_side);
    if args.min_side == 0 || min_sum > args.max_sum {
        anyhow::bail!(
            "no board: give --min-side >= 1 and --min-sum <= --max-sum (here {min_sum} > {})",
            args.max_sum
        );
    }
    if !(args.time_limit > 0.0 && args.time_limit <= 1e7) {
        anyhow::bail!(
            "--time-limit {}: give seconds from 0 to 10000000",
            args.time_limit
        );
    }
    super::check_memory("--table-mb", args.table_mb, super::workers(args.threads))?;
    let grid = SizeGrid {
        ks: args.k.clone(),
        variants: args.rules.clone(),
        min_side: args.min_side,
        sums: min_sum..=args.max_sum,
    };
    if grid.boards()?.is_empty() {
        anyhow::bail!("the grid holds no board: lower --min-side or raise --max-sum");
    }
    let effort = Effort {
        table: args.table_mb,
        time: Duration::from_secs_f64(args.time_limit),
    };
    let sizes = Sizes {
        grid: Some(grid),
        effort,
    };
    super::in_worker_pool(args.threads, || {
        super::sweep::run(
            &sizes,
            &args.out,
            args.shard,
            "boards",
            FILES,
            |solved| match solved {
                Solved::Row(row) => format!("{} on ply {}", row.outcome, row.remoteness),
                Solved::Open(attempt) => open_verdict(attempt),
                Solved::GivenUp => "open".to_string(),
            },
        )
    })?;
    Ok(ExitCode::SUCCESS)
}

/// How far an unsettled board has got: "open", or its outcome and what is known of the game
/// length, with the nodes searched so far.
fn open_verdict(attempt: &Attempt) -> String {
    let value = match attempt.outcome {
        Some(outcome) => format!("{outcome}, last ply {}", attempt.length_text()),
        None => "open".to_string(),
    };
    format!("{value} ({:.2e} nodes)", attempt.nodes as f64)
}
