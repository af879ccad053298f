//! Argument parsing and dispatch to one module per subcommand.

mod arena;
mod bench;
mod board;
mod experiment;
mod paper_check;
mod perft;
mod play;
mod quarto;
mod reproduce;
mod show;
mod solve;
mod tournament;
mod uci;
mod verify;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit status for bad input (as clap uses for usage errors).
const BAD_INPUT: u8 = 2;

/// The largest memory size an option takes, in MiB (1 TiB): larger sizes are surely typos, and
/// their byte counts would overflow.
const MAX_MIB: usize = 1 << 20;

/// Parses a memory size in MiB for options such as `--table-mb`: a whole number from 0 to
/// [`MAX_MIB`].
fn parse_mib(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&mib| mib <= MAX_MIB)
        .ok_or_else(|| format!("expected a whole number of MiB from 0 to {MAX_MIB}"))
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
    Reproduce(reproduce::Args),
    Merge(reproduce::MergeArgs),
    Perft(perft::Args),
    Bench(bench::Args),
    Experiment(experiment::Args),
    Verify(verify::Args),
    PaperCheck(paper_check::Args),
    Arena(arena::Args),
    Tournament(tournament::Args),
    Play(play::Args),
    Uci(uci::Args),
    Quarto(quarto::Args),
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
        Command::Reproduce(args) => reproduce::run(args),
        Command::Merge(args) => reproduce::merge(args),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Experiment(args) => experiment::run(args),
        Command::Verify(args) => verify::run(args),
        Command::PaperCheck(args) => paper_check::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Play(args) => play::run(args),
        Command::Uci(args) => uci::run(args),
        Command::Quarto(args) => quarto::run(args),
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
