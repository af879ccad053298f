//! The integration tests of Quarto's solver, symmetries and proof certificates, one module per
//! file of `tests/`, with the plain minimax of `tests/quarto_support/` they all check against
//! compiled once.

#[path = "../quarto_support/mod.rs"]
mod quarto_support;

#[path = "../quarto_certificate.rs"]
mod quarto_certificate;
#[path = "../quarto_solver.rs"]
mod quarto_solver;
#[path = "../quarto_symmetry.rs"]
mod quarto_symmetry;
