//! The solvers beside the main search: the one-row solver with the sums of games it asks
//! under misère rules, the reference solver for standard Connect Four, and plain minimax for
//! the unit tests.

#[cfg(test)]
pub(super) mod plain;
pub mod reference;
mod row_cells;
pub(super) mod strip;
pub(super) mod sums;
