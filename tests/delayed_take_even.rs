//! Theorem 2 and Corollary 2 of Steele & Larremore: on odd heights >= 3 with w >= k >= 3,
//! delayed take-even wins for P2 on even widths and for P1 on odd widths, against every reply.

use connectk::strategy::{DelayedTakeEven, Strategy};
use connectk::verify::{Claim, Verdict, verify};
use connectk::{GameResult, Mib, Player, Position, Rules, Solver, Variant};

#[test]
fn theorem_2_and_corollary_2_delayed_take_even_wins() {
    let mut solver = Solver::new(Mib(64));
    for k in 3..=5 {
        for width in k..=8 {
            for height in [3, 5] {
                if width * height > 35 {
                    continue;
                }
                let rules = Rules::new(k, width, height, Variant::Misere).unwrap();
                let player = if width % 2 == 0 {
                    Player::P2
                } else {
                    Player::P1
                };
                let mut strategy = DelayedTakeEven::new(rules, player).unwrap();
                let verdict = verify(
                    &mut strategy as &mut dyn Strategy,
                    player,
                    Claim::Win,
                    &Position::new(rules),
                    &[],
                );
                assert!(
                    matches!(verdict, Verdict::Holds { .. }),
                    "k={k} {width}x{height} {player}: {verdict:?}"
                );
                if width * height <= 20 {
                    let value = solver.solve_weak(&Position::new(rules)).value;
                    assert_eq!(
                        value.result,
                        GameResult::Win(player),
                        "k={k} {width}x{height}"
                    );
                }
            }
        }
    }
}

#[test]
fn delayed_take_even_is_refused_for_the_wrong_player_or_height() {
    let rules = Rules::new(4, 6, 5, Variant::Misere).unwrap();
    assert!(DelayedTakeEven::new(rules, Player::P1).is_err());
    let even = Rules::new(4, 6, 6, Variant::Misere).unwrap();
    assert!(DelayedTakeEven::new(even, Player::P2).is_err());
}
