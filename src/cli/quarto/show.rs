//! `connectk quarto show`: draw a position.

use std::process::ExitCode;

use super::options::RulesArgs;

/// Draw the position after a game record.
///
/// Draw the position after a game record: the board (pieces by code, a completed line in
/// brackets), whose turn it is, the piece in hand and the pieces left.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// The game record, e.g. `DTQH a1:LSRF b2:DSQF`.
    #[arg(long, default_value = "")]
    moves: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (_, pos) = args.rules.position(&args.moves)?;
    out!("{}", pos.diagram());
    Ok(ExitCode::SUCCESS)
}
