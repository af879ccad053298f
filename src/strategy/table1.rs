//! Table I of the paper: the outcome of Misère Connect k on a w x h board under optimal play.

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
}
