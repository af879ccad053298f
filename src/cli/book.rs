//! `connectk book`: build an opening book, join the shards of a build, describe a book, and
//! look a position up in one.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use connectk::experiment::book::{self, BookSpec, Coverage, Progress};
use connectk::experiment::shard::Shard;
use connectk::{Book, Mib, Player, notation};

use super::board::BoardArgs;
use super::solve::value_text;

/// Build, inspect and check opening books.
///
/// Opening books: exact values of early positions, which `solve`, `arena`, `tournament` and
/// `play` consult (see --book there).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    Build(BuildArgs),
    Merge(MergeArgs),
    Info(InfoArgs),
    Lookup(LookupArgs),
}

/// Which positions a book holds.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Cover {
    /// Every unfinished position with at most --plies discs.
    All,
    /// What a perfect P1 meets: it plays one best move, P2 anything.
    P1,
    /// What a perfect P2 meets: it plays one best move, P1 anything.
    P2,
    /// Both of p1 and p2.
    Players,
    /// Every position of `all`, and one ply further those after each move of a position whose
    /// side to move does not lose there: a hint (every move's value) up to --plies then needs
    /// no search.
    Hints,
}

/// Build a book: solve its positions ply by ply.
///
/// Build a book: solve its positions ply by ply in parallel (a progress bar on stderr),
/// append each to FILE's .rows.csv at once (a rerun resumes from it; delete it to start
/// afresh), then write FILE. With --shard I/N, only the CSV of one task of a job array, which
/// `connectk book merge` joins.
#[derive(clap::Args, Debug)]
struct BuildArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// The deepest positions, in discs.
    #[arg(long)]
    plies: u32,
    /// Which positions: all of them (with or without what hints need one ply further), or those
    /// a perfect player meets.
    #[arg(long, value_enum, default_value_t = Cover::Players)]
    cover: Cover,
    /// Positions with fewer discs than this are solved for the outcome only (default 0: every
    /// entry exact, with remoteness).
    #[arg(long, default_value_t = 0, value_name = "PLY", conflicts_with = "weak")]
    strong_from: u32,
    /// Every entry outcome only.
    #[arg(long)]
    weak: bool,
    /// Leave out a position whose search passes this many nodes (and, in a player's tree,
    /// what lies below it), listing it at the end.
    #[arg(long, value_name = "NODES")]
    node_limit: Option<u64>,
    /// Transposition table of each worker, in MiB.
    #[arg(long, default_value_t = Mib(64), value_name = "MIB")]
    table_mb: Mib,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Build only this part (I/N, 1 <= I <= N) of the work, for a job array.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// The book file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// Join book builds and book files of one board into one book.
///
/// Join the CSV files of book builds of one board, and book files, into one book: the shards
/// of a build (`book build --shard`), builds of different positions (a player's tree and every
/// position to a ply, say), or a new build's CSV and the book it extends. Where two hold the
/// same position, the exact entry is kept; where they disagree on its value, nothing is written.
#[derive(clap::Args, Debug)]
struct MergeArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// The book file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The builds' CSV files (FILE.shard-I-of-N.csv, FILE.rows.csv) and book files
    /// (FILE.ckbook).
    #[arg(required = true, value_name = "FILE")]
    inputs: Vec<PathBuf>,
}

/// Describe a book: its rules, entries per ply, and how many are exact.
#[derive(clap::Args, Debug)]
struct InfoArgs {
    /// The book file.
    file: PathBuf,
}

/// The book's value of a position and of the positions after each of its moves.
#[derive(clap::Args, Debug)]
struct LookupArgs {
    /// The book file.
    file: PathBuf,
    /// Moves played so far, e.g. `4453` (comma-separated on boards wider than 9).
    #[arg(long, default_value = "")]
    moves: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Build(args) => build(args),
        Command::Merge(args) => merge(args),
        Command::Info(args) => info(args),
        Command::Lookup(args) => lookup(args),
    }
}

