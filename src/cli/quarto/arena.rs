//! `connectk quarto arena`: many games between two Quarto players.

use std::path::PathBuf;
use std::process::ExitCode;

use connectk::experiment::export::csv::RowWriter;
use connectk::quarto::arena::{counts, play_match};
use connectk::quarto::players::Kind;

use super::options::RulesArgs;

/// Play Quarto games between two players and report the results.
///
/// Play N games between two players in parallel and report wins, draws and losses with 95%
/// Wilson intervals and game lengths. Players: random; careful (never loses at once when it
/// can help it: normal rules, takes a line and never hands over a piece that completes one;
/// misère, never places into a line); perfect (the solver; small games only). Game i is
/// seeded from --seed and i, so results do not depend on the number of threads.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// The first player (hands over the first piece).
    #[arg(long, value_enum)]
    p1: Kind,
    /// The second player (places first).
    #[arg(long, value_enum)]
    p2: Kind,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Seed of the match.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write one CSV row per game (p1, p2, seed, record, outcome, reason, length) to FILE.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let out = args.out.as_deref().map(RowWriter::create).transpose()?;
    let games = play_match(rules, args.p1, args.p2, args.games, args.seed, &|| {});
    if let Some(mut out) = out {
        for game in &games {
            out.write(game)?;
        }
        out.finish()?;
    }
    let sides = format!(
        "{rules}: {} (P1) vs {} (P2)",
        args.p1.name(),
        args.p2.name()
    );
    let (p1, p2) = (args.p1.name(), args.p2.name());
    crate::cli::arena::print_match(&sides, p1, p2, args.seed, &counts(&games), "turns")?;
    Ok(ExitCode::SUCCESS)
}
