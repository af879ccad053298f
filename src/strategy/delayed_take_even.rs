//! Delayed take-even (Theorem 2 and Corollary 2 of Steele & Larremore): on boards of odd
//! height, answer a bottom-row move in the bottom row and any other move on top of it.

use crate::engine::outcome::Player;
use crate::engine::position::Column;
use crate::engine::rules::{Rules, Variant};

use super::pairing::bottom_row_move;
use super::{Game, Strategy, StrategyError};

/// Delayed take-even for k >= 3.
///
/// The bottom row is "row 0"; the even number of rows above it is the even board space.
/// Rule 1: if the opponent played in row 0, play a non-losing row-0 move (chosen by the
/// take-other / rightmost pairing of Theorem 3). Rule 2: if the opponent played in any other
/// row, play on top of that disc (take-even in the even board space). P1 plays it on odd
/// widths (opening with the rightmost bottom cell), P2 on even widths; whoever is first
/// forced into the even board space loses.
#[derive(Clone, Copy, Debug)]
pub struct DelayedTakeEven;

impl DelayedTakeEven {
    /// Delayed take-even for `player` under `rules`.
    ///
    /// # Errors
    /// [`StrategyError::NotApplicable`] unless the rules are misère with odd height >= 3,
    /// k >= 3, and `player` is P1 on an odd width or P2 on an even width.
    pub fn new(rules: Rules, player: Player) -> Result<DelayedTakeEven, StrategyError> {
        let refuse = |requirement| {
            StrategyError::not_applicable("delayed-take-even", rules, player, requirement)
        };
        if rules.variant() != Variant::Misere {
            return Err(refuse("it is a misère strategy"));
        }
        if rules.height() < 3 || rules.height().is_multiple_of(2) {
            return Err(refuse("the height must be odd and at least 3"));
        }
        if rules.k() < 3 {
            return Err(refuse("k must be at least 3 (k = 2 needs the tally play)"));
        }
        let expected = if rules.width().is_multiple_of(2) {
            Player::P2
        } else {
            Player::P1
        };
        if player != expected {
            return Err(refuse("P2 plays it on even widths, P1 on odd widths"));
        }
        Ok(DelayedTakeEven)
    }
}

impl Strategy for DelayedTakeEven {
    fn name(&self) -> &'static str {
        "delayed-take-even"
    }

    fn choose(&mut self, game: Game<'_>) -> Result<Column, StrategyError> {
        let pos = game.position;
        let outside = |reason: String| StrategyError::OutsideProof {
            strategy: "delayed-take-even",
            reason,
        };
        match game.last_move() {
            Some(last) if pos.column_height(last) > 1 => {
                if pos.has_room(last) {
                    Ok(last)
                } else {
                    Err(outside(format!(
                        "column {} is full, so the last disc was not on an odd row of the even board space",
                        last.number()
                    )))
                }
            }
            last => bottom_row_move(pos, last)
                .ok_or_else(|| outside("the opponent played row 0 but row 0 is full".to_string())),
        }
    }
}
