//! `connectk quarto certify`: solve a position and write the proof certificate of its outcome.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use connectk::quarto::Solver;
use connectk::quarto::certificate::{self, CertifyError, Format, Progress};

use super::options::RulesArgs;

/// Write a proof certificate of a position's outcome.
///
/// Write a proof certificate of a position's outcome: the winner's strategy against every
/// reply, or each side's non-losing strategy for a draw (format in docs/quarto.md), for
/// `connectk quarto check-proof` to replay. Version 3 (the default) keys entries by canonical
/// positions under the board and attribute symmetries and ends draw strategies where no line
/// can be completed any more; version 2 goes on to the end of every game; version 1 keys
/// entries by positions as they stand. Entries go to disk as they are found (each strategy
/// to OUT.strategy-N first, joined into OUT at the end).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// The game record of the position, e.g. `DTQH a1:LSRF` (default: the empty board).
    #[arg(long, default_value = "")]
    moves: String,
    /// The certificate file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The format version: 3 keys entries by canonical positions and ends draw strategies at
    /// dead positions, 2 goes on to the end of every game, 1 keys entries by positions as
    /// they stand (larger; 1 and 2 for readers of the old formats).
    #[arg(long, default_value_t = 3, value_name = "VERSION",
          value_parser = clap::value_parser!(u32).range(1..=3))]
    format: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = connectk::Mib(256), value_name = "MIB")]
    table_mb: connectk::Mib,
    /// Give up after this many positions per search (exit status 1).
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::cli::check_memory("--table-mb", args.table_mb, 1)?;
    let (rules, pos) = args.rules.position(&args.moves)?;
    let mut solver = Solver::new(rules, args.table_mb.bytes());
    if let Some(limit) = args.node_limit {
        solver.set_node_limit(limit);
    }
    let format = Format::of_version(args.format).context("--format takes 1, 2 or 3")?;
    let bar = crate::cli::progress::counter("entries")?;
    bar.set_message("solving the outcome");
    let progress = |event: Progress| match event {
        Progress::Solved(claim) => {
            bar.set_message(format!("{}: growing the strategies", claim.label()));
        }
        Progress::Entries {
            player,
            index,
            of,
            entries,
        } => {
            bar.set_position(entries as u64);
            bar.set_message(format!("{player}'s strategy ({index} of {of})"));
        }
    };
    let result = certificate::write(&mut solver, &pos, &args.moves, format, &args.out, &progress);
    bar.finish_and_clear();
    let written = match result {
        Ok(written) => written,
        Err(CertifyError::Unfinished(e)) => {
            errln!("{e}");
            return Ok(ExitCode::FAILURE);
        }
        Err(e) => return Err(e.into()),
    };
    outln!(
        "{rules}: {} proved, {} strategy entries, {} bytes written to {}",
        written.claim.label(),
        written.entries,
        written.bytes,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
