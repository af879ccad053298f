//! Argument parsing and dispatch to one module per subcommand.

/// Writes to standard output like `print!`, but returns the error from the calling function
/// instead of panicking when the output is closed (`connectk perft ... | head`); [`main`] then
/// exits quietly.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($arg)*)?
    }};
}

/// Writes a line to standard output like `println!`; see [`out!`].
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)?
    }};
}

/// Writes a line to standard error like `eprintln!`, but never panics: a message that cannot
/// be shown is dropped, since there is nowhere left to report it.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod annulus;
mod arena;
mod bench;
mod board;
mod book;
mod experiment;
mod hint_bench;
mod merge;
mod options;
mod paper_check;
mod perft;
mod play;
mod progress;
mod quarto;
mod question;
mod serve;
mod show;
mod sizes;
mod solve;
mod sweep;
mod table1;
mod terminal;
mod tournament;
mod uci_dataset;
mod verify;

use std::process::ExitCode;
use std::sync::Mutex;

use clap::{Parser, Subcommand};

use connectk::experiment::provenance::{self, Provenance};

/// Exit status for bad input (as clap uses for usage errors).
const BAD_INPUT: u8 = 2;

/// Runs `work` on a pool of `threads` worker threads (`None`: one per core), for the runs that
/// spread over the cores. A pool of its own, rather than rayon's global one, lets every run of
/// an experiment spec choose its own number.
fn in_worker_pool<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> anyhow::Result<T> + Send,
) -> anyhow::Result<T> {
    if threads == Some(0) {
        anyhow::bail!("--threads 0: use at least 1 worker thread");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()?;
    pool.install(work)
}

/// connectk: play, solve and check Connect-k games under normal and misère rules.
///
/// Pieces drop into the columns of a width x height board; a line of k (horizontal, vertical or
/// diagonal) ends the game. Under normal rules its maker wins, under misère rules its maker
/// loses. Moves are written as column numbers from 1: digits (`4453`), or comma-separated
/// numbers on boards wider than 9 (`10,3,3`).
#[derive(Parser, Debug)]
#[command(name = "connectk", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Show(show::Args),
    Solve(solve::Args),
    Table1(table1::Args),
    #[command(alias = "annulus-merge")]
    Merge(merge::Args),
    Annulus(annulus::Args),
    Perft(perft::Args),
    Bench(bench::Args),
    HintBench(hint_bench::Args),
    Experiment(experiment::Args),
    Verify(verify::Args),
    PaperCheck(paper_check::Args),
    Arena(arena::Args),
    Tournament(tournament::Args),
    Play(play::Args),
    UciDataset(uci_dataset::Args),
    Book(book::Args),
    Sizes(sizes::Args),
    Question(question::Args),
    Serve(serve::Args),
    Quarto(quarto::Args),
}

/// Runs the command line and turns every error into one line on stderr, with its causes
/// (`cannot listen on 127.0.0.1:80: Permission denied`), and exit status 2.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return refuse_arguments(&error),
    };
    // Arguments need not be UTF-8 (a file name with byte 0xFF): clap reads them as they are,
    // and the record of the command, text, replaces what is not UTF-8.
    set_command(
        std::env::args_os()
            .skip(1)
            .map(|word| word.to_string_lossy().into_owned())
            .collect(),
    );
    match run(cli.command) {
        Ok(code) => code,
        // The reader of the output went away (`| head`): nobody is left to tell, and what
        // was asked for has been read as far as it was wanted.
        Err(error) if closed_output(&error) => ExitCode::SUCCESS,
        Err(error) => {
            // Every error of this crate says its cause once: in its message or as its source.
            errln!("error: {error:#}");
            ExitCode::from(BAD_INPUT)
        }
    }
}

/// Prints clap's answer to arguments it did not take: help and the version as clap writes
/// them, and a usage error on one line (what is wrong, such as `invalid value '3/2' for
/// '--shard <I/N>': ...`, with the allowed values), like every other refusal, with exit
/// status 2.
fn refuse_arguments(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match error.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = error.print();
            ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(BAD_INPUT))
        }
        _ => {
            errln!("{}", one_line(error));
            ExitCode::from(BAD_INPUT)
        }
    }
}

