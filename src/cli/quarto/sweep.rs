//! `connectk quarto sweep`: the variations experiment.

use std::path::PathBuf;
use std::process::ExitCode;

use connectk::experiment::export::{Output, write_text};
use connectk::quarto::sweep;

use super::solve::value_text;

/// Solve the empty board of every variation of the experiment exactly (2x2 and 3x3 boards
/// with 1 to 4 attributes, squares, the beginners' criteria, 4x4 with fewer attributes or
/// criteria, and with squares; both rules), appending one row per variation to
/// DIR/variations.csv (a rerun skips the finished ones and retries the others), then write
/// DIR/variations.md.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output directory.
    #[arg(long, default_value = "results/quarto", value_name = "DIR")]
    out: PathBuf,
    /// Positions a variation may search before it is recorded as unfinished.
    #[arg(long, default_value_t = 2_000_000_000, value_name = "N")]
    node_limit: u64,
    /// Solve only the variations whose name (as the CSV's `variation` column writes it, e.g.
    /// `normal 4x4, 4 attributes + squares`) contains this text.
    #[arg(long, value_name = "TEXT")]
    only: Option<String>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = connectk::Mib(1024), value_name = "MIB")]
    table_mb: connectk::Mib,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::cli::check_memory("--table-mb", args.table_mb, 1)?;
    let csv = args.out.join("variations.csv");
    let md = args.out.join("variations.md");
    Output::check(&md)?;
    let chosen: Vec<_> = sweep::variations()
        .into_iter()
        .filter(|r| {
            args.only
                .as_ref()
                .is_none_or(|o| r.to_string().contains(o.as_str()))
        })
        .collect();
    let rows = sweep::run(
        &chosen,
        &csv,
        args.table_mb.bytes(),
        args.node_limit,
        &mut |row| {
            let value = match (row.outcome, row.length) {
                (Some(result), Some(_)) => value_text(connectk::Value {
                    result,
                    remoteness: row.length,
                }),
                _ => "unfinished".to_string(),
            };
            errln!(
                "{}: {value}, {} nodes, {:.2} s",
                row.variation,
                row.nodes,
                row.seconds
            );
        },
    )?;
    write_text(&md, &sweep::markdown(&rows))?;
    outln!("wrote {} and {}", csv.display(), md.display());
    Ok(ExitCode::SUCCESS)
}
