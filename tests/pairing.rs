//! Theorem 3 of Steele & Larremore: on one-row boards with k >= 3, either player draws by the
//! take-other / rightmost pairing rules, checked against every opponent reply.

use connectk::strategy::{Pairing, Strategy};
use connectk::verify::{Claim, Verdict, verify};
use connectk::{GameResult, Mib, Player, Position, Rules, Solver, Variant};

#[test]
fn theorem_3_pairing_never_loses_a_one_row_board() {
    let mut solver = Solver::new(Mib(16));
    for k in 3..=5 {
        for width in 1..=13 {
            let rules = Rules::new(k, width, 1, Variant::Misere).unwrap();
            for player in [Player::P1, Player::P2] {
                let mut strategy = Pairing::new(rules, player).unwrap();
                let verdict = verify(
                    &mut strategy as &mut dyn Strategy,
                    player,
                    Claim::DrawOrBetter,
                    &Position::new(rules),
                    &[],
                );
                assert!(
                    matches!(verdict, Verdict::Holds { longest_game, .. } if longest_game == width),
                    "k={k} w={width} {player}: {verdict:?}"
                );
            }
            // Independent confirmation: the exact value is a draw.
            let value = solver.solve_weak(&Position::new(rules)).value;
            assert_eq!(value.result, GameResult::Draw, "k={k} w={width}");
        }
    }
}

#[test]
fn pairing_cannot_claim_a_win() {
    // A draw is the best pairing achieves; the checker must refute a win claim.
    let rules = Rules::new(3, 6, 1, Variant::Misere).unwrap();
    let mut strategy = Pairing::new(rules, Player::P2).unwrap();
    let verdict = verify(
        &mut strategy as &mut dyn Strategy,
        Player::P2,
        Claim::Win,
        &Position::new(rules),
        &[],
    );
    assert!(matches!(verdict, Verdict::Refuted { .. }), "{verdict:?}");
}

#[test]
fn pairing_applies_only_to_one_row_boards_with_k_at_least_3() {
    assert!(Pairing::new(Rules::new(3, 7, 2, Variant::Misere).unwrap(), Player::P1).is_err());
    assert!(Pairing::new(Rules::new(2, 7, 1, Variant::Misere).unwrap(), Player::P1).is_err());
}
