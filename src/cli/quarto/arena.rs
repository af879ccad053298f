//! `connectk quarto arena`: many games between two Quarto players.

use std::path::PathBuf;
use std::process::ExitCode;

use connectk::arena::wilson;
use connectk::experiment::export::csv::RowWriter;
use connectk::quarto::arena::{Tally, play_match};
use connectk::quarto::players::Kind;

use super::RulesArgs;

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
    let tally = Tally::of(&games);
    let n = tally.games();
    outln!(
        "{rules}: {} (P1) vs {} (P2), {n} games, seed {}",
        args.p1.name(),
        args.p2.name(),
        args.seed
    );
    let labels = [
        format!("P1 {} wins", args.p1.name()),
        "draws".to_string(),
        format!("P2 {} wins", args.p2.name()),
    ];
    for (label, &count) in labels.iter().zip(&tally.counts) {
        let (low, high) = wilson(count, n);
        outln!(
            "  {label:<24} {count:>6} {:>6.1}%  (95% CI {:.1}-{:.1}%)",
            100.0 * count as f64 / n.max(1) as f64,
            100.0 * low,
            100.0 * high
        );
    }
    outln!(
        "  game length: mean {:.1}, max {} turns",
        tally.turns as f64 / n.max(1) as f64,
        tally.longest
    );
    Ok(ExitCode::SUCCESS)
}
