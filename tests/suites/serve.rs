//! The integration tests of the web server's API and pages, one module per file of `tests/`.
//!
//! One test binary per feature layer rather than one per file: each binary links the whole
//! crate and its dependencies, which thirty-one binaries did thirty-one times.

#[path = "../support/mod.rs"]
mod support;

#[path = "../serve_api.rs"]
mod serve_api;
#[path = "../serve_browser.rs"]
mod serve_browser;
