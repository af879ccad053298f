//! The rules of Connect-k: board, moves, line detection and game end.

pub(crate) mod bits;
pub(crate) mod layout;
pub mod notation;
pub(crate) mod outcome;
pub(crate) mod perft;
pub(crate) mod position;
pub(crate) mod rules;
