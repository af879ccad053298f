//! Quarto: its own engine (rules, pieces, board, positions, notation, symmetries) and solver,
//! beside the Connect-k engine.
//!
//! ```
//! use connectk::quarto::{Rules, Solver, notation};
//! use connectk::{Depth, GameResult, Variant};
//! // On a 2x2 board with two attributes every pair of cells is a line. P2 places the first
//! // piece and hands over its complement; whatever P1 hands over next shares an attribute
//! // with one of them, and P2 completes a line with it on the fourth turn.
//! let rules = Rules::new(2, 2, None, Variant::Normal, false).unwrap();
//! let (pos, _) = notation::parse(rules, "").unwrap();
//! let value = Solver::new(rules, 1 << 20).solve(&pos, Depth::Strong).unwrap().value;
//! assert_eq!(value.result, GameResult::Win(connectk::Player::P2));
//! assert_eq!(value.remoteness, Some(4));
//! ```

pub mod arena;
pub(crate) mod board;
pub mod certificate;
pub mod check;
pub mod notation;
pub(crate) mod piece;
pub mod players;
pub(crate) mod position;
pub(crate) mod rules;
pub mod solver;
pub mod split;
pub mod sweep;
pub mod symmetry;
mod value;
pub mod values;

pub use board::Board;
pub use piece::{Cell, CellError, Piece, PieceError};
pub use position::{Outcome, PlayError, Position, Reason, Turn};
pub use rules::{Rules, RulesError};
pub use solver::{Analysis, Solution, Solver, TurnValue, Unfinished};
pub use value::value_text;
