//! Lemmas 3 and 4 and Theorem 5 of Steele & Larremore: Appendix A's canonical-board play
//! never completes a line, even in the relaxed game where the opponent cannot lose.

use connectk::strategy::{Canonical, Pairing, Strategy, TakeEven};
use connectk::verify::{Claim, Rulebook, Verdict, verify_under};
use connectk::{Player, Position, Rules, Variant};

fn check(rulebook: Rulebook, strategy: &mut dyn Strategy, player: Player, rules: Rules) -> Verdict {
    let start = Position::new(rules);
    verify_under(rulebook, strategy, player, Claim::DrawOrBetter, &start, &[])
}

#[test]
fn lemmas_3_and_4_and_theorem_5_hold_against_an_opponent_who_cannot_lose() {
    for k in 3..=4 {
        for width in 1..=13 {
            let rules = Rules::new(k, width, 1, Variant::Misere).unwrap();
            for player in [Player::P1, Player::P2] {
                for rulebook in [Rulebook::Standard, Rulebook::OpponentCannotLose] {
                    let mut strategy = Canonical::new(rules, player).unwrap();
                    let verdict = check(rulebook, &mut strategy, player, rules);
                    assert!(
                        matches!(verdict, Verdict::Holds { .. }),
                        "k={k} w={width} {player} {rulebook:?}: {verdict:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn in_the_relaxed_game_the_opponent_plays_on_after_a_line() {
    // Take-even wins only because P1's line ends the game; when P1 cannot lose, P2 cannot win.
    let rules = Rules::new(3, 4, 4, Variant::Misere).unwrap();
    let mut strategy = TakeEven::new(rules, Player::P2).unwrap();
    let start = Position::new(rules);
    let relaxed = Rulebook::OpponentCannotLose;
    let verdict = verify_under(relaxed, &mut strategy, Player::P2, Claim::Win, &start, &[]);
    assert!(matches!(verdict, Verdict::Refuted { .. }), "{verdict:?}");
    // Theorem 3's pairing also survives the relaxation: its final row is pair-balanced.
    let row = Rules::new(3, 9, 1, Variant::Misere).unwrap();
    let mut pairing = Pairing::new(row, Player::P1).unwrap();
    let verdict = check(relaxed, &mut pairing, Player::P1, row);
    assert!(
        matches!(
            verdict,
            Verdict::Holds {
                longest_game: 9,
                ..
            }
        ),
        "{verdict:?}"
    );
}

#[test]
fn the_canonical_play_applies_to_one_row_boards_with_k_at_least_3() {
    assert!(Canonical::new(Rules::new(2, 7, 1, Variant::Misere).unwrap(), Player::P1).is_err());
    assert!(Canonical::new(Rules::new(3, 7, 2, Variant::Misere).unwrap(), Player::P2).is_err());
    assert!(Canonical::new(Rules::new(3, 7, 1, Variant::Normal).unwrap(), Player::P2).is_err());
}
