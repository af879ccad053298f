//! `connectk quarto split` and `connectk quarto merge`: big solves split by their first turns.

use std::path::PathBuf;
use std::process::ExitCode;

use connectk::Depth;
use connectk::experiment::export::{Output, write_text};
use connectk::experiment::store::Store;
use connectk::quarto::split::{self, Merged, Selection, Shard, SplitPlan};

use super::RulesArgs;
use super::solve::value_text;

/// Solve every position after the first TURNS turns (one per class of symmetric positions)
/// and append one CSV row per position as it finishes: index, key, record, outcome,
/// remoteness, nodes, seconds. A rerun skips the positions the CSV already answers, so an
/// interrupted run resumes; `--shard I/N` takes every N-th position from the I-th, so that
/// several processes (or machines) share the work. `connectk quarto merge` then gives the
/// value of the empty board.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Turns played in each position (2: standard Quarto has 8 positions up to symmetry; 3:
    /// many more, smaller).
    #[arg(long, default_value_t = 2)]
    turns: u32,
    /// Solve only N positions after TURNS turns, reached by random turns (seeded by
    /// --seed), instead of every class: for games too large for every class.
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// Seed of --sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The CSV to append to (created if missing).
    #[arg(long, value_name = "FILE")]
    csv: PathBuf,
    /// Outcome only, without remoteness.
    #[arg(long)]
    weak: bool,
    /// This process's share of the positions, I/N.
    #[arg(long, default_value = "1/1", value_name = "I/N")]
    shard: String,
    /// Threads, each with its own table, solving positions in turn.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Transposition table size per thread in MiB.
    #[arg(long, default_value_t = connectk::Mib(1024), value_name = "MIB")]
    table_mb: connectk::Mib,
    /// Record a position as unfinished after this many nodes (a rerun with a higher limit
    /// tries it again).
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,
    /// Only list the positions (index, key, record) without solving them.
    #[arg(long)]
    list: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::cli::check_memory("--table-mb", args.table_mb, args.threads.into())?;
    let rules = args.rules.rules()?;
    let selection = Selection {
        turns: args.turns,
        sample: args.sample.map(|n| (n, args.seed)),
    };
    if args.list {
        for o in selection.list(rules) {
            outln!("{} {} {}", o.index, o.key, o.record);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let shard: Shard = args.shard.parse()?;
    let plan = SplitPlan {
        selection,
        depth: if args.weak {
            Depth::Weak
        } else {
            Depth::Strong
        },
        shard,
        table_bytes: args.table_mb.bytes(),
        node_limit: args.node_limit,
        threads: args.threads.into(),
    };
    let store = Store::open(&args.csv)?;
    errln!(
        "{rules}: positions after {} turns, shard {}/{}",
        args.turns,
        shard.index,
        shard.count
    );
    let done = split::run(rules, &plan, &store, &|row| {
        errln!(
            "#{} {}: {} {} nodes, {:.1} s",
            row.index,
            row.record,
            row.value().map_or("unfinished".to_string(), value_text),
            row.nodes,
            row.seconds
        );
    })?;
    outln!(
        "{} positions, {} in this shard: {} already in {}, {} solved now, {} unfinished",
        done.openings,
        done.in_shard,
        done.skipped,
        args.csv.display(),
        done.solved,
        done.unfinished
    );
    Ok(ExitCode::SUCCESS)
}

/// Merge the CSV files of a split solve: how many positions are solved, their values, and
/// once all are, the value of the empty board by minimax over the first turns. Optionally
/// writes the summary as Markdown.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Turns played in each position, as given to `split`.
    #[arg(long, default_value_t = 2)]
    turns: u32,
    /// The --sample of the split, if it had one.
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// The --seed of the split's sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The CSV files of the shards.
    #[arg(required = true, value_name = "FILE")]
    csv: Vec<PathBuf>,
    /// Also write the summary to this Markdown file.
    #[arg(long, value_name = "FILE")]
    md: Option<PathBuf>,
}

