//! The UCI Connect-4 data set (Tromp, 1995; "UCI" names the machine-learning repository that
//! keeps it) against the weak solver: parsing, checking, reports.
//!
//! The data set lists every 8-ply position of standard 7x6 Connect Four in which neither player
//! has a line or an immediate win, with its normal-rules value for the first player. Each line
//! is parsed into a [`Position`](crate::Position) with a move order that reaches it
//! ([`parse_line`]), weak-solved and compared ([`check::run`]), and the results are summarised
//! in Markdown ([`report::markdown`]).

mod check;
mod parse;
mod ranges;
mod report;

pub use check::{Row, Selection, SelectionError, Store, run};
pub use parse::{Example, LineError, Problem, parse_line};
pub use report::{RunInfo, markdown};

/// Lines in the complete data set.
pub const LINES: usize = 67_557;
