//! connectk: play, solve and check Connect-k games under normal and misère rules.
//!
//! The crate reads from the ground up: [`engine`](crate::Position) (rules, positions, lines),
//! the solver ([`Solver`]), the paper's [`strategy`] players and their checker ([`verify`]),
//! the [`arena`] where players meet, and the [`analysis`] of a game's positions: the research
//! core, which is all that `connectk = { default-features = false }` compiles. Features add the
//! layers above it: `experiments` (the sweeps and reports that write `results/`), `quarto`
//! (the second line game), `serve` (the web server) and `cli` (the `connectk` binary, which
//! needs them all; the default).
//!
//! ```
//! use connectk::{notation, GameResult, Mib, Player, Rules, Solver, Variant};
//! // Misère Connect 3 on a 3x3 board: the first player wins (Table I of Steele & Larremore).
//! let rules = Rules::new(3, 3, 3, Variant::Misere).unwrap();
//! let (pos, _) = notation::parse(rules, "").unwrap();
//! let value = Solver::new(Mib(1)).solve(&pos).value;
//! assert_eq!(value.result, GameResult::Win(Player::P1));
//! ```
#![deny(missing_docs)]

mod engine;
mod solver;

pub mod analysis;
pub mod arena;
pub mod strategy;
pub mod verify;

#[cfg(feature = "experiments")]
pub mod experiment;
#[cfg(feature = "quarto")]
pub mod quarto;
#[cfg(feature = "serve")]
pub mod serve;

pub use engine::bits::Bits;
pub use engine::layout::Symmetry;
pub use engine::notation;
pub use engine::outcome::{Cell, GameResult, Outcome, Player, Reason};
pub use engine::perft::positions_by_ply;
pub use engine::position::{Column, MoveError, Position};
pub use engine::rules::{
    MAX_BOARD_BITS, MAX_K, Rules, RulesError, Topology, UnknownTopology, UnknownVariant, Variant,
};
pub use solver::book::{self, Book, BookError};
pub use solver::reference;
pub use solver::{
    Budget, DEFAULT_ONE_ROW, DEFAULT_TABLE, Depth, Keeping, Method, Mib, MibError, MoveValue,
    Partial, Solution, Solver, UnknownRemoteness, Value, rank,
};

/// The names most programs start from, in one import (`use connectk::prelude::*;`): rules and
/// positions in the command line's notation, the solver and its values, the paper's strategies,
/// and the arena where players meet.
///
/// ```
/// use connectk::prelude::*;
/// // Take-even (P2) against the hard bot on misère Connect Four: it never loses (Theorem 1).
/// let rules = Rules::new(4, 7, 6, Variant::Misere).unwrap();
/// let perfect = PerfectSettings::default(); // used only when a player is `perfect`
/// let matchup = Matchup {
///     rules,
///     p1: PlayerName::Bot(Level::Hard),
///     p2: PlayerName::Strategy(StrategyName::TakeEven),
///     perfect: &perfect,
/// };
/// let records = play_match(matchup, 4, 1, || {}).unwrap();
/// assert_eq!(MatchCounts::of(&records).p1_wins, 0);
/// ```
pub mod prelude {
    pub use crate::arena::{
        GameRecord, Level, MatchCounts, Matchup, PerfectSettings, PlayerName, play_match,
    };
    pub use crate::strategy::StrategyName;
    pub use crate::verify::{Claim, Verdict, verify};
    pub use crate::{
        Depth, GameResult, Mib, Player, Position, Rules, Solver, Topology, Value, Variant, notation,
    };
}

/// The Rust examples of README.md, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
