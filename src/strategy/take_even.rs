//! Take-even (Theorem 1 and Corollary 1 of Steele & Larremore): on a board of even height,
//! the second player answers every move by playing on top of it.

use crate::engine::outcome::Player;
use crate::engine::position::Column;
use crate::engine::rules::{Rules, Variant};

use super::{Game, Strategy, StrategyError, StrategyName};

/// This strategy's name.
const NAME: StrategyName = StrategyName::TakeEven;

/// P2's take-even strategy: play in the column P1 just played.
///
/// Counting rows from 1 at the bottom, P1 then only ever finds odd-row cells to play and P2
/// always has the even-row cell above P1's disc (the height is even). Under misère rules with
/// `width >= k`, P1 must eventually complete a line (Corollary 1), by ply
/// `1 + (width - floor(width / k)) * height` at the latest (37 on the standard board, Theorem 1).
#[derive(Clone, Copy, Debug)]
pub struct TakeEven;

impl TakeEven {
    /// Take-even for `player` under `rules`.
    ///
    /// # Errors
    /// [`StrategyError::NotApplicable`] unless `player` is P2 and the height is even.
    pub fn new(rules: Rules, player: Player) -> Result<TakeEven, StrategyError> {
        StrategyError::require(
            NAME.as_str(),
            rules,
            player,
            &[
                (player == Player::P2, "it is played by P2"),
                (rules.height().is_multiple_of(2), "the height must be even"),
                (
                    rules.variant() == Variant::Misere,
                    "it is a misère strategy",
                ),
            ],
        )?;
        Ok(TakeEven)
    }
}

impl Strategy for TakeEven {
    fn name(&self) -> &'static str {
        NAME.as_str()
    }

    fn choose(&mut self, game: Game<'_>) -> Result<Column, StrategyError> {
        let outside = |reason: String| StrategyError::OutsideProof {
            strategy: NAME.as_str(),
            reason,
        };
        let last = game
            .last_move()
            .ok_or_else(|| outside("P2 answers a move, and none has been played".into()))?;
        if !game.position.has_room(last) {
            return Err(outside(format!(
                "column {} is full, so the last disc was not on an odd row",
                last.number()
            )));
        }
        Ok(last)
    }
}
