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
