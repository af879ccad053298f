//! `connectk paper-check`: run every case of `paper-checks/claims.json`.

use std::path::PathBuf;
use std::process::ExitCode;

use connectk::experiment::export::check_writable;
use connectk::experiment::paper_checks;

/// Check every claim of the paper listed in a claims file.
///
/// Check every claim of the paper listed in a claims file, on every board of its range:
/// solver outcomes against Table I, and strategies against every opponent reply. Writes
/// DIR/paper-checks.csv (one row per case, board and player), DIR/paper-checks.md and
/// DIR/run.json (how it was made). The whole claims file takes about 90 s on 2 cores and a peak
/// of about 4.4 GB (some strategy checks keep every position they reach). Exit status: 0 when
/// every claim holds, 1 if any fails (a refuted exploration is no failure), 2 for bad input (an unreadable claims file, an unknown
/// strategy, a range that selects no board).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The claims file.
    #[arg(long, default_value = "paper-checks/claims.json", value_name = "FILE")]
    claims: PathBuf,
    /// Output directory.
    #[arg(long, default_value = "results/paper-checks", value_name = "DIR")]
    out: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.claims)
        .map_err(|e| anyhow::anyhow!("cannot read claims file {}: {e}", args.claims.display()))?;
    let cases = paper_checks::parse_claims(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.claims.display()))?;
    // Refused before the checks rather than after them.
    check_writable(&args.out)?;
    let start = std::time::Instant::now();
    let boards: usize = cases.iter().map(|c| c.boards().len()).sum();
    let bar = super::progress::bar(boards as u64, "checks")?;
    let rows = super::in_worker_pool(args.threads, || {
        Ok(paper_checks::run(&cases, |_| bar.inc(1)))
    })?;
    bar.finish_and_clear();
    paper_checks::publish(&args.out, &cases, &rows, &super::command_line())?;
    super::record_run(&args.out, start)?;
    outln!("{}", paper_checks::summary(&cases, &rows));
    Ok(
        if !rows.iter().any(|r| paper_checks::fails_a_claim(&cases, r)) {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        },
    )
}
