//! Plays the paper's take-even strategy (as the second player) against the hard bot on misère
//! Connect Four, a hundred seeded games, and counts the results: take-even never loses
//! (Theorem 1 of Steele & Larremore).
//!
//! Run with `cargo run --release --example strategy_vs_bot`.

use connectk::arena::{Level, MatchCounts, Matchup, PerfectSettings, PlayerName, play_match};
use connectk::strategy::StrategyName;
use connectk::{Rules, Variant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rules = Rules::new(4, 7, 6, Variant::Misere)?;
    let bot = PlayerName::Bot(Level::Hard);
    let take_even = PlayerName::Strategy(StrategyName::TakeEven);
    // Neither player is `perfect`, so the perfect player's settings go unused.
    let perfect = PerfectSettings::default();
    let pairing = Matchup {
        rules,
        p1: bot,
        p2: take_even,
        perfect: &perfect,
    };
    let records = play_match(pairing, 100, 1, || {})?;
    let tally = MatchCounts::of(&records);
    println!(
        "{rules}: hard (P1) against take-even (P2), {} games: P1 {} / draws {} / P2 {}, longest {} plies",
        tally.games(),
        tally.p1_wins,
        tally.draws,
        tally.p2_wins,
        tally.longest
    );
    Ok(())
}
