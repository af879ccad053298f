//! Table I of the paper: the outcome of Misère Connect k on a w x h board under optimal play.

use serde::Serialize;

use super::StrategyName;
use crate::engine::outcome::{GameResult, Player};

/// The outcome Table I predicts for Misère Connect `k` on a `width` x `height` board, or `None`
/// where the paper makes no claim (k = 1, which the table does not cover).
///
/// The table, read row by row:
/// - any k: if `width < k`, a draw (the caption: "If w or h is infinite, or w < k, optimal play
///   leads to a Draw");
/// - k = 2, height 1: a draw for widths 2, 4 and 6; a P2 win for odd widths >= 3 and even
///   widths >= 8;
/// - k = 2, height >= 2: a P2 win;
/// - k >= 3, height 1: a draw;
/// - k >= 3, even height: a P2 win;
/// - k >= 3, odd height >= 3: a P1 win on odd widths, a P2 win on even widths.
///
/// # Examples
/// ```
/// use connectk::strategy::table1::predict;
/// use connectk::{GameResult, Player};
/// // Misère Connect Four: a second-player win.
/// assert_eq!(predict(4, 7, 6), Some(GameResult::Win(Player::P2)));
/// ```
pub fn predict(k: u32, width: u32, height: u32) -> Option<GameResult> {
    if k < 2 || width == 0 || height == 0 {
        return None;
    }
    if width < k {
        return Some(GameResult::Draw);
    }
    let p2 = GameResult::Win(Player::P2);
    let odd = |n: u32| n % 2 == 1;
    Some(match (k, height) {
        (2, 1) if matches!(width, 2 | 4 | 6) => GameResult::Draw,
        (2, _) => p2,
        (_, 1) => GameResult::Draw,
        (_, h) if odd(h) && odd(width) => GameResult::Win(Player::P1),
        _ => p2,
    })
}

/// A strategy of the paper that proves one entry of Table I, and who plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Decider {
    /// The strategy.
    pub strategy: StrategyName,
    /// The player it is proved for; `None` when either player can play it (a drawn board).
    pub player: Option<Player>,
    /// Where the paper proves it.
    pub proof: &'static str,
}

