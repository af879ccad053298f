//! A solver's budget running out in the middle of its work.

use connectk::{Budget, Depth, GameResult, Mib, Partial, Position, Rules, Solver, Variant};

/// A node budget may run out during a principal variation as well as during the solve before
/// it (the size tables ask for both within one time budget): the work then gives up, with no
/// answer and no panic, for every budget from a single node up; once the budget suffices, the
/// line is the one an unlimited solver finds.
#[test]
fn a_budget_running_out_in_a_principal_variation_gives_up_without_a_panic() {
    for (variant, width, height) in [(Variant::Misere, 5, 4), (Variant::Normal, 4, 4)] {
        let rules = Rules::new(4, width, height, variant).unwrap();
        let empty = Position::new(rules);
        let mut unlimited = Solver::new(Mib(16));
        let full_line = unlimited.principal_variation(&empty);
        let mut budget = 1;
        loop {
            let mut solver = Solver::new(Mib(16));
            let answer = solver.limited(Budget::nodes(budget), |s| {
                s.solve_at(&empty, Depth::Strong);
                s.principal_variation(&empty)
            });
            if let Some(line) = answer {
                assert_eq!(line, full_line, "{rules}, budget {budget}");
                break;
            }
            assert!(budget < 1 << 40, "{rules}: no budget was enough");
            budget = budget * 5 / 4 + 1;
        }
    }
}

/// An exact solve in sittings: each sitting has a small node budget and a fresh solver (so
/// only the `Partial` it was handed carries over), and goes on from what the sitting before
/// found. Every partial answer holds the true value (its outcome, and its remoteness within
/// the range given), none loses what the one before knew, and the last one settles on the
/// value an unlimited solve finds. A sitting that settles nothing gets twice the budget.
#[test]
fn an_exact_solve_goes_on_from_where_an_earlier_one_stopped() {
    let cases = [
        (Variant::Misere, 5, 4, ""),
        (Variant::Normal, 4, 4, ""),
        (Variant::Normal, 5, 4, "3"),
        (Variant::Misere, 4, 5, "12"),
    ];
    let mut partial_lengths = 0;
    for (variant, width, height, moves) in cases {
        let rules = Rules::new(4, width, height, variant).unwrap();
        let (pos, _) = connectk::notation::parse(rules, moves).unwrap();
        let truth = Solver::new(Mib(16)).solve(&pos).value;
        let mut known = Partial::UNKNOWN;
        let mut budget = 64;
        let mut sittings = 0;
        let solved = loop {
            sittings += 1;
            assert!(sittings < 200, "{rules} {moves}: no end");
            let mut solver = Solver::new(Mib(16));
            let mut heard = Vec::new();
            let solved =
                solver.solve_from(&pos, known, Budget::nodes(budget), |p, _| heard.push(p));
            // What the sitting reports as it goes is news each time, and ends where it stops.
            assert!(heard.windows(2).all(|w| w[0] != w[1]) && heard.first() != Some(&known));
            // A sitting that settles the value has told it last, even when `known` alone
            // settled it.
            let reached = match &solved {
                Ok(solution) => Partial {
                    result: Some(solution.value.result),
                    remoteness: solution.value.remoteness.map(|r| (r, r)),
                },
                Err(partial) => *partial,
            };
            assert_eq!(heard.last().unwrap_or(&known), &reached, "{rules} {moves}");
            match solved {
                Ok(solution) => break solution.value,
                Err(partial) => {
                    if let Some(result) = partial.result {
                        assert_eq!(Some(result), Some(truth.result), "{rules} {moves}");
                        let (near, far) = partial.remoteness.expect("with the outcome");
                        let r = truth.remoteness.unwrap();
                        assert!(near <= r && r <= far, "{rules} {moves}: {partial:?}");
                        partial_lengths += 1;
                    }
                    assert!(known.result.is_none() || partial.result == known.result);
                    if partial == known {
                        budget *= 2;
                    }
                    known = partial;
                }
            }
        };
        assert_eq!(solved, truth, "{rules} {moves}");
        assert!(sittings > 1, "{rules} {moves}: the budget never ran out");
        // Two lengths a ply apart are one (a winner's plies have one parity): a sitting from
        // them asks nothing and tells the value.
        if let (GameResult::Win(_), Some(r)) = (truth.result, truth.remoteness) {
            let known = Partial {
                result: Some(truth.result),
                remoteness: Some((r - 1, r)),
            };
            let mut heard = Vec::new();
            let mut solver = Solver::new(Mib(16));
            let solved = solver.solve_from(&pos, known, Budget::nodes(1), |p, _| heard.push(p));
            let settled = Partial {
                remoteness: Some((r, r)),
                ..known
            };
            assert_eq!((solved.map(|s| s.value), heard), (Ok(truth), vec![settled]));
        }
    }
    assert!(
        partial_lengths > 0,
        "no sitting stopped with the outcome known"
    );
}

/// A one-row board is settled by its own solver, which ran past every budget: a node limit
/// of 100,000 on misère k = 2 on the 35-cell ring took 3.5 million of its nodes and 24 s to
/// answer. It now gives up within the budget like the search (the sums of games it asks
/// first, then its search, each within the budget), and answers once the budget suffices.
/// The misère k = 3 ring of 35 cells needs far more than the budget of either (the k = 2
/// ring is settled by the sums at once now).
#[test]
fn a_one_row_board_gives_up_within_its_budget() {
    let ring = |k, width| {
        Rules::new(k, width, 1, Variant::Misere)
            .unwrap()
            .with_topology(connectk::Topology::Cylinder)
    };
    let rules = ring(3, 35);
    let empty = Position::new(rules);
    let mut solver = Solver::new(Mib(16));
    let answer = solver.limited(Budget::nodes(100_000), |s| s.solve_weak(&empty));
    assert_eq!(answer, None);
    assert!(solver.nodes() < 1_000_000, "{} nodes", solver.nodes());
    let small = ring(2, 9);
    let mut solver = Solver::new(Mib(16));
    let limited = solver.limited(Budget::nodes(1_000_000), |s| {
        s.solve_weak(&Position::new(small))
    });
    let unlimited = Solver::new(Mib(16)).solve_weak(&Position::new(small));
    assert_eq!(limited.map(|s| s.value), Some(unlimited.value));
}

/// A budget of time is one deadline for all the work of a limited solve: work begun after it
/// has passed gives up at once, whether the one-row solver or the search would do it (neither
/// starts the clock again), on a misère ring that the sums of games settle in a moment and on a
/// small two-row board. The same work with time to spare answers.
#[test]
fn work_begun_after_the_deadline_gives_up_at_once() {
    use std::time::Duration;
    let boards = [
        Rules::new(3, 11, 1, Variant::Misere)
            .unwrap()
            .with_topology(connectk::Topology::Cylinder),
        Rules::new(3, 4, 2, Variant::Normal).unwrap(),
    ];
    let budget = Budget::time(Duration::from_millis(20));
    for rules in boards {
        let empty = Position::new(rules);
        let mut solver = Solver::new(Mib(16));
        let late = solver.limited(budget, |s| {
            std::thread::sleep(Duration::from_millis(40));
            s.solve_weak(&empty)
        });
        assert_eq!(late.map(|s| s.value), None, "{rules}");
        let mut solver = Solver::new(Mib(16));
        let on_time = solver.limited(Budget::time(Duration::from_secs(600)), |s| {
            s.solve_weak(&empty)
        });
        let unlimited = Solver::new(Mib(16)).solve_weak(&empty);
        assert_eq!(on_time.map(|s| s.value), Some(unlimited.value), "{rules}");
    }
}
