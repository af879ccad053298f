//! `connectk experiment`: run a declarative experiment spec from `experiments/`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use serde::Deserialize;

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

/// An experiment spec.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    name: String,
    description: String,
    runs: Vec<Vec<String>>,
}

/// The specs being run, outermost first, to refuse a spec that runs itself.
static RUNNING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let spec = read(&args.spec)?;
    let key = args.spec.canonicalize()?;
    {
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        if running.contains(&key) {
            let mut cycle: Vec<String> = running.iter().map(|p| p.display().to_string()).collect();
            cycle.push(key.display().to_string());
            anyhow::bail!(
                "experiment specs run each other in a circle: {}",
                cycle.join(" -> ")
            );
        }
        running.push(key);
    }
    let result = run_spec(&args, &spec);
    RUNNING.lock().unwrap_or_else(|e| e.into_inner()).pop();
    result
}

/// Runs (or with `--check`, checks) the runs of `spec`, read from `args.spec`.
fn run_spec(args: &Args, spec: &Spec) -> anyhow::Result<ExitCode> {
    let name = args.spec.display();
    let runs: Vec<Vec<String>> = spec
        .runs
        .iter()
        .map(|run| in_results_dir(run, args.results_dir.as_deref()))
        .collect();
    if runs.is_empty() {
        anyhow::bail!("{name}: no runs: list at least one argument list under \"runs\"");
    }
    if args.check {
        for words in &runs {
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
        return Ok(ExitCode::SUCCESS);
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

/// Reads and parses the spec at `path`.
fn read(path: &Path) -> anyhow::Result<Spec> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read experiment spec {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "bad experiment spec {}: {e} (expected fields name, description, runs)",
            path.display()
        )
    })
}

/// `run` with every argument under `results/` moved under `dir`, if one is given.
fn in_results_dir(run: &[String], dir: Option<&Path>) -> Vec<String> {
    let Some(dir) = dir else {
        return run.to_vec();
    };
    run.iter()
        .map(|arg| {
            let rest = if arg == "results" {
                Some("")
            } else {
                arg.strip_prefix("results/")
            };
            rest.map_or_else(|| arg.clone(), |rest| dir.join(rest).display().to_string())
        })
        .collect()
}
