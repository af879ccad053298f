//! The paper's strategies as players behind one small trait, and its Table I, which they prove.

mod canonical;
mod delayed_take_even;
mod pairing;
pub mod plan;
pub mod table1;
mod take_even;
mod tally;

use std::fmt;
use std::str::FromStr;

use crate::engine::outcome::{Cell, Player};
use crate::engine::position::{Column, Position};
use crate::engine::rules::Rules;

pub use canonical::{Canonical, canonical_move};
pub use delayed_take_even::DelayedTakeEven;
pub use pairing::Pairing;
pub use take_even::TakeEven;
pub use tally::{Tally, TallyPlay, tally_move};

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
    pub(crate) fn last_move(&self) -> Option<Column> {
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
    pub(crate) fn not_applicable(
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
    pub(crate) fn require(
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
pub(crate) fn bottom_row(position: &Position) -> Vec<Option<Player>> {
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

    /// What the player proved about the move it chose last, for players that prove their
    /// moves (the arena's perfect player); `None` for the others.
    fn last_proof(&self) -> Option<MoveProof> {
        None
    }
}

/// What a player that proves its moves knows about one it chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveProof {
    /// Proven best: the fastest win, the slowest loss, or a draw (every drawing move is as
    /// good as another).
    Best,
    /// Proven to keep the game-theoretic value (win, draw or loss), not to be the fastest
    /// win or slowest loss.
    KeepsValue,
}

/// The paper's strategies, by the names the command line and the claims file use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum StrategyName {
    /// [`TakeEven`]: answer every move on top of it (Theorem 1).
    TakeEven,
    /// [`DelayedTakeEven`]: answer in the bottom row there, on top elsewhere (Theorem 2).
    DelayedTakeEven,
    /// [`Pairing`]: take-other / rightmost pairing on one row (Theorem 3).
    Pairing,
    /// [`TallyPlay`]: the k = 2 tally play (Lemmas 1 and 2, Theorem 4).
    Tally,
    /// [`Canonical`]: Appendix A's canonical-board play (Lemmas 3 and 4, Theorem 5).
    Canonical,
}

impl StrategyName {
    /// Every strategy, in the order `--help` lists them.
    pub const ALL: [StrategyName; 5] = [
        StrategyName::TakeEven,
        StrategyName::DelayedTakeEven,
        StrategyName::Pairing,
        StrategyName::Tally,
        StrategyName::Canonical,
    ];

    /// The name on the command line and in files.
    pub fn as_str(self) -> &'static str {
        match self {
            StrategyName::TakeEven => "take-even",
            StrategyName::DelayedTakeEven => "delayed-take-even",
            StrategyName::Pairing => "pairing",
            StrategyName::Tally => "tally",
            StrategyName::Canonical => "canonical",
        }
    }

    /// The strategy set up to play `player` under `rules`.
    ///
    /// # Errors
    /// [`StrategyError::NotApplicable`] when the strategy does not apply to them.
    pub fn build(self, rules: Rules, player: Player) -> Result<Box<dyn Strategy>, StrategyError> {
        Ok(match self {
            StrategyName::TakeEven => Box::new(TakeEven::new(rules, player)?),
            StrategyName::DelayedTakeEven => Box::new(DelayedTakeEven::new(rules, player)?),
            StrategyName::Pairing => Box::new(Pairing::new(rules, player)?),
            StrategyName::Tally => Box::new(TallyPlay::new(rules, player)?),
            StrategyName::Canonical => Box::new(Canonical::new(rules, player)?),
        })
    }
}

impl fmt::Display for StrategyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of a list of names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {name:?}: expected one of {known}")]
pub struct UnknownName {
    /// What was named: `strategy`, `player`.
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names accepted, comma-separated.
    pub known: String,
}

impl FromStr for StrategyName {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<StrategyName, UnknownName> {
        StrategyName::ALL
            .into_iter()
            .find(|s| s.as_str() == name)
            .ok_or_else(|| UnknownName {
                what: "strategy",
                name: name.to_string(),
                known: StrategyName::ALL.map(StrategyName::as_str).join(", "),
            })
    }
}

impl TryFrom<String> for StrategyName {
    type Error = UnknownName;

    fn try_from(name: String) -> Result<StrategyName, UnknownName> {
        name.parse()
    }
}

impl From<StrategyName> for String {
    fn from(name: StrategyName) -> String {
        name.as_str().to_string()
    }
}

#[cfg(feature = "cli")]
impl clap::ValueEnum for StrategyName {
    fn value_variants<'a>() -> &'a [StrategyName] {
        &StrategyName::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}
