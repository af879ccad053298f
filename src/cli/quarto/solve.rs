//! `connectk quarto solve`: the value of a position, and of every turn from it.

use std::process::ExitCode;

use serde::Serialize;

use connectk::quarto::{Position, Rules, Solver, TurnValue, notation, players, value_text};
use connectk::{Depth, Value};

use super::options::RulesArgs;

/// Solve a Quarto position: the winner and the turns to the end.
///
/// Solve a Quarto position: who wins with perfect play (P1 handed over the first piece) and
/// the remoteness (turns until the game ends when the winner hurries and the loser delays; a
/// drawn standard game from the empty board lasts 17 turns, the opening handover included).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// The game record so far, e.g. `DTQH a1:LSRF`.
    #[arg(long, default_value = "")]
    moves: String,
    /// Outcome only, without remoteness (faster).
    #[arg(long)]
    weak: bool,
    /// Also give the value of every legal turn (every cell and piece to hand over).
    #[arg(long)]
    analyze: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = connectk::Mib(256), value_name = "MIB")]
    table_mb: connectk::Mib,
    /// Give up after this many positions (exit status 1).
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,
}

/// One turn's value in JSON output.
#[derive(Serialize)]
struct JsonTurn {
    turn: String,
    outcome: &'static str,
    remoteness: Option<u32>,
}

/// The JSON object printed by `--json`.
#[derive(Serialize)]
struct JsonSolution {
    rules: String,
    size: u32,
    attributes: u32,
    criteria: Vec<u32>,
    square: bool,
    moves: String,
    outcome: &'static str,
    remoteness: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best_turns: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    turn_values: Vec<JsonTurn>,
    nodes: u64,
    seconds: f64,
}

/// The turns of `values` whose value is the best for the side to move in `pos`, written out.
fn best_turns(pos: &Position, values: &[TurnValue]) -> Vec<String> {
    players::best_turns(pos.to_move(), values)
        .into_iter()
        .map(|turn| notation::format_turn(pos.rules(), turn))
        .collect()
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::cli::check_memory("--table-mb", args.table_mb, 1)?;
    let (rules, pos) = args.rules.position(&args.moves)?;
    let mut solver = Solver::new(rules, args.table_mb.bytes());
    if let Some(limit) = args.node_limit {
        solver = solver.with_node_limit(limit);
    }
    let depth = if args.weak {
        Depth::Weak
    } else {
        Depth::Strong
    };
    let (value, turns, nodes, seconds) = if args.analyze {
        match solver.analyze(&pos, depth) {
            Ok(a) => (a.value, a.turns, a.nodes, a.seconds),
            Err(e) => return unfinished(e),
        }
    } else {
        match solver.solve(&pos, depth) {
            Ok(s) => (s.value, Vec::new(), s.nodes, s.seconds),
            Err(e) => return unfinished(e),
        }
    };
    if args.json {
        let json = JsonSolution {
            rules: rules.variant().to_string(),
            size: rules.size(),
            attributes: rules.attributes(),
            criteria: (0..rules.attributes())
                .filter(|i| rules.criteria() >> i & 1 == 1)
                .collect(),
            square: rules.squares(),
            moves: args.moves.trim().to_string(),
            outcome: value.result.label(),
            remoteness: value.remoteness,
            best_turns: args.analyze.then(|| best_turns(&pos, &turns)),
            turn_values: turns
                .iter()
                .map(|t| JsonTurn {
                    turn: notation::format_turn(&rules, t.turn),
                    outcome: t.value.result.label(),
                    remoteness: t.value.remoteness,
                })
                .collect(),
            nodes,
            seconds,
        };
        outln!("{}", serde_json::to_string(&json)?);
    } else {
        print_text(&rules, &pos, &args.moves, value, &turns, nodes, seconds)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_text(
    rules: &Rules,
    pos: &Position,
    moves: &str,
    value: Value,
    turns: &[TurnValue],
    nodes: u64,
    seconds: f64,
) -> std::io::Result<()> {
    outln!("{rules} after \"{}\": {}", moves.trim(), value_text(value));
    if let Some(outcome) = pos.outcome() {
        outln!("game over: {}", outcome.describe(rules));
    }
    if !turns.is_empty() {
        outln!(
            "best turns for {}: {}",
            pos.to_move(),
            best_turns(pos, turns).join(" ")
        );
        for t in turns {
            outln!(
                "  {:<8} {}",
                notation::format_turn(rules, t.turn),
                value_text(t.value)
            );
        }
    }
    outln!("nodes {nodes}, {seconds:.3} s");
    Ok(())
}

fn unfinished(e: connectk::quarto::Unfinished) -> anyhow::Result<ExitCode> {
    errln!("{e}");
    Ok(ExitCode::FAILURE)
}
