//! Arena checks: the perfect player keeps won positions, take-even never loses, the bots take
//! wins and block losses at the documented rates, and matches are reproducible from their seed.

use connectk::arena::{
    MatchCounts, Matchup, PerfectSettings, PlayerName, blocking_moves, play_match, wilson,
    winning_moves,
};
use connectk::strategy::{Game, StrategyName};
use connectk::{Column, Rules, Variant, notation};

/// `p1` against `p2` under `rules`.
fn pairing(rules: Rules, p1: PlayerName, p2: PlayerName, perfect: &PerfectSettings) -> Matchup<'_> {
    Matchup {
        rules,
        p1,
        p2,
        perfect,
    }
}

/// The arena player called `name`.
fn named(name: &str) -> PlayerName {
    name.parse().expect("a player of the arena")
}

#[test]
fn perfect_player_never_loses_a_won_game() {
    let perfect = PerfectSettings::default();
    // Misère 4x4 (k = 4) is a second-player win (solver and Table I).
    let rules = Rules::new(4, 4, 4, Variant::Misere).unwrap();
    for opponent in ["random", "hard", "perfect"] {
        let records = play_match(
            pairing(rules, named(opponent), named("perfect"), &perfect),
            40,
            3,
            || {},
        )
        .unwrap();
        let t = MatchCounts::of(&records);
        assert_eq!(t.p2_wins, 40, "perfect as P2 against {opponent}: {t:?}");
    }
}

#[test]
fn take_even_never_loses_on_even_heights() {
    let perfect = PerfectSettings::default();
    for (w, h) in [(7, 6), (5, 4), (8, 2)] {
        let rules = Rules::new(4, w, h, Variant::Misere).unwrap();
        for opponent in ["random", "medium", "hard"] {
            let records = play_match(
                pairing(rules, named(opponent), named("take-even"), &perfect),
                1000,
                11,
                || {},
            )
            .unwrap();
            let t = MatchCounts::of(&records);
            assert_eq!(t.p2_wins, 1000, "{w}x{h} against {opponent}: {t:?}");
            assert!(t.longest <= 1 + (w - w / 4) * h);
        }
    }
}

#[test]
fn matches_are_reproducible_from_the_seed() {
    let perfect = PerfectSettings::default();
    let rules = Rules::standard();
    let a = play_match(
        pairing(rules, named("medium"), named("hard"), &perfect),
        200,
        42,
        || {},
    )
    .unwrap();
    let b = play_match(
        pairing(rules, named("medium"), named("hard"), &perfect),
        200,
        42,
        || {},
    )
    .unwrap();
    assert_eq!(a, b);
    let c = play_match(
        pairing(rules, named("medium"), named("hard"), &perfect),
        200,
        43,
        || {},
    )
    .unwrap();
    assert_ne!(a, c);
}

/// How many of `trials` seeds make `bot` play `column` after `moves`.
fn choice_count(rules: Rules, moves: &str, bot: &str, trials: u64, column: Column) -> u64 {
    let (pos, played) = notation::parse(rules, moves).unwrap();
    (0..trials)
        .filter(|&seed| {
            let mut p = named(bot)
                .build(rules, pos.to_move(), seed, &PerfectSettings::default())
                .unwrap();
            let game = Game {
                position: &pos,
                moves: &played,
            };
            p.choose(game).unwrap() == column
        })
        .count() as u64
}

/// Asserts that `count` of `trials` is consistent with the rate `expected` (95% Wilson).
fn assert_rate(count: u64, trials: u64, expected: f64, what: &str) {
    let (low, high) = wilson(count, trials);
    assert!(
        low <= expected && expected <= high,
        "{what}: {count}/{trials}, expected rate {expected}"
    );
}

#[test]
fn bots_take_immediate_wins_at_their_rates() {
    // Normal rules: X has three in the bottom row (1, 2, 3) and wins at column 4; O (two discs
    // on top of X's, one in column 5) has no threat, so no block is needed.
    let rules = Rules::standard();
    let moves = "112235";
    let (pos, _) = notation::parse(rules, moves).unwrap();
    let win = Column::new(3);
    assert_eq!(
        winning_moves(&pos),
        [win],
        "the test position has one winning move"
    );
    assert_eq!(choice_count(rules, moves, "hard", 200, win), 200);
    // Medium: 30% deliberate, else a uniform pick among 7 columns: 0.3 + 0.7 / 7 = 0.4.
    let trials = 3000;
    let hits = choice_count(rules, moves, "medium", trials, win);
    assert_rate(hits, trials, 0.4, "medium took the win");
}

#[test]
fn bots_block_immediate_losses_at_their_rates() {
    // Normal rules: O has three in the bottom row (1, 2, 3) and would win at column 4; X (two
    // discs in column 7, one in column 6) has no win of its own.
    let rules = Rules::standard();
    let moves = "717263";
    let (pos, _) = notation::parse(rules, moves).unwrap();
    let block = Column::new(3);
    assert!(winning_moves(&pos).is_empty());
    assert_eq!(blocking_moves(&pos), [block]);
    assert_eq!(choice_count(rules, moves, "hard", 200, block), 200);
    // Medium: 30% deliberate, else a uniform pick among 7 columns: 0.3 + 0.7 / 7 = 0.4.
    let trials = 3000;
    let hits = choice_count(rules, moves, "medium", trials, block);
    assert_rate(hits, trials, 0.4, "medium blocked");
    // Misère rules: X's three in the bottom row make column 4 a losing move; hard never
    // plays it, medium avoids it 30% of the time and otherwise picks it 1 time in 7.
    let rules = Rules::standard().with_variant(Variant::Misere);
    let moves = "152536";
    let (pos, _) = notation::parse(rules, moves).unwrap();
    let losing = Column::new(3);
    assert!(winning_moves(&pos).is_empty());
    assert!(!blocking_moves(&pos).is_empty() && !blocking_moves(&pos).contains(&losing));
    assert_eq!(choice_count(rules, moves, "hard", 200, losing), 0);
    let hits = choice_count(rules, moves, "medium", trials, losing);
    assert_rate(hits, trials, 0.7 / 7.0, "medium played the losing column");
}

#[test]
fn every_paper_strategy_is_an_arena_player_under_its_own_name() {
    for strategy in StrategyName::ALL {
        assert_eq!(named(strategy.as_str()), PlayerName::Strategy(strategy));
    }
}

#[test]
fn every_player_name_reads_back_as_itself_and_unknown_names_list_the_known_ones() {
    for &player in PlayerName::all() {
        assert_eq!(named(player.as_str()), player);
    }
    let error = "grandmaster".parse::<PlayerName>().unwrap_err().to_string();
    assert!(error.contains("unknown player \"grandmaster\""), "{error}");
    assert!(
        error.contains("tally") && error.contains("canonical"),
        "{error}"
    );
}
