//! The one-row solver (which `Solver` uses for outcome-only solves of one-row boards) against
//! the main search alone, on one-row boards small enough for the main search to settle quickly.

use crate::support;

use connectk::{Depth, Method, Mib, Position, Rules, Solver, Variant};
use proptest::prelude::*;

use support::replay::replay;

/// The outcomes of `pos` from the main search alone and from the one-row solver, with its
/// default memory (far more than these rows need, so it never falls back to the search).
fn both_outcomes(pos: &Position) -> (connectk::Value, connectk::Value) {
    let main = Solver::new(Mib(16))
        .with_method(Method::SearchOnly)
        .value(pos, Depth::Weak);
    let strip = Solver::new(Mib(16)).value(pos, Depth::Weak);
    (main, strip)
}

#[test]
fn every_empty_one_row_board_up_to_16_cells_has_the_main_solvers_outcome() {
    let mut checked = 0;
    for variant in [Variant::Normal, Variant::Misere] {
        for width in 1..=16 {
            for k in 1..=6 {
                let rules = Rules::new(k, width, 1, variant).unwrap();
                let (main, strip) = both_outcomes(&Position::new(rules));
                assert_eq!(strip, main, "{variant:?} k={k} {width}x1");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 2 * 16 * 6);
}

/// By hand: on three cells the first player must place two discs, and the second answers the
/// first disc on the far cell (first disc at an end) or on an end (first disc in the middle),
/// so the first player's second disc lands next to its first.
#[test]
fn misere_k2_on_three_cells_is_a_second_player_win() {
    let rules = Rules::new(2, 3, 1, Variant::Misere).unwrap();
    let value = Solver::new(Mib(1)).value(&Position::new(rules), Depth::Weak);
    assert_eq!(
        value.result,
        connectk::GameResult::Win(connectk::Player::P2)
    );
}

/// The one-row solver answers at once where the main search would take minutes: misère rows
/// for k >= 3 are draws by the pairing bound (Theorem 3 of Steele & Larremore), and the
/// 64-cell row is far past what the search settles (about ten minutes for k = 3).
#[test]
fn outcome_only_solves_of_long_rows_go_to_the_one_row_solver() {
    for k in 3..=5 {
        let rules = Rules::new(k, 64, 1, Variant::Misere).unwrap();
        let solution = Solver::new(Mib(1)).solve_weak(&Position::new(rules));
        assert_eq!(solution.value.result, connectk::GameResult::Draw, "k={k}");
        assert_eq!(
            solution.nodes, 0,
            "k={k}: settled by the bound, no form searched"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Positions of random games on one-row boards of 8 to 16 cells, both variants.
    #[test]
    fn random_one_row_positions_have_the_main_solvers_outcome(
        width in 8u32..=16,
        k in 2u32..=5,
        misere in any::<bool>(),
        choices in prop::collection::vec(0usize..16, 0..12),
    ) {
        let variant = if misere { Variant::Misere } else { Variant::Normal };
        let rules = Rules::new(k, width, 1, variant).unwrap();
        let (pos, moves) = replay(rules, &choices);
        prop_assume!(!pos.is_over());
        let (main, strip) = both_outcomes(&pos);
        prop_assert_eq!(strip, main, "{:?} k={} {}x1 after {:?}", variant, k, width, moves);
    }
}
