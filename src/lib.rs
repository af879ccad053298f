//! connectk: play, solve and check Connect-k games under normal and misère rules.
//!
//! ```
//! use connectk::{notation, GameResult, Player, Rules, Solver, Variant};
//! // Misère Connect 3 on a 3x3 board: the first player wins (Table I of Steele & Larremore).
//! let rules = Rules::new(3, 3, 3, Variant::Misere).unwrap();
//! let (pos, _) = notation::parse(rules, "").unwrap();
//! let value = Solver::new(1 << 20).solve(&pos).value;
//! assert_eq!(value.result, GameResult::Win(Player::P1));
//! ```
#![deny(missing_docs)]

pub mod arena;
pub mod engine;
pub mod paper;
pub mod quarto;
pub mod reference;
pub mod solver;
pub mod store;
pub mod strategy;
pub mod sweep;
pub mod uci;
pub mod verify;

pub use engine::bits::Bits;
pub use engine::notation;
pub use engine::outcome::{Cell, GameResult, Outcome, Player, Reason};
pub use engine::position::{Column, MoveError, Position};
pub use engine::rules::{Rules, RulesError, Variant};
pub use solver::{Depth, Solution, Solver, Value};
