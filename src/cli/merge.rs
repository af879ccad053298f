//! `connectk merge`: the shard files of any sweep joined into the outputs of one run.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use connectk::Depth;
use connectk::experiment::annulus::Annulus;
use connectk::experiment::export::Output;
use connectk::experiment::sizes::Sizes;
use connectk::experiment::sweep::{self, Sweep, header_of, holds};
use connectk::experiment::table1::Table1;
use connectk::quarto::split::Split;
use connectk::{DEFAULT_TABLE, Mib};

use super::quarto::options::{OpeningsArgs, RulesArgs};

/// Join the shard files of a job array into the outputs of one run.
///
/// Join the shard files of a job array into the outputs of one run, for any sweep: the header
/// of the files names their kind (Table I, the annulus, the size tables, a Quarto split
/// solve). Every row is checked (file, line and field of the first that is wrong); a board in
/// two files must have the same result in both; files named NAME.shard-I-of-N.csv must be all
/// N shards of one array; and the boards of the grid missing from the shards are listed. A
/// size table's open boards are read from the open.shard-* files beside its shards. A Quarto
/// split's files take the rules and turns of the split, and print the value of the empty
/// board once every position is solved (written to --md when asked). Exit status: 0 when
/// merged, 2 for bad input (a missing, malformed or conflicting shard file, or a shard
/// missing).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Shard CSV files written by `table1`, `annulus`, `sizes` or `quarto split` with --shard.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Output directory (default: results/NAME, NAME the sweep's: table1, annulus, sizes).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Transposition table size in MiB (for the principal variations of Table I's
    /// disagreements).
    #[arg(long, default_value_t = DEFAULT_TABLE, value_name = "MIB")]
    table_mb: Mib,
    #[command(flatten)]
    quarto: QuartoSplitArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::check_memory("--table-mb", args.table_mb, 1)?;
    let header = header_of(&args.files)?;
    let files = &args.files;
    if holds::<<Split as Sweep>::Row>(&header) {
        if args.out.is_some() {
            anyhow::bail!(
                "--out: a Quarto split solve's merge prints its summary; give --md FILE to write it"
            );
        }
        merge_split(&args.quarto, files)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.quarto.md.is_some() {
        anyhow::bail!("--md is for the files of a Quarto split solve: give --out DIR instead");
    }
    let out = |name: &str| {
        args.out
            .clone()
            .unwrap_or_else(|| PathBuf::from("results").join(name))
    };
    if holds::<<Table1 as Sweep>::Row>(&header) {
        let dir = out(Table1::NAME);
        let table1 = Table1::merge(args.table_mb);
        super::sweep::merge(&table1, files, &dir, super::table1::FILES)?;
    } else if holds::<<Annulus as Sweep>::Row>(&header) {
        let dir = out(Annulus::NAME);
        super::sweep::merge(&Annulus::merge(), files, &dir, super::annulus::FILES)?;
    } else if holds::<<Sizes as Sweep>::Row>(&header) {
        let dir = out(Sizes::NAME);
        super::sweep::merge(&Sizes::merge(), files, &dir, super::sizes::FILES)?;
    } else {
        anyhow::bail!(
            "{} is not a shard of a sweep (its header is {:?}): give the CSV files that \
             `table1`, `annulus`, `sizes` or `quarto split` wrote",
            files[0].display(),
            header.join(",")
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The options of `merge` that only the files of a Quarto split solve take: the rules and
/// turns of the split (its positions are not in its files), and where the summary goes.
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Quarto split files")]
pub struct QuartoSplitArgs {
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    openings: OpeningsArgs,
    /// Also write the summary of a Quarto split solve to this Markdown file, with run.json
    /// beside it.
    #[arg(long, value_name = "FILE")]
    md: Option<PathBuf>,
}

/// Merges `files`, CSV files of a Quarto split solve: how many positions are solved, their
/// values, and once all are, the value of the empty board by minimax over the first turns;
/// prints the summary, and writes it to --md when asked.
fn merge_split(args: &QuartoSplitArgs, files: &[PathBuf]) -> anyhow::Result<()> {
    let start = Instant::now();
    if let Some(md) = &args.md {
        Output::check(md)?;
    }
    let split = Split {
        rules: args.rules.rules()?,
        selection: args.openings.selection(),
        depth: Depth::Strong,
        table_bytes: 0,
        node_limit: None,
        report: args.md.clone(),
    };
    let text = match &args.md {
        Some(md) => {
            let words = super::command_words();
            let dir = super::sweep::folder_of(md);
            sweep::merge(&split, files, &dir, &words, start)?
        }
        None => {
            let rows = sweep::read_shards_checked(files, &|row| split.check(row))?;
            split.document(&split.summary(&rows)).text().to_string()
        }
    };
    out!("{text}");
    Ok(())
}
