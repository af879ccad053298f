//! The invariants the paper's proofs rest on, as properties: each strategy plays out whole
//! games on random boards of its range against an opponent that picks random legal moves.

use connectk::strategy::{Game, StrategyName};
use connectk::{Cell, Column, GameResult, Player, Position, Rules, Variant};
use proptest::prelude::*;

/// Plays one game: `player` uses strategy `name`, the opponent takes the legal column picked by
/// the next of `choices` (cycling). `after` sees the position after every move and whether the
/// strategy made it. Returns the final position.
fn play_out(
    rules: Rules,
    name: StrategyName,
    player: Player,
    choices: &[u32],
    mut after: impl FnMut(&Position, Column, bool),
) -> Position {
    let mut strategy = name.build(rules, player).expect("strategy applies");
    let mut pos = Position::new(rules);
    let mut moves = Vec::new();
    let mut next = choices.iter().cycle();
    while !pos.is_over() {
        let ours = pos.to_move() == player;
        let column = if ours {
            let game = Game {
                position: &pos,
                moves: &moves,
            };
            strategy
                .choose(game)
                .unwrap_or_else(|e| panic!("{name} has no move after {moves:?}: {e}"))
        } else {
            let legal = pos.legal_columns();
            legal[*next.next().unwrap_or(&0) as usize % legal.len()]
        };
        pos.play(column)
            .unwrap_or_else(|e| panic!("{name} chose an illegal move after {moves:?}: {e}"));
        moves.push(column);
        after(&pos, column, ours);
    }
    pos
}

/// Who holds `column`, `row` (both from 0).
fn at(pos: &Position, column: u32, row: u32) -> Option<Player> {
    pos.cell(Cell { column, row })
}

/// Misère rules with these k, width and height.
fn misere(k: u32, width: u32, height: u32) -> Rules {
    Rules::new(k, width, height, Variant::Misere).expect("valid rules")
}

/// The row (from 0) of the disc just dropped in `column`.
fn top_row(pos: &Position, column: Column) -> u32 {
    pos.column_height(column) - 1
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Theorem 1 and Corollary 1: under take-even P1 only plays odd rows and P2 only even
    /// rows (from 1 at the bottom), P2 always has its move, after each P2 move every column is
    /// a stack of P1/P2 pairs, and P2 wins by ply 1 + (w - floor(w/k)) h (37 on 7x6).
    #[test]
    fn take_even_keeps_pairs_and_the_bound(
        k in 2u32..=5,
        extra in 0u32..=4,
        half_height in 1u32..=4,
        choices in prop::collection::vec(any::<u32>(), 1..64),
    ) {
        let rules = misere(k, k + extra, 2 * half_height);
        let (width, height) = (rules.width(), rules.height());
        let end = play_out(rules, StrategyName::TakeEven, Player::P2, &choices, |pos, column, ours| {
            let row_from_1 = top_row(pos, column) + 1;
            assert_eq!(row_from_1.is_multiple_of(2), ours, "wrong row parity: {}", pos.diagram());
            if ours {
                for c in 0..width {
                    let discs = pos.column_height(Column::new(c));
                    assert_eq!(discs % 2, 0, "column {c} is unpaired: {}", pos.diagram());
                    for row in 0..discs {
                        let expected = if row % 2 == 0 { Player::P1 } else { Player::P2 };
                        assert_eq!(at(pos, c, row), Some(expected), "{}", pos.diagram());
                    }
                }
            }
        });
        prop_assert_eq!(end.outcome().map(|o| o.result), Some(GameResult::Win(Player::P2)));
        prop_assert!(end.plies() <= 1 + (width - width / k) * height);
    }

    /// Theorem 1 on the standard board: the game never lasts beyond the 37th move.
    #[test]
    fn take_even_wins_misere_connect_four_by_move_37(
        choices in prop::collection::vec(any::<u32>(), 1..64),
    ) {
        let end = play_out(misere(4, 7, 6), StrategyName::TakeEven, Player::P2, &choices, |_, _, _| {});
        prop_assert_eq!(end.outcome().map(|o| o.result), Some(GameResult::Win(Player::P2)));
        prop_assert!(end.plies() <= 37);
    }

    /// Theorem 3: under pairing no pair (1,2), (3,4), ... of the final row holds two discs of
    /// one player, and the pairing player never loses.
    #[test]
    fn pairing_ends_pair_balanced(
        k in 3u32..=6,
        width in 1u32..=16,
        first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 1..32),
    ) {
        let player = if first { Player::P1 } else { Player::P2 };
        let end = play_out(misere(k, width, 1), StrategyName::Pairing, player, &choices, |_, _, _| {});
        for pair in 0..width / 2 {
            let (a, b) = (at(&end, 2 * pair, 0), at(&end, 2 * pair + 1, 0));
            prop_assert!(a.is_none() || a != b, "pair {} is {:?}{:?}", pair + 1, a, b);
        }
        prop_assert_ne!(end.outcome().map(|o| o.result), Some(GameResult::Win(player.other())));
    }

    /// Theorem 2, Corollary 2 and Theorem 4 (odd heights): under delayed take-even, after each
    /// of the strategy's moves every column of the even board space (the rows above row 0)
    /// is a stack of (opponent, strategy) pairs, and the strategy's player wins.
    #[test]
    fn delayed_take_even_keeps_the_even_board_space_paired(
        k in 2u32..=5,
        extra in 0u32..=4,
        half in 1u32..=3,
        choices in prop::collection::vec(any::<u32>(), 1..64),
    ) {
        let rules = misere(k, k + extra, 2 * half + 1);
        let player = if k >= 3 && rules.width() % 2 == 1 { Player::P1 } else { Player::P2 };
        let width = rules.width();
        let end = play_out(rules, StrategyName::DelayedTakeEven, player, &choices, |pos, _, ours| {
            if !ours {
                return;
            }
            for c in 0..width {
                let above = pos.column_height(Column::new(c)).saturating_sub(1);
                assert_eq!(above % 2, 0, "column {c} is unpaired: {}", pos.diagram());
                for row in 1..=above {
                    let expected = if row % 2 == 1 { player.other() } else { player };
                    assert_eq!(at(pos, c, row), Some(expected), "{}", pos.diagram());
                }
            }
        });
        prop_assert_eq!(end.outcome().map(|o| o.result), Some(GameResult::Win(player)));
    }

    /// Theorem 4 (height 1): the tally play never loses, and wins except on widths 1, 2, 4, 6.
    #[test]
    fn tally_play_never_loses(
        width in 1u32..=20,
        choices in prop::collection::vec(any::<u32>(), 1..32),
    ) {
        let end = play_out(misere(2, width, 1), StrategyName::Tally, Player::P2, &choices, |_, _, _| {});
        let result = end.outcome().map(|o| o.result);
        if matches!(width, 1 | 2 | 4 | 6) {
            prop_assert_ne!(result, Some(GameResult::Win(Player::P1)));
        } else {
            prop_assert_eq!(result, Some(GameResult::Win(Player::P2)));
        }
    }

    /// Theorem 5: the canonical-board play never completes a line, for either player.
    #[test]
    fn canonical_play_never_loses(
        k in 3u32..=5,
        width in 1u32..=20,
        first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 1..32),
    ) {
        let player = if first { Player::P1 } else { Player::P2 };
        let end = play_out(misere(k, width, 1), StrategyName::Canonical, player, &choices, |_, _, _| {});
        prop_assert_ne!(end.outcome().map(|o| o.result), Some(GameResult::Win(player.other())));
    }
}
