//! `connectk paper-check`: run every case of `paper-checks/claims.json`.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use connectk::Solver;
use connectk::paper::checks::{Case, CaseRow};

/// Check every claim of the paper listed in a claims file, on every board of its range:
/// solver outcomes against Table I, and strategies against every opponent reply. Writes
/// DIR/paper-checks.csv (one row per case, board and player) and DIR/paper-checks.md.
/// Exit status 1 if any claim fails.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The claims file.
    #[arg(long, default_value = "paper-checks/claims.json", value_name = "FILE")]
    claims: PathBuf,
    /// Output directory.
    #[arg(long, default_value = "results", value_name = "DIR")]
    out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.claims)
        .map_err(|e| anyhow::anyhow!("cannot read claims file {}: {e}", args.claims.display()))?;
    let cases: Vec<Case> = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("bad claims file {}: {e}", args.claims.display()))?;
    let jobs: Vec<(usize, connectk::Rules)> = cases
        .iter()
        .enumerate()
        .flat_map(|(i, case)| case.boards().into_iter().map(move |rules| (i, rules)))
        .collect();
    let bar = ProgressBar::new(jobs.len() as u64).with_style(ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} checks, eta {eta}",
    )?);
    let mut rows: Vec<CaseRow> = jobs
        .par_iter()
        .flat_map_iter(|&(i, rules)| {
            let rows = cases[i].run(rules, &mut Solver::new(64 << 20));
            bar.inc(1);
            rows
        })
        .collect();
    bar.finish_and_clear();
    let order = |row: &CaseRow| cases.iter().position(|c| c.id == row.case);
    rows.sort_by_key(|r| (order(r), r.k, r.width, r.height, r.player.clone()));

    std::fs::create_dir_all(&args.out)?;
    let csv_path = args.out.join("paper-checks.csv");
    let mut writer = csv::Writer::from_path(&csv_path)?;
    for row in &rows {
        writer.serialize(row)?;
    }
    writer.flush()?;

    let mut md = String::from(
        "# The paper's claims, checked\n\nWritten by `connectk paper-check` from `paper-checks/claims.json`; one row per board in `paper-checks.csv`.\n\n| claim | boards checked | holds | fails | first refutation |\n|---|---|---|---|---|\n",
    );
    let mut failures = 0;
    for case in &cases {
        let of_case: Vec<&CaseRow> = rows.iter().filter(|r| r.case == case.id).collect();
        let fails: Vec<&&CaseRow> = of_case.iter().filter(|r| !r.holds).collect();
        failures += fails.len();
        let first = fails.first().map_or("-".to_string(), |r| {
            format!(
                "k={} {}x{} {}: {} `{}`",
                r.k,
                r.width,
                r.height,
                r.player.as_deref().unwrap_or(""),
                r.detail,
                r.refutation.as_deref().unwrap_or("")
            )
        });
        let _ = writeln!(
            md,
            "| {} | {} (k {}..{}, w*h <= {}) | {} | {} | {} |",
            case.claim,
            of_case.len(),
            case.k.0,
            case.k.1,
            case.max_cells,
            of_case.len() - fails.len(),
            fails.len(),
            first
        );
    }
    let summary = format!(
        "{} checks over {} claims: {} hold, {failures} fail.",
        rows.len(),
        cases.len(),
        rows.len() - failures
    );
    let _ = writeln!(md, "\n{summary}");
    std::fs::write(args.out.join("paper-checks.md"), md)?;
    println!("{summary}");
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