fn build(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    let spec = BookSpec {
        rules,
        plies: args.plies,
        coverage: match args.cover {
            Cover::All => Coverage::All,
            Cover::P1 => Coverage::Player(Player::P1),
            Cover::P2 => Coverage::Player(Player::P2),
            Cover::Players => Coverage::Players,
            Cover::Hints => Coverage::Hints,
        },
        strong_from: if args.weak {
            u32::MAX
        } else {
            args.strong_from
        },
        node_limit: args.node_limit,
        table: args.table_mb,
        shard: args.shard,
    };
    let start = Instant::now();
    let bar = super::progress::bar(0, "positions")?;
    let report = super::in_worker_pool(args.threads, || {
        let progress = |event: Progress| match event {
            Progress::Ply { ply, solve, kept } => {
                bar.inc_length((solve - kept) as u64);
                bar.set_message(format!("ply {ply}"));
            }
            Progress::Solved => bar.inc(1),
        };
        Ok(book::build(spec, &args.out, &progress)?)
    })?;
    bar.finish_and_clear();
    let csv = book::rows_path(&args.out, args.shard);
    outln!(
        "{rules}: {} positions solved, {} from {}, {} nodes, {:.1} s",
        report.solved,
        report.kept,
        csv.display(),
        report.nodes,
        start.elapsed().as_secs_f64()
    );
    if !report.gave_up.is_empty() {
        outln!(
            "left out at the node limit ({}): {}",
            report.gave_up.len(),
            report.gave_up.join(" ")
        );
    }
    if args.shard.is_none() {
        let bytes = std::fs::metadata(&args.out)?.len();
        outln!(
            "wrote {}: {} entries, {bytes} bytes",
            args.out.display(),
            report.book.len()
        );
    } else {
        outln!(
            "wrote {}; join the shards with connectk book merge",
            csv.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    for file in &args.inputs {
        if !file.exists() {
            anyhow::bail!("cannot read {}: no such file", file.display());
        }
    }
    let inputs: Vec<&std::path::Path> = args.inputs.iter().map(PathBuf::as_path).collect();
    let book = book::merge(rules, &inputs, &args.out)?;
    outln!(
        "wrote {}: {} entries from {} files",
        args.out.display(),
        book.len(),
        inputs.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn info(args: InfoArgs) -> anyhow::Result<ExitCode> {
    let book = Book::read(&args.file)?;
    let summary = book.summary();
    let bytes = std::fs::metadata(&args.file)?.len();
    outln!(
        "{}: {}, positions with up to {} discs, {} entries ({} exact, {} outcome only), {bytes} bytes",
        args.file.display(),
        book.rules(),
        book.plies(),
        book.len(),
        summary.strong,
        book.len() as u64 - summary.strong
    );
    outln!(
        "  side to move wins {}, draws {}, loses {}",
        summary.wins,
        summary.draws,
        summary.losses
    );
    for (ply, count) in summary.by_ply.iter().enumerate() {
        outln!("  ply {ply:>3}: {count:>9} entries");
    }
    Ok(ExitCode::SUCCESS)
}

fn lookup(args: LookupArgs) -> anyhow::Result<ExitCode> {
    let book = Book::read(&args.file)?;
    let rules = book.rules();
    let (pos, _) = notation::parse(rules, &args.moves)?;
    let describe =
        |value: Option<connectk::Value>| value.map_or("not in the book".to_string(), value_text);
    outln!(
        "{rules} after \"{}\": {}",
        args.moves.trim(),
        describe(book.value(&pos))
    );
    // Each move's value is counted from this position, as `solve --analyze` counts it.
    for column in pos.legal_columns() {
        let child = pos.played(column)?;
        let text = match child.outcome() {
            Some(outcome) => format!("game over: {outcome}"),
            None => describe(book.value(&child).map(|after| connectk::Value {
                remoteness: after.remoteness.map(|r| r + 1),
                ..after
            })),
        };
        outln!("  column {:>2}: {text}", column.number());
    }
    Ok(ExitCode::SUCCESS)
}
