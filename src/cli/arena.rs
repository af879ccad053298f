//! `connectk arena`: many games between two players, with win rates and Wilson intervals.

use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};

use connectk::arena::matches::{Tally, play_match};
use connectk::arena::stats::wilson;

use super::board::BoardArgs;

/// Play N games between two players in parallel and report wins, draws and losses with 95%
/// Wilson intervals and game lengths. Players: random, easy, medium, hard, perfect, and the
/// paper's strategies (take-even, delayed-take-even, pairing) where they apply. Game i is
/// seeded from --seed and i, so results do not depend on the number of threads.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// The first player.
    #[arg(long)]
    p1: String,
    /// The second player.
    #[arg(long)]
    p2: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Seed of the match.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write one CSV row per game (seed, moves, outcome, reason, length) to FILE.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    let bar = ProgressBar::new(args.games).with_style(ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} games, eta {eta}",
    )?);
    let records = play_match(rules, &args.p1, &args.p2, args.games, args.seed, || {
        bar.inc(1)
    })?;
    bar.finish_and_clear();
    if let Some(path) = &args.out {
        let mut writer = csv::Writer::from_path(path)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        for record in &records {
            writer.serialize(record)?;
        }
        writer.flush()?;
    }
    let t = Tally::of(&records);
    let n = records.len() as u64;
    println!(
        "{rules}: {} (P1) vs {} (P2), {n} games, seed {}",
        args.p1, args.p2, args.seed
    );
    for (label, count) in [
        (format!("P1 {} wins", args.p1), t.p1_wins),
        ("draws".to_string(), t.draws),
        (format!("P2 {} wins", args.p2), t.p2_wins),
    ] {
        let (low, high) = wilson(count, n);
        println!(
            "  {label:<28} {count:>6}  {:>5.1}%  (95% CI {:.1}-{:.1}%)",
            100.0 * count as f64 / n.max(1) as f64,
            100.0 * low,
            100.0 * high
        );
    }
    println!(
        "  game length: mean {:.1}, max {}",
        t.plies as f64 / n.max(1) as f64,
        t.longest
    );
    Ok(ExitCode::SUCCESS)
}
