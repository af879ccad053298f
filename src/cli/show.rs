//! `connectk show`: the board and its status after a move string.

use std::process::ExitCode;

use super::board::BoardArgs;

/// Print the board and whose turn it is (or how the game ended) after a move string.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// Moves played so far, e.g. `4453` (comma-separated on boards wider than 9).
    #[arg(long, default_value = "")]
    moves: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (rules, pos) = args.board.position(&args.moves)?;
    print!("{}", pos.diagram());
    println!("{rules}, {} plies played", pos.plies());
    match pos.outcome() {
        Some(outcome) => println!("game over: {outcome}"),
        None => println!("{} to move", pos.to_move()),
    }
    Ok(ExitCode::SUCCESS)
}
