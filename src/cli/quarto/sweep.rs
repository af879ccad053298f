//! `connectk quarto sweep`: the variations experiment.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use connectk::experiment::export::Output;
use connectk::experiment::sweep::{Run, Solved};
use connectk::quarto::sweep::{self, Variations};
use connectk::quarto::value_text;

/// Solve the empty board of every small variation of Quarto.
///
/// Solve the empty board of every variation of the experiment exactly (2x2 and 3x3 boards
/// with 1 to 4 attributes, squares, the beginners' criteria, 4x4 with fewer attributes or
/// criteria, and with squares; both rules), appending one row per variation to
/// DIR/variations.csv (a rerun skips the finished ones and retries the others), then write
/// DIR/variations.md and DIR/run.json.
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
    /// Transposition table size in MiB, per thread.
    #[arg(long, default_value_t = connectk::Mib(1024), value_name = "MIB")]
    table_mb: connectk::Mib,
    /// Threads, each solving one variation at a time with its own table.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::cli::check_memory("--table-mb", args.table_mb, args.threads.into())?;
    let start = Instant::now();
    let md = args.out.join("variations.md");
    Output::check(&md)?;
    let chosen = sweep::variations()
        .into_iter()
        .filter(|r| {
            args.only
                .as_ref()
                .is_none_or(|o| r.to_string().contains(o.as_str()))
        })
        .collect();
    let variations = Variations {
        rules: chosen,
        table_bytes: args.table_mb.bytes(),
        node_limit: args.node_limit,
    };
    let run = Run::open_in(&variations, &args.out, None)?;
    let csv = run.resume.path.clone();
    crate::cli::in_worker_pool(Some(args.threads.into()), || {
        Ok(run.solve(|_, solved| {
            if let Solved::Row(row) = solved {
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
            }
        })?)
    })?;
    run.publish(&args.out, &crate::cli::command_words(), start)?;
    outln!(
        "wrote {}, {} and {}",
        csv.display(),
        md.display(),
        args.out.join("run.json").display()
    );
    Ok(ExitCode::SUCCESS)
}
