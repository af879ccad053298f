//! `connectk question`: does a player win the empty board by a given ply? Split into
//! questions a few plies down, each answer kept as it is found.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use connectk::experiment::question::{Asked, Progress, Question, REREAD, Split, ask, known_in};
use connectk::experiment::sizes::add_answer;
use connectk::{DEFAULT_ONE_ROW, Mib, Player, Rules, Solver, notation};

use super::board::BoardArgs;

/// Ask whether a player wins the empty board by a given ply, in pieces that are kept.
///
/// Answers one yes-or-no question about the empty board (or the position after --moves),
/// "does --player win on ply --by-ply or sooner, whatever the other side does?", by alpha-beta
/// down to ply --depth: the positions that deep are each asked with one null-window search,
/// only as the answer needs them, and each answer is appended to --answers the moment it is
/// found (so is each answer the walk composes above that depth, with no nodes of its own, the
/// start's included: a run above the start, or a rerun that walks another way, reads it at
/// once; kept answers settle a position whatever order of moves reached them). A run cut
/// short (by --time-limit, or killed) keeps every answer it found, and a rerun with the same
/// --answers goes on from them, so a question too long for one sitting is
/// answered over several; runs from several --moves side by side, then one from the empty
/// board reading their files with --known, answer it on several machines at once. For the game
/// length of a board whose outcome is known: a "no" for the winner by ply L puts the length
/// after L, a "yes" at or before it.
///
/// Prints each answer found on stderr with its place in the split, and the verdict on stdout:
/// `yes`, `no`, or `unknown` when the time ran out. The place is one fraction a ply of the
/// answered position's line, the move's rank among the distinct moves there in the order asked
/// (`at 1/4 3/7`: the first of four, then the third of seven); on the plies where every move
/// must be answered, those fractions show how far a long question has got. Exit status: 0
/// (whatever the verdict), 2 for bad input.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// The player asked about.
    #[arg(long, value_parser = parse_player, value_name = "P1|P2")]
    player: Player,
    /// The last ply on which the win may come (1 to the number of cells).
    #[arg(long, value_name = "PLY")]
    by_ply: u32,
    /// The split's depth, in plies from the empty board: the positions that deep are handed
    /// to the solver, one search each (0, or a --moves as long: one search of the whole
    /// question). Deeper splits keep smaller pieces and ask more of them.
    #[arg(long, default_value_t = 2, value_name = "PLIES")]
    depth: u32,
    /// The CSV the answers are read from and appended to.
    #[arg(long, value_name = "FILE")]
    answers: PathBuf,
    /// Ask from the position after these moves instead of the empty board (`--by-ply` still
    /// counts from the empty board). Runs from the positions a few plies down, each with its
    /// own --answers, answer the empty board's question side by side; a last run from the
    /// empty board with the same --depth and their files as --known asks nothing they asked.
    #[arg(long, default_value = "", value_name = "MOVES")]
    moves: String,
    /// Another CSV of answers about the same board, read and never written (another run's,
    /// even while that run appends to it: looked at again every 10 s, and answers written
    /// since are used); repeat for more.
    #[arg(long, value_name = "FILE")]
    known: Vec<PathBuf>,
    /// A folder of answer CSVs: those about this board (by the board named in their rows) are
    /// read as with --known, other boards' are left out (and counted), as is --answers. Files
    /// that appear in it while the run goes on are read too (a worker started beside it).
    #[arg(long, value_name = "DIR")]
    known_dir: Option<PathBuf>,
    /// Stop after this many seconds (the search under way is dropped; every answer found is
    /// kept). Default: no limit.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Transposition table, in MiB. On a board of one row, the one-row solver (and the sums
    /// of games under misère rules) may use as much again, and at least 2048.
    #[arg(long, default_value_t = Mib(1024), value_name = "MIB")]
    table_mb: Mib,
    /// Threads searching each piece together, sharing the table (1 to 64). The answers do not
    /// depend on it; node counts do, and vary from run to run above 1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Scout with searches of at most this many nodes (1 to 10^15): one or two plies above
    /// --depth, every move is first tried with the searches below it capped, and only the
    /// moves left open are tried again without the cap, so that the side needing one good move
    /// takes one settled cheaply rather than the first in the order, whose pieces may take far
    /// longer. A capped search that passes the cap keeps no answer (the verdict line counts
    /// them). Capped searches run on one thread. Default: no scouting.
    #[arg(
        long,
        value_name = "NODES",
        value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000_000)
    )]
    scout_nodes: Option<u64>,
    /// The open.csv of a `sizes` run that tried this board: once answered, the answer is
    /// added to it as a new attempt with the narrower range of lengths (refused where it
    /// contradicts the attempt there), and the next `sizes` run goes on from it.
    #[arg(long, value_name = "FILE")]
    open: Option<PathBuf>,
}

