//! Running a sweep from the command line: its progress on stderr, its summary and the files it
//! wrote on stdout.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use connectk::experiment::shard::Shard;
use connectk::experiment::sweep::{Board, Run, Solved, Sweep};

/// Runs the shard `shard` (the whole grid for `None`) of `sweep` into `out` on the current
/// worker pool, describing the grid as `grid` in the first line and each finished board (and
/// each attempt a long one writes down on its way, as an open one) by `verdict`, with the
/// boards under way; the whole grid is then published with its run.json, `files` (in `out`)
/// being what the sweep writes beside it.
pub fn run<S: Sweep<Job = Board>>(
    sweep: &S,
    out: &Path,
    shard: Option<Shard>,
    grid: &str,
    files: &[&str],
    verdict: impl Fn(&Solved<S::Row, S::Attempt>) -> String + Sync,
) -> anyhow::Result<()> {
    let start = Instant::now();
    let run = Run::open_in(sweep, out, shard)?;
    errln!("{} {grid}: {}", run.jobs().len(), run.resume);
    let bar = super::progress::bar(run.resume.pending() as u64, "boards")?;
    let shown = Mutex::new(Shown::default());
    let show = |change: &dyn Fn(&mut Shown)| {
        let mut shown = shown.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut shown);
        bar.set_message(shown.message());
    };
    let solving = run.solve_watching(
        |board| show(&|s| s.under_way.push(*board)),
        |board, attempt| {
            show(&|s| s.last = Some((*board, verdict(&Solved::Open(attempt.clone())))))
        },
        |board, words| show(&|s| s.last = Some((*board, words.to_string()))),
        |board, solved| {
            show(&|s| {
                s.under_way.retain(|b| b != board);
                s.last = Some((*board, verdict(solved)));
            });
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

/// What the progress line shows: the latest word of a board, and the boards under way.
#[derive(Default)]
struct Shown {
    last: Option<(Board, String)>,
    under_way: Vec<Board>,
}

impl Shown {
    /// `misere k = 4, 10x5: P2 on ply 43; under way: misere k = 4, 6x9`, the board of the
    /// latest word left out of the boards under way.
    fn message(&self) -> String {
        let named = self.last.as_ref().map(|(board, _)| *board);
        let others: Vec<String> = self
            .under_way
            .iter()
            .filter(|b| Some(**b) != named)
            .map(|b| board_name(*b))
            .collect();
        let last = self
            .last
            .as_ref()
            .map(|(board, verdict)| format!("{}: {verdict}", board_name(*board)));
        let under_way = (!others.is_empty()).then(|| format!("under way: {}", others.join(", ")));
        [last, under_way]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// A board as the progress line names it: `misere k = 4, 7x6`.
fn board_name(board: Board) -> String {
    format!("{} {}", board.variant, board.name())
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

#[cfg(test)]
mod tests {
    use super::*;
    use connectk::{Topology, Variant};

    fn board(k: u32, width: u32) -> Board {
        Board {
            variant: Variant::Misere,
            topology: Topology::Flat,
            k,
            width,
            height: 1,
        }
    }

    /// The line names the boards under way, after the latest word of a board (left out of the
    /// list when it is one of them, as a long board's attempts are).
    #[test]
    fn the_progress_line_names_the_boards_under_way() {
        let mut shown = Shown::default();
        assert_eq!(shown.message(), "");
        shown.under_way = vec![board(3, 27), board(4, 28)];
        assert_eq!(
            shown.message(),
            "under way: misere k = 3, 27x1, misere k = 4, 28x1"
        );
        shown.last = Some((board(3, 27), "P2, last ply 9 to 27".into()));
        assert_eq!(
            shown.message(),
            "misere k = 3, 27x1: P2, last ply 9 to 27; under way: misere k = 4, 28x1"
        );
        shown.under_way.clear();
        assert_eq!(shown.message(), "misere k = 3, 27x1: P2, last ply 9 to 27");
    }
}
