//! The one-row solver (`solver::strip`) against the main search on one-row boards small enough
//! for the main search to settle quickly.

mod support;

use connectk::solver::strip::StripSolver;
use connectk::{Depth, Position, Rules, Solver, Variant};
use proptest::prelude::*;

use support::replay::replay;

/// Forms the one-row solver may remember in these tests: far more than they need.
const FORM_LIMIT: usize = 10_000_000;

/// Both solvers' outcomes for `pos`, which must not be over.
fn both_outcomes(pos: &Position) -> (connectk::Value, connectk::Value) {
    let rules = pos.rules();
    let main = Solver::new(16 << 20).value(pos, Depth::Weak);
    let strip = StripSolver::new(rules.k(), rules.variant(), FORM_LIMIT)
        .value(pos)
        .expect("within the form limit");
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
    let value = StripSolver::new(2, Variant::Misere, FORM_LIMIT)
        .value(&Position::new(rules))
        .unwrap();
    assert_eq!(
        value.result,
        connectk::GameResult::Win(connectk::Player::P2)
    );
}

#[test]
fn the_form_limit_gives_up_without_an_answer() {
    let rules = Rules::new(2, 16, 1, Variant::Misere).unwrap();
    let mut solver = StripSolver::new(2, Variant::Misere, 10);
    assert_eq!(solver.value(&Position::new(rules)), None);
}

/// Misère rows for k >= 3 far wider than the main search can settle: the pairing bound draws
/// them at the first node, as Theorem 3 of Steele & Larremore says (each player can pair the
/// row's cells left to right). A form limit of one shows no search was needed.
#[test]
fn misere_rows_for_k_from_3_are_draws_by_the_pairing_bound() {
    for k in 3..=7 {
        for width in [25, 36, 37, 64] {
            let rules = Rules::new(k, width, 1, Variant::Misere).unwrap();
            let value = StripSolver::new(k, Variant::Misere, 1)
                .value(&Position::new(rules))
                .expect("settled without search");
            assert_eq!(value.result, connectk::GameResult::Draw, "k={k} {width}x1");
        }
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
