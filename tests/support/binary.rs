//! Running the `connectk` binary in end-to-end tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the binary with `args`, feeds it `stdin`, and waits for it to finish.
pub fn connectk(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_connectk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin accepts input");
    child.wait_with_output().expect("the binary finishes")
}