/// `P1` or `P2`.
fn parse_player(text: &str) -> Result<Player, String> {
    match text {
        "P1" | "p1" => Ok(Player::P1),
        "P2" | "p2" => Ok(Player::P2),
        _ => Err(format!("{text:?} is not a player: give P1 or P2")),
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    let time = checked_time(&args, rules)?;
    super::check_memory("--table-mb", args.table_mb, 1)?;
    let question = Question {
        rules,
        player: args.player,
        by_ply: args.by_ply,
    };
    let (_, start) = notation::parse(rules, &args.moves)?;
    if args.open.is_some() && !start.is_empty() {
        anyhow::bail!(
            "--open with --moves: the open file takes answers about the empty board only; \
             drop one of them"
        );
    }
    if let Some(dir) = &args.known_dir {
        let (about, others) = known_in(dir, rules, &args.answers)?;
        errln!(
            "--known-dir {}: {} files of answers about {rules}, {others} about other boards \
             left out (looked at again every {} s while the run goes on)",
            dir.display(),
            about.len(),
            REREAD.as_secs()
        );
    }
    let mut solver = Solver::new(args.table_mb)
        .with_one_row_memory(args.table_mb.max(DEFAULT_ONE_ROW))
        .with_threads(args.threads.into());
    let split = Split {
        start: &start,
        known: &args.known,
        known_dir: args.known_dir.as_deref(),
        time,
        scout: args.scout_nodes,
        ..Split::new(args.depth, &args.answers)
    };
    let asked = ask(question, &split, &mut solver, &mut print_answer)?;
    if let (Some(open), Some(answer)) = (&args.open, asked.answer) {
        add_to_open(open, question, answer, &asked)?;
    }
    print_verdict(&args, rules, &asked)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints one answer found on stderr, with its place in the split (a search beginning prints
/// nothing: most end at once).
fn print_answer(progress: Progress<'_>) {
    let Progress::Answered { row, place: path } = progress else {
        return;
    };
    let moves = if row.moves.is_empty() {
        "(empty)"
    } else {
        &row.moves
    };
    let side = if row.above { "above" } else { "not above" };
    let place: Vec<String> = path
        .iter()
        .map(|b| format!("{}/{}", b.tried, b.of))
        .collect();
    errln!(
        "{moves} probe {}: {side} ({} nodes, {:.1} s) at {}",
        row.probe,
        row.nodes,
        row.seconds,
        place.join(" ")
    );
}

/// Prints the verdict on stdout, with what the run searched and read.
fn print_verdict(args: &Args, rules: Rules, asked: &Asked) -> std::io::Result<()> {
    let verdict = match asked.answer {
        Some(true) => "yes",
        Some(false) => "no",
        None => "unknown (the time ran out; a rerun with the same --answers goes on)",
    };
    let after = match args.moves.trim() {
        "" => String::new(),
        moves => format!(" after {moves}"),
    };
    let others = match asked.known_files {
        0 => String::new(),
        1 => " and 1 other file".to_string(),
        n => format!(" and {n} other files"),
    };
    let dropped = match asked.answer {
        None => format!(
            "; the search the time stopped was dropped ({} nodes, {:.1} s)",
            asked.dropped_nodes, asked.dropped_seconds
        ),
        Some(_) => String::new(),
    };
    let capped = match asked.capped {
        0 => String::new(),
        n => format!(
            "; {n} scouting searches passed the cap and kept no answer ({} nodes, {:.0} s)",
            asked.capped_nodes, asked.capped_seconds
        ),
    };
    outln!(
        "does {} win {rules}{after} by ply {}? {verdict}: {} answers found now ({} nodes, \
         {:.0} s), {} read from {}{others}{dropped}{capped}",
        args.player,
        args.by_ply,
        asked.searched,
        asked.nodes,
        asked.seconds,
        asked.reused,
        args.answers.display()
    );
    Ok(())
}

/// Checks the ply and depth against the board of `rules`; returns the time limit.
fn checked_time(args: &Args, rules: Rules) -> anyhow::Result<Option<Duration>> {
    if args.by_ply == 0 || args.by_ply > rules.cells() {
        anyhow::bail!(
            "--by-ply {}: give a ply from 1 to {} (the board's cells)",
            args.by_ply,
            rules.cells()
        );
    }
    if args.depth > rules.cells() {
        anyhow::bail!(
            "--depth {}: give at most {} (the board's cells)",
            args.depth,
            rules.cells()
        );
    }
    match args.time_limit {
        Some(s) if s > 0.0 && s <= 1e7 => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => anyhow::bail!("--time-limit {s}: give seconds from 0 to 10000000"),
        None => Ok(None),
    }
}

/// Adds `answer` to `question` to the sizes open file `open`, at what every answer so far
/// cost, and says what it added.
fn add_to_open(open: &Path, question: Question, answer: bool, asked: &Asked) -> anyhow::Result<()> {
    let Question {
        rules,
        player,
        by_ply,
    } = question;
    let cost = (asked.all_nodes, asked.all_seconds);
    match add_answer(open, rules, (player, by_ply, answer), cost)? {
        Some(a) => errln!(
            "added to {}: {rules}, {}, last ply {}",
            open.display(),
            a.outcome.map_or("unknown", |o| o.label()),
            a.length_text()
        ),
        None => errln!("{} already says as much: nothing added", open.display()),
    }
    Ok(())
}
