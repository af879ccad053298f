//! `connectk arena`: many games between two players, with win rates and Wilson intervals.

use std::path::PathBuf;
use std::process::ExitCode;

use connectk::arena::{
    GameRecord, MatchCounts, Matchup, PlayerName, Standing, check_pairing, play_games, wilson,
};
use connectk::experiment::export::csv::RowWriter;

use super::board::BoardArgs;
use super::options::PerfectArgs;

/// Play games between two players and report wins, draws and losses.
///
/// Play N games between two players in parallel and report wins, draws and losses with 95%
/// Wilson intervals and game lengths. Players: the bots (random, easy, medium, hard, perfect)
/// and the paper's strategies where they apply. Game i is seeded from --seed and i, so results
/// do not depend on the number of threads. Games run in batches, so any number of them runs in
/// bounded memory. Exit status: 0 when played, 2 for bad input.
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
    /// Number of games, 1 to 1,000,000,000 (with --swap: of openings, each played twice).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// Seed of the match.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play every game seed a second time with the colours swapped, and report the results
    /// per player as well as per side.
    #[arg(long)]
    swap: bool,
    /// Write one CSV row per game to FILE: rules, k, width, height, p1, p2, seed, moves,
    /// outcome, reason (`line` or `board-full`), length, winning_cells (`column:row` from 0 at
    /// the bottom left), winning_indices (`row * width + column`, row 0 at the top), and for
    /// games of `perfect`: proof (`best` when every move of it was proven the fastest win or
    /// slowest loss, `value` when some only kept the value), value_only_moves, slowest_ms.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Worker threads (default: one per core; results do not depend on it).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    perfect: PerfectArgs,
}

/// The most games one pairing plays: a billion games of the fastest bots already take hours on
/// two cores.
pub const MAX_GAMES: u64 = 1_000_000_000;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    let mut pairings = vec![(args.p1, args.p2)];
    if args.swap {
        pairings.push((args.p2, args.p1));
    }
    for &(p1, p2) in &pairings {
        check_pairing(rules, p1, p2)?;
    }
    let searched = pairings
        .iter()
        .any(|&(p1, p2)| p1 == PlayerName::Perfect || p2 == PlayerName::Perfect);
    let perfect = args.perfect.settings(rules, searched)?;
    let played = play(&args, rules, &pairings, &perfect)?;
    for (p1, p2, counts, proofs) in &played {
        let sides = format!("{rules}: {p1} (P1) vs {p2} (P2)");
        print_match(&sides, p1.as_str(), p2.as_str(), args.seed, counts, "")?;
        proofs.print()?;
    }
    if let [(a, b, first, _), (_, _, second, _)] = played.as_slice() {
        let standing = Standing::as_p1(first) + Standing::as_p2(second);
        outln!(
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
        )?;
        outln!("  {a} scores {:.1}%", 100.0 * standing.score());
    }
    Ok(ExitCode::SUCCESS)
}

/// What one side of a match played: its players, counts and proofs.
type Played = (PlayerName, PlayerName, MatchCounts, Proofs);

/// Plays `args.games` games of each of `pairings` on the worker pool with a progress bar,
/// writing each game to the --out file when asked.
fn play(
    args: &Args,
    rules: connectk::Rules,
    pairings: &[(PlayerName, PlayerName)],
    perfect: &connectk::arena::PerfectSettings,
) -> anyhow::Result<Vec<Played>> {
    let mut out = args.out.as_deref().map(RowWriter::create).transpose()?;
    let bar = super::progress::bar(pairings.len() as u64 * args.games, "games")?;
    let mut played = Vec::new();
    for &(p1, p2) in pairings {
        let mut counts = MatchCounts::default();
        let mut proofs = Proofs::default();
        let matchup = Matchup {
            rules,
            p1,
            p2,
            perfect,
        };
        super::in_worker_pool(args.threads, || {
            play_games(
                matchup,
                args.games,
                args.seed,
                || bar.inc(1),
                |record| {
                    counts.add(&record);
                    proofs.add(&record);
                    if let Some(out) = out.as_mut() {
                        out.write(&record)?;
                    }
                    anyhow::Ok(())
                },
            )
        })?;
        played.push((p1, p2, counts, proofs));
    }
    bar.finish_and_clear();
    if let Some(out) = out {
        out.finish()?;
    }
    Ok(played)
}

/// Prints a match between `p1` and `p2` described as `sides`: its games, the counts from P1's
/// side with their intervals, and the game length (in `unit`, when one is named). The report
/// of every arena, Connect-k's and Quarto's.
pub fn print_match(
    sides: &str,
    p1: &str,
    p2: &str,
    seed: u64,
    counts: &MatchCounts,
    unit: &str,
) -> std::io::Result<()> {
    let games = counts.games();
    outln!("{sides}, {games} games, seed {seed}");
    print_counts(
        &[
            (format!("P1 {p1} wins"), counts.p1_wins),
            ("draws".to_string(), counts.draws),
            (format!("P2 {p2} wins"), counts.p2_wins),
        ],
        games,
    )?;
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    outln!(
        "  game length: mean {:.1}, max {}{unit}",
        counts.mean_length(),
        counts.longest
    );
    Ok(())
}

/// The moves of a player that proves its moves (`perfect`) over a match: their times and how
/// many were proven only to keep the value.
#[derive(Default)]
struct Proofs {
    times: Vec<f64>,
    value_only: u32,
}

impl Proofs {
    fn add(&mut self, record: &GameRecord) {
        self.times.extend_from_slice(&record.move_ms);
        self.value_only += record.value_only_moves;
    }

    /// How many moves were proven best or only value-keeping, and the median and slowest move
    /// times; nothing without such a player.
    fn print(&self) -> std::io::Result<()> {
        let mut times = self.times.clone();
        if times.is_empty() {
            return Ok(());
        }
        times.sort_by(f64::total_cmp);
        outln!(
            "  perfect: {} moves, {} proven best, {} proven to keep the value only; move time median {:.1} ms, slowest {:.1} ms",
            times.len(),
            times.len() as u32 - self.value_only,
            self.value_only,
            times[times.len() / 2],
            times[times.len() - 1]
        );
        Ok(())
    }
}

/// One line per count: the count, its share of `games` and its 95% Wilson interval.
fn print_counts(counts: &[(String, u64)], games: u64) -> std::io::Result<()> {
    for (label, count) in counts {
        let (low, high) = wilson(*count, games);
        outln!(
            "  {label:<28} {count:>6}  {:>5.1}%  (95% CI {:.1}-{:.1}%)",
            100.0 * *count as f64 / games.max(1) as f64,
            100.0 * low,
            100.0 * high
        );
    }
    Ok(())
}
