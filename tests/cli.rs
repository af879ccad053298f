//! End-to-end checks of the `connectk` binary: bad input exits with status 2 and one line on
//! stderr; good input prints the documented output.

use crate::support;

use support::binary::connectk;

fn assert_bad_input(args: &[&str], expected: &str) {
    let out = connectk(args, "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

#[test]
fn bad_input_is_refused_with_status_two() {
    assert_bad_input(
        &["solve", "--rules", "bogus"],
        "expected \"normal\" or \"misere\"",
    );
    assert_bad_input(&["solve", "--width", "0"], "width must be at least 1");
    assert_bad_input(&["solve", "-k", "0"], "k = 0");
    assert_bad_input(&["solve", "--width", "30"], "at most 128");
    assert_bad_input(&["show", "--moves", "4444444"], "move 7: column 4 is full");
    assert_bad_input(&["show", "--moves", "48"], "move 2: no column 8");
    assert_bad_input(&["show", "--moves", "4x"], "move 2: bad character");
    assert_bad_input(
        &["show", "--moves", "12121212"],
        "move 8: the game is already over",
    );
    assert_bad_input(
        &["solve", "--batch", "/no/such/file"],
        "cannot read batch file",
    );
    assert_bad_input(&["table1", "--k-min", "1"], "Table I covers k >= 2");
    assert_bad_input(
        &["solve", "--table-mb", "99999999999999"],
        "expected a whole number of MiB from 0 to 1048576",
    );
    assert_bad_input(
        &["table1", "--strip-mb", "lots"],
        "expected a whole number of MiB from 0 to 1048576",
    );
}

#[test]
fn solve_json_reports_outcome_remoteness_and_best_moves() {
    let out = connectk(
        &[
            "solve", "--rules", "misere", "-k", "3", "--width", "3", "--height", "3", "--json",
        ],
        "",
    );
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(json["outcome"], "P1");
    assert_eq!(json["remoteness"], 8);
    assert!(json["best_moves"].as_array().is_some_and(|m| !m.is_empty()));
    assert!(json["nodes"].as_u64().is_some());
    assert!(json["seconds"].as_f64().is_some());
}

#[test]
fn solve_value_only_searches_fewer_nodes_and_leaves_out_the_best_moves() {
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", "--width", "5", "--height", "4", "--weak", "--json"];
        args.extend_from_slice(extra);
        let out = connectk(&args, "");
        assert!(out.status.success());
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("one JSON object")
    };
    let full = solve(&[]);
    let value_only = solve(&["--value-only"]);
    assert_eq!(value_only["outcome"], full["outcome"]);
    assert!(value_only.get("best_moves").is_none());
    assert!(value_only["nodes"].as_u64() < full["nodes"].as_u64());
    assert_bad_input(
        &["solve", "--value-only", "--analyze"],
        "cannot be used with",
    );
}

#[test]
fn batch_goes_on_after_a_bad_line() {
    let out = connectk(
        &["solve", "--batch", "-", "--width", "4", "--height", "4"],
        "1212121 first\n44a\n\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "moves,outcome,remoteness,nodes,micros");
    assert!(lines[1].starts_with("1212121,P1,0,"), "{stdout}");
    assert!(stderr.contains("line 2: move 3: bad character"), "{stderr}");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn table1_lists_the_boards_it_gave_up_at_the_node_limit_until_a_rerun_solves_them() {
    let dir = std::env::temp_dir().join(format!("connectk-node-limit-{}", std::process::id()));
    let run = |args: &[&str]| {
        let mut all = vec!["table1", "--weak", "--out", dir.to_str().unwrap()];
        all.extend_from_slice(args);
        let out = connectk(&all, "");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let md = std::fs::read_to_string(dir.join("table1.md")).unwrap();
        let csv = std::fs::read_to_string(dir.join("table1.csv")).unwrap();
        (md, csv)
    };
    let k3 = ["--max-cells", "9", "--k-min", "3", "--k-max", "3"];
    // 4x2 needs 18 nodes with the current search (the bounds settle 3x3 in fewer).
    let (md, csv) = run(&[&k3[..], &["--node-limit", "12"]].concat());
    assert!(md.contains("## Not solved within the node limit"), "{md}");
    assert!(md.contains("- k = 3, 4x2"), "{md}");
    assert!(!csv.contains("misere,3,4,2,"), "{csv}");
    // Outcome only: the one-row solver settles 9x1 (at its first form, by the pairing bound).
    assert!(csv.contains("misere,3,9,1,9,Draw,Draw,true,,"), "{csv}");
    assert!(
        csv.contains("misere,3,1,1,"),
        "small boards are solved: {csv}"
    );

    // A rerun of another part of the grid still lists the board given up before.
    let (md, _) = run(&["--max-cells", "4", "--k-min", "2", "--k-max", "2"]);
    assert!(md.contains("- k = 3, 4x2"), "{md}");
    // A rerun without the limit solves it, and the list is gone.
    let (md, csv) = run(&k3);
    assert!(!md.contains("Not solved"), "{md}");
    assert!(csv.contains("misere,3,4,2,8,P2,P2,true,"), "{csv}");

    // The k = 3 grid is finished now: the same command solves it again, and the k = 2 rows of
    // the other run stay.
    let out = connectk(
        &[
            &["table1", "--weak", "--out", dir.to_str().unwrap()],
            &k3[..],
        ]
        .concat(),
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("from a finished run, 23 to do again"),
        "{stderr}"
    );
    let csv = std::fs::read_to_string(dir.join("table1.csv")).unwrap();
    assert!(csv.contains("misere,3,4,2,8,P2,P2,true,"), "{csv}");
    assert!(csv.contains("misere,2,2,2,"), "{csv}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn verify_checks_the_relaxed_game_and_refuses_strategies_out_of_range() {
    let out = connectk(
        &[
            "verify",
            "--rules",
            "misere",
            "-k",
            "3",
            "--width",
            "8",
            "--height",
            "1",
            "--strategy",
            "canonical",
            "--player",
            "P1",
            "--claim",
            "draw-or-better",
            "--opponent-cannot-lose",
            "--json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(json["verdict"], "holds");
    assert_eq!(json["rulebook"], "opponent-cannot-lose");
    assert_bad_input(
        &[
            "verify",
            "--rules",
            "misere",
            "-k",
            "3",
            "--strategy",
            "tally",
            "--player",
            "P2",
        ],
        "k must be 2",
    );
    assert_bad_input(
        &["verify", "--strategy", "tallies", "--player", "P2"],
        "possible values: take-even, delayed-take-even, pairing, tally, canonical",
    );
}

/// A scratch directory for one test, removed first if a previous run left it behind.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("connectk-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Two UCI lines with the same cells (x to move wins at once on a4): the first labelled a
/// win, the second a loss.
const UCI_LINES: &str = "x,x,x,b,b,b,o,o,o,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,\
                         b,b,b,b,b,b,b,b,b,b,b,b,win\n\
                         x,x,x,b,b,b,o,o,o,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,\
                         b,b,b,b,b,b,b,b,b,b,b,b,loss\n";

#[test]
fn uci_refuses_bad_input_with_status_two() {
    assert_bad_input(
        &["uci-dataset", "--data", "/no/such/file"],
        "cannot read UCI data set /no/such/file",
    );
    let dir = scratch("uci-bad");
    let data = dir.join("bad.data");
    std::fs::write(&data, UCI_LINES.replace("loss", "lost")).unwrap();
    let data = data.to_str().unwrap();
    assert_bad_input(
        &["uci-dataset", "--data", data],
        "line 2: class \"lost\", expected win, loss or draw",
    );
    assert_bad_input(
        &["uci-dataset", "--data", data, "--every", "0"],
        "--every 0",
    );
    assert_bad_input(
        &[
            "uci-dataset",
            "--data",
            data,
            "--every",
            "2",
            "--offset",
            "2",
        ],
        "offset + run must be at most the stride",
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn uci_reports_disagreements_with_status_one_and_resumes() {
    let dir = scratch("uci");
    let data = dir.join("two.data");
    std::fs::write(&data, UCI_LINES).unwrap();
    let (data, out) = (data.to_str().unwrap(), dir.join("out"));
    let out = out.to_str().unwrap();
    let first = connectk(
        &[
            "uci-dataset",
            "--data",
            data,
            "--every",
            "2",
            "--table-mb",
            "16",
            "--out",
            out,
        ],
        "",
    );
    assert_eq!(first.status.code(), Some(0));
    let second = connectk(
        &[
            "uci-dataset",
            "--data",
            data,
            "--table-mb",
            "16",
            "--out",
            out,
        ],
        "",
    );
    let stdout = String::from_utf8_lossy(&second.stdout);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("1 already in"), "{stderr}");
    assert!(
        stdout.contains("1 of 2 checked lines agree with the weak solver (1 disagree)"),
        "{stdout}"
    );
    let md = std::fs::read_to_string(dir.join("out/uci.md")).unwrap();
    assert!(md.contains("| 2 | `121212` | P2 | P1 |"), "{md}");
    let csv = std::fs::read_to_string(dir.join("out/uci.csv")).unwrap();
    assert!(csv.starts_with("line,moves,expected,solver,agree,nodes,micros,cpu_micros\n1,"));
    // Once every selected line is in the CSV, the same command checks them all again.
    let third = connectk(
        &[
            "uci-dataset",
            "--data",
            data,
            "--table-mb",
            "16",
            "--out",
            out,
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&third.stderr);
    assert_eq!(third.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("from a finished run, 2 to do again"),
        "{stderr}"
    );
    let again = std::fs::read_to_string(dir.join("out/uci.md")).unwrap();
    assert!(again.contains("Latest run: 2 lines solved"), "{again}");
    assert!(again.contains("| 2 | `121212` | P2 | P1 |"), "{again}");
    let csv = std::fs::read_to_string(dir.join("out/uci.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_principal_variation_plays_out_the_solved_value() {
    let out = connectk(
        &[
            "solve", "--rules", "misere", "--width", "5", "--height", "4", "--json", "--pv",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let pv = json["pv"].as_str().expect("a principal variation");
    assert_eq!(Some(pv.len() as u64), json["remoteness"].as_u64(), "{pv}");
    let shown = connectk(
        &[
            "show", "--rules", "misere", "--width", "5", "--height", "4", "--moves", pv,
        ],
        "",
    );
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.contains("P2 wins"), "{text}");
}

#[test]
fn every_committed_experiment_spec_parses_and_a_bad_run_is_named() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let mut specs = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let out = connectk(&["experiment", "--check", path.to_str().unwrap()], "");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{}: {stderr}", path.display());
            specs += 1;
        }
    }
    assert!(specs >= 8, "only {specs} specs in {}", dir.display());

    let scratch = scratch("experiment-check");
    let bad = scratch.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"name": "bad", "description": "a typo", "runs": [["table1", "--max-cels", "9"]]}"#,
    )
    .unwrap();
    assert_bad_input(
        &["experiment", "--check", bad.to_str().unwrap()],
        "run `table1 --max-cels 9`: error: unexpected argument '--max-cels'",
    );
    std::fs::remove_dir_all(scratch).unwrap();
}

#[test]
fn hint_bench_times_every_position_of_its_games_and_counts_the_slow_ones() {
    let scratch = scratch("hint-bench");
    let csv = scratch.join("hints.csv");
    let games = "hint-bench --rules misere --width 4 --height 4 --games 3 --seed 9 --max-ply 6";
    let mut args: Vec<&str> = games.split(' ').chain(["--no-book"]).collect();
    let again_args = [&args[..], &["--limit-ms", "0"]].concat();
    args.extend(["--out", csv.to_str().unwrap()]);
    let out = connectk(&args, "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // One row per position: each game's positions from the empty board, every move settled.
    let rows: Vec<Vec<String>> = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    assert!(rows.len() >= 3 && rows.len() <= 21, "{} rows", rows.len());
    for row in &rows {
        let (ply, moves) = (row[1].parse::<usize>().unwrap(), &row[2]);
        assert_eq!(moves.len(), ply, "{row:?}");
        assert_eq!(row[5], row[6], "every move settled: {row:?}");
    }
    assert_eq!(rows.iter().filter(|r| r[1] == "0").count(), 3);
    // The summary counts the same positions, per ply.
    let per_ply: usize = stdout
        .lines()
        .skip(2)
        .filter_map(|l| l.split(',').nth(1)?.parse::<usize>().ok())
        .sum();
    assert_eq!(per_ply, rows.len(), "{stdout}");
    assert!(
        stdout.contains(&format!("0 of {} over 2000 ms", rows.len())),
        "{stdout}"
    );

    // The same games again give the same positions; a limit of 0 ms counts every hint as slow.
    let again = connectk(&again_args, "");
    assert_eq!(again.status.code(), Some(1));
    let again = String::from_utf8_lossy(&again.stdout);
    assert!(
        again.contains(&format!("{0} of {0} over 0 ms", rows.len())),
        "{again}"
    );
    assert_bad_input(&["hint-bench", "--games", "0"], "0 is not in 1..=100000");
    std::fs::remove_dir_all(scratch).unwrap();
}

/// Run where there is no directory of default books, a command whose perfect player searches
/// a board as large as the books' says so in one line on stderr (and still plays); one without
/// the perfect player, or told `--no-book`, or on a smaller board, says nothing of it.
#[test]
fn perfect_play_without_a_books_directory_says_so() {
    let missing = scratch("no-books").join("books");
    let arena = |width: &str, players: [&str; 2], extra: &[&str]| {
        let mut args = vec!["arena", "--width", width, "--height", "5", "--games", "1"];
        args.extend(["--p1", players[0], "--p2", players[1]]);
        args.extend(extra);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_connectk"))
            .args(&args)
            .env("CONNECTK_BOOKS", &missing)
            .output()
            .expect("the binary runs");
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let note = "note: no opening books (no directory";
    let stderr = arena("6", ["perfect", "random"], &[]);
    assert_eq!(stderr.matches(note).count(), 1, "{stderr}");
    assert!(
        stderr.contains("set CONNECTK_BOOKS or give --book"),
        "{stderr}"
    );
    assert!(!arena("6", ["easy", "random"], &[]).contains(note));
    assert!(!arena("6", ["random", "perfect"], &["--no-book"]).contains(note));
    assert!(!arena("5", ["perfect", "random"], &[]).contains(note));
}
