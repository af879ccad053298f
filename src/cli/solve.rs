//! `connectk solve`: the exact value of one position, or of every position in a batch file.

use std::io::{BufRead, BufReader, Read};
use std::process::ExitCode;
use std::time::Duration;

use connectk::analysis::{GameState, SolveRecord};
use connectk::{
    Budget, DEFAULT_TABLE, Depth, GameResult, Mib, Position, Rules, Solution, Solver, Value,
    notation,
};

use super::board::BoardArgs;
use super::options::BookArgs;

/// Solve a position exactly: the winner, the ply the game ends on, the best moves.
///
/// Solve a position exactly: who wins with perfect play (P1 is the player who moved first), the
/// remoteness (plies until the game ends when the winner hurries and the loser delays; for a
/// draw, the empty cells left) and the best moves.
///
/// Exit status: 0 when solved, 1 when a --node-limit or --time-limit ran out first, 2 for bad
/// input (with --batch: when any line was bad).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// Moves played so far, e.g. `4453` (comma-separated on boards wider than 9).
    #[arg(long, default_value = "")]
    moves: String,
    /// Outcome only, without remoteness (faster).
    #[arg(long)]
    weak: bool,
    /// Also give the value of every legal move.
    #[arg(long)]
    analyze: bool,
    /// The value only: do not look for the best moves (which costs one more search per legal
    /// move, and on a drawn or lost position much more than the value itself).
    #[arg(long, conflicts_with_all = ["analyze", "pv"])]
    value_only: bool,
    /// Print one JSON object instead of text: the fields of `show --json` (rules, k, width,
    /// height, moves, plies, to_move, winner, reason, completed_by, winning_cells,
    /// winning_indices), then outcome (P1, P2 or Draw under perfect play), remoteness (null
    /// when weak), best_moves (absent with --value-only), move_values (with --analyze: column,
    /// outcome, remoteness), pv (with --pv), nodes and seconds.
    #[arg(long)]
    json: bool,
    /// Also print a principal variation: best moves for both sides to the end of the game
    /// (at each step the first best move in the search's fixed order, the same every run;
    /// implies an exact solve).
    #[arg(long, conflicts_with = "weak")]
    pv: bool,
    /// Solve one position per line of FILE (`-` for stdin): the first whitespace-separated token
    /// is the move string, the rest of the line is ignored. Prints CSV
    /// `moves,outcome,remoteness,nodes,micros`; bad lines are reported on stderr and skipped
    /// (the exit status is then 2).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "analyze", "json", "pv", "value_only", "node_limit", "time_limit"])]
    batch: Option<String>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_TABLE, value_name = "MIB")]
    table_mb: Mib,
    /// Give up after this many search nodes, saying so (exit status 1); the search then runs
    /// on one thread, so that the same limit gives the same answer every time. Default: no
    /// limit.
    #[arg(long, value_name = "NODES")]
    node_limit: Option<u64>,
    /// Give up after this many seconds of searching, saying so (exit status 1). Default: no
    /// limit, except for an exact solve of a one-row board, which the one-row solver (outcome
    /// only) cannot do: it gives up after 60 s and suggests --weak.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// Threads searching each position together, sharing the large table (1 to 64). The
    /// values do not depend on it; node counts do, and vary from run to run above 1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    #[command(flatten)]
    book: BookArgs,
}

fn depth(weak: bool) -> Depth {
    if weak { Depth::Weak } else { Depth::Strong }
}

/// A value in words: `P2 wins in 37 plies`, `draw (12 empty cells)`.
pub fn value_text(value: Value) -> String {
    let plies = value
        .remoteness
        .map(|r| format!(" in {r} plies"))
        .unwrap_or_default();
    match value.result {
        GameResult::Win(p) => format!("{p} wins{plies}"),
        GameResult::Draw => match value.remoteness {
            Some(r) => format!("draw ({r} empty cells)"),
            None => "draw".to_string(),
        },
    }
}

/// The time limit of an exact solve of a one-row board when no limit is given: the main
/// search settles rows of up to about 24 cells within it (misère k = 3: 20x1 in 0.7 s, 24x1 in
/// 12 s), and a 64-cell row not in hours.
const ONE_ROW_EXACT_TIME_LIMIT: Duration = Duration::from_secs(60);

