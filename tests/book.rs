//! Opening books: every entry of small boards' books against brute-force minimax, solves with a
//! book against solves without, and the `book` subcommand end to end (resume, shards, damaged
//! and mismatched files).

use crate::support;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use connectk::analysis::column_values;
use connectk::arena::{PerfectSettings, PlayerName};
use connectk::experiment::book::{BookSpec, Coverage, build};
use connectk::strategy::MoveProof;
use connectk::{
    Book, Budget, Column, Depth, GameResult, Mib, Player, Position, Rules, Solver, Value, Variant,
};
use support::binary::connectk;
use support::brute::Grid;
use support::replay::replay;
use support::tree::against_every_reply;

/// Brute-force minimax values, with one memo per set of rules.
struct Brute {
    rules: Rules,
    memo: Option<HashMap<u128, i32>>,
}

impl Brute {
    fn new(rules: Rules) -> Brute {
        Brute {
            rules,
            memo: Some(HashMap::new()),
        }
    }

    /// The exact value of the unfinished position after `moves`.
    fn value(&mut self, moves: &[Column]) -> Value {
        let mut grid = Grid::new(self.rules);
        for column in moves {
            grid.drop_disc(column.index() as usize);
        }
        let score = grid.minimax(&mut self.memo);
        let plies = moves.len() as u32;
        Value::from_score(
            score,
            self.rules.cells(),
            plies,
            Player::to_move_after(plies),
        )
    }
}

