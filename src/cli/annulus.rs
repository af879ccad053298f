//! `connectk annulus`: the paper's open problem, Connect-k on a cylinder, solved board by
//! board.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use connectk::experiment::annulus::{Annulus, Effort, Questions};
use connectk::experiment::shard::Shard;
use connectk::experiment::sweep::{Grid, Solved};
use connectk::{DEFAULT_TABLE, Mib};

/// Solve every cylinder board of a grid (the paper's annulus) under both rule sets.
///
/// Solve every cylinder board of a grid (the paper's annulus: column w next to column 1)
/// under both rule sets, outcome and remoteness where the exact solve finishes within
/// --strong-nodes, the outcome alone (marked weak) where only that finishes. Writes
/// DIR/annulus.csv (one row per board, appended as boards finish, so a rerun of an unfinished
/// run resumes; once every board is there, a rerun solves the grid again), DIR/annulus.md
/// (counts, the patterns of each class of boards with the boards that break them, and every
/// board beside Table I's flat outcome), DIR/open.csv (the boards not solved, with the node
/// limits they passed) and DIR/annulus-{rules}-k{K}.svg (outcome maps).
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
    /// Fewest rows: boards lower than H are left out of this run (neither solved nor named
    /// missing), so that a run can take one band of heights, such as the boards of three rows
    /// or more while the two-row rings wait for a larger node budget.
    #[arg(long, default_value_t = 1, value_name = "H",
          value_parser = clap::value_parser!(u32).range(1..))]
    min_height: u32,
    /// Output directory.
    #[arg(long, default_value = "results/annulus", value_name = "DIR")]
    out: PathBuf,
    /// Solve only the I-th of N interleaved slices of the grid (for job arrays), writing
    /// DIR/annulus.shard-I-of-N.csv; join the shards with `connectk merge`.
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
    /// listed as not solved and kept out of annulus.csv, in DIR/open.csv with the limits it
    /// passed: a rerun with larger limits (or table) tries it again, one with the same skips it
    /// (to try a board again under the same limits, with a newer search, remove its line).
    #[arg(long, default_value_t = 1_000_000_000, value_name = "NODES")]
    weak_nodes: u64,
    /// Start no board after this many minutes (boards run smallest first); the rest are listed
    /// as not solved and taken by a rerun. Questions (--questions) stop then too.
    #[arg(long, value_name = "MINUTES")]
    minutes: Option<u64>,
    /// Settle each board that passes both node limits (now or in an earlier run's open.csv)
    /// by two questions, "does P1 win?" and then "does P2?", split --split-depth plies deep,
    /// each answer appended to a CSV in this folder (one per board and player) as it is found:
    /// the board gets its outcome (a weak row), and a run stopped on the way keeps every
    /// answer, so a rerun asks only what is left. On a misère ring of one row the player who
    /// would move at the full board is asked about first (P2 on an odd number of cells): the
    /// sums of games answer each of its positions.
    #[arg(long, value_name = "DIR")]
    questions: Option<PathBuf>,
    /// Plies from the empty board at which --questions splits its searches.
    #[arg(
        long,
        default_value_t = 4,
        value_name = "PLIES",
        requires = "questions"
    )]
    split_depth: u32,
    /// Scout the questions' choices with searches of at most this many nodes (1 to 10^15; see
    /// `connectk question --help`): a move settled cheaply is taken before one earlier in the
    /// order whose pieces take far longer. Default: no scouting.
    #[arg(
        long,
        value_name = "NODES",
        requires = "questions",
        value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000_000)
    )]
    scout_nodes: Option<u64>,
}

/// The files an annulus run writes beside run.json.
pub const FILES: &[&str] = &["annulus.csv", "open.csv", "annulus.md", "annulus-*-k*.svg"];

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::check_grid(args.k_min, args.k_max, args.max_cells, "the sweep")?;
    super::check_memory("--table-mb", args.table_mb, super::workers(args.threads))?;
    let grid = Grid {
        k_min: args.k_min,
        k_max: args.k_max,
        max_cells: args.max_cells,
    };
    let effort = Effort {
        table: args.table_mb,
        strong_nodes: args.strong_nodes,
        weak_nodes: args.weak_nodes,
        deadline: args
            .minutes
            .map(|m| Instant::now() + Duration::from_secs(m.saturating_mul(60))),
    };
    let described = format!(
        "cylinder boards (k {}..{}, width*height <= {}, height >= {}, both rule sets)",
        args.k_min, args.k_max, args.max_cells, args.min_height
    );
    let asking = args.questions.is_some();
    super::in_worker_pool(args.threads, || {
        super::sweep::run(
            &Annulus {
                grid: Some(grid),
                min_height: args.min_height,
                effort,
                questions: args.questions.map(|dir| Questions {
                    dir,
                    depth: args.split_depth,
                    scout: args.scout_nodes,
                }),
            },
            &args.out,
            args.shard,
            &described,
            FILES,
            |solved| match solved {
                Solved::Row(r) => format!("{} ({})", r.outcome, r.depth.name()),
                // With questions an attempt is only a step on the way to them.
                Solved::Open(a) if asking => format!("past {}: asking the questions", a.limits()),
                Solved::Open(a) => format!("not solved within {}", a.limits()),
                Solved::GivenUp if asking => "not finished (its answers are kept)".to_string(),
                Solved::GivenUp => "not started".to_string(),
            },
        )
    })?;
    Ok(ExitCode::SUCCESS)
}
