//! `connectk uci-dataset`: check the weak solver against the UCI Connect-4 data set.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use connectk::Mib;
use connectk::experiment::export::csv::write_all;
use connectk::experiment::uci_dataset::{self, Example, Row, RunInfo, Selection, Store};

/// Check the solver against the UCI Connect-4 data set.
///
/// Weak-solve lines of the UCI Connect-4 data set (Tromp, 1995, kept by the UCI machine
/// learning repository: every 8-ply position of 7x6 Connect Four with no line and no immediate
/// win, with its normal-rules value for x, the first player) and check each against its label.
///
/// Lines are solved in parallel: each worker keeps one solver, whose table is reused between
/// positions, and takes contiguous runs of the selected lines. Every result is appended to
/// DIR/uci.csv at once (line, moves, expected, solver, agree, nodes, micros, cpu_micros), so an
/// interrupted check loses nothing and a rerun skips the lines already there (once every
/// selected line is there, the same command checks them all again). At the end the
/// CSV is rewritten in line order, DIR/uci.md summarises every row in it (counts, nodes, CPU
/// and wall time, and each disagreement) and DIR/run.json records how the run was made. Exit status: 0 if all rows agree, 1 if any
/// disagrees, 2 for bad input.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The data set file, connect-4.data (67,557 lines of 42 cells a1..g6 and a class).
    #[arg(long, value_name = "PATH")]
    data: PathBuf,
    /// Check every N-th line (1: the whole data set, about 20 minutes on 2 cores).
    #[arg(long, default_value_t = 1, value_name = "N")]
    every: usize,
    /// Start at line O + 1 (0 <= O < N), to check a different slice of the same stride.
    #[arg(long, default_value_t = 0, value_name = "O")]
    offset: usize,
    /// Check R consecutive lines at each step of the stride (O + R <= N). Neighbouring lines
    /// share many subtrees, which a worker's table keeps, so runs cost less per line.
    #[arg(long, default_value_t = 1, value_name = "R")]
    run: usize,
    /// Output directory.
    #[arg(long, default_value = "results/uci-dataset", value_name = "DIR")]
    out: PathBuf,
    /// Transposition table size per worker, in MiB. Small tables are faster here: the
    /// searches are short, and a table that stays in the caches answers sooner (lines
    /// 53,249-53,848 on 2 cores: 24.7 s wall with 16 MiB, 27.9 s with 64 MiB).
    #[arg(long, default_value_t = Mib(16), value_name = "MIB")]
    table_mb: Mib,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Solve nothing: only rewrite DIR/uci.md from the rows already in DIR/uci.csv.
    #[arg(long)]
    report_only: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let selection = Selection::new(args.every, args.offset, args.run)?;
    super::check_memory("--table-mb", args.table_mb, super::workers(args.threads))?;
    let started = Instant::now();
    let text = std::fs::read_to_string(&args.data)
        .map_err(|e| anyhow::anyhow!("cannot read UCI data set {}: {e}", args.data.display()))?;
    let examples = selection
        .examples(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.data.display()))?;
    let lines = text.lines().count();
    let csv = args.out.join("uci.csv");
    let run = if args.report_only {
        None
    } else {
        super::in_worker_pool(args.threads, || solve(&args, &examples, &csv))?
    };
    let mut rows = Store::open(&csv)?.rows()?;
    rows.sort_by_key(|r| r.line);
    let markdown = uci_dataset::markdown(&rows, lines, run.as_ref(), &super::command_line());
    let md = args.out.join("uci.md");
    write_all(&csv, &rows)?;
    markdown.document.write(&md)?;
    super::record_run(&args.out, started)?;
    outln!("{}", markdown.summary);
    outln!("wrote {} and {}", csv.display(), md.display());
    Ok(if rows.iter().all(|r| r.agree) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Solves the selected lines not yet in the CSV at `csv`, with a progress bar (all of them
/// again when every one was there, from a finished run: see [`Store::open_for`]); `None` when
/// no line was selected (an empty data file).
fn solve(args: &Args, examples: &[Example], csv: &Path) -> anyhow::Result<Option<RunInfo>> {
    let lines: Vec<usize> = examples.iter().map(|e| e.line).collect();
    let (store, resume) = Store::open_for(csv, &lines)?;
    errln!(
        "{} lines selected (every {}, offset {}, runs of {}): {resume}",
        examples.len(),
        args.every,
        args.offset,
        args.run,
    );
    if resume.pending() == 0 {
        return Ok(None);
    }
    let bar = super::progress::bar(resume.pending() as u64, "lines")?;
    let start = Instant::now();
    uci_dataset::run(examples, &store, args.table_mb, |row: &Row| {
        if !row.agree {
            bar.println(format!(
                "line {} ({}): data set {}, solver {}",
                row.line, row.moves, row.expected, row.solver
            ));
        }
        bar.set_message(format!("line {}", row.line));
        bar.inc(1);
    })?;
    bar.finish_and_clear();
    let wall_seconds = start.elapsed().as_secs_f64();
    errln!("solved {} lines in {wall_seconds:.1} s", resume.pending());
    Ok(Some(RunInfo {
        solved: resume.pending(),
        wall_seconds,
        workers: rayon::current_num_threads(),
        table_mb: args.table_mb.0,
        load: load_average(Path::new("/proc/loadavg")),
    }))
}

/// The 1, 5 and 15 minute load averages from a Linux `/proc/loadavg`, if readable.
fn load_average(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let fields: Vec<&str> = text.split_whitespace().take(3).collect();
    (fields.len() == 3).then(|| fields.join(" "))
}