/// Calls `visit` on every unfinished position with at most `plies` discs, each position and its
/// mirror image once, with moves that reach it.
fn each_position(rules: Rules, plies: u32, mut visit: impl FnMut(&Position, &[Column])) {
    let mut seen = HashSet::new();
    let mut stack = vec![(Position::new(rules), Vec::new())];
    while let Some((pos, moves)) = stack.pop() {
        if pos.is_over() || !seen.insert(pos.canonical_key().0) {
            continue;
        }
        visit(&pos, &moves);
        if pos.plies() < plies {
            for column in pos.legal_columns() {
                let mut next = moves.clone();
                next.push(column);
                stack.push((pos.played(column).unwrap(), next));
            }
        }
    }
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("connectk-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds the book of `spec` in `dir` and reads it back from its file.
fn built(spec: BookSpec, dir: &Path) -> Book {
    let out = dir.join(Book::file_name(spec.rules));
    let report = build(spec, &out, &|_| {}).unwrap();
    assert!(report.gave_up.is_empty());
    let book = Book::read_for(&out, spec.rules).unwrap();
    assert_eq!(book, report.book);
    book
}

fn spec(rules: Rules, plies: u32, coverage: Coverage, strong_from: u32) -> BookSpec {
    BookSpec {
        rules,
        plies,
        coverage,
        strong_from,
        node_limit: None,
        table: Mib(4),
        shard: None,
    }
}

/// Checks every entry of `book` against brute force; a complete book must hold every position.
fn check_every_entry(book: &Book, brute: &mut Brute, complete: bool) {
    let mut found = 0;
    each_position(book.rules(), book.plies(), |pos, moves| {
        let Some(stored) = book.value(pos) else {
            assert!(
                !complete,
                "{}: a complete book lacks {moves:?}",
                book.rules()
            );
            return;
        };
        found += 1;
        let exact = brute.value(moves);
        let expected = match stored.remoteness {
            Some(_) => exact,
            None => Value {
                remoteness: None,
                ..exact
            },
        };
        assert_eq!(stored, expected, "{} after {moves:?}", book.rules());
    });
    assert_eq!(found, book.len(), "{}: entries not reached", book.rules());
}

#[test]
#[ignore = "slow: builds complete 5x4 books and brute-forces them (67 s); run by .ci/run with --ignored"]
fn complete_books_of_5x4_hold_the_brute_force_values() {
    for variant in [Variant::Normal, Variant::Misere] {
        let rules = Rules::new(4, 5, 4, variant).unwrap();
        let dir = scratch(&format!("all-{variant}"));
        // Outcome only before ply 3, exact from there: both kinds of entry.
        let book = built(spec(rules, 7, Coverage::All, 3), &dir);
        let summary = book.summary();
        assert_eq!(summary.by_ply[..3], [1, 3, 13], "{rules}: positions by ply");
        assert_eq!(summary.strong, book.len() as u64 - 17);
        check_every_entry(&book, &mut Brute::new(rules), true);
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
#[ignore = "slow: builds player books and checks every position of their trees (63 s); run by .ci/run with --ignored"]
fn player_books_hold_a_best_move_for_every_position_their_player_meets() {
    for variant in [Variant::Normal, Variant::Misere] {
        let rules = Rules::new(4, 5, 4, variant).unwrap();
        let dir = scratch(&format!("players-{variant}"));
        let book = built(spec(rules, 9, Coverage::Players, 0), &dir);
        check_every_entry(&book, &mut Brute::new(rules), false);
        // Without any time to search, the perfect player of either side proves each of its
        // moves best from the book alone, whatever the opponent plays, up to ply 9.
        let settings =
            PerfectSettings::new(Mib(1), Some(Arc::new(book.clone())), Some(Duration::ZERO));
        for player in [Player::P1, Player::P2] {
            let mut perfect = PlayerName::Perfect
                .build(rules, player, 1, &settings)
                .unwrap();
            let mut moves_checked = 0;
            against_every_reply(rules, player, 9, &mut *perfect, |_, moves, _, p| {
                assert_eq!(p.last_proof(), Some(MoveProof::Best), "{rules} {moves:?}");
                moves_checked += 1;
            });
            assert!(
                moves_checked > 100,
                "{rules} {player}: {moves_checked} positions"
            );
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// A book of both players' trees with outcomes only keeps each player inside its tree: the
/// perfect player, with no time to search, meets only positions the book holds, whatever the
/// opponent plays, lost positions included (where every move keeps the value, and only the
/// move the build chose, never one that completes the mover's own line, leads on in the tree).
#[test]
fn a_perfect_player_never_leaves_its_tree_of_outcomes() {
    const PLIES: u32 = 10;
    for (k, width) in [(4, 5), (3, 5)] {
        let rules = Rules::new(k, width, 4, Variant::Misere).unwrap();
        let dir = scratch(&format!("stay-{k}-{width}"));
        let book = built(spec(rules, PLIES, Coverage::Players, PLIES + 1), &dir);
        let settings =
            PerfectSettings::new(Mib(1), Some(Arc::new(book.clone())), Some(Duration::ZERO));
        let mut lost = 0;
        for player in [Player::P1, Player::P2] {
            let mut perfect = PlayerName::Perfect
                .build(rules, player, 1, &settings)
                .unwrap();
            against_every_reply(rules, player, PLIES, &mut *perfect, |pos, moves, _, _| {
                let value = book.value(pos);
                assert!(
                    value.is_some(),
                    "{rules} {player}: left the tree at {moves:?}"
                );
                lost += usize::from(value.unwrap().result == GameResult::Win(player.other()));
            });
        }
        // Lost positions are where the choice matters: the test must meet some.
        assert!(lost > 0, "{rules}: no lost position met");
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// A book of hints answers every move's value at every position to its plies without a search
/// (the analysis behind `play`'s hint and the web page, with no time at all), its layer one ply
/// further holds only the moves of positions whose mover does not lose, and every entry is
/// brute force's.
#[test]
#[ignore = "slow: builds a book of hints and brute-forces it (55 s); run by .ci/run with --ignored"]
fn a_book_of_hints_settles_every_move_to_its_plies() {
    const PLIES: u32 = 6;
    for variant in [Variant::Normal, Variant::Misere] {
        let rules = Rules::new(4, 5, 4, variant).unwrap();
        let dir = scratch(&format!("hints-{variant}"));
        let book = built(spec(rules, PLIES, Coverage::Hints, u32::MAX), &dir);
        assert_eq!(book.plies(), PLIES + 1, "{rules}");
        check_every_entry(&book, &mut Brute::new(rules), false);
        let mut solver = Solver::new(Mib(1)).with_book(Arc::new(book.clone()));
        let (mut lost, mut layer) = (0, HashSet::new());
        each_position(rules, PLIES, |pos, moves| {
            let value = book.value(pos);
            assert!(value.is_some(), "{rules}: {moves:?} missing");
            let values = column_values(&mut solver, pos, Depth::Weak, Budget::time(Duration::ZERO));
            assert!(
                values.complete() && values.nodes == 0,
                "{rules} {moves:?}: {values:?}"
            );
            if pos.plies() < PLIES {
                return;
            }
            if value.unwrap().result == GameResult::Win(pos.to_move().other()) {
                lost += 1;
                return;
            }
            for column in pos.legal_columns() {
                let child = pos.played(column).unwrap();
                if !child.is_over() {
                    layer.insert(child.canonical_key().0);
                }
            }
        });
        // Lost positions at the last ply are where the layer saves: the test must meet some.
        assert!(lost > 0, "{rules}: no lost position at ply {PLIES}");
        let summary = book.summary();
        assert_eq!(
            summary.by_ply[PLIES as usize + 1],
            layer.len() as u64,
            "{rules}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// Where the book holds outcomes only, the perfect player takes its word: it plays a move
/// that keeps the value at once, proven to keep it only, and does not spend its budget looking
/// for the fastest win (the builder chose outcomes there because exact values cost too much).
#[test]
fn a_book_of_outcomes_is_played_from_without_searching_for_the_fastest_end() {
    let rules = Rules::new(4, 5, 4, Variant::Misere).unwrap();
    let dir = scratch("outcomes-only");
    let book = built(spec(rules, 4, Coverage::All, 5), &dir);
    let empty = Position::new(rules);
    // Several first moves keep the value: a search would be needed to tell the best one.
    let value = book.value(&empty).unwrap();
    let keeping = empty
        .legal_columns()
        .into_iter()
        .filter(|&c| book.value(&empty.played(c).unwrap()).unwrap().result == value.result)
        .count();
    assert!(keeping >= 2, "{keeping} moves keep the value");
    let settings = PerfectSettings::new(
        Mib(4),
        Some(Arc::new(book.clone())),
        Some(Duration::from_secs(60)),
    );
    let mut perfect = PlayerName::Perfect
        .build(rules, Player::P1, 1, &settings)
        .unwrap();
    let game = connectk::strategy::Game {
        position: &empty,
        moves: &[],
    };
    let column = perfect.choose(game).unwrap();
    assert_eq!(perfect.last_proof(), Some(MoveProof::KeepsValue));
    let after = book.value(&empty.played(column).unwrap()).unwrap();
    assert_eq!(after.result, value.result);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
#[ignore = "slow: builds books and solves with and without them (24 s); run by .ci/run with --ignored"]
fn solves_with_a_book_give_the_values_of_solves_without() {
    for variant in [Variant::Normal, Variant::Misere] {
        let rules = Rules::new(4, 5, 4, variant).unwrap();
        let dir = scratch(&format!("agree-{variant}"));
        // A weak book: exact solves take its outcomes as bounds inside their search.
        let book = built(spec(rules, 5, Coverage::All, 6), &dir);
        let mut with = Solver::new(Mib(4)).with_book(book.into());
        let mut brute = Brute::new(rules);
        for game in 0..40u64 {
            let choices: Vec<usize> = (0..20)
                .map(|i| (game * 7 + i * i * 3 + i) as usize)
                .collect();
            let (end, moves) = replay(rules, &choices);
            for plies in 0..end.plies() {
                let (pos, _) = replay(rules, &choices[..plies as usize]);
                let exact = brute.value(&moves[..plies as usize]);
                assert_eq!(
                    with.value(&pos, Depth::Strong),
                    exact,
                    "{rules} {moves:?} {plies}"
                );
            }
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// Runs the binary and returns its stdout, asserting success.
fn run_ok(args: &[&str]) -> String {
    let out = connectk(args, "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// Runs the binary expecting bad input: exit status 2 and `expected` on stderr.
fn run_refused(args: &[&str], expected: &str) {
    let out = connectk(args, "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

/// The board of the book the command-line test builds.
const BOARD: [&str; 6] = ["--rules", "misere", "--width", "4", "--height", "4"];

#[test]
fn the_book_subcommand_builds_resumes_merges_and_refuses_damaged_books() {
    let dir = scratch("cli");
    let file = dir.join("m44.ckbook");
    let path = file.to_str().unwrap();
    let first = build_book(&[], path);
    assert!(first.contains("wrote"), "{first}");
    let again = build_book(&[], path);
    assert!(again.contains(": 0 positions solved, "), "{again}");
    let bytes = std::fs::read(&file).unwrap();
    shards_merge_into_the_same_book(&dir, &bytes);
    let info = run_ok(&["book", "info", path]);
    assert!(
        info.contains("misere k=4 4x4, positions with up to 6 discs"),
        "{info}"
    );
    let lookup = run_ok(&["book", "lookup", path, "--moves", "12"]);
    assert!(
        lookup.contains("misere k=4 4x4 after \"12\": P"),
        "{lookup}"
    );
    // The book answers `solve` at once: no search nodes.
    let mut solve = vec![
        "solve",
        "--book",
        path,
        "--moves",
        "12",
        "--json",
        "--value-only",
    ];
    solve.extend(BOARD);
    let json: serde_json::Value = serde_json::from_str(&run_ok(&solve)).unwrap();
    assert_eq!(json["nodes"], 0);
    run_refused(
        &["solve", "--width", "4", "--height", "4", "--book", path],
        "was made for misere k=4 4x4, not for normal k=4 4x4",
    );
    damaged_books_are_refused(&dir, &bytes);
    hint_books_merge_with_exact_ones(&dir, &file);
    a_csv_that_contradicts_the_book_is_refused(&dir, &file);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Runs `connectk book build` of the test's board to 6 plies into `out`, with `extra`.
fn build_book(extra: &[&str], out: &str) -> String {
    let mut args = vec!["book", "build"];
    args.extend(BOARD);
    args.extend(["--plies", "6", "--cover", "all", "--out", out]);
    args.extend(extra);
    run_ok(&args)
}

/// Two shards of the build and their merge make the same book, byte for byte, as `bytes`.
fn shards_merge_into_the_same_book(dir: &Path, bytes: &[u8]) {
    let merged = dir.join("merged.ckbook");
    let merged_path = merged.to_str().unwrap();
    for shard in ["1/2", "2/2"] {
        build_book(&["--shard", shard], merged_path);
    }
    let mut args = vec!["book", "merge"];
    args.extend(BOARD);
    let shards = [
        dir.join("merged.shard-1-of-2.csv"),
        dir.join("merged.shard-2-of-2.csv"),
    ];
    let shard_paths: Vec<&str> = shards.iter().map(|p| p.to_str().unwrap()).collect();
    args.extend(["--out", merged_path]);
    args.extend(&shard_paths);
    run_ok(&args);
    assert_eq!(std::fs::read(&merged).unwrap(), bytes);
}

/// A truncated book, a flipped bit and a missing file are each refused, naming the problem.
fn damaged_books_are_refused(dir: &Path, bytes: &[u8]) {
    let truncated = dir.join("truncated.ckbook");
    std::fs::write(&truncated, &bytes[..bytes.len() - 3]).unwrap();
    run_refused(
        &["book", "info", truncated.to_str().unwrap()],
        "is truncated or padded",
    );
    let mut flipped = bytes.to_vec();
    flipped[50] ^= 0x10;
    std::fs::write(&truncated, &flipped).unwrap();
    run_refused(
        &[
            "arena",
            "--p1",
            "perfect",
            "--p2",
            "random",
            "--book",
            truncated.to_str().unwrap(),
        ],
        "is corrupted",
    );
    run_refused(
        &["book", "info", "/no/such/book"],
        "cannot access book /no/such/book",
    );
}

/// A book of hints built with `--weak` holds outcomes only (its layer one ply past `--plies`
/// included), and merges with the exact book `file`, whose exact entries are kept.
fn hint_books_merge_with_exact_ones(dir: &Path, file: &Path) {
    let path = file.to_str().unwrap();
    let hints = dir.join("hints.ckbook");
    let mut args = vec!["book", "build"];
    args.extend(BOARD);
    args.extend(["--plies", "4", "--cover", "hints", "--weak"]);
    args.extend(["--out", hints.to_str().unwrap()]);
    run_ok(&args);
    let info = run_ok(&["book", "info", hints.to_str().unwrap()]);
    assert!(info.contains("positions with up to 5 discs"), "{info}");
    assert!(info.contains("(0 exact, "), "{info}");
    let exact = Book::read(file).unwrap();
    let union = dir.join("union.ckbook");
    let mut args = vec!["book", "merge"];
    args.extend(BOARD);
    args.extend(["--out", union.to_str().unwrap()]);
    args.extend([hints.to_str().unwrap(), path]);
    run_ok(&args);
    let union = Book::read(&union).unwrap();
    let weak = Book::read(&hints).unwrap();
    assert!(union.len() >= exact.len().max(weak.len()));
    assert_eq!(union.summary().strong, exact.summary().strong);
    each_position(exact.rules(), 6, |pos, _| {
        if let Some(value) = exact.value(pos) {
            assert_eq!(union.value(pos), Some(value));
        } else {
            assert_eq!(union.value(pos), weak.value(pos));
        }
    });
}

/// A CSV that gives the empty board another outcome than the book `file` does is refused,
/// and nothing is written.
fn a_csv_that_contradicts_the_book_is_refused(dir: &Path, file: &Path) {
    let path = file.to_str().unwrap();
    let rows = std::fs::read_to_string(file.with_extension("rows.csv")).unwrap();
    let mut lines = rows.lines();
    let header = lines.next().unwrap();
    // The row of the empty board: its moves (the second field) are none.
    let empty = lines.find(|row| row.split(',').nth(1) == Some("")).unwrap();
    let lie = empty.replace(",P2,", ",P1,");
    assert_ne!(lie, empty, "the empty misère 4x4 board is a P2 win");
    let liar = dir.join("liar.rows.csv");
    std::fs::write(&liar, format!("{header}\n{lie}\n")).unwrap();
    let mut args = vec!["book", "merge"];
    args.extend(BOARD);
    let refused = dir.join("refused.ckbook");
    args.extend([
        "--out",
        refused.to_str().unwrap(),
        path,
        liar.to_str().unwrap(),
    ]);
    run_refused(&args, "two books disagree on a position of ply 0");
    assert!(!refused.exists());
}

#[test]
fn a_solver_keeps_one_book_per_rule_set() {
    let normal = Rules::new(4, 5, 4, Variant::Normal).unwrap();
    let misere = Rules::new(4, 5, 4, Variant::Misere).unwrap();
    // Made-up entries for the empty boards (a solver takes a book as it is): a draw claimed
    // for each, then a P2 win claimed for normal in a second book of the same rules.
    let claim = |rules: Rules, result| {
        let value = Value {
            result,
            remoteness: None,
        };
        Arc::new(Book::from_values(rules, [(Position::new(rules), value)]))
    };
    let mut solver = Solver::new(Mib(1))
        .with_book(claim(normal, connectk::GameResult::Draw))
        .with_book(claim(misere, connectk::GameResult::Draw));
    for rules in [normal, misere] {
        let value = solver.value(&Position::new(rules), Depth::Weak);
        assert_eq!(value.result, connectk::GameResult::Draw, "{rules}");
        assert_eq!(solver.book(rules).unwrap().rules(), rules);
    }
    let p2 = connectk::GameResult::Win(Player::P2);
    let mut solver = solver.with_book(claim(normal, p2));
    assert_eq!(solver.value(&Position::new(normal), Depth::Weak).result, p2);
    let value = solver.value(&Position::new(misere), Depth::Weak);
    assert_eq!(value.result, connectk::GameResult::Draw);
    let other = Rules::new(4, 5, 5, Variant::Normal).unwrap();
    assert!(solver.book(other).is_none());
}

/// How good `value` is for `mover`, with `plies` more moves before it applies: a win sooner
/// is better, a loss later is better, and values without remoteness compare by result alone.
fn merit(value: Value, mover: Player, plies: u32) -> (u8, i64) {
    let remoteness = value.remoteness.map_or(0, |r| i64::from(r + plies));
    match value.result {
        connectk::GameResult::Win(p) if p == mover => (2, -remoteness),
        connectk::GameResult::Draw => (1, 0),
        _ => (0, remoteness),
    }
}

/// An entry of a book reached from the empty board through entries of the book, with what the
/// book says about each of its moves: the value of a move that ends the game, or the stored
/// value of the position it leads to (`None` when the book does not hold it).
struct Reached {
    pos: Position,
    stored: Value,
    moves: Vec<Option<Value>>,
}

/// Every entry of `book` reachable from the empty board through entries of the book (a book
/// that holds the values of the first moves need not hold the empty board itself).
fn reachable_entries(book: &Book) -> Vec<Reached> {
    let mut seen = HashSet::new();
    let mut stack = vec![Position::new(book.rules())];
    let mut reached = Vec::new();
    while let Some(pos) = stack.pop() {
        if !seen.insert(pos.canonical_key().0) {
            continue;
        }
        let mut moves = Vec::new();
        for column in pos.legal_columns() {
            let child = pos.played(column).unwrap();
            let value = match child.outcome() {
                Some(outcome) => Some(Value {
                    result: outcome.result,
                    remoteness: Some(0),
                }),
                None => book.value(&child),
            };
            if value.is_some() && !child.is_over() {
                stack.push(child);
            }
            moves.push(value);
        }
        if let Some(stored) = book.value(&pos) {
            reached.push(Reached { pos, stored, moves });
        }
    }
    reached
}

/// The committed books are sound: each entry is consistent with the entries of its moves
/// (where the book holds every move, the entry is their minimax; where it holds some, none is
/// better than the entry), and a sample of the entries whose moves the book does not hold (the
/// ends of its trees, where the induction starts) agrees with a fresh solve.
#[test]
#[ignore = "slow: solves a sample of the committed books (48 s); run by .ci/run with --ignored"]
fn committed_books_agree_with_the_solver_on_a_sample() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("books");
    let mut checked_books = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path
            .extension()
            .is_none_or(|e| e != connectk::book::EXTENSION)
        {
            continue;
        }
        let book = Book::read(&path).unwrap();
        let name = path.display();
        assert_eq!(
            path.file_name().unwrap().to_str().unwrap(),
            Book::file_name(book.rules()),
            "a default book's name says its rules"
        );
        let reached = reachable_entries(&book);
        assert_eq!(reached.len(), book.len(), "{name}: entries not reached");
        let mut ends = Vec::new();
        for Reached { pos, stored, moves } in &reached {
            let mover = pos.to_move();
            let known: Vec<Value> = moves.iter().flatten().copied().collect();
            let Some(best) = known.iter().map(|v| merit(*v, mover, 1)).max() else {
                ends.push((*pos, *stored));
                continue;
            };
            let claimed = merit(*stored, mover, 0);
            let every_move_known = known.len() == moves.len();
            let exact = stored.remoteness.is_some() && known.iter().all(|v| v.remoteness.is_some());
            let pos = pos.diagram();
            if every_move_known && exact {
                assert_eq!(claimed, best, "{name}: not the minimax of its moves\n{pos}");
            } else if every_move_known {
                assert_eq!(
                    claimed.0, best.0,
                    "{name}: not the minimax of its moves\n{pos}"
                );
            } else {
                assert!(
                    claimed.0 >= best.0,
                    "{name}: a move is better than the entry\n{pos}"
                );
            }
        }
        // About 12 of the tree ends, spread over the book, against a fresh solve.
        assert!(!ends.is_empty(), "{name}");
        let mut solver = Solver::new(Mib(64));
        for (pos, stored) in ends.iter().step_by((ends.len() / 12).max(1)) {
            let depth = if stored.remoteness.is_some() {
                Depth::Strong
            } else {
                Depth::Weak
            };
            let solved = solver.value(pos, depth);
            assert_eq!(stored.result, solved.result, "{name}\n{}", pos.diagram());
            if depth == Depth::Strong {
                assert_eq!(*stored, solved, "{name}\n{}", pos.diagram());
            }
        }
        checked_books += 1;
    }
    assert!(checked_books > 0, "books/ holds the default books");
}

/// The default books (`books/`, found from the package root where tests run) are flat: a solve
/// or a perfect player on a cylinder of the same size takes none of them, quietly, while a
/// book named with `--book` for other rules is still refused.
#[test]
fn a_cylinder_takes_no_flat_default_book_and_a_named_one_is_refused() {
    assert!(Path::new("books/normal-k4-7x6.ckbook").is_file());
    for (rules, value) in [
        ("normal", "P1 wins in 3 plies"),
        ("misere", "P2 wins in 23 plies"),
    ] {
        let board = ["--rules", rules, "--topology", "cylinder"];
        let solved = run_ok(&[&["solve", "--moves", "44444433"], &board[..]].concat());
        assert!(solved.contains(value), "{rules}: {solved}");
        let alone = run_ok(&[&["solve", "--moves", "44444433", "--no-book"], &board[..]].concat());
        assert_eq!(solved.lines().next(), alone.lines().next(), "{rules}");
        let small = [&board[..], &["--width", "6", "--height", "5"]].concat();
        run_ok(
            &[
                &["arena", "--p1", "random", "--p2", "perfect", "--games", "1"],
                &small[..],
            ]
            .concat(),
        );
        let dir = scratch(&format!("cylinder-{rules}"));
        let out = dir.display().to_string();
        let games = [
            "--players",
            "random,perfect",
            "--games",
            "1",
            "--out-dir",
            &out,
        ];
        run_ok(&[&["tournament"], &games[..], &small[..]].concat());
        let quit = connectk(
            &[&["play", "--opponent", "perfect"], &small[..]].concat(),
            "quit\n",
        );
        assert_eq!(quit.status.code(), Some(0), "{rules}: {quit:?}");
        std::fs::remove_dir_all(dir).unwrap();
    }
    run_refused(
        &[
            "solve",
            "--topology",
            "cylinder",
            "--moves",
            "44444433",
            "--book",
            "books/normal-k4-7x6.ckbook",
        ],
        "was made for normal k=4 7x6, not for normal k=4 7x6 cylinder",
    );
}

/// A book built on a cylinder says so in its file: it reads back as a cylinder book, serves
/// solves on the cylinder, and is refused for the flat board of the same size.
#[test]
fn a_cylinder_book_keeps_its_topology() {
    let dir = scratch("ring");
    let file = dir.join("ring.ckbook");
    let book = file.display().to_string();
    let board = ["--width", "4", "--height", "4"];
    let ring = [&board[..], &["--topology", "cylinder"]].concat();
    let build = [
        "book", "build", "--plies", "2", "--cover", "all", "--out", &book,
    ];
    run_ok(&[&build[..], &ring[..]].concat());
    let info = run_ok(&["book", "info", &book]);
    assert!(info.contains("normal k=4 4x4 cylinder"), "{info}");
    let with = run_ok(&[&["solve", "--moves", "12", "--book", &book], &ring[..]].concat());
    let without = run_ok(&[&["solve", "--moves", "12", "--no-book"], &ring[..]].concat());
    assert_eq!(with.lines().next(), without.lines().next());
    run_refused(
        &[&["solve", "--book", &book], &board[..]].concat(),
        "was made for normal k=4 4x4 cylinder, not for normal k=4 4x4",
    );
    std::fs::remove_dir_all(dir).unwrap();
}
