//! Running a sweep from the command line: its progress on stderr, its summary and the files it
//! wrote on stdout.

use std::path::{Path, PathBuf};
use std::time::Instant;

use connectk::experiment::shard::Shard;
use connectk::experiment::sweep::{Run, Solved, Sweep};

/// Runs the shard `shard` (the whole grid for `None`) of `sweep` into `out` on the current
/// worker pool, describing the grid as `grid` in the first line and each finished job (and
/// each attempt a long job writes down on its way, as an open one) by `verdict`; the whole
/// grid is then published with its run.json, `files` (in `out`) being what the sweep writes
/// beside it.
pub fn run<S: Sweep>(
    sweep: &S,
    out: &Path,
    shard: Option<Shard>,
    grid: &str,
    files: &[&str],
    verdict: impl Fn(&S::Job, &Solved<S::Row, S::Attempt>) -> String + Sync,
) -> anyhow::Result<()> {
    let start = Instant::now();
    let run = Run::open_in(sweep, out, shard)?;
    errln!("{} {grid}: {}", run.jobs().len(), run.resume);
    let bar = super::progress::bar(run.resume.pending() as u64, "boards")?;
    let solving = run.solve_watching(
        |job, attempt| bar.set_message(verdict(job, &Solved::Open(attempt.clone()))),
        |job, solved| {
            bar.set_message(verdict(job, solved));
            bar.inc(1);
        },
    )?;
    bar.finish_and_clear();
    errln!(
        "solved {} of {} boards in {:.1} s",
        solving.settled,
        run.resume.pending(),
        start.elapsed().as_secs_f64()
    );
    if shard.is_none() {
        let summary = run.publish(out, &super::command_words(), start)?;
        print_published(&summary, out, files)?;
    }
    Ok(())
}

/// Merges the shard files `files` of a run of `sweep` into `out`, which then holds `written`
/// and run.json.
pub fn merge<S: Sweep>(
    sweep: &S,
    files: &[PathBuf],
    out: &Path,
    written: &[&str],
) -> anyhow::Result<()> {
    let words = super::command_words();
    let summary = connectk::experiment::sweep::merge(sweep, files, out, &words, Instant::now())?;
    print_published(&summary, out, written)
}

/// Prints the summary line and the files written into `dir`: `files`, and run.json.
fn print_published(summary: &str, dir: &Path, files: &[&str]) -> anyhow::Result<()> {
    outln!("{summary}");
    let names: Vec<String> = files
        .iter()
        .map(|f| format!("{}/{f}", dir.display()))
        .collect();
    outln!("wrote {} and {}/run.json", names.join(", "), dir.display());
    Ok(())
}

/// The folder of `file`, where the run.json of the run that wrote it goes.
pub fn folder_of(file: &Path) -> PathBuf {
    file.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), PathBuf::from)
}