/// The paper's strategies that decide Misère Connect `k` on a `width` x `height` board, the
/// main proof first; empty where the paper proves the entry without a strategy of its own
/// (`width < k`, where either player plays on top of the other; k = 2 one-row boards of width
/// 2, 4 and 6, settled by exploring every game) or makes no claim (k = 1).
///
/// - even height, `width >= k`: take-even, played by P2 (Theorem 1 and Corollary 1; for
///   k = 2, Theorem 4);
/// - odd height >= 3, `width >= k >= 3`: delayed take-even, by P2 on even widths (Theorem 2)
///   and P1 on odd widths (Corollary 2); for k = 2, by P2 with the tally play in the bottom
///   row (Theorem 4);
/// - height 1, `width >= k >= 3`: take-other / rightmost pairing, by either player
///   (Theorem 3), and the canonical-board play of Appendix A (Theorem 5);
/// - height 1, k = 2, odd widths >= 3 and even widths >= 8: the tally play, by P2 (Lemmas 1
///   and 2, Theorem 4).
///
/// # Examples
/// ```
/// use connectk::Player;
/// use connectk::strategy::StrategyName;
/// use connectk::strategy::table1::deciders;
/// // Misère Connect Four: P2's take-even.
/// let main = deciders(4, 7, 6)[0];
/// assert_eq!((main.strategy, main.player), (StrategyName::TakeEven, Some(Player::P2)));
/// ```
pub fn deciders(k: u32, width: u32, height: u32) -> Vec<Decider> {
    if k < 2 || width < k || height == 0 {
        return Vec::new();
    }
    let by = |strategy, player, proof| Decider {
        strategy,
        player,
        proof,
    };
    let p2 = Some(Player::P2);
    match (k, height) {
        (2, 1) if matches!(width, 2 | 4 | 6) => Vec::new(),
        (2, 1) => vec![by(StrategyName::Tally, p2, "Lemmas 1 and 2, Theorem 4")],
        (2, h) if h.is_multiple_of(2) => vec![by(StrategyName::TakeEven, p2, "Theorem 4")],
        (2, _) => vec![by(StrategyName::DelayedTakeEven, p2, "Theorem 4")],
        (_, 1) => vec![
            by(StrategyName::Pairing, None, "Theorem 3"),
            by(StrategyName::Canonical, None, "Theorem 5 (Appendix A)"),
        ],
        (_, h) if h.is_multiple_of(2) => {
            vec![by(StrategyName::TakeEven, p2, "Theorem 1, Corollary 1")]
        }
        _ if width.is_multiple_of(2) => vec![by(StrategyName::DelayedTakeEven, p2, "Theorem 2")],
        _ => vec![by(
            StrategyName::DelayedTakeEven,
            Some(Player::P1),
            "Corollary 2",
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P1: Option<GameResult> = Some(GameResult::Win(Player::P1));
    const P2: Option<GameResult> = Some(GameResult::Win(Player::P2));
    const DRAW: Option<GameResult> = Some(GameResult::Draw);

    #[test]
    fn narrow_boards_are_draws() {
        // Caption of Table I: w < k is a draw, whatever the height.
        for k in 2..8 {
            for w in 1..k {
                for h in 1..10 {
                    assert_eq!(predict(k, w, h), DRAW, "k={k} w={w} h={h}");
                }
            }
        }
    }

    #[test]
    fn connect_two_one_row() {
        // Table I, Misère Connect 2, row h = 1: odd w >= 3 P2; w in {2,4,6} Draw; even w >= 8 P2.
        for w in [3, 5, 7, 9, 11] {
            assert_eq!(predict(2, w, 1), P2, "w={w}");
        }
        for w in [2, 4, 6] {
            assert_eq!(predict(2, w, 1), DRAW, "w={w}");
        }
        for w in [8, 10, 12, 20] {
            assert_eq!(predict(2, w, 1), P2, "w={w}");
        }
    }

    #[test]
    fn connect_two_taller() {
        // Table I, Misère Connect 2, row h >= 2: P2 in every column of the table (w >= 2).
        for w in 2..14 {
            for h in 2..8 {
                assert_eq!(predict(2, w, h), P2, "w={w} h={h}");
            }
        }
    }

    #[test]
    fn connect_k_one_row() {
        // Table I, Misère Connect k >= 3, row h = 1: Draw for every w >= k.
        for k in 3..7 {
            for w in k..20 {
                assert_eq!(predict(k, w, 1), DRAW, "k={k} w={w}");
            }
        }
    }

    #[test]
    fn connect_k_even_height() {
        // Table I, Misère Connect k >= 3, row "h >= 2 even": P2 for odd and even w >= k.
        for k in 3..7 {
            for w in k..15 {
                for h in [2, 4, 6, 8] {
                    assert_eq!(predict(k, w, h), P2, "k={k} w={w} h={h}");
                }
            }
        }
    }

    #[test]
    fn connect_k_odd_height() {
        // Table I, Misère Connect k >= 3, row "h >= 3 odd": P1 for odd w >= k, P2 for even w >= k.
        for k in 3..7 {
            for w in k..15 {
                for h in [3, 5, 7, 9] {
                    let expected = if w % 2 == 1 { P1 } else { P2 };
                    assert_eq!(predict(k, w, h), expected, "k={k} w={w} h={h}");
                }
            }
        }
    }

    #[test]
    fn connect_four_standard_board() {
        // Abstract: "perfect play by both sides leads to a second-player win" on 7x6.
        assert_eq!(predict(4, 7, 6), P2);
    }

    #[test]
    fn k_one_is_not_covered() {
        assert_eq!(predict(1, 3, 3), None);
    }

    #[test]
    fn each_decider_proves_its_table_entry() {
        // Over the whole table: a strategy proved for one player names the winner Table I
        // gives; one either player plays names a draw; a board with none is a narrow board,
        // k = 1, or one of the k = 2 rows settled by exploring every game.
        for k in 1..7 {
            for w in 1..15 {
                for h in 1..9 {
                    let found = deciders(k, w, h);
                    let expected = predict(k, w, h);
                    if found.is_empty() {
                        let explored = k == 2 && h == 1 && matches!(w, 2 | 4 | 6);
                        assert!(k < 2 || w < k || explored, "k={k} w={w} h={h}");
                    }
                    for d in found {
                        let result = d.player.map_or(GameResult::Draw, GameResult::Win);
                        assert_eq!(Some(result), expected, "k={k} w={w} h={h} {d:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn deciders_follow_the_paper() {
        use StrategyName::*;
        let names = |k, w, h| {
            deciders(k, w, h)
                .iter()
                .map(|d| (d.strategy, d.player))
                .collect::<Vec<_>>()
        };
        let (p1, p2) = (Some(Player::P1), Some(Player::P2));
        assert_eq!(names(4, 7, 6), vec![(TakeEven, p2)]);
        assert_eq!(names(3, 4, 3), vec![(DelayedTakeEven, p2)]);
        assert_eq!(names(3, 5, 3), vec![(DelayedTakeEven, p1)]);
        assert_eq!(names(2, 5, 3), vec![(DelayedTakeEven, p2)]);
        assert_eq!(names(2, 5, 2), vec![(TakeEven, p2)]);
        assert_eq!(names(3, 9, 1), vec![(Pairing, None), (Canonical, None)]);
        assert_eq!(names(2, 9, 1), vec![(Tally, p2)]);
        assert_eq!(names(2, 8, 1), vec![(Tally, p2)]);
        assert!(names(2, 6, 1).is_empty() && names(5, 4, 6).is_empty());
    }

    #[test]
    fn every_decider_builds_for_its_player() {
        // The named strategy really is one the arena can set up for that player.
        use crate::engine::rules::{Rules, Variant};
        for k in 2..6 {
            for w in 1..10 {
                for h in 1..7 {
                    let Ok(rules) = Rules::new(k, w, h, Variant::Misere) else {
                        continue;
                    };
                    for d in deciders(k, w, h) {
                        for player in d.player.map_or(vec![Player::P1, Player::P2], |p| vec![p]) {
                            assert!(
                                d.strategy.build(rules, player).is_ok(),
                                "k={k} w={w} h={h} {d:?} as {player}"
                            );
                        }
                    }
                }
            }
        }
    }
}
