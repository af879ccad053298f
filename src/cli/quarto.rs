//! `connectk quarto`: Quarto's subcommands and the rule options they share.

mod arena;
mod play;
mod show;
mod solve;
mod split;
mod sweep;

pub use split::{MergeArgs as SplitMergeArgs, merge as merge_split};

use std::process::ExitCode;

use clap::Subcommand;

use connectk::Variant;
use connectk::quarto::{Position, Rules, notation};

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
    }
}

/// `--size`, `--attributes`, `--rules`, `--criteria`, `--square`.
#[derive(clap::Args, Debug, Clone)]
pub struct RulesArgs {
    /// Board side: 2, 3 or 4.
    #[arg(long, default_value_t = 4)]
    size: u32,
    /// Attributes per piece, 1 to 4 (2^A pieces; with fewer pieces than cells the game is a
    /// draw when they run out).
    #[arg(long, default_value_t = 4)]
    attributes: u32,
    /// `normal` (a line wins) or `misere` (a line loses).
    #[arg(long, default_value = "normal", value_name = "normal|misere")]
    rules: Variant,
    /// Attributes that count for a line (the beginners' variation), comma-separated: numbers
    /// from 0 or the names colour, height, shape, fill. Default: all.
    #[arg(long, value_name = "LIST")]
    criteria: Option<String>,
    /// Four pieces of a 2x2 square sharing an attribute also end the game.
    #[arg(long)]
    square: bool,
}

impl RulesArgs {
    /// The validated rules.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        let criteria = self
            .criteria
            .as_deref()
            .map(|c| Rules::parse_criteria(c, self.attributes))
            .transpose()?;
        Ok(Rules::new(
            self.size,
            self.attributes,
            criteria,
            self.rules,
            self.square,
        )?)
    }

    /// The rules and the position after `record`.
    pub fn position(&self, record: &str) -> anyhow::Result<(Rules, Position)> {
        let rules = self.rules()?;
        let (pos, _) = notation::parse(rules, record)?;
        Ok((rules, pos))
    }
}
