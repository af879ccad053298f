//! The paper's strategies as players behind one small trait.

pub mod canonical;
pub mod delayed_take_even;
pub mod pairing;
pub mod take_even;
pub mod tally;

use crate::engine::outcome::{Cell, Player};
use crate::engine::position::{Column, Position};
use crate::engine::rules::Rules;

pub use canonical::Canonical;
pub use delayed_take_even::DelayedTakeEven;
pub use pairing::Pairing;
pub use take_even::TakeEven;
pub use tally::TallyPlay;

/// A game in progress as a strategy sees it: the position and the moves that led to it.
#[derive(Clone, Copy, Debug)]
pub struct Game<'a> {
    /// The current position.
    pub position: &'a Position,
    /// Every move played so far, first to last.
    pub moves: &'a [Column],
}

impl Game<'_> {
    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Column> {
        self.moves.last().copied()
    }
}

/// Why a strategy would not choose a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StrategyError {
    /// The strategy does not apply to these rules or to this player.
    #[error("{strategy} does not apply to {rules} as {player}: {requirement}")]
    NotApplicable {
        /// The strategy's name.
        strategy: &'static str,
        /// The rules asked for, as text.
        rules: String,
        /// The player asked for.
        player: Player,
        /// What the strategy requires.
        requirement: &'static str,
    },
    /// The position is not one the strategy's proof ever reaches.
    #[error("{strategy} has no move here: {reason}")]
    OutsideProof {
        /// The strategy's name.
        strategy: &'static str,
        /// What is wrong with the position.
        reason: String,
    },
}

impl StrategyError {
    /// The strategy `strategy` does not apply to `rules` as `player`; `requirement` says what
    /// it needs.
    pub fn not_applicable(
        strategy: &'static str,
        rules: Rules,
        player: Player,
        requirement: &'static str,
    ) -> StrategyError {
        StrategyError::NotApplicable {
            strategy,
            rules: rules.to_string(),
            player,
            requirement,
        }
    }

    /// `Ok` when every condition of `requirements` holds; otherwise the first that fails, with
    /// its description, as [`StrategyError::NotApplicable`] for `strategy`.
    pub fn require(
        strategy: &'static str,
        rules: Rules,
        player: Player,
        requirements: &[(bool, &'static str)],
    ) -> Result<(), StrategyError> {
        match requirements.iter().find(|(holds, _)| !holds) {
            Some(&(_, requirement)) => {
                Err(Self::not_applicable(strategy, rules, player, requirement))
            }
            None => Ok(()),
        }
    }
}

/// The bottom row of `position`, left to right: who holds each cell, if anyone.
pub fn bottom_row(position: &Position) -> Vec<Option<Player>> {
    (0..position.rules().width())
        .map(|column| position.cell(Cell { column, row: 0 }))
        .collect()
}

/// A player that picks a column for the side to move.
///
/// The strategies of the paper choose from the position and the last move only (never from
/// older history or hidden state), which lets the checker in [`crate::verify`] share work
/// between move orders that reach the same position by the same last move.
pub trait Strategy: Send {
    /// The name used on the command line and in reports.
    fn name(&self) -> &'static str;

    /// The move for the side to move of a game that is not over.
    ///
    /// # Errors
    /// [`StrategyError::OutsideProof`] when the position is not one the strategy's proof reaches.
    fn choose(&mut self, game: Game<'_>) -> Result<Column, StrategyError>;
}

/// The names accepted by [`by_name`].
pub const NAMES: &[&str] = &[
    "take-even",
    "delayed-take-even",
    "pairing",
    "tally",
    "canonical",
];

/// Why a strategy could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    /// No player has this name.
    #[error("unknown player {name:?}: expected one of {known}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The names accepted, comma-separated.
        known: String,
    },
    /// The strategy exists but not for these rules or this player.
    #[error(transparent)]
    NotApplicable(#[from] StrategyError),
}

/// The strategy called `name`, set up to play `player` under `rules`.
///
/// # Errors
/// [`LookupError`] for an unknown name or a strategy that does not apply.
pub fn by_name(name: &str, rules: Rules, player: Player) -> Result<Box<dyn Strategy>, LookupError> {
    match name {
        "take-even" => Ok(Box::new(TakeEven::new(rules, player)?)),
        "delayed-take-even" => Ok(Box::new(DelayedTakeEven::new(rules, player)?)),
        "pairing" => Ok(Box::new(Pairing::new(rules, player)?)),
        "tally" => Ok(Box::new(TallyPlay::new(rules, player)?)),
        "canonical" => Ok(Box::new(Canonical::new(rules, player)?)),
        _ => Err(LookupError::Unknown {
            name: name.to_string(),
            known: NAMES.join(", "),
        }),
    }
}
