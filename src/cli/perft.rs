//! `connectk perft`: distinct positions by ply, a check of move generation.

use std::process::ExitCode;

use connectk::positions_by_ply;

use super::board::BoardArgs;

/// Count the positions reachable after each number of plies.
///
/// Count the distinct positions reachable after each number of plies (finished games are
/// counted but not continued). For standard 7x6 these are OEIS A212693. Prints CSV: a header
/// `ply,positions`, then one line per ply from 0 to N. Exit status: 0, or 2 for bad input.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// Deepest ply to count.
    #[arg(long, default_value_t = 8)]
    plies: u32,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    let counts = match positions_by_ply::<u64>(rules, args.plies) {
        Some(counts) => counts,
        None => {
            positions_by_ply::<u128>(rules, args.plies).expect("every valid board fits 128 bits")
        }
    };
    outln!("ply,positions");
    for (ply, count) in counts.iter().enumerate() {
        outln!("{ply},{count}");
    }
    Ok(ExitCode::SUCCESS)
}
