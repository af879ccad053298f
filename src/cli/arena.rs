//! `connectk arena`: many games between two players, with win rates and Wilson intervals.

use std::path::PathBuf;
use std::process::ExitCode;

use connectk::arena::{GameRecord, PlayerName, Standing, Tally, check_pairing, play_match, wilson};
use connectk::experiment::export::csv::write_all;

use super::board::BoardArgs;
use super::options::PerfectArgs;

/// Play N games between two players in parallel and report wins, draws and losses with 95%
/// Wilson intervals and game lengths. Players: the bots (random, easy, medium, hard, perfect)
/// and the paper's strategies where they apply. Game i is seeded from --seed and i, so results
/// do not depend on the number of threads.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// The first player.
    #[arg(long, value_enum)]
    p1: PlayerName,
    /// The second player.
    #[arg(long, value_enum)]
    p2: PlayerName,
    /// Number of games (with --swap: of openings, each played twice).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Seed of the match.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play every game seed a second time with the colours swapped, and report the results
    /// per player as well as per side.
    #[arg(long)]
    swap: bool,
    /// Write one CSV row per game (p1, p2, seed, moves, outcome, reason, length, and for
    /// games of `perfect`: proof, value_only_moves, slowest_ms) to FILE.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    perfect: PerfectArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    let mut pairings = vec![(args.p1, args.p2)];
    if args.swap {
        pairings.push((args.p2, args.p1));
    }
    for &(p1, p2) in &pairings {
        check_pairing(rules, p1, p2)?;
    }
    let perfect = args.perfect.settings(rules)?;
    let bar = super::progress::bar(pairings.len() as u64 * args.games, "games")?;
    let mut played: Vec<(PlayerName, PlayerName, Vec<GameRecord>)> = Vec::new();
    for (p1, p2) in pairings {
        let records = play_match(rules, p1, p2, args.games, args.seed, &perfect, || {
            bar.inc(1)
        })?;
        played.push((p1, p2, records));
    }
    bar.finish_and_clear();
    if let Some(path) = &args.out {
        let records: Vec<&GameRecord> = played.iter().flat_map(|(_, _, r)| r).collect();
        write_all(path, &records)?;
    }
    for (p1, p2, records) in &played {
        let t = Tally::of(records);
        println!(
            "{rules}: {p1} (P1) vs {p2} (P2), {} games, seed {}",
            t.games(),
            args.seed
        );
        print_counts(
            &[
                (format!("P1 {p1} wins"), t.p1_wins),
                ("draws".to_string(), t.draws),
                (format!("P2 {p2} wins"), t.p2_wins),
            ],
            t.games(),
        );
        println!(
            "  game length: mean {:.1}, max {}",
            t.mean_length(),
            t.longest
        );
        print_proofs(records);
    }
    if let [(a, b, first), (_, _, second)] = played.as_slice() {
        let standing = Standing::as_p1(&Tally::of(first)) + Standing::as_p2(&Tally::of(second));
        println!(
            "per player, both colours: {a} vs {b}, {} games",
            standing.games()
        );
        print_counts(
            &[
                (format!("{a} wins"), standing.wins),
                ("draws".to_string(), standing.draws),
                (format!("{b} wins"), standing.losses),
            ],
            standing.games(),
        );
        println!("  {a} scores {:.1}%", 100.0 * standing.score());
    }
    Ok(ExitCode::SUCCESS)
}

/// For games with a player that proves its moves (`perfect`): how many of its moves were
/// proven best or only value-keeping, and the median and slowest move times.
fn print_proofs(records: &[GameRecord]) {
    let mut times: Vec<f64> = records
        .iter()
        .flat_map(|r| r.move_ms.iter().copied())
        .collect();
    if times.is_empty() {
        return;
    }
    times.sort_by(f64::total_cmp);
    let value_only: u32 = records.iter().map(|r| r.value_only_moves).sum();
    println!(
        "  perfect: {} moves, {} proven best, {} proven to keep the value only; move time median {:.1} ms, slowest {:.1} ms",
        times.len(),
        times.len() as u32 - value_only,
        value_only,
        times[times.len() / 2],
        times[times.len() - 1]
    );
}

/// One line per count: the count, its share of `games` and its 95% Wilson interval.
fn print_counts(counts: &[(String, u64)], games: u64) {
    for (label, count) in counts {
        let (low, high) = wilson(*count, games);
        println!(
            "  {label:<28} {count:>6}  {:>5.1}%  (95% CI {:.1}-{:.1}%)",
            100.0 * *count as f64 / games.max(1) as f64,
            100.0 * low,
            100.0 * high
        );
    }
}
