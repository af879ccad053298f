//! The integration tests of the `connectk` binary, one module per file of `tests/`.
//!
//! One test binary per feature layer rather than one per file: each binary links the whole
//! crate and its dependencies, which thirty-one binaries did thirty-one times.

#[path = "../support/mod.rs"]
mod support;

#[path = "../book.rs"]
mod book;
#[path = "../cli.rs"]
mod cli;
#[path = "../hostile.rs"]
mod hostile;
#[path = "../play.rs"]
mod play;
#[path = "../quarto_cli.rs"]
mod quarto_cli;
#[path = "../readme.rs"]
mod readme;
#[path = "../serve_hostile.rs"]
mod serve_hostile;
#[path = "../tournament.rs"]
mod tournament;