/// The summary in Markdown.
fn markdown(rules: &connectk::quarto::Rules, turns: u32, sampled: bool, m: &Merged) -> String {
    let (title, root) = match (sampled, m.root) {
        (true, _) => (
            format!("a random sample of positions after {turns} turns"),
            "a sample does not decide the empty board".to_string(),
        ),
        (false, Some(value)) => (
            format!("every position after {turns} turns"),
            format!("**{}**", value_text(value)),
        ),
        (false, None) => (
            format!("every position after {turns} turns"),
            format!(
                "not known yet ({} of {} positions solved)",
                m.solved, m.openings
            ),
        ),
    };
    format!(
        "# Quarto, {rules}: {title}\n\n\
         Value of the empty board: {root}.\n\n\
         | positions | solved | P1 wins | draws | P2 wins | nodes | solve time |\n\
         |---|---|---|---|---|---|---|\n\
         | {} | {} | {} | {} | {} | {} | {:.0} s |\n",
        m.openings, m.solved, m.counts[0], m.counts[1], m.counts[2], m.nodes, m.seconds
    )
}

pub fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    // A shard that is missing or a directory would silently count as "not solved yet".
    if let Some(bad) = args.csv.iter().find(|p| !p.is_file()) {
        anyhow::bail!(
            "{} is not a file: give the CSV files that `connectk quarto split` wrote",
            bad.display()
        );
    }
    if let Some(md) = &args.md {
        Output::check(md)?;
    }
    let paths: Vec<&std::path::Path> = args.csv.iter().map(PathBuf::as_path).collect();
    let selection = Selection {
        turns: args.turns,
        sample: args.sample.map(|n| (n, args.seed)),
    };
    let merged = split::merge(rules, selection, &paths)?;
    let text = markdown(&rules, args.turns, args.sample.is_some(), &merged);
    if let Some(md) = &args.md {
        write_text(md, &text)?;
    }
    out!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// Prove the outcome of the empty board by alpha-beta over the first TURNS turns, asking the
/// solver only what the proof needs about the positions reached (does P1 win there, or at
/// least draw?): one null-window search each, every answer appended to the CSV (key, record,
/// lower and upper bound for P1 as 1 / 0 / -1, nodes, seconds), so that a rerun asks nothing
/// twice. Much less work than `split`, which solves every position; not shardable.
#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Turns played before the solver takes over.
    #[arg(long, default_value_t = 3)]
    turns: u32,
    /// The CSV of bounds (created if missing).
    #[arg(long, value_name = "FILE")]
    csv: PathBuf,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = connectk::Mib(2048), value_name = "MIB")]
    table_mb: connectk::Mib,
    /// Give up a search after this many nodes (the outcome is then unknown; a rerun with a
    /// higher limit continues).
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,
    /// Also write the summary to this Markdown file.
    #[arg(long, value_name = "FILE")]
    md: Option<PathBuf>,
}

pub fn prove(args: ProveArgs) -> anyhow::Result<ExitCode> {
    crate::cli::check_memory("--table-mb", args.table_mb, 1)?;
    let rules = args.rules.rules()?;
    if let Some(md) = &args.md {
        Output::check(md)?;
    }
    let mut solver = connectk::quarto::Solver::new(rules, args.table_mb.bytes());
    if let Some(limit) = args.node_limit {
        solver = solver.with_node_limit(limit);
    }
    let start = std::time::Instant::now();
    let proof = split::prove(rules, args.turns, &args.csv, solver, &mut |row| {
        let bound = match (row.lower, row.upper) {
            (1, _) => "P1 wins",
            (_, -1) => "P2 wins",
            (0, _) => "P1 draws or wins",
            _ => "P2 draws or wins",
        };
        errln!(
            "{}: {bound}, {} nodes, {:.1} s",
            row.record,
            row.nodes,
            row.seconds
        );
    })?;
    let value = match proof.result {
        Some(result) => {
            let remoteness = (result == connectk::GameResult::Draw).then(|| rules.last_ply());
            format!("**{}**", value_text(connectk::Value { result, remoteness }))
        }
        None => "unknown (a search hit the node limit)".to_string(),
    };
    let text = format!(
        "# Quarto, {rules}: proof over the first {} turns\n\n\
         Outcome of the empty board: {value}.\n\n\
         | positions asked about | searches now | nodes | search time | wall time |\n\
         |---|---|---|---|---|\n\
         | {} | {} | {} | {:.0} s | {:.0} s |\n",
        args.turns,
        proof.openings,
        proof.searches,
        proof.nodes,
        proof.seconds,
        start.elapsed().as_secs_f64()
    );
    if let Some(md) = &args.md {
        write_text(md, &text)?;
    }
    out!("{text}");
    Ok(ExitCode::SUCCESS)
}
