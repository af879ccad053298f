//! Shared helpers for the integration tests.
//!
//! Each test crate uses only part of this module, so unused items are allowed here.
#![allow(dead_code)]

#[cfg(feature = "cli")]
pub mod binary;
pub mod brute;
pub mod replay;
pub mod tree;
