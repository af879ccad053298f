//! `question`: a yes-or-no question about the empty board split into searches a few plies
//! down, held against brute-force minimax (written apart from the solver) for every ply,
//! both players and several depths, and resumed from its answers after being cut short.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::Duration;

use connectk::experiment::question::{AnswerRow, Asked, Progress, Question, Split, ask, known_in};
use connectk::{GameResult, Mib, Player, Position, Rules, Solver, Variant, notation};

use crate::support::brute::Grid;

/// A fresh CSV path of its own for one question.
fn fresh(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "connectk-question-{}-{name}.csv",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// The brute-force score (solver convention: cells + 1 - q for a win on ply q, its negation
/// for a loss, 0 for a draw) of the position after `moves`, for its side to move.
fn brute_score(rules: Rules, moves: &str) -> i32 {
    let mut grid = Grid::new(rules);
    let (_, columns) = notation::parse(rules, moves).unwrap();
    for column in columns {
        grid.drop_disc(column.index() as usize);
    }
    grid.minimax(&mut Some(HashMap::new()))
}

/// The answers kept in the CSV at `path`.
fn read_rows(path: &std::path::Path) -> Vec<AnswerRow> {
    csv::Reader::from_path(path)
        .unwrap()
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Whether `player` wins by ply `by` when the empty board scores `score` for P1.
fn wins_by(rules: Rules, score: i32, player: Player, by: u32) -> bool {
    let win = (rules.cells() + 1) as i32 - by as i32;
    match player {
        Player::P1 => score >= win,
        Player::P2 => score <= -win,
    }
}

/// Every question on small boards, for both players, every ply and split depths 0 to 3, has
/// the answer brute force gives; every search written down holds for its position.
#[test]
fn every_answer_agrees_with_brute_force() {
    let boards = [
        (3, 4, 3, Variant::Normal),
        (3, 4, 3, Variant::Misere),
        (3, 3, 4, Variant::Misere),
        (4, 4, 4, Variant::Misere),
        (3, 5, 3, Variant::Normal),
    ];
    let mut solver = Solver::new(Mib(16));
    let mut checked = HashSet::new();
    for (k, width, height, variant) in boards {
        let rules = Rules::new(k, width, height, variant).unwrap();
        let score = brute_score(rules, "");
        let mut yes = 0;
        for player in [Player::P1, Player::P2] {
            for by_ply in 1..=rules.cells() {
                let expected = wins_by(rules, score, player, by_ply);
                yes += usize::from(expected);
                for depth in 0..=3 {
                    let path = fresh(&format!("{rules}-{player}-{by_ply}-{depth}"));
                    let question = Question {
                        rules,
                        player,
                        by_ply,
                    };
                    let (mut rows, mut begun) = (Vec::new(), Vec::new());
                    let asked = ask(
                        question,
                        &Split::new(depth, &path),
                        &mut solver,
                        &mut |progress| {
                            let (moves, at) = match progress {
                                Progress::Searching { moves, place } => {
                                    begun.push(moves.to_string());
                                    (moves, place)
                                }
                                Progress::Answered { row, place } => {
                                    rows.push(row.clone());
                                    (row.moves.as_str(), place)
                                }
                            };
                            // Each place names one move a ply of its line, within range.
                            assert_eq!(at.len(), notation::parse(rules, moves).unwrap().1.len());
                            assert!(at.iter().all(|b| 1 <= b.tried && b.tried <= b.of));
                        },
                    )
                    .unwrap();
                    // With no time limit every search begun ends in an answer, told after it.
                    let answered: Vec<String> = rows.iter().map(|r| r.moves.clone()).collect();
                    assert_eq!(begun, answered, "{rules}: {player} by {by_ply}");
                    assert_eq!(
                        asked.answer,
                        Some(expected),
                        "{rules}: does {player} win by ply {by_ply}? (depth {depth})"
                    );
                    for row in rows {
                        if checked.insert((rules.to_string(), row.moves.clone(), row.probe)) {
                            let score = brute_score(rules, &row.moves);
                            assert_eq!(score > row.probe, row.above, "{rules}: {row:?}");
                        }
                    }
                    std::fs::remove_file(&path).unwrap();
                }
            }
        }
        // Both answers occur on every board, so that the test can tell them apart.
        assert!(yes > 0 && yes < 2 * rules.cells() as usize, "{rules}");
    }
}

/// Scouting (capped searches first, near the split's depth) changes which pieces are searched,
/// never an answer: every question on small boards, with caps from one node up, has the answer
/// brute force gives, every answer written holds for its position, and the searches that
/// passed the cap are counted and wrote nothing.
#[test]
fn scouting_changes_no_answer() {
    let boards = [
        (3, 4, 3, Variant::Normal),
        (3, 4, 3, Variant::Misere),
        (4, 4, 4, Variant::Misere),
        (3, 5, 3, Variant::Normal),
    ];
    let mut capped = 0;
    for (k, width, height, variant) in boards {
        let rules = Rules::new(k, width, height, variant).unwrap();
        let score = brute_score(rules, "");
        for (player, by_ply, depth, cap) in scouted_questions(rules.cells()) {
            // A fresh solver each time, so that no table entry a capped search left behind
            // hides a search from the next question.
            let mut solver = Solver::new(Mib(16));
            let path = fresh(&format!("scout-{rules}-{player}-{by_ply}-{depth}-{cap}"));
            let question = Question {
                rules,
                player,
                by_ply,
            };
            let split = Split {
                scout: Some(cap),
                ..Split::new(depth, &path)
            };
            let (mut begun, mut rows) = (0, Vec::new());
            let asked = ask(
                question,
                &split,
                &mut solver,
                &mut |progress| match progress {
                    Progress::Searching { .. } => begun += 1,
                    Progress::Answered { row, .. } => rows.push(row.clone()),
                },
            )
            .unwrap();
            let said = format!("{rules}: {player} by {by_ply}, depth {depth}, cap {cap}");
            let expected = wins_by(rules, score, player, by_ply);
            assert_eq!(asked.answer, Some(expected), "{said}");
            assert_eq!(begun, rows.len() + asked.capped, "{said}");
            assert_eq!(asked.searched, rows.len(), "{said}");
            for row in &rows {
                assert_eq!(
                    brute_score(rules, &row.moves) > row.probe,
                    row.above,
                    "{said}"
                );
            }
            capped += asked.capped;
            std::fs::remove_file(&path).unwrap();
        }
    }
    // The caps were small enough to stop searches, so that the test reaches the second pass.
    assert!(capped > 100, "{capped} searches passed the cap");
}

/// Every player, ply, depth (2 and 3) and scouting cap (1, 30 and 1,000 nodes) asked about a
/// board of `cells` cells.
fn scouted_questions(cells: u32) -> Vec<(Player, u32, u32, u64)> {
    let mut all = Vec::new();
    for player in [Player::P1, Player::P2] {
        for by_ply in 1..=cells {
            for depth in [2, 3] {
                for cap in [1, 30, 1000] {
                    all.push((player, by_ply, depth, cap));
                }
            }
        }
    }
    all
}

/// Helper threads change node counts, never answers. Helpers join searches of positions with
/// at least 24 empty cells, so the boards are larger than brute force reaches: the answers of
/// a two-thread solver, split 0 and 1 plies deep, are held against the exact value a
/// one-thread solve finds, on the plies around the game's length, for both players.
#[test]
fn threads_change_no_answer() {
    for (width, height) in [(5, 5), (6, 4)] {
        let rules = Rules::new(4, width, height, Variant::Misere).unwrap();
        let value = Solver::new(Mib(16)).solve(&Position::new(rules)).value;
        let (winner, length) = match (value.result, value.remoteness) {
            (GameResult::Win(p), Some(ply)) => (p, ply),
            other => panic!("{rules}: expected a win, not {other:?}"),
        };
        let mut solver = Solver::new(Mib(16)).with_threads(2);
        for player in [Player::P1, Player::P2] {
            for by_ply in length - 2..=length {
                for depth in 0..=1 {
                    let path = fresh(&format!("threads-{rules}-{player}-{by_ply}-{depth}"));
                    let question = Question {
                        rules,
                        player,
                        by_ply,
                    };
                    let asked = ask(
                        question,
                        &Split::new(depth, &path),
                        &mut solver,
                        &mut |_| {},
                    );
                    let expected = player == winner && by_ply >= length;
                    let said = format!("{rules}: {player} by {by_ply}, depth {depth}");
                    assert_eq!(asked.unwrap().answer, Some(expected), "{said}");
                    std::fs::remove_file(&path).unwrap();
                }
            }
        }
    }
}

/// Whether `player` wins by ply `by` from the position after `moves`, whose side to move
/// scores `score`.
fn wins_by_from(rules: Rules, moves: &str, score: i32, player: Player, by: u32) -> bool {
    let (pos, _) = notation::parse(rules, moves).unwrap();
    let win = (rules.cells() + 1) as i32 - by as i32;
    if pos.to_move() == player {
        score >= win
    } else {
        score <= -win
    }
}

/// The empty board's question answered in pieces side by side, as a job array would: one run
/// from each distinct position two plies down, each with its own CSV, each answer as brute
/// force gives it from there; then a run from the empty board with their CSVs as `known`,
/// split as deep, answers as brute force does from the empty board, reading their answers.
#[test]
fn runs_from_starts_answer_the_question_together() {
    let rules = Rules::new(4, 4, 4, Variant::Misere).unwrap();
    let mut solver = Solver::new(Mib(16));
    let mut files = Vec::new();
    let mut seen = HashSet::new();
    for first in 1..=4 {
        for second in 1..=4 {
            let moves = format!("{first}{second}");
            let (pos, start) = notation::parse(rules, &moves).unwrap();
            if !seen.insert(pos.canonical_key()) {
                continue;
            }
            let score = brute_score(rules, &moves);
            for (player, by_ply) in [(Player::P2, 13), (Player::P1, 14), (Player::P2, 15)] {
                let path = fresh(&format!("start-{moves}-{player}-{by_ply}"));
                let split = Split {
                    start: &start,
                    ..Split::new(4, &path)
                };
                let question = Question {
                    rules,
                    player,
                    by_ply,
                };
                let asked = ask(question, &split, &mut solver, &mut |_| {}).unwrap();
                let expected = wins_by_from(rules, &moves, score, player, by_ply);
                assert_eq!(
                    asked.answer,
                    Some(expected),
                    "{moves}: {player} by {by_ply}"
                );
                if (player, by_ply) == (Player::P2, 13) {
                    files.push(path);
                } else {
                    std::fs::remove_file(&path).unwrap();
                }
            }
        }
    }
    let path = fresh("start-root");
    let split = Split {
        known: &files,
        ..Split::new(4, &path)
    };
    let question = Question {
        rules,
        player: Player::P2,
        by_ply: 13,
    };
    let asked = ask(question, &split, &mut Solver::new(Mib(16)), &mut |_| {}).unwrap();
    let expected = wins_by(rules, brute_score(rules, ""), Player::P2, 13);
    assert_eq!(asked.answer, Some(expected));
    assert!(asked.reused > 0, "{asked:?}");
    for file in files.iter().chain([&path]) {
        std::fs::remove_file(file).unwrap();
    }
}

/// A question cut short keeps its answers: runs with growing time limits each go on from the
/// CSV, never ask a position twice, and end with the answer one run finds; a rerun then asks
/// nothing.
#[test]
fn a_question_cut_short_goes_on_from_its_answers() {
    let rules = Rules::new(4, 5, 4, Variant::Misere).unwrap();
    let path = fresh("resumed");
    let question = Question {
        rules,
        player: Player::P2,
        by_ply: 15,
    };
    let expected = wins_by(rules, brute_score(rules, ""), Player::P2, 15);
    let mut time = Duration::from_micros(50);
    let mut cut_short = 0;
    let answer = loop {
        // A fresh solver each run, as a new process has.
        let mut solver = Solver::new(Mib(16));
        let asked = ask(
            question,
            &Split {
                time: Some(time),
                ..Split::new(3, &path)
            },
            &mut solver,
            &mut |_| {},
        )
        .unwrap();
        if let Some(answer) = asked.answer {
            break answer;
        }
        cut_short += 1;
        time *= 2;
    };
    assert_eq!(answer, expected);
    assert!(
        cut_short > 0,
        "the first run had time enough: nothing was resumed"
    );
    let rows = read_rows(&path);
    let keys: HashSet<(String, i32)> = rows.iter().map(|r| (r.key.clone(), r.probe)).collect();
    assert_eq!(keys.len(), rows.len(), "a position was asked twice");
    let mut solver = Solver::new(Mib(16));
    let again = ask(question, &Split::new(3, &path), &mut solver, &mut |_| {}).unwrap();
    assert_eq!((again.answer, again.searched), (Some(expected), 0));
    assert!(again.reused > 0);
    // A deeper split reads the shallower one's searches where its tree meets them.
    let deeper = ask(question, &Split::new(5, &path), &mut solver, &mut |_| {}).unwrap();
    assert_eq!((deeper.answer, deeper.searched), (Some(expected), 0));
    std::fs::remove_file(&path).unwrap();
}

/// A run whose time runs out in its first search keeps no answer but says what that search
/// spent, so that "nothing found" is not read as "nothing done".
#[test]
fn a_search_the_time_stops_is_reported_with_its_cost() {
    // Normal 8x5 has no book and takes seconds of search, whose 200 ms end first.
    let rules = Rules::new(4, 8, 5, Variant::Normal).unwrap();
    let path = fresh("dropped");
    let question = Question {
        rules,
        player: Player::P1,
        by_ply: 40,
    };
    let split = Split {
        time: Some(Duration::from_millis(200)),
        ..Split::new(0, &path)
    };
    let asked = ask(question, &split, &mut Solver::new(Mib(16)), &mut |_| {}).unwrap();
    assert_eq!((asked.answer, asked.searched, asked.nodes), (None, 0, 0));
    assert!(asked.dropped_nodes > 0, "{asked:?}");
    assert!(asked.dropped_seconds > 0.0, "{asked:?}");
    let _ = std::fs::remove_file(&path);
}

/// Runs the binary with the words of `line` as its arguments, then each of `paths` after the
/// option it names (kept whole, so a temporary folder with spaces in its name still works);
/// returns whether it succeeded, its stdout and its stderr.
fn connectk(line: &str, paths: &[(&str, &std::path::Path)]) -> (bool, String, String) {
    let mut args: Vec<&str> = line.split_whitespace().collect();
    for (option, path) in paths {
        args.extend([*option, path.to_str().expect("a UTF-8 temporary path")]);
    }
    let out = crate::support::binary::connectk(&args, "");
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.success(), text(out.stdout), text(out.stderr))
}

/// A fresh folder holding the open.csv of a misère `sizes` run on width + height 10 (sides at
/// least 5: the 5x5 board only) given `time` seconds a board.
fn sizes_run(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("connectk-question-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    sizes_again(&dir, "0.0001");
    dir
}

/// Runs the `sizes` run of [`sizes_run`] again into `dir` with `time` seconds a board.
fn sizes_again(dir: &std::path::Path, time: &str) {
    let (ok, _, stderr) = connectk(
        &format!(
            "sizes --rules misere --min-side 5 --min-sum 10 --max-sum 10 --threads 1 \
             --table-mb 16 --time-limit {time}"
        ),
        &[("--out", dir)],
    );
    assert!(ok, "{stderr}");
}

/// The question "does `player` win misère 5x5 by ply `by`?" split two plies deep (`extra`
/// words added), its answers in `answers`, its verdict added to the open file `open`.
fn ask_5x5(
    player: &str,
    by: &str,
    extra: &str,
    answers: &std::path::Path,
    open: &std::path::Path,
) -> (bool, String, String) {
    connectk(
        &format!(
            "question --rules misere --width 5 --height 5 --player {player} --by-ply {by} \
             --depth 2 --table-mb 16 {extra}"
        ),
        &[("--answers", answers), ("--open", open)],
    )
}

/// From the command line: a `sizes` run cut short leaves misère 5x5 open; two questions added
/// to its open.csv narrow the range to the last two plies it can be; the next `sizes` run goes
/// on from there to the row one solve finds (P1 on ply 22).
#[test]
fn answers_narrow_a_sizes_run_that_goes_on_from_them() {
    let dir = sizes_run("narrow");
    let (open, answers) = (dir.join("open.csv"), dir.join("answers.csv"));
    let (ok, stdout, stderr) = ask_5x5("P1", "22", "", &answers, &open);
    assert!(ok && stdout.contains("? yes"), "{stdout}{stderr}");
    let (ok, stdout, stderr) = ask_5x5("P1", "20", "", &answers, &open);
    assert!(ok && stdout.contains("? no"), "{stdout}{stderr}");
    assert!(stderr.contains("last ply 21 to 22"), "{stderr}");
    sizes_again(&dir, "600");
    let rows = std::fs::read_to_string(dir.join("sizes.csv")).unwrap();
    assert!(rows.contains("misere,4,5,5,25,P1,22,"), "{rows}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An answer that contradicts the open file (one giving misère 5x5 to P2, against P1's win by
/// ply 22) is refused with exit status 2 and nothing added; so is `--open` with `--moves`, as
/// an answer from a start says nothing of the board's length.
#[test]
fn answers_the_open_file_cannot_take_are_refused() {
    let dir = sizes_run("refused");
    let (open, answers) = (dir.join("open.csv"), dir.join("answers.csv"));
    let text = std::fs::read_to_string(&open).unwrap();
    let header = text.lines().next().unwrap();
    let row: Vec<&str> = header
        .split(',')
        .map(|c| match c {
            "rules" => "misere",
            "k" => "4",
            "width" | "height" => "5",
            "seconds_each" => "1.0",
            "outcome" => "P2",
            "nodes" => "1",
            _ => "",
        })
        .collect();
    let forged = dir.join("forged.csv");
    std::fs::write(&forged, format!("{header}\n{}\n", row.join(","))).unwrap();
    let (ok, _, stderr) = ask_5x5("P1", "22", "", &answers, &forged);
    assert!(!ok && stderr.contains("contradicts"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&forged).unwrap(),
        format!("{header}\n{}\n", row.join(","))
    );
    let (ok, _, stderr) = ask_5x5("P1", "22", "--moves 3", &answers, &open);
    assert!(!ok && stderr.contains("--open with --moves"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&open).unwrap(), text);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Keys and probes mean something only on their own board: a file of another board's answers
/// is refused, naming the line, and left as it was, as its own file or as another run's.
#[test]
fn answers_of_another_board_are_refused() {
    let path = fresh("another-board");
    let mut solver = Solver::new(Mib(16));
    let question = |width| Question {
        rules: Rules::new(4, width, 4, Variant::Misere).unwrap(),
        player: Player::P2,
        by_ply: 13,
    };
    ask(question(4), &Split::new(2, &path), &mut solver, &mut |_| {}).unwrap();
    let before = std::fs::read_to_string(&path).unwrap();
    let error = ask(question(5), &Split::new(2, &path), &mut solver, &mut |_| {}).unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("line 2") && message.contains("not misere k=4 5x4"),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    // The same file given as another run's answers is refused alike.
    let own = fresh("another-board-own");
    let known = [path.clone()];
    let split = Split {
        known: &known,
        ..Split::new(2, &own)
    };
    let error = ask(question(5), &split, &mut solver, &mut |_| {}).unwrap_err();
    assert!(error.to_string().contains("not misere k=4 5x4"), "{error}");
    std::fs::remove_file(&path).unwrap();
    let _ = std::fs::remove_file(&own);
}

/// A folder of answer files read as known: the files about the board asked are taken (sorted
/// by name), other boards' are counted and left out, and so are files with no answer yet,
/// other kinds of file and the run's own answers, however its path is spelled.
#[test]
fn a_folder_of_answers_gives_the_files_about_the_board() {
    let dir = std::env::temp_dir().join(format!("connectk-known-dir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let header = "board,key,moves,probe,above,nodes,seconds\n";
    let row = |board: &str| format!("{header}{board},1,11,3,true,10,0.1\n");
    let rules = Rules::new(4, 4, 4, Variant::Misere).unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("b-this.csv", &row("misere k=4 4x4"));
    write("a-this.csv", &row("misere k=4 4x4"));
    write("own.csv", &row("misere k=4 4x4"));
    write("other.csv", &row("normal k=4 4x4"));
    write("empty.csv", header);
    write("notes.txt", "not answers");
    let own = dir.join(".").join("own.csv");
    let (about, others) = known_in(&dir, rules, &own).unwrap();
    assert_eq!(about, vec![dir.join("a-this.csv"), dir.join("b-this.csv")]);
    assert_eq!(others, 1);
    write("broken.csv", "not,a,file,of,answers\n1,2,3,4,5\n");
    assert!(known_in(&dir, rules, &own).is_err());
    assert!(known_in(&dir.join("missing"), rules, &own).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// "Does P2 win the misère k = 3 ring of 11 cells by its last ply?" (yes: P2's reply two
/// cells from P1's first disc wins).
fn ring_of_11() -> Question {
    let rules = Rules::new(3, 11, 1, Variant::Misere)
        .unwrap()
        .with_topology(connectk::Topology::Cylinder);
    Question {
        rules,
        player: Player::P2,
        by_ply: 11,
    }
}

/// Asks `question` from the position after `line`, split `depth` plies deep, kept in
/// `answers`, reading `known` besides, with a fresh solver.
fn ask_from(
    question: Question,
    line: &str,
    depth: u32,
    answers: &std::path::Path,
    known: &[PathBuf],
) -> Asked {
    let (_, start) = notation::parse(question.rules, line).unwrap();
    let split = Split {
        start: &start,
        known,
        ..Split::new(depth, answers)
    };
    ask(question, &split, &mut Solver::new(Mib(16)), &mut |_| {}).unwrap()
}

/// Answers kept by a run under a later move settle the question with no search, though the
/// moves before it in the order are unanswered: on the misère k = 3 ring of 11 cells, a run
/// from P2's reply two cells from P1's first disc (`1,3`), then one from the empty board that
/// reads its file, which searches nothing (not even P2's reply beside the disc, first in the
/// order and lost at once).
#[test]
fn answers_under_a_later_move_settle_the_question_unsearched() {
    let question = ring_of_11();
    let rules = question.rules;
    let later = fresh("later-reply");
    let asked = ask_from(question, "1,3", 3, &later, &[]);
    let from_start = wins_by_from(rules, "1,3", brute_score(rules, "1,3"), Player::P2, 11);
    assert_eq!(asked.answer, Some(from_start));
    assert!(asked.searched > 0);
    let root = fresh("later-root");
    let asked = ask_from(question, "", 3, &root, std::slice::from_ref(&later));
    let expected = wins_by(rules, brute_score(rules, ""), Player::P2, 11);
    assert_eq!(
        (asked.answer, asked.searched),
        (Some(expected), 0),
        "{asked:?}"
    );
    assert!(expected && asked.reused > 0, "{asked:?}");
    for file in [later, root] {
        let _ = std::fs::remove_file(file);
    }
}

/// A run from a start keeps its answer there as a row of its own (with no nodes: its searches
/// count theirs), as it keeps every answer above the split's depth, so that a run above reads
/// it at once: on the misère k = 3 ring of 11 cells, a worker from P2's winning fourth move
/// after `1,3,2` (found by brute force) answers "yes"; its start's row alone then settles a run
/// from `1,3,2` unsearched, and the worker run again finds its row and adds none.
#[test]
fn a_run_keeps_its_answer_at_its_start_for_the_runs_above() {
    let question = ring_of_11();
    let rules = question.rules;
    let (above, from) = notation::parse(rules, "1,3,2").unwrap();
    let winning = above
        .legal_columns()
        .into_iter()
        .map(|c| notation::format(rules, &[from.as_slice(), &[c]].concat()))
        .find(|line| wins_by_from(rules, line, brute_score(rules, line), Player::P2, 11))
        .expect("P2 wins after 1,3,2 on the ring of 11");
    let worker = fresh("start-worker");
    let asked = ask_from(question, &winning, 7, &worker, &[]);
    assert_eq!(asked.answer, Some(true), "{asked:?}");
    let rows = read_rows(&worker);
    let kept: Vec<&AnswerRow> = rows.iter().filter(|r| r.moves == winning).collect();
    assert_eq!(kept.len(), 1, "{rows:?}");
    assert_eq!((kept[0].nodes, kept[0].above), (0, false), "{:?}", kept[0]);
    let alone = fresh("start-alone");
    let mut writer = csv::Writer::from_path(&alone).unwrap();
    writer.serialize(kept[0]).unwrap();
    writer.flush().unwrap();
    let own = fresh("start-above");
    let asked = ask_from(question, "1,3,2", 7, &own, std::slice::from_ref(&alone));
    assert_eq!((asked.answer, asked.searched), (Some(true), 0), "{asked:?}");
    let again = ask_from(question, &winning, 7, &worker, &[]);
    assert_eq!((again.answer, again.searched), (Some(true), 0), "{again:?}");
    assert_eq!(read_rows(&worker).len(), rows.len());
    for file in [worker, alone, own] {
        let _ = std::fs::remove_file(file);
    }
}

/// Kept answers settle a position whatever order of moves reached them: the leaves of a worker
/// from `1,3,2,10` on the misère k = 3 ring of 11 cells (P2's winning fourth move), each written
/// down again under another order of the same moves (each side's moves reversed, so that the
/// positions on the new lines are not those of the walk), settle a run from `1,3,2`
/// unsearched, though no kept line passes `1,3,2,10`.
#[test]
fn kept_answers_settle_positions_their_lines_do_not_pass() {
    let question = ring_of_11();
    let rules = question.rules;
    let worker = fresh("order-worker");
    let asked = ask_from(question, "1,3,2,10", 7, &worker, &[]);
    assert_eq!(asked.answer, Some(true), "{asked:?}");
    let reordered = fresh("order-reordered");
    let mut writer = csv::Writer::from_path(&reordered).unwrap();
    let mut leaves = 0;
    for mut row in read_rows(&worker) {
        let moves: Vec<&str> = row.moves.split(',').collect();
        if moves.len() != 7 {
            continue;
        }
        // P1's moves stand at even indices and P2's at odd ones; reversing the line keeps
        // that (seven moves) and reverses each side's order.
        let reversed: Vec<&str> = moves.iter().rev().copied().collect();
        let (before, _) = notation::parse(rules, &row.moves).unwrap();
        let (after, _) = notation::parse(rules, &reversed.join(",")).unwrap();
        assert_eq!(before.canonical_key(), after.canonical_key());
        row.moves = reversed.join(",");
        writer.serialize(&row).unwrap();
        leaves += 1;
    }
    writer.flush().unwrap();
    assert!(leaves > 10, "{leaves} leaves");
    let own = fresh("order-above");
    let asked = ask_from(question, "1,3,2", 7, &own, std::slice::from_ref(&reordered));
    assert_eq!((asked.answer, asked.searched), (Some(true), 0), "{asked:?}");
    assert!(asked.reused > 0, "{asked:?}");
    for file in [worker, reordered, own] {
        let _ = std::fs::remove_file(file);
    }
}

/// A run reads the answers another run writes beside it while it goes on: after its first
/// search, a worker's file appears in its folder of known answers with every other answer the
/// question needs (found by an earlier run), and the run searches nothing more; a run that
/// looks only at the start searches them all again.
#[test]
fn answers_written_beside_a_run_are_used_while_it_goes_on() {
    let rules = Rules::new(4, 5, 4, Variant::Misere).unwrap();
    let question = Question {
        rules,
        player: Player::P2,
        by_ply: 15,
    };
    let earlier = fresh("beside-earlier");
    let mut solver = Solver::new(Mib(16));
    let first = ask(question, &Split::new(3, &earlier), &mut solver, &mut |_| {}).unwrap();
    assert!(first.searched >= 2, "{first:?}");
    let text = std::fs::read_to_string(&earlier).unwrap();
    let dir = std::env::temp_dir().join(format!("connectk-beside-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = |reread: Duration| {
        let own = dir.join("own.csv");
        let _ = std::fs::remove_file(&own);
        let worker = dir.join("worker.csv");
        let _ = std::fs::remove_file(&worker);
        // The worker's file: every earlier answer but the one the run just found.
        let mut write_worker = |progress: Progress<'_>| {
            let Progress::Answered { row, .. } = progress else {
                return;
            };
            if !worker.exists() {
                let kept = text
                    .lines()
                    .filter(|line| line.split(',').nth(1) != Some(&row.key));
                std::fs::write(&worker, kept.collect::<Vec<_>>().join("\n") + "\n").unwrap();
            }
        };
        let split = Split {
            known_dir: Some(&dir),
            reread,
            ..Split::new(3, &own)
        };
        ask(
            question,
            &split,
            &mut Solver::new(Mib(16)),
            &mut write_worker,
        )
        .unwrap()
    };
    let looking = run(Duration::ZERO);
    assert_eq!(looking.answer, first.answer);
    assert_eq!(
        (looking.searched, looking.known_files),
        (1, 1),
        "{looking:?}"
    );
    assert!(looking.reused > 0, "{looking:?}");
    let blind = run(Duration::from_secs(3600));
    assert_eq!(blind.answer, first.answer);
    assert_eq!(
        (blind.searched, blind.known_files),
        (first.searched, 0),
        "{blind:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&earlier).unwrap();
}
