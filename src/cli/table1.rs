//! `connectk table1` and `connectk merge`: Table I of the paper, and the joining of its shards.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use connectk::experiment::export::csv::read_rows;
use connectk::experiment::shard::Shard;
use connectk::experiment::table1::{self, Effort, Grid, Row, Store};
use connectk::{DEFAULT_ONE_ROW, DEFAULT_TABLE, Depth, Mib};

/// Solve every misère board of a grid exactly and hold each outcome against Table I of Steele &
/// Larremore. Writes DIR/table1.csv (one row per board, appended as boards finish, so a rerun
/// of an unfinished run resumes; once every board of the grid is there, a rerun solves the
/// grid again), DIR/table1.md (agreement counts and every disagreement with a principal
/// variation) and DIR/table1-k{K}.svg (one outcome map per k).
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

/// Join the CSV files of `table1 --shard` runs into the outputs of one run (table1.csv,
/// table1.md and the plots in DIR).
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// Shard CSV files written by `table1 --shard`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output directory.
    #[arg(long, default_value = "results/table1", value_name = "DIR")]
    out: PathBuf,
    /// Transposition table size in MiB (for the principal variations of disagreements).
    #[arg(long, default_value_t = DEFAULT_TABLE, value_name = "MIB")]
    table_mb: Mib,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.k_min < 2 || args.k_min > args.k_max {
        anyhow::bail!(
            "bad k range {}..{}: Table I covers k >= 2, so use 2 <= --k-min <= --k-max",
            args.k_min,
            args.k_max
        );
    }
    super::in_worker_pool(args.threads, || solve(&args))
}

/// The work of [`run`], on the worker pool.
fn solve(args: &Args) -> anyhow::Result<ExitCode> {
    let grid = Grid {
        k_min: args.k_min,
        k_max: args.k_max,
        max_cells: args.max_cells,
    };
    let mut boards = grid.boards()?;
    let csv = match args.shard {
        Some(shard) => {
            boards = shard.select(&boards);
            args.out.join(format!(
                "table1.shard-{}-of-{}.csv",
                shard.index, shard.count
            ))
        }
        None => args.out.join("table1.csv"),
    };
    let (store, resume) = Store::open_for(&csv, &boards)?;
    eprintln!(
        "{} boards (k {}..{}, width*height <= {}): {resume}",
        boards.len(),
        args.k_min,
        args.k_max,
        args.max_cells,
    );
    let bar = super::progress::bar(resume.pending() as u64, "boards")?;
    let start = Instant::now();
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
    let unsolved = table1::run(&boards, &store, effort, |board, row| {
        let verdict = row.map_or("node limit reached", |r| r.solver.as_str());
        bar.set_message(format!(
            "k={} {}x{}: {verdict}",
            board.k, board.width, board.height
        ));
        bar.inc(1);
    })?;
    bar.finish_and_clear();
    eprintln!(
        "solved {} of {} boards in {:.1} s",
        resume.pending() - unsolved.len(),
        resume.pending(),
        start.elapsed().as_secs_f64()
    );
    if args.shard.is_none() {
        publish(&args.out, store.rows()?, Some(grid), effort.table)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn publish(
    dir: &Path,
    mut rows: Vec<Row>,
    requested: Option<Grid>,
    table: Mib,
) -> anyhow::Result<()> {
    let unsolved = table1::missing(requested, &rows)?;
    let summary = table1::publish(dir, &mut rows, &unsolved, table)?;
    println!("{summary}");
    println!(
        "wrote {0}/table1.csv, {0}/table1.md and {0}/table1-k*.svg",
        dir.display()
    );
    Ok(())
}

pub fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let mut rows: Vec<Row> = Vec::new();
    for file in &args.files {
        if !file.exists() {
            anyhow::bail!("cannot read shard file {}: no such file", file.display());
        }
        for row in read_rows::<Row>(file)? {
            if !rows.iter().any(|r| r.board() == row.board()) {
                rows.push(row);
            }
        }
    }
    publish(&args.out, rows, None, args.table_mb)?;
    Ok(ExitCode::SUCCESS)
}
