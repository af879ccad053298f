//! Arena checks: the perfect player keeps won positions, take-even never loses, the bots take
//! wins at the documented rates, and matches are reproducible from their seed.

use connectk::arena::bots::winning_moves;
use connectk::arena::matches::{Tally, play_match};
use connectk::arena::player;
use connectk::arena::stats::wilson;
use connectk::strategy::Game;
use connectk::{Rules, Variant, notation};

#[test]
fn perfect_player_never_loses_a_won_game() {
    // Misère 4x4 (k = 4) is a second-player win (solver and Table I).
    let rules = Rules::new(4, 4, 4, Variant::Misere).unwrap();
    for opponent in ["random", "hard", "perfect"] {
        let records = play_match(rules, opponent, "perfect", 40, 3, || {}).unwrap();
        let t = Tally::of(&records);
        assert_eq!(t.p2_wins, 40, "perfect as P2 against {opponent}: {t:?}");
    }
}

#[test]
fn take_even_never_loses_on_even_heights() {
    for (w, h) in [(7, 6), (5, 4), (8, 2)] {
        let rules = Rules::new(4, w, h, Variant::Misere).unwrap();
        for opponent in ["random", "medium", "hard"] {
            let records = play_match(rules, opponent, "take-even", 1000, 11, || {}).unwrap();
            let t = Tally::of(&records);
            assert_eq!(t.p2_wins, 1000, "{w}x{h} against {opponent}: {t:?}");
            assert!(t.longest <= 1 + (w - w / 4) * h);
        }
    }
}

#[test]
fn matches_are_reproducible_from_the_seed() {
    let rules = Rules::standard();
    let a = play_match(rules, "medium", "hard", 200, 42, || {}).unwrap();
    let b = play_match(rules, "medium", "hard", 200, 42, || {}).unwrap();
    assert_eq!(a, b);
    let c = play_match(rules, "medium", "hard", 200, 43, || {}).unwrap();
    assert_ne!(a, c);
}

/// Fraction of `trials` seeds for which `bot` picks a winning move in `moves`.
fn win_rate(rules: Rules, moves: &str, bot: &str, trials: u64) -> u64 {
    let (pos, played) = notation::parse(rules, moves).unwrap();
    let wins = winning_moves(&pos);
    assert_eq!(wins.len(), 1, "the test position has one winning move");
    (0..trials)
        .filter(|&seed| {
            let mut p = player(bot, rules, pos.to_move(), seed).unwrap();
            let game = Game {
                position: &pos,
                moves: &played,
            };
            p.choose(game).unwrap() == wins[0]
        })
        .count() as u64
}

#[test]
fn bots_take_immediate_wins_at_their_rates() {
    // Normal rules: X has three in the bottom row (1, 2, 3) and wins at column 4; O (two discs
    // on top of X's, one in column 5) has no threat, so no block is needed.
    let rules = Rules::standard();
    let moves = "112235";
    assert_eq!(win_rate(rules, moves, "hard", 200), 200);
    // Medium: 30% deliberate, else a uniform pick among 7 columns: 0.3 + 0.7 / 7 = 0.4.
    let trials = 3000;
    let hits = win_rate(rules, moves, "medium", trials);
    let (low, high) = wilson(hits, trials);
    assert!(
        low <= 0.4 && 0.4 <= high,
        "medium took the win {hits}/{trials}"
    );
}
