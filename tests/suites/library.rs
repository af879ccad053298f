//! The integration tests of the research core (the library without features), one module per file
//! of `tests/`.
//!
//! One test binary per feature layer rather than one per file: each binary links the whole
//! crate and its dependencies, which thirty-one binaries did thirty-one times.

#[path = "../support/mod.rs"]
mod support;

#[path = "../arena.rs"]
mod arena;
#[path = "../bench_data.rs"]
mod bench_data;
#[path = "../brute_force.rs"]
mod brute_force;
#[path = "../budget.rs"]
mod budget;
#[path = "../canonical.rs"]
mod canonical;
#[path = "../delayed_take_even.rs"]
mod delayed_take_even;
#[path = "../known_values.rs"]
mod known_values;
#[path = "../pairing.rs"]
mod pairing;
#[path = "../parallel.rs"]
mod parallel;
#[path = "../perfect.rs"]
mod perfect;
#[path = "../perft.rs"]
mod perft;
#[path = "../properties.rs"]
mod properties;
#[path = "../reference.rs"]
mod reference;
#[path = "../strategy_properties.rs"]
mod strategy_properties;
#[path = "../strip.rs"]
mod strip;
#[path = "../take_even.rs"]
mod take_even;
#[path = "../tally.rs"]
mod tally;
