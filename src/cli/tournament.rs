//! `connectk tournament`: a round robin between named players, written to a results directory.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use connectk::arena::PlayerName;
use connectk::experiment::export::check_writable;
use connectk::experiment::export::csv::RowWriter;
use connectk::experiment::tournament;

use super::board::BoardArgs;
use super::options::PerfectArgs;

/// Play a round robin between several players.
///
/// Play a round robin: every ordered pair of distinct players, so each pair meets with both
/// colours, N games per pairing. A pairing where a strategy does not apply to its side (e.g.
/// take-even as P1) is skipped and reported as n/a. Writes DIR/tournament.csv (one row per
/// pairing with 95% Wilson intervals), DIR/tournament.md, DIR/score-matrix.svg and
/// DIR/win-rates.svg, DIR/run.json (how it was made) and with --games-csv DIR/games.csv (one
/// row per game). Game i of every pairing is seeded from --seed and i, so results do not
/// depend on the number of threads. The output directory is checked before any game is
/// played. Exit status: 0 when played, 2 for bad input.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// The players, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', required = true)]
    players: Vec<PlayerName>,
    /// Games per ordered pairing, 1 to 1,000,000,000.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=super::arena::MAX_GAMES))]
    games: u64,
    /// Seed of the tournament.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output directory.
    #[arg(long, default_value = "results/tournament", value_name = "DIR")]
    out_dir: PathBuf,
    /// Also write DIR/games.csv: one row per game, with the columns of `arena --out`.
    #[arg(long)]
    games_csv: bool,
    /// Worker threads (default: one per core; results do not depend on it).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    perfect: PerfectArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    let fixtures = tournament::schedule(rules, &args.players)?;
    let perfect = args
        .perfect
        .settings(rules, args.players.contains(&PlayerName::Perfect))?;
    // A games file started now, or a probe, shows that the directory can be written before
    // hours of games are played.
    check_writable(&args.out_dir)?;
    let start = Instant::now();
    let plan = tournament::Plan {
        rules,
        players: &args.players,
        fixtures: &fixtures,
        games: args.games,
        seed: args.seed,
        perfect: &perfect,
    };
    let result = play(&args, &plan)?;
    let players: Vec<&str> = args.players.iter().map(|p| p.as_str()).collect();
    let command = format!(
        "connectk tournament --rules {} -k {} --width {} --height {} --players {} --games {} --seed {}",
        rules.variant(),
        rules.k(),
        rules.width(),
        rules.height(),
        players.join(","),
        args.games,
        args.seed
    );
    let mut written = tournament::publish(&args.out_dir, &result, &command)?;
    super::record_run(&args.out_dir, start)?;
    written.push(args.out_dir.join("run.json"));
    if args.games_csv {
        written.push(args.out_dir.join("games.csv"));
    }
    print_standings(&args, &result)?;
    let written: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    outln!("wrote {}", written.join(", "));
    Ok(ExitCode::SUCCESS)
}

/// Plays every fixture of `plan` on the worker pool with a progress bar, writing each game to
/// DIR/games.csv when asked.
fn play(args: &Args, plan: &tournament::Plan) -> anyhow::Result<tournament::Tournament> {
    let playable = plan
        .fixtures
        .iter()
        .filter(|f| f.not_applicable.is_none())
        .count() as u64;
    errln!(
        "{}: {} pairings ({} n/a), {} games each",
        plan.rules,
        plan.fixtures.len(),
        plan.fixtures.len() as u64 - playable,
        args.games
    );
    let mut games = args
        .games_csv
        .then(|| RowWriter::create(&args.out_dir.join("games.csv")))
        .transpose()?;
    let bar = super::progress::bar(playable * args.games, "games")?;
    let start = Instant::now();
    let result = super::in_worker_pool(args.threads, || {
        tournament::play(
            plan,
            || bar.inc(1),
            |record| {
                if let Some(games) = games.as_mut() {
                    games.write(record)?;
                }
                anyhow::Ok(())
            },
        )
    })?;
    bar.finish_and_clear();
    if let Some(games) = games {
        games.finish()?;
    }
    errln!(
        "played {} games in {:.1} s",
        playable * args.games,
        start.elapsed().as_secs_f64()
    );
    Ok(result)
}

/// Prints every player's standing and the pairings that could not be played.
fn print_standings(args: &Args, result: &tournament::Tournament) -> anyhow::Result<()> {
    outln!(
        "{}, {} games per pairing, seed {}",
        result.rules,
        args.games,
        args.seed
    );
    outln!(
        "  {:<20} {:>6} {:>6} {:>6} {:>6} {:>7}",
        "player",
        "games",
        "wins",
        "draws",
        "losses",
        "score"
    );
    for (name, s) in result.standings() {
        outln!(
            "  {:<20} {:>6} {:>6} {:>6} {:>6} {:>6.1}%",
            name.as_str(),
            s.games(),
            s.wins,
            s.draws,
            s.losses,
            100.0 * s.score()
        );
    }
    for pairing in &result.pairings {
        if let tournament::PairingResult::NotApplicable(reason) = &pairing.result {
            outln!(
                "  n/a: {} (P1) vs {} (P2): {reason}",
                pairing.p1,
                pairing.p2
            );
        }
    }
    Ok(())
}
