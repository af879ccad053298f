//! `connectk solve`: the exact value of one position, or of every position in a batch file.

use std::io::{BufRead, BufReader, Read};
use std::process::ExitCode;

use serde::Serialize;

use connectk::{
    DEFAULT_TABLE, Depth, GameResult, Mib, MoveValue, Position, Rules, Solution, Solver, Value,
    notation,
};

use super::board::BoardArgs;

/// Solve a position exactly: who wins with perfect play (P1 is the player who moved first), the
/// remoteness (plies until the game ends when the winner hurries and the loser delays; for a
/// draw, the empty cells left) and the best moves.
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
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also print a principal variation: best moves for both sides to the end of the game
    /// (the lowest-numbered best move at each step; implies an exact solve).
    #[arg(long, conflicts_with = "weak")]
    pv: bool,
    /// Solve one position per line of FILE (`-` for stdin): the first whitespace-separated token
    /// is the move string, the rest of the line is ignored. Prints CSV
    /// `moves,outcome,remoteness,nodes,micros`; bad lines are reported on stderr and skipped.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "analyze", "json", "pv", "value_only", "node_limit"])]
    batch: Option<String>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_TABLE, value_name = "MIB")]
    table_mb: Mib,
    /// Give up after this many search nodes, saying so (exit status 1). Default: no limit,
    /// except for an exact solve of a one-row board, which the one-row solver (outcome only)
    /// cannot do: it gives up after 100,000,000 nodes (about a minute) and suggests --weak.
    #[arg(long, value_name = "NODES")]
    node_limit: Option<u64>,
    /// Threads searching each position together, sharing the large table (1 to 64). The
    /// values do not depend on it; node counts do, and vary from run to run above 1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
}

/// One move's value in JSON output.
#[derive(Serialize)]
struct JsonMove {
    column: u32,
    outcome: &'static str,
    remoteness: Option<u32>,
}

/// The JSON object printed by `--json`.
#[derive(Serialize)]
struct JsonSolution {
    rules: String,
    k: u32,
    width: u32,
    height: u32,
    moves: String,
    outcome: &'static str,
    remoteness: Option<u32>,
    /// Absent with `--value-only`.
    #[serde(skip_serializing_if = "Option::is_none")]
    best_moves: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    move_values: Vec<JsonMove>,
    /// Principal variation, with `--pv`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pv: Option<String>,
    nodes: u64,
    seconds: f64,
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

/// The node limit of an exact solve of a one-row board when none is given: the main search
/// settles rows of up to about 20 cells within it (misère k = 3: 16x1 in a few seconds).
const ONE_ROW_EXACT_NODE_LIMIT: u64 = 100_000_000;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    let mut solver = Solver::new(args.table_mb).with_threads(args.threads.into());
    if let Some(file) = &args.batch {
        return batch(rules, &mut solver, file, depth(args.weak));
    }
    let (pos, _) = notation::parse(rules, &args.moves)?;
    let exact_row = rules.height() == 1 && !args.weak;
    let node_limit = args
        .node_limit
        .or(exact_row.then_some(ONE_ROW_EXACT_NODE_LIMIT));
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
            .then(|| notation::format(rules, &solver.principal_variation(&pos)));
        (solution, pv)
    };
    let answer = match node_limit {
        Some(limit) => solver.limited(limit, work),
        None => Some(work(&mut solver)),
    };
    let Some((solution, pv)) = answer else {
        let limit = node_limit.expect("only a limited solve gives up");
        let advice = if exact_row {
            "an exact solve of a one-row board needs the main search; --weak gives the \
             outcome at once (one-row solver), or raise --node-limit"
        } else {
            "raise --node-limit, or try --weak (outcome only)"
        };
        eprintln!("gave up after {limit} search nodes without an answer: {advice}");
        return Ok(ExitCode::FAILURE);
    };
    if args.json {
        print_json(rules, &args, &solution, pv)?;
    } else {
        print_text(rules, &pos, &args, &solution, pv);
    }
    Ok(ExitCode::SUCCESS)
}

fn columns(moves: &[connectk::Column]) -> Vec<u32> {
    moves.iter().map(|c| c.number()).collect()
}

fn print_json(rules: Rules, args: &Args, s: &Solution, pv: Option<String>) -> anyhow::Result<()> {
    let move_values = if args.analyze {
        s.moves
            .iter()
            .map(|m: &MoveValue| JsonMove {
                column: m.column.number(),
                outcome: m.value.result.label(),
                remoteness: m.value.remoteness,
            })
            .collect()
    } else {
        Vec::new()
    };
    let json = JsonSolution {
        rules: rules.variant().to_string(),
        k: rules.k(),
        width: rules.width(),
        height: rules.height(),
        moves: args.moves.trim().to_string(),
        outcome: s.value.result.label(),
        remoteness: s.value.remoteness,
        best_moves: (!args.value_only).then(|| columns(&s.best_moves)),
        move_values,
        pv,
        nodes: s.nodes,
        seconds: s.seconds,
    };
    println!("{}", serde_json::to_string(&json)?);
    Ok(())
}

fn print_text(rules: Rules, pos: &Position, args: &Args, s: &Solution, pv: Option<String>) {
    println!(
        "{} after \"{}\": {}",
        rules,
        args.moves.trim(),
        value_text(s.value)
    );
    if let Some(outcome) = pos.outcome() {
        println!("game over: {outcome}");
    } else if !args.value_only {
        let best: Vec<String> = s
            .best_moves
            .iter()
            .map(|c| c.number().to_string())
            .collect();
        println!("best moves for {}: {}", pos.to_move(), best.join(" "));
    }
    if args.analyze {
        for m in &s.moves {
            println!("  column {:>2}: {}", m.column.number(), value_text(m.value));
        }
    }
    if let Some(pv) = pv {
        println!("principal variation: {pv}");
    }
    println!("nodes {}, {:.3} s", s.nodes, s.seconds);
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
                eprintln!("line {}: {e}", i + 1);
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
        eprintln!("{bad} bad line(s) skipped");
        return Ok(ExitCode::from(super::BAD_INPUT));
    }
    Ok(ExitCode::SUCCESS)
}
