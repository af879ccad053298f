//! Take-other / rightmost pairing (Theorem 3 of Steele & Larremore): on a one-row board with
//! k >= 3, either player forces a draw.

use crate::engine::outcome::{Cell, Player};
use crate::engine::position::Column;
use crate::engine::rules::{Rules, Variant};

use super::{Game, Strategy, StrategyError, StrategyName};

/// This strategy's name.
const NAME: StrategyName = StrategyName::Pairing;

/// The two-rule pairing strategy for one-row boards.
///
/// The cells are paired from the left, (1,2), (3,4), ..., leaving the rightmost cell single
/// when the width is odd. Rule 1, take-other: if the opponent just took one half of a pair
/// whose other half is empty, take that half. Rule 2, rightmost: otherwise take the rightmost
/// empty cell. A board where every pair holds one disc of each player has no three in a row,
/// so the game ends in a draw for every k >= 3 (Theorem 3, cases 1-4).
#[derive(Clone, Copy, Debug)]
pub struct Pairing;

impl Pairing {
    /// The pairing strategy for either player.
    ///
    /// # Errors
    /// [`StrategyError::NotApplicable`] unless the rules are misère with height 1 and k >= 3.
    pub fn new(rules: Rules, player: Player) -> Result<Pairing, StrategyError> {
        StrategyError::require(
            NAME.as_str(),
            rules,
            player,
            &[
                (rules.height() == 1, "the board must have height 1"),
                (rules.k() >= 3, "k must be at least 3"),
                (
                    rules.variant() == Variant::Misere,
                    "it is a misère strategy",
                ),
            ],
        )?;
        Ok(Pairing)
    }
}

/// The other half of the pair holding column `c` (0-based), or `None` for the single
/// rightmost cell of an odd width.
pub(super) fn partner(c: u32, width: u32) -> Option<u32> {
    let other = c ^ 1;
    (other < width).then_some(other)
}

/// The pairing move in the bottom row: take-other if `last` (the opponent's move) took one
/// half of a bottom-row pair whose other half is empty, otherwise the rightmost empty
/// bottom-row cell; `None` when the bottom row is full.
pub(crate) fn bottom_row_move(
    pos: &crate::engine::position::Position,
    last: Option<Column>,
) -> Option<Column> {
    let width = pos.rules().width();
    let empty = |c: u32| pos.cell(Cell { column: c, row: 0 }).is_none();
    if let Some(last) = last
        && pos.column_height(last) == 1
        && let Some(other) = partner(last.index(), width)
        && empty(other)
    {
        return Some(Column::new(other));
    }
    (0..width).rev().find(|&c| empty(c)).map(Column::new)
}

impl Strategy for Pairing {
    fn name(&self) -> &'static str {
        NAME.as_str()
    }

    fn choose(&mut self, game: Game<'_>) -> Result<Column, StrategyError> {
        bottom_row_move(game.position, game.last_move()).ok_or_else(|| {
            StrategyError::OutsideProof {
                strategy: NAME.as_str(),
                reason: "the row is full".to_string(),
            }
        })
    }
}
