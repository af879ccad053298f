//! `connectk quarto split` and `prove`: big solves split by their first turns.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use connectk::experiment::export::Output;
use connectk::experiment::shard::Shard;
use connectk::experiment::sweep::{Run, Solved};
use connectk::quarto::split::{self, Asked, Budget, ProofSettings, Split};
use connectk::quarto::value_text;
use connectk::{Depth, GameResult, Player};

use super::options::{OpeningsArgs, RulesArgs};

/// Solve every position after the first turns, one CSV row each, in shards.
///
/// Solve every position after the first TURNS turns (one per class of symmetric positions)
/// and append one CSV row per position as it finishes: index, key, record, outcome,
/// remoteness, nodes, seconds. A rerun skips the positions the CSV already answers, so an
/// interrupted run resumes; `--shard I/N` takes every N-th position from the I-th, so that
/// several processes (or machines) share the work. `connectk merge` (or `connectk quarto
/// merge`) then gives the value of the empty board. Writes run.json beside the CSV (a shard
/// leaves it to the merge).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    openings: OpeningsArgs,
    /// The CSV to append to (created if missing).
    #[arg(long, value_name = "FILE")]
    csv: PathBuf,
    /// Outcome only, without remoteness.
    #[arg(long)]
    weak: bool,
    /// This process's share of the positions, I/N.
    #[arg(long, default_value = "1/1", value_name = "I/N")]
    shard: Shard,
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
    let start = Instant::now();
    let rules = args.rules.rules()?;
    let selection = args.openings.selection();
    if args.list {
        for o in selection.list(rules) {
            outln!("{} {} {}", o.index, o.key, o.record);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let split = Split {
        rules,
        selection,
        depth: if args.weak {
            Depth::Weak
        } else {
            Depth::Strong
        },
        table_bytes: args.table_mb.bytes(),
        node_limit: args.node_limit,
        report: None,
    };
    let run = Run::open(&split, &args.csv, None, Some(args.shard))?;
    errln!(
        "{rules}: positions after {} turns, shard {}",
        selection.turns,
        args.shard
    );
    let solving = crate::cli::in_worker_pool(Some(args.threads.into()), || {
        Ok(run.solve(|_, solved| {
            if let Solved::Row(row) = solved {
                errln!(
                    "#{} {}: {} {} nodes, {:.1} s",
                    row.index,
                    row.record,
                    row.value().map_or("unfinished".to_string(), value_text),
                    row.nodes,
                    row.seconds
                );
            }
        })?)
    })?;
    outln!(
        "{} positions, {} in this shard: {} already in {}, {} solved now, {} unfinished",
        run.grid,
        run.jobs().len(),
        run.resume.kept,
        args.csv.display(),
        solving.settled,
        solving.unsettled
    );
    // The tasks of a job array share the CSV's folder: run.json there belongs to the whole
    // run, so a shard leaves it to the merge.
    if args.shard.count == 1 {
        crate::cli::record_run(&crate::cli::sweep::folder_of(&args.csv), start)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Prove the empty board's outcome by alpha-beta over the first turns.
///
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
    /// Ask every open question first with this many nodes, then with 4 times as many in each
    /// later round, up to --node-limit: where one of several answers is enough, the cheapest
    /// is found first, not the first in move order. Without it every search runs to
    /// --node-limit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    first_budget: Option<u64>,
    /// This process's share of the questions, I/N, for a job array: the proof then runs in
    /// passes, each shard answering the questions that fall to it and reading the other
    /// shards' answers from --known; a pass ends with "not known yet" until one settles it.
    #[arg(long, default_value = "1/1", value_name = "I/N")]
    shard: Shard,
    /// A folder whose CSVs of bounds (every *.csv in it but --csv) the proof uses as well:
    /// the other shards' answers.
    #[arg(long, value_name = "DIR")]
    known: Option<PathBuf>,
    /// The outcome a sharded pass expects (p1, p2 or draw): where a side is expected to have
    /// a choice that holds, a pass asks about one choice at a time. A wrong guess costs
    /// passes, never correctness.
    #[arg(long, value_enum, default_value_t = Expect::Draw)]
    expect: Expect,
    /// How many choices not yet refuted a sharded pass asks about where it expects one to
    /// hold: 1 follows one tree exactly; more save passes where first choices are often
    /// refuted, at the cost of questions that may not be needed.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    choices_per_pass: u32,
    /// Also write the summary to this Markdown file.
    #[arg(long, value_name = "FILE")]
    md: Option<PathBuf>,
}

/// The outcome a sharded proof expects.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum Expect {
    P1,
    P2,
    Draw,
}

/// Every CSV in `dir` except `own`.
fn other_csvs(dir: &Path, own: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let own = std::fs::canonicalize(own).ok();
    let mut found = Vec::new();
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("--known {}: cannot list the folder", dir.display()))?;
    for entry in entries {
        let path = entry
            .with_context(|| format!("--known {}: cannot list the folder", dir.display()))?
            .path();
        let csv = path.extension().is_some_and(|e| e == "csv");
        if csv && std::fs::canonicalize(&path).ok() != own {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

pub fn prove(args: ProveArgs) -> anyhow::Result<ExitCode> {
    crate::cli::check_memory("--table-mb", args.table_mb, 1)?;
    let rules = args.rules.rules()?;
    if let Some(md) = &args.md {
        Output::check(md)?;
    }
    let solver = connectk::quarto::Solver::new(rules, args.table_mb.bytes());
    let last = args.node_limit.unwrap_or(u64::MAX);
    let budget = Budget {
        first: args.first_budget.unwrap_or(last).min(last),
        last,
    };
    let settings = ProofSettings {
        shard: args.shard,
        known: match &args.known {
            Some(dir) => other_csvs(dir, &args.csv)?,
            None => Vec::new(),
        },
        expect: match args.expect {
            Expect::P1 => GameResult::Win(Player::P1),
            Expect::P2 => GameResult::Win(Player::P2),
            Expect::Draw => GameResult::Draw,
        },
        choices: args.choices_per_pass,
        ..ProofSettings::new(args.turns, budget)
    };
    let start = Instant::now();
    let proof = split::prove(
        rules,
        &settings,
        &args.csv,
        solver,
        &mut |asked| match asked {
            Asked::Answered(row) => {
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
            }
            Asked::Stopped {
                record,
                nodes,
                seconds,
            } => errln!("{record}: no answer within {nodes} nodes, {seconds:.1} s"),
        },
    )?;
    let wall = start.elapsed().as_secs_f64();
    let document = proof.document(&rules, args.turns, wall);
    if let Some(md) = &args.md {
        document.write(md)?;
    }
    out!("{}", document.text());
    Ok(ExitCode::SUCCESS)
}
