//! What the paper "Misère Connect Four is Solved" (Steele & Larremore) claims, as data and
//! pure functions that other modules check against the solver and the strategies.

pub mod checks;
pub mod table1;
