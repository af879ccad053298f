//! `connectk quarto`: Quarto's subcommands.

mod arena;
mod certify;
mod check_proof;
pub mod options;
mod play;
mod show;
mod solve;
mod split;
mod sweep;

use std::process::ExitCode;

use clap::Subcommand;

/// Quarto: play, solve, prove and check the game of sixteen pieces.
///
/// Quarto: a 4x4 board and 16 pieces with four two-valued attributes (light/dark, short/tall,
/// round/square, solid/hollow). Each turn a player places the piece the opponent chose for it,
/// then chooses the piece the opponent must place; a full row, column or diagonal whose pieces
/// share an attribute ends the game (its maker wins under normal rules, loses under misère).
/// P1 hands over the first piece, so P2 places first. Records: the opening piece, then one
/// `cell:piece` per turn, e.g. `DTQH a1:LSRF b2:DSQF`; cells a1 to d4 (column letter, row
/// from the bottom), pieces one letter per attribute: L/D, S/T, R/Q, F/H (or 0/1).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Show(show::Args),
    Play(play::Args),
    Arena(arena::Args),
    Solve(solve::Args),
    Split(split::Args),
    /// The same command as `connectk merge`, kept under its old name.
    Merge(crate::cli::merge::Args),
    Prove(split::ProveArgs),
    Sweep(sweep::Args),
    Certify(certify::Args),
    CheckProof(check_proof::Args),
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Show(args) => show::run(args),
        Command::Play(args) => play::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Split(args) => split::run(args),
        Command::Merge(args) => crate::cli::merge::run(args),
        Command::Prove(args) => split::prove(args),
        Command::Sweep(args) => sweep::run(args),
        Command::Certify(args) => certify::run(args),
        Command::CheckProof(args) => check_proof::run(args),
    }
}
