//! The rules of Connect-k: board, moves, line detection and game end.

pub mod bits;
pub mod layout;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod rules;
