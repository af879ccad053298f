//! `connectk hint-bench`: how long the hint takes at each ply of random games.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use connectk::experiment::export::csv::RowWriter;
use connectk::experiment::hint_latency::{by_ply, random_positions, time_hint};
use connectk::{Budget, Depth, Mib, Solver};

use super::board::BoardArgs;
use super::options::BookArgs;

/// Time the hint (every move's value) on the positions of random games.
///
/// Time the hint of every position of random games: the value of every move, as `play`'s hint
/// and the web page's analysis ask it, of one solver kept from position to position (as a game
/// keeps it), searching on every core. Prints, per ply, the positions, the mean and slowest
/// time, the slowest position's moves, and how many took longer than --limit-ms or left some
/// move's value unsettled (at --depth strong: its exact value). A measurement, not a test: the
/// times depend on the machine and on what else runs on it (give the machine with the
/// figures).
///
/// Exit status: 0 when every hint settled every move within --limit-ms, 1 otherwise, 2 for bad
/// input.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// Random games to play (uniformly random legal moves).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    games: u32,
    /// Seed of the games: the same seed gives the same positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time the positions with up to this many discs.
    #[arg(long, default_value_t = 16)]
    max_ply: u32,
    /// `weak`: every move's outcome; `strong`: what `play`'s hint gives, every move's outcome
    /// and then its exact value with the time left (with no --budget-ms, every exact value).
    #[arg(long, value_enum, default_value_t = HintDepth::Weak)]
    depth: HintDepth,
    /// Time each hint may take, in milliseconds (as `play --hint-ms`); without it, each hint
    /// runs until it knows every move.
    #[arg(long, value_name = "MS")]
    budget_ms: Option<u64>,
    /// A hint slower than this, in milliseconds, is counted as over the limit (a hint that
    /// runs out of --budget-ms returns a moment after it, so with a budget equal to the limit
    /// the unsettled hints count as over it too).
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    limit_ms: u64,
    /// Transposition table size in MiB (`play`'s hint uses 64).
    #[arg(long, default_value_t = Mib(64), value_name = "MIB")]
    table_mb: Mib,
    /// Threads searching each hint (default: one per core, as `play`'s hint).
    #[arg(long)]
    threads: Option<usize>,
    /// Write one CSV row per position to FILE: game, ply, moves, seconds, nodes, settled (moves
    /// whose value the hint found at the depth asked), legal (legal moves).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    book: BookArgs,
}

/// How much of every move's value a hint asks for.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum HintDepth {
    /// Outcomes only.
    Weak,
    /// Outcomes, then exact values.
    Strong,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    super::check_memory("--table-mb", args.table_mb, 1)?;
    let mut solver = Solver::new(args.table_mb).with_threads(super::workers(args.threads));
    if let Some(book) = args.book.load(rules)? {
        solver = solver.with_book(book);
    }
    // Zeroing the table is not part of the first hint's time.
    solver.prepare(rules);
    let (depth, asked) = match args.depth {
        HintDepth::Weak => (Depth::Weak, "outcomes"),
        HintDepth::Strong => (Depth::Strong, "exact values"),
    };
    let budget = args.budget_ms.map_or(Budget::UNLIMITED, |ms| {
        Budget::time(Duration::from_millis(ms))
    });
    let positions = random_positions(rules, args.games, args.seed, args.max_ply);
    let mut out = args.out.as_deref().map(RowWriter::create).transpose()?;
    let bar = super::progress::bar(positions.len() as u64, "positions")?;
    let mut timings = Vec::with_capacity(positions.len());
    for at in &positions {
        let timing = time_hint(&mut solver, at, depth, budget);
        if let Some(out) = out.as_mut() {
            out.write(&timing)?;
        }
        bar.set_message(format!("ply {}: {:.3} s", timing.ply, timing.seconds));
        bar.inc(1);
        timings.push(timing);
    }
    bar.finish_and_clear();
    if let Some(out) = out {
        out.finish()?;
    }
    let limit = Duration::from_millis(args.limit_ms).as_secs_f64();
    outln!(
        "{rules}: hints ({asked}) of {} positions of {} random games (seed {}), {} ms limit",
        positions.len(),
        args.games,
        args.seed,
        args.limit_ms
    );
    outln!("ply,positions,mean_s,max_s,slowest,over_limit,incomplete");
    let plies = by_ply(&timings, limit);
    for p in &plies {
        outln!(
            "{},{},{:.3},{:.3},{},{},{}",
            p.ply,
            p.positions,
            p.mean_seconds,
            p.max_seconds,
            if p.slowest.is_empty() {
                "-"
            } else {
                &p.slowest
            },
            p.over_limit,
            p.incomplete
        );
    }
    let over: usize = plies.iter().map(|p| p.over_limit).sum();
    let incomplete: usize = plies.iter().map(|p| p.incomplete).sum();
    let total: f64 = timings.iter().map(|t| t.seconds).sum();
    outln!(
        "{over} of {} over {} ms, {incomplete} incomplete; {total:.1} s in all",
        timings.len(),
        args.limit_ms
    );
    Ok(if over == 0 && incomplete == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
