//! `connectk show`: the board and its status after a move string.

use std::process::ExitCode;

use connectk::analysis::GameState;

use super::board::BoardArgs;

/// Print the board after a move string, and whose turn it is or how the game ended.
///
/// Print the board and whose turn it is (or how the game ended) after a move string. Exit
/// status: 0, or 2 for bad input (such as an illegal move, named with its place in the string).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// Moves played so far, e.g. `4453` (comma-separated on boards wider than 9).
    #[arg(long, default_value = "")]
    moves: String,
    /// Print one JSON object instead of the diagram: rules, k, width, height, topology, moves, plies,
    /// to_move, and for a finished game winner, reason (`line` or `board-full`), completed_by
    /// and the line's cells as winning_cells (`[column, row]` from the bottom left) and
    /// winning_indices (`row * width + column`, row 0 at the top).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (rules, pos) = args.board.position(&args.moves)?;
    if args.json {
        let state = GameState::of(&pos, &args.moves);
        outln!("{}", serde_json::to_string(&state)?);
        return Ok(ExitCode::SUCCESS);
    }
    out!("{}", pos.diagram());
    outln!("{rules}, {} plies played", pos.plies());
    match pos.outcome() {
        Some(outcome) => outln!("game over: {outcome}"),
        None => outln!("{} to move", pos.to_move()),
    }
    Ok(ExitCode::SUCCESS)
}
