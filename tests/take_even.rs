//! Theorem 1 and Corollary 1 of Steele & Larremore, checked by playing take-even against every
//! opponent reply, and held against the exact solver.

use connectk::strategy::{Strategy, TakeEven};
use connectk::verify::{Claim, Verdict, verify};
use connectk::{GameResult, Mib, Player, Position, Rules, Solver, Variant};

fn check(rules: Rules, claim: Claim) -> Verdict {
    let mut strategy = TakeEven::new(rules, Player::P2).expect("take-even applies");
    verify(
        &mut strategy as &mut dyn Strategy,
        Player::P2,
        claim,
        &Position::new(rules),
        &[],
    )
}

#[test]
fn theorem_1_take_even_wins_standard_misere_connect_four_by_move_37() {
    let rules = Rules::standard().with_variant(Variant::Misere);
    match check(rules, Claim::Win) {
        Verdict::Holds { longest_game, .. } => assert_eq!(longest_game, 37),
        refuted => panic!("Theorem 1 refuted: {refuted:?}"),
    }
}

#[test]
fn corollary_1_take_even_wins_every_even_height_board_within_the_bound() {
    let mut solver = Solver::new(Mib(64));
    for k in 2..=5 {
        for width in k..=8 {
            for height in (2..=8).step_by(2) {
                if width * height > 36 {
                    continue;
                }
                let rules = Rules::new(k, width, height, Variant::Misere).unwrap();
                let bound = 1 + (width - width / k) * height;
                match check(rules, Claim::Win) {
                    Verdict::Holds { longest_game, .. } => {
                        assert!(longest_game <= bound, "{rules:?}: {longest_game} > {bound}")
                    }
                    refuted => panic!("Corollary 1 refuted on {rules:?}: {refuted:?}"),
                }
                if width * height <= 20 {
                    let value = solver.solve_weak(&Position::new(rules)).value;
                    assert_eq!(value.result, GameResult::Win(Player::P2), "{rules:?}");
                }
            }
        }
    }
}

#[test]
fn take_even_only_draws_when_the_board_is_narrower_than_k() {
    // With w < k no line fits across, so P1 can fill the board: the checker must find that.
    let rules = Rules::new(4, 3, 4, Variant::Misere).unwrap();
    match check(rules, Claim::Win) {
        Verdict::Refuted { line, reason, .. } => {
            assert_eq!(line.len(), 12, "{line:?}");
            assert!(reason.contains("draw"), "{reason}");
        }
        holds => panic!("a draw was taken for a win: {holds:?}"),
    }
    assert!(matches!(
        check(rules, Claim::DrawOrBetter),
        Verdict::Holds { .. }
    ));
}

#[test]
fn take_even_refuses_to_play_where_it_does_not_apply() {
    let odd = Rules::new(4, 7, 5, Variant::Misere).unwrap();
    assert!(TakeEven::new(odd, Player::P2).is_err());
    assert!(TakeEven::new(Rules::standard().with_variant(Variant::Misere), Player::P1).is_err());
}
