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
