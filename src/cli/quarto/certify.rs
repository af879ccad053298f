//! `connectk quarto certify`: solve a position and write the proof certificate of its outcome.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use connectk::quarto::Solver;
use connectk::quarto::certificate::{self, Format};

use super::options::RulesArgs;

/// Write a proof certificate of a position's outcome.
///
/// Write a proof certificate of a position's outcome: the winner's strategy against every
/// reply, or each side's non-losing strategy for a draw (format in docs/quarto.md), for
/// `connectk quarto check-proof` to replay. Version 2 (the default) keys entries by canonical
/// positions under the board and attribute symmetries; version 1 by positions as they stand.
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
    /// The format version: 2 keys entries by canonical positions, 1 by positions as they
    /// stand (larger; for readers of the old format).
    #[arg(long, default_value_t = 2, value_name = "VERSION",
          value_parser = clap::value_parser!(u32).range(1..=2))]
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
    let format = match args.format {
        1 => Format::Plain,
        _ => Format::Canonical,
    };
    let certificate = match certificate::certify(&mut solver, &pos, &args.moves, format) {
        Ok(certificate) => certificate,
        Err(e) => {
            errln!("{e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let text = certificate.to_text();
    std::fs::write(&args.out, &text)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let entries: usize = certificate.strategies.iter().map(|s| s.entries.len()).sum();
    outln!(
        "{rules}: {} proved, {entries} strategy entries, {} bytes written to {}",
        certificate.claim.label(),
        text.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
