//! Lemmas 1 and 2 and Theorem 4 of Steele & Larremore: P2's tally play on one-row k = 2
//! boards, and inside delayed take-even on odd heights, checked against every opponent reply
//! and held against the exact solver.

use connectk::strategy::{DelayedTakeEven, Strategy, TallyPlay};
use connectk::verify::{Claim, Verdict, verify};
use connectk::{GameResult, Mib, Player, Position, Rules, Solver, Variant};

fn holds(strategy: &mut dyn Strategy, rules: Rules, claim: Claim) -> bool {
    let verdict = verify(strategy, Player::P2, claim, &Position::new(rules), &[]);
    matches!(verdict, Verdict::Holds { .. })
}

#[test]
fn lemmas_1_and_2_and_the_draws_of_theorem_4() {
    let mut solver = Solver::new(Mib(16));
    for width in 1..=16 {
        let rules = Rules::new(2, width, 1, Variant::Misere).unwrap();
        let draw = matches!(width, 1 | 2 | 4 | 6);
        let claim = if draw {
            Claim::DrawOrBetter
        } else {
            Claim::Win
        };
        assert!(
            holds(
                &mut TallyPlay::new(rules, Player::P2).unwrap(),
                rules,
                claim
            ),
            "w={width}"
        );
        let expected = if draw {
            GameResult::Draw
        } else {
            GameResult::Win(Player::P2)
        };
        let value = solver.solve_weak(&Position::new(rules)).value;
        assert_eq!(value.result, expected, "w={width}");
    }
}

#[test]
fn theorem_4_odd_heights_delayed_take_even_with_the_tally_play() {
    for (width, height) in [
        (2, 3),
        (3, 3),
        (4, 3),
        (7, 3),
        (8, 3),
        (5, 5),
        (6, 5),
        (4, 7),
    ] {
        let rules = Rules::new(2, width, height, Variant::Misere).unwrap();
        let mut strategy = DelayedTakeEven::new(rules, Player::P2).unwrap();
        assert!(holds(&mut strategy, rules, Claim::Win), "{width}x{height}");
    }
}

#[test]
fn the_tally_play_applies_only_where_the_paper_uses_it() {
    let row = Rules::new(2, 8, 1, Variant::Misere).unwrap();
    assert!(TallyPlay::new(row, Player::P1).is_err());
    assert!(TallyPlay::new(Rules::new(3, 8, 1, Variant::Misere).unwrap(), Player::P2).is_err());
    assert!(TallyPlay::new(Rules::new(2, 8, 2, Variant::Misere).unwrap(), Player::P2).is_err());
    let odd = Rules::new(2, 5, 3, Variant::Misere).unwrap();
    assert!(DelayedTakeEven::new(odd, Player::P1).is_err());
    let narrow = Rules::new(2, 1, 3, Variant::Misere).unwrap();
    assert!(DelayedTakeEven::new(narrow, Player::P2).is_err());
}