/// Parses a number of seconds, such as `2.5`, from 0 to a year.
pub(super) fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| (0.0..=3.2e7).contains(s))
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{text:?} is not a time: expected seconds from 0 to 32000000"))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    super::check_memory("--table-mb", args.table_mb, 1)?;
    let mut solver = Solver::new(args.table_mb).with_threads(args.threads.into());
    if let Some(book) = args.book.load(rules)? {
        solver = solver.with_book(book);
    }
    if let Some(file) = &args.batch {
        return batch(rules, &mut solver, file, depth(args.weak));
    }
    let (pos, _) = notation::parse(rules, &args.moves)?;
    let exact_row = rules.height() == 1 && !args.weak;
    let mut budget = Budget {
        nodes: args.node_limit,
        time: args.time_limit,
    };
    if exact_row && budget == Budget::UNLIMITED {
        budget.time = Some(ONE_ROW_EXACT_TIME_LIMIT);
    }
    let work = |solver: &mut Solver| {
        let solution = if args.analyze {
            solver.analyze(&pos, depth(args.weak))
        } else if args.value_only {
            solver.solve_at(&pos, depth(args.weak))
        } else {
            solver.solve_with_best_moves(&pos, depth(args.weak))
        };
        let pv = args
            .pv
            .then(|| notation::format(rules, &solver.principal_variation_of(&pos, solution.value)));
        (solution, pv)
    };
    let Some((solution, pv)) = solver.limited(budget, work) else {
        let advice = if exact_row {
            "an exact solve of a one-row board needs the main search; --weak gives the \
             outcome at once (one-row solver), or raise the limit"
        } else if args.weak {
            "raise the limit"
        } else {
            "raise the limit, or try --weak (outcome only)"
        };
        errln!(
            "gave up at the limit ({}) without an answer: {advice}",
            limit_text(budget)
        );
        return Ok(ExitCode::FAILURE);
    };
    if args.json {
        print_json(&pos, &args, &solution, pv)?;
    } else {
        print_text(rules, &pos, &args, &solution, pv)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The limits of `budget` in words: `60 s`, `1000 nodes`, or both.
fn limit_text(budget: Budget) -> String {
    let nodes = budget.nodes.map(|n| format!("{n} nodes"));
    let time = budget.time.map(|t| format!("{} s", t.as_secs_f64()));
    nodes.into_iter().chain(time).collect::<Vec<_>>().join(", ")
}

fn print_json(pos: &Position, args: &Args, s: &Solution, pv: Option<String>) -> anyhow::Result<()> {
    let state = GameState::of(pos, &args.moves);
    let record = SolveRecord::new(state, s, !args.value_only, pv);
    outln!("{}", serde_json::to_string(&record)?);
    Ok(())
}

fn print_text(
    rules: Rules,
    pos: &Position,
    args: &Args,
    s: &Solution,
    pv: Option<String>,
) -> std::io::Result<()> {
    outln!(
        "{} after \"{}\": {}",
        rules,
        args.moves.trim(),
        value_text(s.value)
    );
    if let Some(outcome) = pos.outcome() {
        outln!("game over: {outcome}");
    } else if !args.value_only {
        let best: Vec<String> = s
            .best_moves
            .iter()
            .map(|c| c.number().to_string())
            .collect();
        outln!("best moves for {}: {}", pos.to_move(), best.join(" "));
    }
    if args.analyze {
        for m in &s.moves {
            outln!("  column {:>2}: {}", m.column.number(), value_text(m.value));
        }
    }
    if let Some(pv) = pv {
        outln!("principal variation: {pv}");
    }
    outln!("nodes {}, {:.3} s", s.nodes, s.seconds);
    Ok(())
}

fn batch(rules: Rules, solver: &mut Solver, file: &str, depth: Depth) -> anyhow::Result<ExitCode> {
    let input: Box<dyn Read> = if file == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(
            std::fs::File::open(file)
                .map_err(|e| anyhow::anyhow!("cannot read batch file {file}: {e}"))?,
        )
    };
    let mut out = csv::Writer::from_writer(std::io::stdout());
    out.write_record(["moves", "outcome", "remoteness", "nodes", "micros"])?;
    let mut bad = 0;
    for (i, line) in BufReader::new(input).lines().enumerate() {
        let line = line.map_err(|e| anyhow::anyhow!("cannot read batch file {file}: {e}"))?;
        let token = line.split_whitespace().next().unwrap_or("");
        if token.is_empty() || token.starts_with('#') {
            continue;
        }
        let pos = match notation::parse(rules, token) {
            Ok((pos, _)) => pos,
            Err(e) => {
                errln!("error: line {}: {e}", i + 1);
                bad += 1;
                continue;
            }
        };
        let s = match depth {
            Depth::Weak => solver.solve_weak(&pos),
            Depth::Strong => solver.solve(&pos),
        };
        out.write_record([
            token.to_string(),
            s.value.result.label().to_string(),
            s.value
                .remoteness
                .map(|r| r.to_string())
                .unwrap_or_default(),
            s.nodes.to_string(),
            ((s.seconds * 1e6).round() as u64).to_string(),
        ])?;
        out.flush()?;
    }
    if bad > 0 {
        errln!("error: {bad} bad line(s) skipped");
        return Ok(ExitCode::from(super::BAD_INPUT));
    }
    Ok(ExitCode::SUCCESS)
}
