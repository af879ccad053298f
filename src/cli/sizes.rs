//! `connectk sizes`: who wins, and on which ply, on every board size.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use connectk::experiment::export::csv::read_rows;
use connectk::experiment::shard::Shard;
use connectk::experiment::sizes::{
    self, Attempt, AttemptStore, Effort, Row, SizeGrid, Solved, Store,
};
use connectk::{Mib, Variant};

/// Solve the empty board of every size of a grid exactly, under each rule set: the winner with
/// perfect play and the ply on which the game ends, with a principal variation. Normal Connect
/// Four (k = 4) is held against the published table (Tromp; Steininger), misère boards against
/// Table I, and where the paper's take-even or delayed take-even decides a misère board, the
/// longest game against it is checked against the exact length.
///
/// Writes DIR/sizes.csv (one row per board, appended as boards finish, so a rerun resumes),
/// DIR/open.csv (boards not settled within --time-limit, with how far they got; a rerun tries
/// them again), DIR/sizes.md (tables laid out like the published one), DIR/sizes-RULES-kK.svg
/// and DIR/run.json. With --shard, only DIR/sizes.shard-I-of-N.csv and its open file are
/// written; join the shards with `connectk merge`. Exit status: 0 when done (open boards are
/// listed, not failures), 2 for bad input.
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
    /// Seconds for the exact solve of one board (past them, an outcome-only solve gets as
    /// long again, and the board is listed as open).
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
    let mut boards = grid.boards()?;
    if boards.is_empty() {
        anyhow::bail!("the grid holds no board: lower --min-side or raise --max-sum");
    }
    let (csv, open_csv) = match args.shard {
        Some(shard) => {
            boards = shard.select(&boards);
            let stem = format!("shard-{}-of-{}", shard.index, shard.count);
            (
                args.out.join(format!("sizes.{stem}.csv")),
                args.out.join(format!("open.{stem}.csv")),
            )
        }
        None => (args.out.join("sizes.csv"), args.out.join("open.csv")),
    };
    let (store, resume) = Store::open_for(&csv, &boards)?;
    let attempts = AttemptStore::open(&open_csv)?;
    errln!("{} boards: {resume}", boards.len());
    let effort = Effort {
        table: args.table_mb,
        time: Duration::from_secs_f64(args.time_limit),
    };
    let bar = super::progress::bar(resume.pending() as u64, "boards")?;
    let start = Instant::now();
    super::in_worker_pool(args.threads, || {
        Ok(sizes::run(
            &boards,
            &store,
            &attempts,
            effort,
            |board, solved| {
                let verdict = match solved {
                    Solved::Row(row) => format!("{} on ply {}", row.outcome, row.remoteness),
                    Solved::Open(_) => "open".to_string(),
                };
                bar.set_message(format!(
                    "{} k={} {}x{}: {verdict}",
                    board.variant, board.k, board.width, board.height
                ));
                bar.inc(1);
            },
        )?)
    })?;
    bar.finish_and_clear();
    errln!("done in {:.1} s", start.elapsed().as_secs_f64());
    if args.shard.is_none() {
        publish(&args.out, store.rows()?, attempts.rows()?)?;
        super::record_run(&args.out, start)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the outputs of `rows` and `open` into `dir`.
pub fn publish(dir: &Path, mut rows: Vec<Row>, open: Vec<Attempt>) -> anyhow::Result<()> {
    let summary = sizes::publish(dir, &mut rows, &open, &super::command_line())?;
    outln!("{summary}");
    outln!(
        "wrote {0}/sizes.csv, {0}/sizes.md, {0}/sizes-*.svg and {0}/run.json",
        dir.display()
    );
    Ok(())
}

/// Joins size-table shards (`sizes.shard-*.csv`, with the `open.shard-*.csv` beside them) into
/// one table in `dir`.
pub fn merge(files: &[PathBuf], dir: &Path) -> anyhow::Result<()> {
    let mut rows: Vec<Row> = Vec::new();
    let mut open: Vec<Attempt> = Vec::new();
    for file in files {
        for row in read_rows::<Row>(file)? {
            if !rows.iter().any(|r| r.board() == row.board()) {
                rows.push(row);
            }
        }
        if let Some(attempts) = open_beside(file)?.filter(|p| p.exists()) {
            open.extend(read_rows::<Attempt>(&attempts)?);
        }
    }
    publish(dir, rows, open)
}

/// The file of open attempts that `sizes --shard` writes beside the shard `file`
/// (`open.shard-I-of-N.csv` beside `sizes.shard-I-of-N.csv`); `None` for a file named
/// otherwise.
///
/// # Errors
/// When the file's name is not UTF-8, so that the name of its attempts cannot be made from it.
fn open_beside(file: &Path) -> anyhow::Result<Option<PathBuf>> {
    let Some(name) = file.file_name() else {
        return Ok(None);
    };
    let Some(name) = name.to_str() else {
        anyhow::bail!(
            "{}: the file name is not UTF-8: rename the shard and its open.* file as `sizes --shard` wrote them",
            file.display()
        );
    };
    Ok(name
        .strip_prefix("sizes.")
        .map(|rest| file.with_file_name(format!("open.{rest}"))))
}
