//! `connectk annulus` and `connectk annulus-merge`: the paper's open problem, Connect-k on a
//! cylinder, solved board by board, and the joining of its shards.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use connectk::experiment::annulus::{self, Effort, Row, Store};
use connectk::experiment::export::csv::read_rows;
use connectk::experiment::shard::Shard;
use connectk::experiment::table1::Grid;
use connectk::{DEFAULT_TABLE, Mib};

/// Solve every cylinder board of a grid (the paper's annulus: column w next to column 1)
/// under both rule sets, outcome and remoteness where the exact solve finishes within
/// --strong-nodes, the outcome alone (marked weak) where only that finishes. Writes
/// DIR/annulus.csv (one row per board, appended as boards finish, so a rerun of an unfinished
/// run resumes; once every board is there, a rerun solves the grid again), DIR/annulus.md
/// (counts, the patterns of each class of boards with the boards that break them, and every
/// board beside Table I's flat outcome) and DIR/annulus-{rules}-k{K}.svg (outcome maps).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Largest board: every circumference and height >= 1 with width * height <= N.
    #[arg(long, default_value_t = 36, value_name = "N")]
    max_cells: u32,
    /// Smallest line length k.
    #[arg(long, default_value_t = 2, value_name = "K")]
    k_min: u32,
    /// Largest line length k.
    #[arg(long, default_value_t = 7, value_name = "K")]
    k_max: u32,
    /// Output directory.
    #[arg(long, default_value = "results/annulus", value_name = "DIR")]
    out: PathBuf,
    /// Solve only the I-th of N interleaved slices of the grid (for job arrays), writing
    /// DIR/annulus.shard-I-of-N.csv; join the shards with `connectk annulus-merge`.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size per worker, in MiB.
    #[arg(long, default_value_t = DEFAULT_TABLE, value_name = "MIB")]
    table_mb: Mib,
    /// Search nodes the exact solve of a board may take; past them the board is solved for
    /// its outcome only.
    #[arg(long, default_value_t = 100_000_000, value_name = "NODES")]
    strong_nodes: u64,
    /// Search nodes the outcome-only solve may take on top; a board that passes them is
    /// listed as not solved, kept out of annulus.csv, and tried again by a rerun.
    #[arg(long, default_value_t = 1_000_000_000, value_name = "NODES")]
    weak_nodes: u64,
    /// Start no board after this many minutes (boards run smallest first); the rest are listed
    /// as not solved and taken by a rerun.
    #[arg(long, value_name = "MINUTES")]
    minutes: Option<u64>,
}

/// Join the CSV files of `annulus --shard` runs into the outputs of one run (annulus.csv,
/// annulus.md and the maps in DIR).
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// Shard CSV files written by `annulus --shard`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output directory.
    #[arg(long, default_value = "results/annulus", value_name = "DIR")]
    out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::check_grid(args.k_min, args.k_max, args.max_cells, "the sweep")?;
    super::check_memory("--table-mb", args.table_mb, super::workers(args.threads))?;
    super::in_worker_pool(args.threads, || solve(&args))
}

/// The work of [`run`], on the worker pool.
fn solve(args: &Args) -> anyhow::Result<ExitCode> {
    let grid = Grid {
        k_min: args.k_min,
        k_max: args.k_max,
        max_cells: args.max_cells,
    };
    let mut boards = annulus::boards(grid)?;
    let csv = match args.shard {
        Some(shard) => {
            boards = shard.select(&boards);
            args.out.join(format!(
                "annulus.shard-{}-of-{}.csv",
                shard.index, shard.count
            ))
        }
        None => args.out.join("annulus.csv"),
    };
    let (store, resume) = Store::open_for(&csv, &boards)?;
    errln!(
        "{} cylinder boards (k {}..{}, width*height <= {}, both rule sets): {resume}",
        boards.len(),
        args.k_min,
        args.k_max,
        args.max_cells,
    );
    let bar = super::progress::bar(resume.pending() as u64, "boards")?;
    let start = Instant::now();
    let effort = Effort {
        table: args.table_mb,
        strong_nodes: args.strong_nodes,
        weak_nodes: args.weak_nodes,
        deadline: args
            .minutes
            .map(|m| start + std::time::Duration::from_secs(m * 60)),
    };
    let unsolved = annulus::run(&boards, &store, effort, |board, row| {
        let verdict = row.map_or("given up".to_string(), |r| {
            format!("{} ({})", r.outcome, r.depth.name())
        });
        bar.set_message(format!(
            "{} k={} {}x{}: {verdict}",
            board.variant, board.k, board.width, board.height
        ));
        bar.inc(1);
    })?;
    bar.finish_and_clear();
    errln!(
        "solved {} of {} boards in {:.1} s",
        resume.pending() - unsolved.len(),
        resume.pending(),
        start.elapsed().as_secs_f64()
    );
    if args.shard.is_none() {
        publish(&args.out, store.rows()?, grid)?;
        super::record_run(&args.out, start)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn publish(dir: &Path, mut rows: Vec<Row>, grid: Grid) -> anyhow::Result<()> {
    let unsolved = annulus::missing(grid, &rows)?;
    let summary = annulus::publish(dir, &mut rows, &unsolved, &super::command_line())?;
    outln!("{summary}");
    outln!(
        "wrote {0}/annulus.csv, {0}/annulus.md, {0}/annulus-*-k*.svg and {0}/run.json",
        dir.display()
    );
    Ok(())
}

pub fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let mut rows: Vec<Row> = Vec::new();
    for file in &args.files {
        if !file.is_file() {
            anyhow::bail!(
                "cannot read shard file {}: not a file (give the CSV files of `connectk annulus --shard`)",
                file.display()
            );
        }
        for row in read_rows::<Row>(file)? {
            if !rows.iter().any(|r| r.board() == row.board()) {
                rows.push(row);
            }
        }
    }
    if rows.is_empty() {
        anyhow::bail!("the shard files hold no boards: nothing to merge");
    }
    let grid = annulus::grid_of(&rows);
    publish(&args.out, rows, grid)?;
    super::record_run(&args.out, start)?;
    Ok(ExitCode::SUCCESS)
}
