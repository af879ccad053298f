//! The integration tests of Quarto, one module per file of `tests/`.
//!
//! One test binary per feature layer rather than one per file: each binary links the whole
//! crate and its dependencies, which thirty-one binaries did thirty-one times.

#[path = "../quarto_solver.rs"]
mod quarto_solver;
#[path = "../quarto_symmetry.rs"]
mod quarto_symmetry;
