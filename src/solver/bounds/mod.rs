//! Bounds on a position's value from the strategies of the paper and of Allis: a player who
//! can follow a strategy that keeps the opponent from a line, or forces one, bounds the score
//! before any search.

pub(super) mod base_pairs;
pub(super) mod dated_loss;
pub(super) mod pairing;
pub(super) mod row_pairs;
