//! Build-time facts: the commit the binary is built from (recorded in every results folder)
//! and whether the UCI Connect-4 data set lies beside the repository (tests that need it are
//! then run; otherwise they are reported as ignored, with the reason).

use std::path::Path;
use std::process::Command;

/// Where the tests look for the data set, relative to the package.
const UCI_DATA: &str = "../shared/data/uci-connect-4/connect-4.data";

fn main() {
    println!("cargo::rustc-check-cfg=cfg(uci_data)");
    println!("cargo::rerun-if-changed={UCI_DATA}");
    // A changed source may make the work tree modified (or clean again).
    println!("cargo::rerun-if-changed=src");
    if Path::new(UCI_DATA).is_file() {
        println!("cargo::rustc-cfg=uci_data");
    }
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .and_then(|out| String::from_utf8(out.stdout).ok())
            .map(|text| text.trim().to_string())
    };
    // Git names these files: in a linked worktree `.git` is a file and HEAD lives elsewhere,
    // and a path that does not exist would make cargo rerun this script on every build.
    for (args, fallback) in [
        (["rev-parse", "--git-path", "HEAD"], ".git/HEAD"),
        (["rev-parse", "--git-path", "refs/heads"], ".git/refs/heads"),
    ] {
        let path = git(&args).unwrap_or_else(|| fallback.to_string());
        println!("cargo::rerun-if-changed={path}");
    }
    // `-modified` marks a binary built from sources with uncommitted changes (results files
    // being rewritten do not count: they are what binaries write, not what they are made of).
    let modified = git(&[
        "status",
        "--porcelain",
        "--",
        "src",
        "build.rs",
        "Cargo.toml",
        "Cargo.lock",
    ])
    .is_some_and(|changes| !changes.is_empty());
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) if !hash.is_empty() && modified => format!("{hash}-modified"),
        Some(hash) if !hash.is_empty() => hash,
        _ => "unknown".to_string(),
    };
    println!("cargo::rustc-env=CONNECTK_COMMIT={commit}");
}
