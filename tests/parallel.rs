//! Two threads searching one position together (sharing the large table) find the same values
//! as one thread, and the values Table I of the paper gives.

use connectk::strategy::table1;
use connectk::{Mib, Position, Rules, Solver, Variant};

/// Boards of 24 to 44 cells (the helpers join searches of 24 or more empty cells), on both bit
/// widths: 22x2 needs 128-bit boards.
const BOARDS: [(u32, u32, u32); 5] = [(4, 6, 5), (3, 9, 3), (4, 5, 7), (4, 6, 4), (2, 22, 2)];

#[test]
fn two_threads_agree_with_one_and_with_the_paper() {
    for (k, width, height) in BOARDS {
        let rules = Rules::new(k, width, height, Variant::Misere).unwrap();
        let empty = Position::new(rules);
        let one = Solver::new(Mib(64)).solve_weak(&empty).value;
        let two = Solver::new(Mib(64))
            .with_threads(2)
            .solve_weak(&empty)
            .value;
        assert_eq!(two, one, "k={k} {width}x{height}");
        assert_eq!(
            Some(two.result),
            table1::predict(k, width, height),
            "k={k} {width}x{height}"
        );
    }
}

#[test]
fn two_threads_find_the_exact_remoteness_of_one() {
    for (k, width, height, variant, moves) in [
        (4, 6, 4, Variant::Misere, ""),
        (4, 6, 4, Variant::Normal, ""),
        (4, 7, 4, Variant::Normal, "4"),
        (4, 5, 5, Variant::Misere, "1"),
    ] {
        let rules = Rules::new(k, width, height, variant).unwrap();
        let (pos, _) = connectk::notation::parse(rules, moves).unwrap();
        let one = Solver::new(Mib(64)).solve(&pos).value;
        let mut solver = Solver::new(Mib(64)).with_threads(2);
        assert_eq!(solver.solve(&pos).value, one, "{rules:?} {moves}");
        // Again on the same table, which now holds the helper's entries too.
        assert_eq!(solver.solve(&pos).value, one, "{rules:?} {moves} again");
    }
}

/// A budget of nodes settles the same with two threads as with one, run after run: the helpers
/// stay out of searches with a node limit (the server's `--budget-nodes`, the sweeps'
/// `--node-limit`), which promise the same answer for the same budget.
#[test]
fn a_node_budget_settles_the_same_whatever_the_threads() {
    use connectk::{Budget, Depth};
    let rules = Rules::new(4, 7, 6, Variant::Misere).unwrap();
    let (pos, _) = connectk::notation::parse(rules, "44").unwrap();
    for budget in [2_000, 200_000] {
        let run = |threads: usize| {
            let mut solver = Solver::new(Mib(16)).with_threads(threads);
            let value = solver.limited(Budget::nodes(budget), |s| s.value(&pos, Depth::Weak));
            (value, solver.nodes())
        };
        let one = run(1);
        for attempt in 0..4 {
            assert_eq!(run(2), one, "budget {budget}, attempt {attempt}");
        }
    }
}

/// Positions searched side by side, one thread each (and both on the last one), keep the values
/// one thread finds for each on its own: outcomes and exact remoteness, finished positions and
/// more positions than threads included.
#[test]
#[ignore = "slow: solves positions in turn on two threads (18 s); run by .ci/run with --ignored"]
fn positions_taken_in_turn_keep_their_values() {
    use connectk::Depth;
    let mut finished = 0;
    for (k, width, height, variant, moves) in [
        (4, 6, 4, Variant::Misere, ""),
        (4, 5, 5, Variant::Normal, "3"),
        (3, 9, 3, Variant::Misere, "5"),
        (4, 4, 4, Variant::Normal, "112233"),
    ] {
        let rules = Rules::new(k, width, height, variant).unwrap();
        let (pos, _) = connectk::notation::parse(rules, moves).unwrap();
        // Every position one and two moves on.
        let positions: Vec<Position> = pos
            .legal_columns()
            .into_iter()
            .map(|c| pos.played(c).unwrap())
            .flat_map(|child| {
                let grandchildren: Vec<Position> = child
                    .legal_columns()
                    .into_iter()
                    .map(|c| child.played(c).unwrap())
                    .collect();
                std::iter::once(child).chain(grandchildren)
            })
            .collect();
        finished += positions.iter().filter(|p| p.is_over()).count();
        for depth in [Depth::Weak, Depth::Strong] {
            let mut two = Solver::new(Mib(64)).with_threads(2);
            let found = two.values_each(&positions, depth, connectk::Budget::UNLIMITED);
            for (p, value) in positions.iter().zip(found) {
                let alone = Solver::new(Mib(16)).value(p, depth);
                assert_eq!(value, Some(alone), "{rules:?} {moves} {p} {depth:?}");
            }
        }
    }
    assert!(finished > 0, "no finished position among them");
}

/// Positions whose share of time is far too short are left unknown (never guessed), and the
/// table stays sound for the next solve.
#[test]
fn positions_out_of_time_are_unknown() {
    use connectk::{Budget, Depth};
    // Normal 7x6 one move in: millions of nodes each.
    let rules = Rules::new(4, 7, 6, Variant::Normal).unwrap();
    let empty = Position::new(rules);
    let children: Vec<Position> = empty
        .legal_columns()
        .into_iter()
        .map(|c| empty.played(c).unwrap())
        .collect();
    let mut solver = Solver::new(Mib(16)).with_threads(2);
    let short = Budget::time(std::time::Duration::from_millis(1));
    assert!(
        solver
            .values_each(&children, Depth::Weak, short)
            .iter()
            .all(Option::is_none)
    );
    // Then a position small enough to finish, on the same table.
    let (late, _) = connectk::notation::parse(rules, "12345671234567").unwrap();
    let found = solver.values_each(&[late, late], Depth::Strong, Budget::UNLIMITED);
    let alone = Solver::new(Mib(16)).solve(&late).value;
    assert_eq!(found, vec![Some(alone), Some(alone)]);
}
