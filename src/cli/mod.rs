//! Argument parsing and dispatch to one module per subcommand.

mod arena;
mod bench;
mod board;
mod book;
mod experiment;
mod options;
mod paper_check;
mod perft;
mod play;
mod progress;
mod show;
mod solve;
mod table1;
mod tournament;
mod uci_dataset;
mod verify;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit status for bad input (as clap uses for usage errors).
const BAD_INPUT: u8 = 2;

/// Runs `work` on a pool of `threads` worker threads (`None`: one per core), for the runs that
/// spread over the cores. A pool of its own, rather than rayon's global one, lets every run of
/// an experiment spec choose its own number.
fn in_worker_pool<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> anyhow::Result<T> + Send,
) -> anyhow::Result<T> {
    if threads == Some(0) {
        anyhow::bail!("--threads 0: use at least 1 worker thread");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()?;
    pool.install(work)
}

/// connectk: play, solve and check Connect-k games under normal and misère rules.
///
/// Pieces drop into the columns of a width x height board; a line of k (horizontal, vertical or
/// diagonal) ends the game. Under normal rules its maker wins, under misère rules its maker
/// loses. Moves are written as column numbers from 1: digits (`4453`), or comma-separated
/// numbers on boards wider than 9 (`10,3,3`).
#[derive(Parser, Debug)]
#[command(name = "connectk", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Show(show::Args),
    Solve(solve::Args),
    Table1(table1::Args),
    Merge(table1::MergeArgs),
    Perft(perft::Args),
    Bench(bench::Args),
    Experiment(experiment::Args),
    Verify(verify::Args),
    PaperCheck(paper_check::Args),
    Arena(arena::Args),
    Tournament(tournament::Args),
    Play(play::Args),
    UciDataset(uci_dataset::Args),
    Book(book::Args),
}

/// Runs the command line and turns every error into one line on stderr and exit status 2.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(BAD_INPUT)
        }
    }
}

fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Show(args) => show::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Table1(args) => table1::run(args),
        Command::Merge(args) => table1::merge(args),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Experiment(args) => experiment::run(args),
        Command::Verify(args) => verify::run(args),
        Command::PaperCheck(args) => paper_check::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Play(args) => play::run(args),
        Command::UciDataset(args) => uci_dataset::run(args),
        Command::Book(args) => book::run(args),
    }
}

/// Parses a complete argument list (as written in an experiment spec) and runs it.
fn run_args(args: &[String]) -> anyhow::Result<ExitCode> {
    run(parse_args(args)?.command)
}

/// Parses a complete argument list (as written in an experiment spec) without running it; a
/// bad list gives the first line of clap's message.
fn parse_args(args: &[String]) -> anyhow::Result<Cli> {
    Cli::try_parse_from(std::iter::once("connectk".to_string()).chain(args.iter().cloned()))
        .map_err(|e| {
            anyhow::anyhow!(
                "{}",
                e.render()
                    .to_string()
                    .lines()
                    .next()
                    .unwrap_or("bad arguments")
            )
        })
}
