//! The integration tests of the experiments' sweeps, checks and data set, one module per file of
//! `tests/`.
//!
//! One test binary per feature layer rather than one per file: each binary links the whole
//! crate and its dependencies, which thirty-one binaries did thirty-one times.

#[path = "../support/mod.rs"]
mod support;

#[path = "../cylinder.rs"]
mod cylinder;
#[path = "../paper_checks.rs"]
mod paper_checks;
#[path = "../question.rs"]
mod question;
#[path = "../uci_dataset.rs"]
mod uci_dataset;
