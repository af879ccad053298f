//! Tournament checks: the results follow from the seed alone, whatever the number of threads,
//! and pairings a strategy cannot play are skipped and reported as n/a.

use std::process::Command;

use connectk::arena::{PerfectSettings, PlayerName};
use connectk::experiment::tournament::{self as report, PairingResult, Tournament};
use connectk::{Rules, Variant};

fn names(list: &[&str]) -> Vec<PlayerName> {
    list.iter().map(|s| s.parse().unwrap()).collect()
}

/// A misère 5x4 round robin of `games` games per pairing on a pool of `threads` threads.
fn run(threads: usize, seed: u64, games: u64) -> Tournament {
    let rules = Rules::new(4, 5, 4, Variant::Misere).unwrap();
    let players = names(&["random", "medium", "hard", "take-even"]);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let fixtures = report::schedule(rules, &players).unwrap();
        let perfect = PerfectSettings::default();
        let plan = report::Plan {
            rules,
            players: &players,
            fixtures: &fixtures,
            games,
            seed,
            perfect: &perfect,
        };
        report::play(&plan, || {}, |_| Ok::<(), report::TournamentError>(())).unwrap()
    })
}

#[test]
fn tournament_is_reproducible_from_the_seed_whatever_the_thread_count() {
    let one = run(1, 7, 60);
    let two = run(2, 7, 60);
    assert_eq!(one, two);
    assert_eq!(report::rows(&one), report::rows(&two));
    assert_ne!(one, run(2, 8, 60));
}

#[test]
fn tournament_skips_pairings_a_strategy_cannot_play() {
    let t = run(2, 1, 30);
    assert_eq!(t.pairings.len(), 12);
    for p in &t.pairings {
        match &p.result {
            PairingResult::NotApplicable(reason) => {
                assert_eq!(p.p1.as_str(), "take-even");
                assert!(reason.contains("it is played by P2"), "{reason}");
            }
            PairingResult::Played(tally) => {
                assert_ne!(p.p1.as_str(), "take-even");
                assert_eq!(tally.games(), 30);
                if p.p2.as_str() == "take-even" {
                    assert_eq!(tally.p2_wins, 30, "take-even lost as P2 to {}", p.p1);
                }
            }
        }
    }
    let rows = report::rows(&t);
    let skipped: Vec<_> = rows.iter().filter(|r| r.status == "n/a").collect();
    assert_eq!(skipped.len(), 3);
    assert!(
        skipped
            .iter()
            .all(|r| r.games.is_none() && !r.note.is_empty())
    );
    let dir = std::env::temp_dir().join(format!("connectk-tournament-{}", std::process::id()));
    let written = report::publish(&dir, &t, "test").unwrap();
    assert_eq!(written.len(), 4);
    let md = std::fs::read_to_string(dir.join("tournament.md")).unwrap();
    assert!(
        md.contains("| **take-even** | n/a | n/a | n/a | - |"),
        "{md}"
    );
    let csv = std::fs::read_to_string(dir.join("tournament.csv")).unwrap();
    assert_eq!(csv.lines().count(), 13);
    assert!(
        std::fs::read_to_string(dir.join("score-matrix.svg"))
            .unwrap()
            .contains("n/a")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_tournament_options_exit_with_status_two() {
    for (args, expected) in [
        (&["--players", "hard"][..], "at least two players"),
        (
            &["--players", "hard,grandmaster"][..],
            "invalid value 'grandmaster' for '--players <PLAYERS>'",
        ),
        (
            &["--players", "hard,easy", "--games", "0"][..],
            "0 is not in 1..=1000000000",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_connectk"))
            .arg("tournament")
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}
