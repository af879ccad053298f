//! Delayed take-even (Theorem 2 and Corollary 2 of Steele & Larremore): on boards of odd
//! height, answer a bottom-row move in the bottom row and any other move on top of it. For
//! k = 2 (Theorem 4, odd heights) the bottom-row answer comes from the tally play.

use crate::engine::outcome::Player;
use crate::engine::position::Column;
use crate::engine::rules::{Rules, Variant};

use super::pairing::bottom_row_move;
use super::tally::tally_move;
use super::{Game, Strategy, StrategyError, StrategyName, bottom_row};

/// This strategy's name.
const NAME: StrategyName = StrategyName::DelayedTakeEven;

/// Delayed take-even.
///
/// The bottom row is "row 0"; the even number of rows above it is the even board space.
/// Rule 1: if the opponent played in row 0, play a non-losing row-0 move. Rule 2: if the
/// opponent played in any other row, play on top of that disc (take-even in the even board
/// space). Whoever is first forced into the even board space loses.
///
/// For k >= 3 (Theorem 2, Corollary 2) the row-0 move is the take-other / rightmost pairing of
/// Theorem 3; P1 plays it on odd widths (opening with the rightmost bottom cell), P2 on even
/// widths. For k = 2 (Theorem 4, odd heights) the row-0 move is P2's tally play of Lemmas 1
/// and 2, and P2 plays it on every width >= 2: row 0 then ends either in a P1 loss or full
/// after P2's move.
#[derive(Clone, Copy, Debug)]
pub struct DelayedTakeEven {
    row_play: RowPlay,
}

/// How delayed take-even picks its row-0 move.
#[derive(Clone, Copy, Debug)]
enum RowPlay {
    /// Theorem 3's pairing (k >= 3).
    Pairing,
    /// The k = 2 tally play.
    Tally,
}

impl DelayedTakeEven {
    /// Delayed take-even for `player` under `rules`.
    ///
    /// # Errors
    /// [`StrategyError::NotApplicable`] unless the rules are misère with odd height >= 3 and
    /// either k >= 3 with `player` P1 on an odd width or P2 on an even width, or k = 2 with
    /// `player` P2 and width >= 2.
    pub fn new(rules: Rules, player: Player) -> Result<DelayedTakeEven, StrategyError> {
        let refuse =
            |requirement| StrategyError::not_applicable(NAME.as_str(), rules, player, requirement);
        if rules.variant() != Variant::Misere {
            return Err(refuse("it is a misère strategy"));
        }
        if rules.height() < 3 || rules.height().is_multiple_of(2) {
            return Err(refuse("the height must be odd and at least 3"));
        }
        if rules.k() < 2 {
            return Err(refuse("k must be at least 2"));
        }
        if rules.k() == 2 {
            if rules.width() < 2 {
                return Err(refuse("for k = 2 the width must be at least 2"));
            }
            if player != Player::P2 {
                return Err(refuse("for k = 2 it is played by P2"));
            }
            return Ok(DelayedTakeEven {
                row_play: RowPlay::Tally,
            });
        }
        let expected = if rules.width().is_multiple_of(2) {
            Player::P2
        } else {
            Player::P1
        };
        if player != expected {
            return Err(refuse(
                "for k >= 3 P2 plays it on even widths, P1 on odd widths",
            ));
        }
        Ok(DelayedTakeEven {
            row_play: RowPlay::Pairing,
        })
    }
}

impl Strategy for DelayedTakeEven {
    fn name(&self) -> &'static str {
        NAME.as_str()
    }

    fn choose(&mut self, game: Game<'_>) -> Result<Column, StrategyError> {
        let pos = game.position;
        let outside = |reason: String| StrategyError::OutsideProof {
            strategy: NAME.as_str(),
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
            last => {
                let column = match self.row_play {
                    RowPlay::Pairing => bottom_row_move(pos, last),
                    RowPlay::Tally => {
                        tally_move(&bottom_row(pos), pos.to_move()).map(|c| Column::new(c as u32))
                    }
                };
                column.ok_or_else(|| {
                    outside("the opponent played row 0 and no row-0 move is left".to_string())
                })
            }
        }
    }
}
