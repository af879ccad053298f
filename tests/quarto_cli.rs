//! End-to-end checks of `connectk quarto`: output, exit codes and one-line errors.

use crate::support;

use std::process::Output;

/// Runs `connectk quarto ARGS` with `stdin`.
fn quarto(args: &[&str], stdin: &str) -> Output {
    let all: Vec<&str> = std::iter::once("quarto")
        .chain(args.iter().copied())
        .collect();
    support::binary::connectk(&all, stdin)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn show_draws_the_board_and_a_finished_line() {
    let out = quarto(
        &["show", "--moves", "LSRF a1:LSRH b1:LSQF c1:DTQH a2:LTRF d1"],
        "",
    );
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.contains("[LSRF][LSRH][LSQF][LTRF]"), "{stdout}");
    assert!(
        stdout.contains("P2 wins: P2 completed a line at a1 b1 c1 d1"),
        "{stdout}"
    );
}

#[test]
fn bad_input_is_one_line_and_exit_status_2() {
    for (args, expected) in [
        (
            vec!["show", "--moves", "LSRF a1:DTQH a1:LTRF"],
            "turn 3 (\"a1:LTRF\" at character 14): cell a1 is taken",
        ),
        (vec!["show", "--moves", "LSRF a1:DTQX"], "piece letter 4"),
        (vec!["solve", "--size", "5"], "board size 5 is out of range"),
        (
            vec!["solve", "--criteria", "0,weight"],
            "criterion \"weight\"",
        ),
        (
            vec!["solve", "--attributes", "2", "--criteria", "3"],
            "numbers 0 to 1",
        ),
        (
            vec!["split", "--csv", "x.csv", "--shard", "3/2"],
            "bad shard",
        ),
    ] {
        let out = quarto(&args, "");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn solve_prints_outcome_and_remoteness_as_json() {
    let out = quarto(&["solve", "--size", "3", "--attributes", "3", "--json"], "");
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["outcome"], "P2");
    assert_eq!(json["remoteness"], 6);
    let out = quarto(
        &["solve", "--size", "2", "--attributes", "2", "--analyze"],
        "",
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("P2 wins in 4 turns"), "{stdout}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("  ")).count(),
        4,
        "{stdout}"
    );
}

#[test]
fn a_split_solve_resumes_and_merges_to_the_direct_value() {
    let dir = std::env::temp_dir().join(format!("connectk-quarto-split-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("openings.csv");
    let csv = csv.to_str().unwrap();
    let board = ["--size", "3", "--attributes", "4", "--rules", "misere"];
    let split = |shard: &str| {
        let args: Vec<&str> = [
            &[
                "split",
                "--turns",
                "2",
                "--table-mb",
                "8",
                "--csv",
                csv,
                "--shard",
                shard,
            ][..],
            &board[..],
        ]
        .concat();
        text(&quarto(&args, "").stdout)
    };
    assert!(split("1/2").contains("12 positions, 6 in this shard: 0 already"));
    assert!(split("1/2").contains("6 already"));
    let merge_args: Vec<&str> = [&["merge", "--turns", "2", csv][..], &board[..]].concat();
    assert!(
        text(&quarto(&merge_args, "").stdout).contains("not known yet (6 of 12 positions solved)")
    );
    split("2/2");
    let merged = text(&quarto(&merge_args, "").stdout);
    assert!(merged.contains("**P1 wins in 8 turns**"), "{merged}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn arena_and_play_run_seeded_games() {
    let args = [
        "arena",
        "--size",
        "3",
        "--attributes",
        "3",
        "--p1",
        "random",
        "--p2",
        "careful",
        "--games",
        "50",
    ];
    let a = quarto(&args, "");
    assert!(a.status.success());
    assert_eq!(text(&a.stdout), text(&quarto(&args, "").stdout));
    // A bad turn gets its reason and another try; then quit.
    let out = quarto(
        &["play", "--size", "2", "--attributes", "2", "--seed", "3"],
        "a1:LS\nLS\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("the opening turn places nothing"),
        "{stdout}"
    );
    assert!(stdout.contains("careful plays"), "{stdout}");
}

#[test]
fn a_proof_asks_only_what_it_needs_and_a_rerun_asks_nothing() {
    let dir = std::env::temp_dir().join(format!("connectk-quarto-prove-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("bounds.csv");
    let args = [
        "prove",
        "--size",
        "3",
        "--attributes",
        "3",
        "--rules",
        "misere",
        "--turns",
        "3",
        "--table-mb",
        "8",
        "--csv",
        csv.to_str().unwrap(),
    ];
    let first = text(&quarto(&args, "").stdout);
    assert!(first.contains("**draw (9 turns)**"), "{first}");
    let again = text(&quarto(&args, "").stdout);
    assert!(again.contains("**draw (9 turns)**"), "{again}");
    let searches = |s: &str| {
        s.lines()
            .last()
            .unwrap()
            .split('|')
            .nth(2)
            .unwrap()
            .trim()
            .to_string()
    };
    assert_ne!(searches(&first), "0", "{first}");
    assert_eq!(searches(&again), "0", "{again}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A shard's `--known` folder must exist and hold only CSVs of bounds: anything else is bad
/// input (exit 2, one line naming the folder or the file), and the shard's own CSV is left
/// as it was.
#[test]
fn a_shard_refuses_a_known_folder_it_cannot_use() {
    let dir = std::env::temp_dir().join(format!("connectk-quarto-known-{}", std::process::id()));
    let known = dir.join("known");
    std::fs::create_dir_all(&known).unwrap();
    std::fs::write(known.join("other.csv"), "index,key\n0,x\n").unwrap();
    let own = dir.join("own.csv");
    let missing = dir.join("missing");
    for (folder, named) in [(&missing, "missing"), (&known, "other.csv")] {
        let args = [
            "prove",
            "--size",
            "2",
            "--attributes",
            "2",
            "--table-mb",
            "1",
            "--shard",
            "1/2",
            "--known",
            folder.to_str().unwrap(),
            "--csv",
            own.to_str().unwrap(),
        ];
        let out = quarto(&args, "");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(named), "{stderr}");
        assert!(!own.exists() || std::fs::read(&own).unwrap().is_empty());
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// `certify` writes a certificate (version 3 by default, 1 on request) that `check-proof`
/// accepts (exit 0); a certificate claiming the wrong winner is refuted (exit 1, with the
/// reason), and a file that is not a certificate, has an entry out of canonical form or
/// cannot be read is bad input (exit 2, one line naming the line or the file), as is a format
/// `certify` does not know.
#[test]
fn check_proof_accepts_refutes_and_refuses_by_exit_status() {
    let dir = std::env::temp_dir().join(format!("connectk-quarto-proof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    let good_path = good.to_str().unwrap();
    let args = [
        "certify",
        "--size",
        "2",
        "--attributes",
        "2",
        "--rules",
        "misere",
        "--out",
        good_path,
    ];
    let out = quarto(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&good).unwrap();
    assert!(written.starts_with("quarto-certificate 3\n"), "{written}");
    let old = dir.join("old.txt");
    let mut old_args = args.to_vec();
    old_args[8] = old.to_str().unwrap();
    old_args.extend(["--format", "1"]);
    assert!(quarto(&old_args, "").status.success());
    assert!(
        std::fs::read_to_string(&old)
            .unwrap()
            .starts_with("quarto-certificate 1\n")
    );
    let mut unknown = args.to_vec();
    unknown.extend(["--format", "4"]);
    let out = quarto(&unknown, "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).lines().count(),
        1,
        "{}",
        text(&out.stderr)
    );
    let variant = |name: &str, from: &str, to: &str| {
        assert!(written.contains(from), "{written}");
        let path = dir.join(name);
        std::fs::write(&path, written.replacen(from, to, 1)).unwrap();
        path
    };
    let wrong_claim = variant("wrong-claim.txt", "claim P2", "claim P1");
    let broken = variant("broken.txt", "rules 2 2", "rules 2 x");
    let moved = variant("moved.txt", "\n.... LS ", "\n.... DT ");
    let missing = dir.join("missing.txt");
    let cases = [
        (
            good.as_path(),
            0,
            "proof accepted: misere 2x2, 2 attributes: P2",
        ),
        (wrong_claim.as_path(), 1, "refuted"),
        (
            old.as_path(),
            0,
            "proof accepted: misere 2x2, 2 attributes: P2",
        ),
        (broken.as_path(), 2, "line 2"),
        (moved.as_path(), 2, "canonical"),
        (missing.as_path(), 2, "cannot read"),
    ];
    for (path, status, expected) in cases {
        let out = quarto(&["check-proof", path.to_str().unwrap()], "");
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(status), "{path:?}: {said}");
        assert_eq!(said.lines().count(), 1, "{path:?}: {said}");
        assert!(said.contains(expected), "{path:?}: {said}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
