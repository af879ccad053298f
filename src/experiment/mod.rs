//! The experiments: Table I, the annulus and the size tables (sweeps of boards through one
//! runner), the UCI Connect-4 data set, the paper's claims, tournaments, opening books, the
//! benchmark sets and the hints' latency, run from specs, each writing its results through one export layer.

pub mod annulus;
pub mod bench;
pub mod book;
pub mod export;
pub mod hint_latency;
pub mod paper_checks;
pub mod provenance;
pub mod question;
pub mod shard;
pub mod sizes;
pub mod spec;
pub(crate) mod store;
pub mod sweep;
pub mod table1;
pub mod tournament;
pub mod uci_dataset;

/// An empty folder of this process's for a test, named after `name` (emptied if it exists).
#[cfg(test)]
pub(crate) fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("connectk-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
