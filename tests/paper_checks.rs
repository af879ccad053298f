//! A fast subset of `connectk paper-check`: every case of paper-checks/claims.json on its
//! smallest boards.

use connectk::Mib;
use connectk::Solver;
use connectk::experiment::paper_checks::Case;

#[test]
fn every_claim_holds_on_its_smallest_boards() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/paper-checks/claims.json");
    let cases: Vec<Case> =
        serde_json::from_str(&std::fs::read_to_string(path).expect("claims file"))
            .expect("valid claims");
    for id in [
        "table-1",
        "theorem-1",
        "corollary-1",
        "theorem-2-corollary-2",
        "corollary-2-k2",
        "theorem-3",
        "lemma-1",
        "lemma-2",
        "theorem-4-draws",
        "theorem-4-even-heights",
        "theorem-4-solver",
        "lemma-3",
        "lemma-4",
        "theorem-5",
        "theorem-5-relaxed",
        "section-f",
    ] {
        assert!(cases.iter().any(|c| c.id == id), "no case {id}");
    }
    let mut solver = Solver::new(Mib(16));
    for case in &cases {
        let mut boards = case.boards();
        assert!(!boards.is_empty(), "{} has no boards", case.id);
        boards.sort_by_key(|r| r.cells());
        for rules in boards.into_iter().take(6) {
            for row in case.run(rules, &mut solver) {
                assert!(row.holds, "{}: {row:?}", case.id);
            }
        }
    }
}

/// The annulus file (paper-checks/annulus.json) on its smallest boards: the paper's one claim
/// about it, take-even on even-height cylinders, holds; the explorations are refuted only by
/// lines that, replayed on the cylinder, end the game against the strategy's player, and a
/// refuted exploration does not fail the run.
#[test]
fn annulus_claims_hold_and_their_explorations_are_refuted_by_real_games() {
    use connectk::experiment::paper_checks::{fails_a_claim, parse_claims};
    use connectk::{GameResult, Player};

    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/paper-checks/annulus.json");
    let cases = parse_claims(&std::fs::read_to_string(path).expect("annulus claims file"))
        .expect("valid claims");
    let take_even = cases
        .iter()
        .find(|c| c.id == "annulus-take-even")
        .expect("the take-even claim");
    assert!(!take_even.explore);
    let mut solver = Solver::new(Mib(16));
    let mut refuted = 0;
    for case in &cases {
        let mut boards = case.boards();
        assert!(!boards.is_empty(), "{} has no boards", case.id);
        assert!(boards.iter().all(|r| r.is_cylinder()), "{}", case.id);
        boards.sort_by_key(|r| r.cells());
        for rules in boards.into_iter().take(4) {
            for row in case.run(rules, &mut solver) {
                assert_eq!(fails_a_claim(&cases, &row), !row.holds && !case.explore);
                if row.holds {
                    continue;
                }
                assert!(case.explore, "{}: {row:?}", case.id);
                let line = row.refutation.as_deref().expect("a refuting line");
                let (end, _) = connectk::notation::parse(rules, line).expect("a legal line");
                let player = match row.player.as_deref() {
                    Some("P1") => Player::P1,
                    Some("P2") => Player::P2,
                    other => panic!("{}: no player {other:?}", case.id),
                };
                let result = end.outcome().expect("the line ends the game").result;
                assert_ne!(result, GameResult::Win(player), "{}: {row:?}", case.id);
                refuted += 1;
            }
        }
    }
    // On rings of five the wrap breaks the flat strategies: e.g. the tally play (k = 2) loses
    // to P1's 2, 4 against P2's 5, 1, which are neighbours around the ring.
    assert!(refuted > 0);
}
