//! A strategy against every reply: the tree of its choices and all of its opponent's moves.

use std::collections::HashSet;

use connectk::strategy::{Game, Strategy};
use connectk::{Column, Player, Position, Rules};

/// Plays `strategy` as `player` from the empty board of `rules` against every reply of the
/// opponent, up to positions with `plies` discs or the end of the game, and calls `check`
/// with every position where the strategy moved, the moves that reached it, and its choice
/// (after which the strategy's last report is its own). Each position (and its mirror image)
/// is entered once.
pub fn against_every_reply(
    rules: Rules,
    player: Player,
    plies: u32,
    strategy: &mut dyn Strategy,
    mut check: impl FnMut(&Position, &[Column], Column, &dyn Strategy),
) {
    let mut seen = HashSet::new();
    let mut stack = vec![(Position::new(rules), Vec::new())];
    while let Some((pos, moves)) = stack.pop() {
        if pos.is_over() || pos.plies() > plies || !seen.insert(pos.canonical_key().0) {
            continue;
        }
        let columns = if pos.to_move() == player {
            let game = Game {
                position: &pos,
                moves: &moves,
            };
            let column = strategy.choose(game).expect("the strategy has a move");
            check(&pos, &moves, column, strategy);
            vec![column]
        } else {
            pos.legal_columns()
        };
        for column in columns {
            let mut next = moves.clone();
            next.push(column);
            stack.push((pos.played(column).unwrap(), next));
        }
    }
}
