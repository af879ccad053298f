//! `connectk experiment`: run a declarative experiment spec from `experiments/`.

use std::process::ExitCode;

use serde::Deserialize;

/// Run the experiment described by a JSON spec: `{"name": ..., "description": ..., "runs":
/// [["reproduce", "--max-cells", "24"], ...]}`; each run is a connectk argument list.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The spec file, e.g. experiments/table1.json.
    spec: String,
    /// Only check that the spec is well formed and that every run's arguments parse; run
    /// nothing.
    #[arg(long)]
    check: bool,
}

/// An experiment spec.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    name: String,
    description: String,
    runs: Vec<Vec<String>>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.spec)
        .map_err(|e| anyhow::anyhow!("cannot read experiment spec {}: {e}", args.spec))?;
    let spec: Spec = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "bad experiment spec {}: {e} (expected fields name, description, runs)",
            args.spec
        )
    })?;
    if args.check {
        for run in &spec.runs {
            super::parse_args(run)
                .map_err(|e| anyhow::anyhow!("{}: run `{}`: {e}", args.spec, run.join(" ")))?;
        }
        println!("{}: {} run(s), all parse", args.spec, spec.runs.len());
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!("experiment {}: {}", spec.name, spec.description);
    for run in &spec.runs {
        eprintln!("$ connectk {}", run.join(" "));
        let code = super::run_args(run)?;
        if code != ExitCode::SUCCESS {
            return Ok(code);
        }
    }
    Ok(ExitCode::SUCCESS)
}
