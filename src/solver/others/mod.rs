//! The solvers beside the main search: the one-row solver, the reference solver for standard
//! Connect Four, and plain minimax for the unit tests.

#[cfg(test)]
pub(super) mod plain;
pub mod reference;
pub(super) mod strip;
pub(super) mod sums;
