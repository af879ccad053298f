//! `connectk table1` and `connectk merge`: Table I of the paper, and the joining of its shards.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use connectk::experiment::shard::Shard;
use connectk::experiment::table1::{self, Effort, Grid, Report, Row, Store, Unsolved};
use connectk::{DEFAULT_ONE_ROW, DEFAULT_TABLE, Depth, Mib};

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

/// Join the shard files of a job array into the outputs of one run. Shards of `table1 --shard`
/// give table1.csv, table1.md, the plots and run.json in DIR: every row is checked (file,
/// line and field of the first that is wrong) and boards missing from the shards are listed.
/// Shards of `sizes --shard` (recognised by their columns) give the size table, with the open
/// boards of the `open.shard-*` files beside them. Exit status: 0 when merged, 2 for bad input
/// (a missing, empty or malformed shard file).
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
    super::check_grid(args.k_min, args.k_max, args.max_cells, "Table I")?;
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
    errln!(
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
        let verdict = row.map_or("node limit reached", |r| r.solver.label());
        bar.set_message(format!(
            "k={} {}x{}: {verdict}",
            board.k, board.width, board.height
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
        // Rows kept from an earlier run are checked as a merge checks its shards.
        let rows = table1::read_checked(&csv)?
            .into_iter()
            .map(|(_, row)| row)
            .collect();
        publish(
            &args.out,
            rows,
            Some(grid),
            Unsolved::NodeLimit,
            effort.table,
        )?;
        super::record_run(&args.out, start)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether `file` starts with the header of a size table's rows.
fn is_size_table(file: &Path) -> bool {
    std::fs::read_to_string(file)
        .ok()
        .and_then(|text| text.lines().next().map(|h| h.contains("agree_published")))
        .unwrap_or(false)
}

/// Writes the outputs of `rows` into `dir`, listing the boards of `requested` (and of the rows'
/// own range) that have no row, for the reason `why`.
fn publish(
    dir: &Path,
    mut rows: Vec<Row>,
    requested: Option<Grid>,
    why: Unsolved,
    table: Mib,
) -> anyhow::Result<()> {
    let unsolved = table1::missing(requested, &rows)?;
    let command = super::command_line();
    let report = Report {
        rows: &mut rows,
        unsolved: &unsolved,
        why,
        table,
        command: &command,
    };
    let summary = table1::publish(dir, report)?;
    outln!("{summary}");
    outln!(
        "wrote {0}/table1.csv, {0}/table1.md, {0}/table1-k*.svg and {0}/run.json",
        dir.display()
    );
    Ok(())
}

pub fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    super::check_memory("--table-mb", args.table_mb, 1)?;
    if is_size_table(&args.files[0]) {
        super::sizes::merge(&args.files, &args.out)?;
        super::record_run(&args.out, start)?;
        return Ok(ExitCode::SUCCESS);
    }
    let rows = table1::read_shards(&args.files)?;
    let why = Unsolved::MissingFromShards;
    publish(&args.out, rows, None, why, args.table_mb)?;
    super::record_run(&args.out, start)?;
    Ok(ExitCode::SUCCESS)
}
