//! A solver's budget running out in the middle of its work.

use connectk::{Budget, Depth, Mib, Position, Rules, Solver, Variant};

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
