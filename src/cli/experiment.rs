//! `connectk experiment`: run a declarative experiment spec from `experiments/`.

use std::path::PathBuf;
use std::process::ExitCode;

use connectk::experiment::spec::{Running, Spec};

/// Run an experiment described by a JSON spec.
///
/// Run the experiment described by a JSON spec: `{"name": ..., "description": ..., "runs":
/// [["table1", "--max-cells", "24"], ...]}`; each run is a connectk argument list, run in
/// order. The runs stop at the first that fails, with its exit status (0 when all succeed,
/// 1 when a run reports a failure, 2 for bad input). A spec may run other specs, but never
/// itself, directly or through others.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The spec file, e.g. experiments/table1.json.
    spec: PathBuf,
    /// Only check that the spec (and every spec it runs) is well formed and that every run's
    /// arguments parse; run nothing.
    #[arg(long)]
    check: bool,
    /// Write into DIR instead of results/: every argument of the runs that is `results` or
    /// starts with `results/` has that part replaced by DIR, so that a rerun can leave the
    /// committed results alone.
    #[arg(long, value_name = "DIR")]
    results_dir: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let spec = Spec::read(&args.spec)?;
    let _running = Running::enter(&args.spec)?;
    let runs = spec.runs_under(args.results_dir.as_deref());
    if args.check {
        return check(&args, &runs);
    }
    errln!("experiment {}: {}", spec.name, spec.description);
    for run in &runs {
        errln!("$ connectk {}", run.join(" "));
        let code = super::run_args(run)?;
        if code != ExitCode::SUCCESS {
            return Ok(code);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Checks that every one of `runs`, the runs of the spec of `args`, parses, and so the runs of
/// every spec they run.
fn check(args: &Args, runs: &[Vec<String>]) -> anyhow::Result<ExitCode> {
    let name = args.spec.display();
    for words in runs {
        let parsed = super::parse_args(words)
            .map_err(|e| anyhow::anyhow!("{name}: run `{}`: {e}", words.join(" ")))?;
        if let super::Command::Experiment(inner) = parsed.command {
            run(Args {
                check: true,
                results_dir: args.results_dir.clone(),
                ..inner
            })?;
        }
    }
    outln!("{name}: {} run(s), all parse", runs.len());
    Ok(ExitCode::SUCCESS)
}
