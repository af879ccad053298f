//! The main solver against the independent reference solver (`connectk::reference`, its own
//! bitboard, line detection, search and table) on random positions of standard Connect Four.

use crate::support;

use connectk::reference::ReferenceSolver;
use connectk::{Mib, Rules, Solver, Variant};
use proptest::prelude::*;

use support::replay::replay;

proptest! {
    // Each case solves a 7x6 position with 12 to 30 discs exactly, twice; allocating the two
    // tables dominates.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn exact_values_agree_with_the_reference_solver(
        choices in prop::collection::vec(any::<usize>(), 12..=30)
    ) {
        let rules = Rules::new(4, 7, 6, Variant::Normal).unwrap();
        let (pos, moves) = replay(rules, &choices);
        prop_assume!(!pos.is_over());
        let columns: Vec<u32> = moves.iter().map(|c| c.index()).collect();
        let line = connectk::notation::format(rules, &moves);
        let ours = Solver::new(Mib(16)).solve(&pos).value;
        let mut reference = ReferenceSolver::new();
        let theirs = reference.value(&columns, false).expect("a legal, unfinished game");
        prop_assert_eq!(ours, theirs, "after {}", line);
        let weak = reference.value(&columns, true).expect("a legal, unfinished game");
        prop_assert_eq!(weak.result, ours.result, "weak, after {}", line);
    }
}