/// clap's message for `error` on one line: what is wrong, then the allowed values and the tip
/// clap adds, without its blank lines and its pointer to --help.
fn one_line(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let mut line = String::new();
    for part in rendered.lines().map(str::trim) {
        if part.is_empty() || part.starts_with("For more information") {
            continue;
        }
        if !line.is_empty() {
            line.push_str(if part.starts_with('[') { " " } else { "; " });
        }
        line.push_str(part);
    }
    if line.is_empty() {
        line.push_str("error: bad arguments");
    }
    line
}

/// Whether `error` comes from writing to an output whose reader has gone.
fn closed_output(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        let io = cause.downcast_ref::<std::io::Error>().or_else(|| {
            cause
                .downcast_ref::<csv::Error>()
                .and_then(|e| match e.kind() {
                    csv::ErrorKind::Io(io) => Some(io),
                    _ => None,
                })
        });
        io.is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Show(args) => show::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Table1(args) => table1::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Annulus(args) => annulus::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::HintBench(args) => hint_bench::run(args),
        Command::Experiment(args) => experiment::run(args),
        Command::Verify(args) => verify::run(args),
        Command::PaperCheck(args) => paper_check::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Play(args) => play::run(args),
        Command::UciDataset(args) => uci_dataset::run(args),
        Command::Book(args) => book::run(args),
        Command::Sizes(args) => sizes::run(args),
        Command::Question(args) => question::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Quarto(args) => quarto::run(args),
    }
}

/// The words of the command being run (after the program's name): the command line, or the
/// run of an experiment spec under way. Results folders record them.
static COMMAND: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn set_command(words: Vec<String>) {
    *COMMAND.lock().unwrap_or_else(|e| e.into_inner()) = words;
}

/// The command being run, as one line starting `connectk`.
fn command_line() -> String {
    provenance::command_line(&COMMAND.lock().unwrap_or_else(|e| e.into_inner()))
}

/// The words of the command being run, after the program's name.
fn command_words() -> Vec<String> {
    COMMAND.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Writes the record of how the results in `dir` were made (see [`Provenance`]), for the
/// command being run, which started at `start`.
fn record_run(dir: &std::path::Path, start: std::time::Instant) -> anyhow::Result<()> {
    Provenance::now(&command_words(), start.elapsed()).write(dir)?;
    Ok(())
}

/// Refuses tables that together need more memory than the machine has: `table` for each of
/// `copies` solvers, given by `option`. (Allocating them would abort the process instead.)
fn check_memory(option: &str, table: connectk::Mib, copies: usize) -> anyhow::Result<()> {
    let Some(memory) = provenance::memory_mib() else {
        return Ok(());
    };
    let needed = (table.0 as u64).saturating_mul(copies as u64);
    if needed > memory {
        let each = if copies > 1 {
            format!(" for each of {copies} tables")
        } else {
            String::new()
        };
        anyhow::bail!(
            "{option} {table}{each} needs {needed} MiB, but this machine has {memory} MiB: \
             use at most {} MiB",
            memory / copies.max(1) as u64
        );
    }
    Ok(())
}

/// Refuses a sweep grid that selects nothing: a k range that is empty or starts below 2, or
/// `--max-cells 0`; `sweep` names what the grid is for in the message.
fn check_grid(k_min: u32, k_max: u32, max_cells: u32, sweep: &str) -> anyhow::Result<()> {
    if k_min < 2 || k_min > k_max {
        anyhow::bail!(
            "bad k range {k_min}..{k_max}: {sweep} covers k >= 2, so use 2 <= --k-min <= --k-max"
        );
    }
    if max_cells == 0 {
        anyhow::bail!("--max-cells 0 selects no board: use at least 1");
    }
    Ok(())
}

/// The number of workers a pool of `threads` threads has (`None`: one per core).
fn workers(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Parses a complete argument list (as written in an experiment spec) and runs it.
fn run_args(args: &[String]) -> anyhow::Result<ExitCode> {
    let command = parse_args(args)?.command;
    let outer = std::mem::replace(
        &mut *COMMAND.lock().unwrap_or_else(|e| e.into_inner()),
        args.to_vec(),
    );
    let result = run(command);
    set_command(outer);
    result
}

/// Parses a complete argument list (as written in an experiment spec) without running it; a
/// bad list gives the first line of clap's message.
fn parse_args(args: &[String]) -> anyhow::Result<Cli> {
    Cli::try_parse_from(std::iter::once("connectk".to_string()).chain(args.iter().cloned()))
        .map_err(|e| anyhow::anyhow!("{}", one_line(&e)))
}
