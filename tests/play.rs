//! `connectk play` end to end through piped input: a scripted game, refused input, hints, the
//! end of input and a bot that cannot play its side.

use crate::support;

use std::process::Output;

fn play(args: &[&str], stdin: &str) -> Output {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    support::binary::connectk(&all, stdin)
}

/// Misère 4x4 against take-even, which always answers on top of the last disc.
const SMALL: &[&str] = &[
    "--rules",
    "misere",
    "--width",
    "4",
    "--height",
    "4",
    "--opponent",
    "take-even",
    "--seed",
    "1",
];

#[test]
fn a_scripted_game_refuses_a_full_column_and_plays_to_the_end() {
    // 1 1 1 1 fills column 1; the third "1" is refused and "2" is played instead. The last X
    // in column 4 completes the bottom row, so X (you) loses under misère rules.
    let out = play(SMALL, "1\n1\n1\n2\n2\n3\n3\n4\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let refused = stdout
        .find("refused: column 1 is full")
        .expect("full column refused");
    let accepted = stdout[refused..]
        .find("take-even plays column 2")
        .expect("next line accepted");
    assert!(accepted > 0);
    assert!(stdout.contains("[X][X][X][X]"), "{stdout}");
    assert!(
        stdout.contains("game over: P2 wins: P1 completed a line at 1:1 2:1 3:1 4:1"),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with("take-even wins"), "{stdout}");
}

#[test]
fn hint_values_every_column_and_bad_words_are_refused() {
    let out = play(SMALL, "hint\nfive\n0\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    for column in 1..=4 {
        assert!(stdout.contains(&format!("  column {column}: ")), "{stdout}");
    }
    assert!(stdout.contains("refused: \"five\" is not a move: type a column number 1-4"));
    assert!(stdout.contains("refused: no column 0: columns are numbered 1 to 4"));
    // Input ends before the game does: status 1 and a message.
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("input ended before the game was over"));
}

#[test]
fn hint_answers_within_its_budget_on_the_empty_standard_board_and_quit_leaves() {
    // A hint at any ply: 7x6 from the empty board in 100 ms, every column named, each one
    // valued or "not settled" (never a guess; its values are checked in analysis::columns).
    let out = play(
        &[
            "--opponent",
            "hard",
            "--seed",
            "1",
            "--hint-ms",
            "100",
            "--no-book",
        ],
        "hint\nquit\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    for column in 1..=7 {
        assert!(stdout.contains(&format!("  column {column}: ")), "{stdout}");
    }
    assert!(stdout.contains("you quit after 0 plies"));
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_bot_that_cannot_play_its_side_is_refused() {
    let out = play(
        &[
            "--rules",
            "misere",
            "--opponent",
            "take-even",
            "--first",
            "bot",
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("take-even does not apply"), "{stderr}");
    assert!(stderr.contains("as P1: it is played by P2"), "{stderr}");
}
