//! A seeded corpus of hostile invocations of every subcommand, as a careless script or a new
//! user would type them: bad numbers, sizes, names and move strings, malformed files of every
//! kind the tools read, unwritable paths, garbage piped into `play`, and a closed stdout. Each
//! must end on its own within its time limit, without a panic or a signal, with the exit status
//! its help promises (2 for bad input, with a message on stderr), never accepting nonsense.
//!
//! The corpus needs nothing outside the repository; its files live in a scratch directory.
//!
//! Beside the corpus, classes tried in full: every subcommand that writes a file or a folder
//! against destinations it cannot write (/dev/full, a path under a regular file, a
//! directory, a file of /proc), arguments that are not UTF-8, and every kind of results file
//! edited (a bad word, a non-number, a missing column, a line cut short) and fed to what
//! reads it back.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The corpus's seed: change it to explore, keep it to reproduce.
const SEED: u64 = 20261125;

/// Invocations in the corpus.
const INVOCATIONS: usize = 1_800;

/// The longest any invocation may take before it counts as a hang (they all stop at their
/// first check of their input, in milliseconds; this allows for a loaded machine).
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// What an invocation must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Refuse its input: exit status 2 and a message on stderr.
    Refusal,
    /// Run to the end with its output closed: exit status 0, nothing on stderr but progress.
    QuietEnd,
    /// `play` whose input ends before the game: exit status 1.
    InputEnds,
}

/// One invocation of the corpus.
#[derive(Debug)]
struct Case {
    args: Vec<String>,
    stdin: String,
    close_stdout: bool,
    expect: Expect,
}

/// Files the corpus points at, made once in a scratch directory.
struct Files {
    dir: PathBuf,
}

impl Files {
    fn new() -> Files {
        let dir = std::env::temp_dir().join(format!("connectk-hostile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a-directory")).unwrap();
        std::fs::create_dir_all(dir.join("bench-garbage")).unwrap();
        let files = Files { dir };
        files.write("empty.txt", "");
        files.write(
            "garbage.txt",
            "\u{0}\u{1}xyz,,,\n\"unclosed\n\u{ff}\u{fe}\n",
        );
        files.write("bench-garbage/set.csv", "rules,k,width\nnormal,four,7\n");
        files.write(
            "claims-reversed.json",
            r#"[{"id":"a","claim":"c","quote":"q","k":[5,2],"width":[1,4],"height":[1,4],"heights":"any","max_cells":10,"check":{"kind":"table1"}}]"#,
        );
        files.write(
            "claims-zero-cells.json",
            r#"[{"id":"a","claim":"c","quote":"q","k":[2,3],"width":[1,4],"height":[1,4],"heights":"any","max_cells":0,"check":{"kind":"table1"}}]"#,
        );
        files.write(
            "claims-huge.json",
            r#"[{"id":"a","claim":"c","quote":"q","k":[2,3],"width":[1,4294967295],"height":[1,4],"heights":"any","max_cells":10,"check":{"kind":"table1"}}]"#,
        );
        files.write(
            "claims-strategy.json",
            r#"[{"id":"a","claim":"c","quote":"q","k":[2,3],"width":[1,4],"height":[1,4],"heights":"any","max_cells":10,"check":{"kind":"strategy","strategy":"grandmaster","side":"p2","claim":"win"}}]"#,
        );
        files.write(
            "claims-nothing.json",
            r#"[{"id":"a","claim":"c","quote":"q","k":[2,2],"width":[3,3],"height":[2,2],"heights":"one","max_cells":10,"check":{"kind":"table1"}}]"#,
        );
        files.write("claims-empty.json", "[]");
        files.write(
            "spec-bad-run.json",
            r#"{"name":"x","description":"y","runs":[["table1","--max-cels","9"]]}"#,
        );
        files.write(
            "spec-empty.json",
            r#"{"name":"x","description":"y","runs":[]}"#,
        );
        files.write("spec-self.json", "");
        let own = files.path("spec-self.json");
        files.write(
            "spec-self.json",
            &format!(
                r#"{{"name":"x","description":"y","runs":[["experiment","{}"]]}}"#,
                own.display()
            ),
        );
        files.write("uci-garbage.data", "b,b,b\nx,o,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,maybe\n");
        files
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The path of the file `name` as a word of a command.
    fn display(&self, name: &str) -> String {
        self.path(name).display().to_string()
    }

    /// `name` as a word of a command: an absolute path as it is, else the file of that name.
    fn word(&self, name: &str) -> String {
        if name.starts_with('/') {
            name.to_string()
        } else {
            self.display(name)
        }
    }

    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.path(name), text).unwrap();
    }

    /// A fresh shard file holding `rows` after the Table I header.
    fn shard(&self, index: usize, rows: &[String]) -> String {
        let name = format!("shard-{index}.csv");
        let mut text =
            String::from("rules,k,width,height,cells,paper,solver,agree,remoteness,nodes\n");
        for row in rows {
            text.push_str(row);
            text.push('\n');
        }
        self.write(&name, &text);
        self.path(&name).display().to_string()
    }
}

/// Picks one of `items`.
fn pick<'a>(rng: &mut ChaCha8Rng, items: &[&'a str]) -> &'a str {
    items[rng.random_range(0..items.len())]
}

/// Numbers that no option accepts where a count, size or index is asked for.
const BAD_NUMBERS: &[&str] = &[
    "",
    "-1",
    "abc",
    "1e3",
    "0x10",
    "3.5",
    "99999999999999999999999",
    " 7",
    "٣",
    "NaN",
];

/// Move strings that no 7x6 board accepts.
const BAD_MOVES: &[&str] = &[
    "8",
    "0",
    "4444444",
    "44a4",
    "1,,2",
    "-1",
    "99999999999999999999",
    "4 4",
    "٤",
    "12,",
    "4453x",
    "1111111",
];

/// Board options that no board accepts: (option, value).
const BAD_BOARDS: &[(&str, &str)] = &[
    ("--width", "0"),
    ("--width", "65"),
    ("--width", "-3"),
    ("--height", "0"),
    ("--height", "200"),
    ("-k", "0"),
    ("-k", "128"),
    ("--rules", "chess"),
    ("--rules", ""),
    ("--width", "30"),
];

/// A path nobody can write to, root included: a file of /proc cannot hold a directory.
const UNWRITABLE: &str = "/proc/self/status/connectk-out";

/// Words of a command.
fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| w.to_string()).collect()
}

/// A command refused for bad input.
fn refused(args: Vec<String>) -> Case {
    Case {
        args,
        stdin: String::new(),
        close_stdout: false,
        expect: Expect::Refusal,
    }
}

/// The kinds of hostile invocation, one picked at random for each case (a command that runs
/// to its end unread is listed twice, as it was drawn twice as often).
const KINDS: [fn(&mut ChaCha8Rng, &Files) -> Case; 20] = [
    show,
    solve_option,
    solve_board,
    perft,
    table1,
    merge_forged,
    bench,
    experiment,
    verify,
    paper_check,
    arena,
    tournament,
    play,
    uci_dataset,
    unknown_command,
    quarto_option,
    bad_files_or_server,
    question,
    quiet_end,
    quiet_end,
];

/// One hostile invocation of a random subcommand.
fn case(rng: &mut ChaCha8Rng, files: &Files) -> Case {
    KINDS[rng.random_range(0..KINDS.len())](rng, files)
}

/// A number that no option accepts where a count, size or index is asked for.
fn bad_number(rng: &mut ChaCha8Rng) -> String {
    pick(rng, BAD_NUMBERS).to_string()
}

/// A board option with a value that no board accepts.
fn bad_board(rng: &mut ChaCha8Rng) -> Vec<String> {
    let (option, value) = BAD_BOARDS[rng.random_range(0..BAD_BOARDS.len())];
    words(&[option, value])
}

/// `show` with a bad board or bad moves.
fn show(rng: &mut ChaCha8Rng, _: &Files) -> Case {
    let mut args = words(&["show"]);
    if rng.random_bool(0.5) {
        args.extend(bad_board(rng));
    } else {
        args.extend(words(&["--moves", pick(rng, BAD_MOVES)]));
    }
    refused(args)
}

/// `solve` of a small board with a bad option value.
fn solve_option(rng: &mut ChaCha8Rng, _: &Files) -> Case {
    let mut args = words(&["solve", "--width", "4", "--height", "4"]);
    let option = pick(
        rng,
        &[
            "--table-mb",
            "--threads",
            "--node-limit",
            "--time-limit",
            "--moves",
        ],
    );
    let value = match option {
        "--moves" => pick(rng, BAD_MOVES).to_string(),
        "--table-mb" => pick(rng, &["lots", "-1", "9999999999", "65536", "1048577"]).into(),
        "--threads" => pick(rng, &["0", "65", "-2", "x"]).into(),
        "--time-limit" => pick(rng, &["-1", "abc", "", "NaN", "inf", "1e99"]).into(),
        _ => bad_number(rng),
    };
    args.extend([option.to_string(), value]);
    refused(args)
}

/// `solve` of a bad board or bad moves.
fn solve_board(rng: &mut ChaCha8Rng, files: &Files) -> Case {
    let mut args = words(&["solve"]);
    if rng.random_bool(0.5) {
        args.extend(bad_board(rng));
    } else {
        let source = pick(rng, &["/no/such/file", "a-directory", "garbage.txt"]);
        let path = files.word(source);
        args.extend(words(&["--width", "4", "--height", "4", "--batch", &path]));
    }
    refused(args)
}

/// `perft` with a bad board or depth.
fn perft(rng: &mut ChaCha8Rng, _: &Files) -> Case {
    let mut args = words(&["perft"]);
    if rng.random_bool(0.5) {
        args.extend(bad_board(rng));
    } else {
        args.extend(["--plies".to_string(), bad_number(rng)]);
    }
    refused(args)
}

/// `table1` with a bad grid, into a folder nobody can write.
fn table1(rng: &mut ChaCha8Rng, _: &Files) -> Case {
    let mut args = words(&["table1", "--out", UNWRITABLE]);
    let (option, value) = match rng.random_range(0..7) {
        0 => ("--k-min", "1".to_string()),
        1 => ("--k-max", "1".to_string()),
        2 => ("--max-cells", "0".to_string()),
        3 => (
            "--shard",
            pick(rng, &["0/2", "3/2", "x", "1/0", "2"]).to_string(),
        ),
        4 => ("--threads", "0".to_string()),
        5 => ("--table-mb", pick(rng, &["65536", "lots"]).to_string()),
        _ => ("--max-cells", bad_number(rng)),
    };
    args.extend([option.to_string(), value]);
    refused(args)
}

/// `merge` of a shard whose row has one field forged, with a bad second file.
fn merge_forged(rng: &mut ChaCha8Rng, files: &Files) -> Case {
    // A true row, then one field forged.
    let mut fields = words(&["misere", "2", "3", "1", "3", "P2", "P2", "true", "3", "5"]);
    let at = rng.random_range(0..fields.len());
    fields[at] = pick(
        rng,
        &[
            "", "Banana", "chess", "0", "-1", "99", "false", "P1", "Draw", "x",
        ],
    )
    .to_string();
    let forged = fields.join(",");
    let shard = files.shard(rng.random_range(0..1_000_000), &[forged]);
    let other = pick(
        rng,
        &[
            "",
            "/no/such/file",
            "a-directory",
            "empty.txt",
            "garbage.txt",
        ],
    );
    let mut args = words(&["merge", "--out", UNWRITABLE, &shard]);
    if !other.is_empty() {
        args.push(files.word(other));
    }
    refused(args)
}

/// `bench` of a data folder that is missing or not one.
fn bench(rng: &mut ChaCha8Rng, files: &Files) -> Case {
    let dir = pick(rng, &["/no/such/dir", "bench-garbage", "empty.txt"]);
    let dir = files.word(dir);
    let mut args = words(&["bench", "--data", &dir]);
    if rng.random_bool(0.3) {
        args.extend(words(&["--threads", pick(rng, &["0", "65"])]));
    }
    refused(args)
}

/// `experiment` of a spec that is missing, broken or runs itself.
fn experiment(rng: &mut ChaCha8Rng, files: &Files) -> Case {
    let spec = pick(
        rng,
        &[
            "/no/such/spec.json",
            "garbage.txt",
            "empty.txt",
            "spec-bad-run.json",
            "spec-empty.json",
            "spec-self.json",
            "a-directory",
        ],
    );
    let spec = files.word(spec);
    let mut args = words(&["experiment", &spec]);
    if rng.random_bool(0.5) {
        args.push("--check".into());
    }
    refused(args)
}

/// `verify` with a bad strategy, player or board.
fn verify(rng: &mut ChaCha8Rng, _: &Files) -> Case {
    let mut args = words(&["verify", "--rules", "misere"]);
    match rng.random_range(0..5) {
        0 => args.extend(words(&["--strategy", "grandmaster", "--player", "P2"])),
        1 => args.extend(words(&["--strategy", "take-even", "--player", "P3"])),
        2 => args.extend(words(&["--strategy", "take-even", "--player", "P1"])),
        3 => args.extend(words(&[
            "--strategy",
            "take-even",
            "--player",
            "P2",
            "--moves",
            pick(rng, BAD_MOVES),
        ])),
        _ => args.extend(words(&[
            "--strategy",
            "tally",
            "--player",
            "P2",
            "--claim",
            pick(rng, &["lose", "", "WIN"]),
        ])),
    }
    refused(args)
}

/// `paper-check` of claims that are missing or broken.
fn paper_check(rng: &mut ChaCha8Rng, files: &Files) -> Case {
    let claims = pick(
        rng,
        &[
            "claims-reversed.json",
            "claims-zero-cells.json",
            "claims-huge.json",
            "claims-strategy.json",
            "claims-nothing.json",
            "claims-empty.json",
            "garbage.txt",
            "a-directory",
        ],
    );
    refused(words(&[
        "paper-check",
        "--claims",
        &files.display(claims),
        "--out",
        UNWRITABLE,
    ]))
}

/// `arena` with bad players or counts.
fn arena(rng: &mut ChaCha8Rng, _: &Files) -> Case {
    let mut args = words(&[
        "arena", "--rules", "misere", "--width", "4", "--height", "4",
    ]);
    match rng.random_range(0..5) {
        0 => args.extend(words(&[
            "--p1",
            "random",
            "--p2",
            "hard",
            "--games",
            pick(rng, &["0", "18446744073709551615", "-5", "x"]),
        ])),
        1 => args.extend(words(&["--p1", "grandmaster", "--p2", "hard"])),
        2 => args.extend(words(&["--p1", "take-even", "--p2", "hard"])),
        3 => args.extend(words(&[
            "--p1", "random", "--p2", "hard", "--out", UNWRITABLE,
        ])),
        _ => args.extend(words(&["--p1", "random", "--p2", "hard", "--threads", "0"])),
    }
    refused(args)
}

/// `tournament` with bad players or counts.
fn tournament(rng: &mut ChaCha8Rng, _: &Files) -> Case {
    let mut args = words(&["tournament", "--width", "4", "--height", "4"]);
    match rng.random_range(0..5) {
        0 => args.extend(words(&["--players", "hard"])),
        1 => args.extend(words(&["--players", "hard,easy,hard"])),
        2 => args.extend(words(&["--players", "hard,grandmaster"])),
        3 => args.extend(words(&["--players", "hard,easy", "--games", "0"])),
        _ => args.extend(words(&["--players", "hard,easy", "--out-dir", UNWRITABLE])),
    }
    refused(args)
}

/// `play` with bad input on stdin or bad options.
fn play(rng: &mut ChaCha8Rng, _: &Files) -> Case {
    let mut args = words(&["play", "--width", "4", "--height", "4"]);
    if rng.random_bool(0.3) {
        args.extend(words(&[
            "--opponent",
            pick(rng, &["grandmaster", "take-even", ""]),
        ]));
        return refused(args);
    }
    args.extend(words(&["--opponent", "random", "--seed", "3"]));
    // Garbage lines and no quit: the input ends before the game.
    let garbage: Vec<&str> = (0..rng.random_range(0..6))
        .map(|_| pick(rng, &["9", "0", "x", "", "hint", "-1", "\u{0}", "11"]))
        .collect();
    Case {
        args,
        stdin: garbage.join("\n"),
        close_stdout: false,
        expect: Expect::InputEnds,
    }
}

/// `uci-dataset` of data that is missing or broken.
fn uci_dataset(rng: &mut ChaCha8Rng, files: &Files) -> Case {
    let data = pick(
        rng,
        &[
            "/no/such/file",
            "garbage.txt",
            "uci-garbage.data",
            "a-directory",
        ],
    );
    let data = files.word(data);
    let mut args = words(&["uci-dataset", "--data", &data, "--out", UNWRITABLE]);
    match rng.random_range(0..4) {
        0 => args.extend(words(&["--every", "0"])),
        1 => args.extend(words(&["--every", "2", "--offset", "2"])),
        2 => args.extend(words(&["--threads", "0"])),
        _ => args.extend(words(&["--table-mb", "65536"])),
    }
    refused(args)
}

/// `question` with one bad value: a player, a ply, a depth, a time, a start that is not a
/// line of the board, or a file of answers (its own or another run's) that is not one (each
/// refused before any search).
fn question(rng: &mut ChaCha8Rng, files: &Files) -> Case {
    let answers = files.display("question.csv");
    let mut args = words(&["question", "--width", "4", "--height", "4"]);
    let (player, by_ply) = ("P2", "13");
    let (option, value) = match rng.random_range(0..8) {
        0 => ("--player", pick(rng, &["P3", "", "first", "2"]).to_string()),
        1 => (
            "--by-ply",
            pick(rng, &["0", "17", "-1", "x", ""]).to_string(),
        ),
        2 => ("--depth", pick(rng, &["17", "-1", "deep"]).to_string()),
        3 => (
            "--time-limit",
            pick(rng, &["0", "-1", "NaN", "1e99"]).to_string(),
        ),
        4 => ("--table-mb", pick(rng, &["65536", "lots"]).to_string()),
        5 => ("--moves", pick(rng, &["5", "11111", "1x"]).to_string()),
        6 => {
            let file = pick(rng, &["a-directory", "garbage.txt", "missing.csv"]);
            ("--known", files.word(file))
        }
        _ => {
            let file = pick(rng, &[UNWRITABLE, "a-directory", "garbage.txt"]);
            ("--answers", files.word(file))
        }
    };
    for (name, default) in [
        ("--player", player),
        ("--by-ply", by_ply),
        ("--answers", &answers),
    ] {
        let given = if name == option {
            value.as_str()
        } else {
            default
        };
        args.extend(words(&[name, given]));
    }
    if !["--player", "--by-ply", "--answers"].contains(&option) {
        args.extend([option.to_string(), value]);
    }
    refused(args)
}

/// A subcommand or option that does not exist.
fn unknown_command(rng: &mut ChaCha8Rng, _: &Files) -> Case {
    refused(vec![
        pick(rng, &["frobnicate", "--bogus", "solve --moves", "SOLVE"]).to_string(),
    ])
}

/// A Quarto subcommand with a bad option value.
fn quarto_option(rng: &mut ChaCha8Rng, _: &Files) -> Case {
    let sub = pick(rng, &["show", "solve", "play", "sweep"]);
    let mut args = words(&["quarto", sub]);
    let (option, value) = match rng.random_range(0..6) {
        0 => ("--size", pick(rng, &["0", "1", "5", "-3", "x"])),
        1 => ("--attributes", pick(rng, &["0", "5", "99", ""])),
        2 => ("--criteria", pick(rng, &["7", "0,0,9", "shine", ",", "-1"])),
        3 => ("--rules", pick(rng, &["chess", "", "MISERE!"])),
        4 => (
            "--moves",
            pick(rng, &["zz", "LSRF a1:LSRF a2", "LSRF e9:DTQH", "a1"]),
        ),
        _ => ("--table-mb", pick(rng, &["65536", "-1", "lots"])),
    };
    if sub == "sweep" {
        args.extend(words(&["--out", UNWRITABLE]));
    }
    args.extend(words(&[option, value]));
    refused(args)
}

/// `quarto merge` or `annulus-merge` of bad files, or `serve` with a bad limit.
fn bad_files_or_server(rng: &mut ChaCha8Rng, files: &Files) -> Case {
    let mut args = match rng.random_range(0..3) {
        0 => words(&["quarto", "merge", &files.display("a-directory")]),
        1 => words(&["quarto", "merge", "/no/such/file"]),
        _ => words(&["quarto", "merge", &files.display("garbage.txt")]),
    };
    if rng.random_bool(0.2) {
        let shard = pick(rng, &["/no/such/file", "a-directory", "garbage.txt"]);
        let shard = files.word(shard);
        args = words(&["annulus-merge", "--out", UNWRITABLE, &shard]);
    } else if rng.random_bool(0.5) {
        args = match rng.random_range(0..5) {
            0 => words(&["serve", "--queue", pick(rng, &["0", "99999", "x"])]),
            1 => words(&["serve", "--workers", pick(rng, &["0", "300", "-1"])]),
            2 => words(&["serve", "--search-threads", pick(rng, &["0", "257", "x"])]),
            3 => words(&["serve", "--table-mb", "65536"]),
            _ => words(&["serve", "--budget-seconds", pick(rng, &["-1", "NaN", "x"])]),
        };
    }
    refused(args)
}

/// A cheap command that runs to its end with nobody reading its output.
fn quiet_end(rng: &mut ChaCha8Rng, _: &Files) -> Case {
    // A cheap command that runs to its end with nobody reading its output.
    let command = pick(
        rng,
        &[
            "show --rules misere --moves 444444",
            "solve --width 4 --height 4",
            "solve --width 4 --height 4 --json --analyze",
            "perft --width 5 --height 4 --plies 9",
            "verify --rules misere --strategy take-even --player P2 --width 4 --height 4",
            "verify --rules misere --strategy take-even --player P2 --width 4 --height 4 --json",
            "arena --width 4 --height 4 --p1 random --p2 hard --games 50",
            "show --moves 1212121 --json",
            "experiment --check experiments/table1.json",
            "bench --filter late",
            "quarto solve --size 3 --attributes 2 --analyze",
            "quarto show --moves LSRF",
            "book info books/normal-k4-6x5.ckbook",
            "book lookup books/misere-k4-6x5.ckbook --moves 44",
        ],
    );
    Case {
        args: command.split(' ').map(String::from).collect(),
        stdin: String::new(),
        close_stdout: true,
        expect: Expect::QuietEnd,
    }
}

/// Starts `case`; with `close_stdout`, its stdout is a pipe whose reading end is closed at once.
fn start(case: &Case) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_connectk"))
        .args(&case.args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if case.close_stdout {
        drop(child.stdout.take());
    }
    let mut stdin = child.stdin.take().expect("piped stdin");
    // A command that refuses its input may exit before reading it: a broken pipe here is fine.
    let _ = stdin.write_all(case.stdin.as_bytes());
    child
}

/// Runs `case` and says what was wrong with how it ended, if anything.
fn check(case: &Case) -> Option<String> {
    let mut child = start(case);
    let began = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            break status;
        }
        if began.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Some(format!("still running after {TIME_LIMIT:?}: a hang"));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        use std::io::Read;
        let _ = pipe.read_to_string(&mut stderr);
    }
    if stderr.contains("panicked") {
        return Some(format!("panicked: {stderr}"));
    }
    let Some(code) = status.code() else {
        return Some(format!("killed by a signal ({status}): {stderr}"));
    };
    let wanted = match case.expect {
        Expect::Refusal => 2,
        Expect::QuietEnd => 0,
        Expect::InputEnds => 1,
    };
    if code != wanted {
        return Some(format!("exit status {code}, expected {wanted}: {stderr}"));
    }
    if case.expect == Expect::Refusal && !stderr.to_lowercase().contains("error") {
        return Some(format!("refused without an error message: {stderr:?}"));
    }
    None
}

#[test]
fn a_seeded_corpus_of_hostile_invocations_is_refused_cleanly() {
    let files = Files::new();
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let cases: Vec<Case> = (0..INVOCATIONS).map(|_| case(&mut rng, &files)).collect();
    // Every kind of ending is in the corpus.
    for expect in [Expect::Refusal, Expect::QuietEnd, Expect::InputEnds] {
        assert!(
            cases.iter().any(|c| c.expect == expect),
            "no {expect:?} case"
        );
    }
    let next = AtomicUsize::new(0);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    let mut failures = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(case) = cases.get(i) else { break };
                        if let Some(problem) = check(case) {
                            failures
                                .push(format!("#{i} connectk {}: {problem}", case.args.join(" ")));
                        }
                    }
                    failures
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    std::fs::remove_dir_all(&files.dir).unwrap();
    eprintln!(
        "{} hostile invocations, {} went wrong",
        cases.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} invocations went wrong:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Runs the binary from the package root with `args`; returns its exit status and stderr.
fn run(args: &[std::ffi::OsString]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_connectk"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The words of `command`, split at spaces, with `{NAME}` replaced by the path of `NAME`: a
/// word that is only `{NAME}` becomes the path as it is (which need not be UTF-8).
fn command(template: &str, paths: &[(&str, &std::path::Path)]) -> Vec<std::ffi::OsString> {
    template
        .split(' ')
        .map(|word| {
            let mut text = word.to_string();
            for (name, path) in paths {
                let slot = format!("{{{name}}}");
                if word == slot {
                    return path.as_os_str().to_owned();
                }
                text = text.replace(&slot, &path.display().to_string());
            }
            text.into()
        })
        .collect()
}

/// A scratch directory of its own for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("connectk-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every path under `dir`, with the contents of its files.
fn snapshot(dir: &std::path::Path) -> Vec<(PathBuf, Option<Vec<u8>>)> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            pending.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            found.push((path, None));
        } else {
            let bytes = std::fs::read(&path).unwrap();
            found.push((path, Some(bytes)));
        }
    }
    found.sort();
    found
}

/// Whether `/dev/full` is there, as the character device that fails every write.
fn dev_full() -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::metadata("/dev/full").is_ok_and(|m| m.file_type().is_char_device())
}

/// Subcommands that write a file, `{OUT}` standing for it. (`book build` also keeps its rows
/// beside the book, so /dev/full would put a file in /dev: it is left out of that one.)
const FILE_WRITERS: &[&str] = &[
    "arena --rules misere --width 4 --height 4 -k 3 --p1 random --p2 random --games 5 --out {OUT}",
    "hint-bench --width 4 --height 4 --games 1 --depth weak --out {OUT}",
    "book merge --width 4 --height 4 --out {OUT} {BOOK}",
    "quarto arena --size 2 --attributes 2 --p1 random --p2 random --games 3 --out {OUT}",
    "quarto merge --size 2 --attributes 2 --turns 2 {SPLIT} --md {OUT}",
    "quarto prove --size 2 --attributes 2 --turns 1 --table-mb 1 --csv {PROOF} --md {OUT}",
    "quarto prove --size 2 --attributes 2 --turns 1 --table-mb 1 --csv {OUT}",
    "quarto split --size 2 --attributes 2 --turns 2 --table-mb 1 --csv {OUT}",
];

/// Subcommands that write into a directory, `{OUT}` standing for it.
const DIRECTORY_WRITERS: &[&str] = &[
    "table1 --max-cells 4 --k-max 3 --out {OUT}",
    "annulus --max-cells 4 --k-max 3 --out {OUT}",
    "sizes -k 3 --min-side 2 --max-sum 5 --time-limit 10 --table-mb 16 --out {OUT}",
    "tournament --width 4 --height 4 --players random,easy --games 1 --out-dir {OUT}",
    "paper-check --out {OUT}",
    "uci-dataset --data {UCI} --out {OUT}",
    "merge {SHARD} --out {OUT}",
    "annulus-merge {RING} --out {OUT}",
    "quarto sweep --only 2x2 --table-mb 1 --out {OUT}",
];

/// The inputs the writers read, made in `dir` by the binary itself.
fn writer_inputs(dir: &std::path::Path) -> Vec<(&'static str, PathBuf)> {
    let inputs = vec![
        ("BOOK", dir.join("m44.ckbook")),
        ("SPLIT", dir.join("split.csv")),
        ("PROOF", dir.join("proof.csv")),
        ("UCI", dir.join("one.data")),
        ("SHARD", dir.join("t1").join("table1.shard-1-of-1.csv")),
        ("RING", dir.join("ring").join("annulus.shard-1-of-1.csv")),
    ];
    let paths: Vec<(&str, &std::path::Path)> =
        inputs.iter().map(|(n, p)| (*n, p.as_path())).collect();
    let t1 = dir.join("t1");
    let ring = dir.join("ring");
    let paths = [&paths[..], &[("T1", t1.as_path()), ("R", ring.as_path())]].concat();
    for made in [
        "book build --width 4 --height 4 --plies 2 --cover all --out {BOOK}",
        "quarto split --size 2 --attributes 2 --turns 2 --table-mb 1 --csv {SPLIT}",
        // Made now, a proof asks nothing more of its CSV when its report cannot be written.
        "quarto prove --size 2 --attributes 2 --turns 1 --table-mb 1 --csv {PROOF}",
        "table1 --max-cells 4 --k-max 3 --shard 1/1 --out {T1}",
        "annulus --max-cells 4 --k-max 3 --shard 1/1 --out {R}",
    ] {
        assert_eq!(run(&command(made, &paths)).0, Some(0), "{made}");
    }
    let line =
        "x,x,x,b,b,b,o,o,o,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,win";
    std::fs::write(dir.join("one.data"), format!("{line}\n")).unwrap();
    inputs
}

/// Runs `args`, which must fail on `out`: exit status 2 and one line on stderr naming `out`
/// with the reason once; nothing in `dir` and no device changed.
fn refused_output(args: &[std::ffi::OsString], out: &std::path::Path, dir: &std::path::Path) {
    let shown = args
        .iter()
        .map(|a| a.to_string_lossy())
        .collect::<Vec<_>>()
        .join(" ");
    let before = snapshot(dir);
    let (code, stderr) = run(args);
    assert!(!stderr.contains("panicked"), "{shown}: {stderr}");
    assert_eq!(code, Some(2), "{shown}: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{shown}: one line expected: {stderr}");
    assert!(lines[0].starts_with("error: "), "{shown}: {stderr}");
    assert!(
        lines[0].contains(&out.display().to_string()),
        "{shown}: the line does not name {}: {stderr}",
        out.display()
    );
    assert!(
        lines[0].matches("(os error").count() <= 1,
        "{shown}: the reason twice: {stderr}"
    );
    assert!(
        snapshot(dir) == before,
        "{shown}: changed files in {}",
        dir.display()
    );
    if out.starts_with("/dev") {
        assert!(
            dev_full(),
            "{shown}: /dev/full is no longer a character device"
        );
    }
}

#[test]
fn unwritable_outputs_are_reported_naming_the_path_and_nothing_is_replaced() {
    let dir = scratch("outputs");
    let inputs = writer_inputs(&dir);
    let file = dir.join("a-file");
    std::fs::write(&file, "keep").unwrap();
    let directory = dir.join("a-directory");
    std::fs::create_dir_all(&directory).unwrap();
    if !dev_full() {
        eprintln!("note: no /dev/full here: its cases are skipped");
    }
    let full = dev_full().then(|| PathBuf::from("/dev/full"));
    let proc = PathBuf::from("/proc/self/status/connectk-out");
    let files = [
        full.clone(),
        Some(file.join("x.csv")),
        Some(directory),
        Some(proc.clone()),
    ];
    let directories = [full, Some(file.clone()), Some(file.join("sub")), Some(proc)];
    let cases = FILE_WRITERS
        .iter()
        .flat_map(|w| files.iter().flatten().map(move |out| (*w, out)))
        .chain(
            DIRECTORY_WRITERS
                .iter()
                .flat_map(|w| directories.iter().flatten().map(move |out| (*w, out))),
        );
    for (writer, out) in cases {
        let mut paths: Vec<(&str, &std::path::Path)> =
            inputs.iter().map(|(n, p)| (*n, p.as_path())).collect();
        paths.push(("OUT", out.as_path()));
        refused_output(&command(writer, &paths), out, &dir);
    }
    // `book build` with every destination but /dev/full.
    for out in [
        file.join("x.ckbook"),
        dir.join("a-directory"),
        PathBuf::from("/proc/self/status/b"),
    ] {
        let build = "book build --width 4 --height 4 --plies 2 --cover all --out {OUT}";
        refused_output(&command(build, &[("OUT", out.as_path())]), &out, &dir);
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// `text` with the byte 0xFF (never part of UTF-8) in place of every `~`.
fn not_utf8(text: &str) -> std::ffi::OsString {
    use std::os::unix::ffi::OsStringExt;
    std::ffi::OsString::from_vec(
        text.bytes()
            .map(|b| if b == b'~' { 0xFF } else { b })
            .collect(),
    )
}

#[test]
fn arguments_that_are_not_utf8_are_taken_as_paths_or_refused_without_a_panic() {
    let dir = scratch("bytes");
    let dir_path = dir.display().to_string();
    let at = |name: &str| not_utf8(&format!("{dir_path}/{name}"));
    // Refused: a value that must be text, an unknown option or subcommand, a missing file.
    let refused: Vec<Vec<std::ffi::OsString>> = vec![
        vec!["solve".into(), "--book".into(), not_utf8("a~")],
        vec!["solve".into(), "--moves".into(), not_utf8("4~")],
        vec!["show".into(), "--rules".into(), not_utf8("normal~")],
        vec!["solve".into(), not_utf8("--~")],
        vec![not_utf8("so~ve")],
        vec!["book".into(), "info".into(), not_utf8("a~.ckbook")],
        vec!["merge".into(), at("t~.csv")],
        vec!["annulus-merge".into(), at("r~.csv")],
        vec!["quarto".into(), "merge".into(), at("q~.csv")],
        vec!["uci-dataset".into(), "--data".into(), at("u~.data")],
    ];
    for args in &refused {
        let (code, stderr) = run(args);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    }
    // Taken: a results folder and an output file whose names are not UTF-8.
    let folder = at("results~");
    let table1 = "table1 --max-cells 3 --k-max 2 --out";
    let mut args: Vec<std::ffi::OsString> = table1.split(' ').map(Into::into).collect();
    args.push(folder.clone());
    let (code, stderr) = run(&args);
    assert_eq!(code, Some(0), "{stderr}");
    let record = std::fs::read_to_string(PathBuf::from(&folder).join("run.json")).unwrap();
    assert!(record.contains("results\u{fffd}"), "{record}");
    let games = at("games~.csv");
    let arena = "arena --width 4 --height 4 --p1 random --p2 random --games 2 --out";
    let mut args: Vec<std::ffi::OsString> = arena.split(' ').map(Into::into).collect();
    args.push(games.clone());
    let (code, stderr) = run(&args);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(PathBuf::from(&games).is_file());
    // A size-table shard whose name is not UTF-8: its open.* file cannot be named from it.
    let sizes = dir.join("s");
    let made =
        "sizes -k 3 --min-side 2 --max-sum 4 --time-limit 10 --table-mb 16 --shard 1/1 --out {S}";
    assert_eq!(run(&command(made, &[("S", &sizes)])).0, Some(0));
    let renamed = PathBuf::from(not_utf8(&format!("{}/sizes.~.csv", sizes.display())));
    std::fs::rename(sizes.join("sizes.shard-1-of-1.csv"), &renamed).unwrap();
    let (code, stderr) = run(&["merge".into(), renamed.into_os_string()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("not UTF-8"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A file of results that a subcommand writes and others read back.
struct Results {
    /// The command that writes it: `{D}` is its directory.
    make: &'static str,
    /// The file's name in `{D}`.
    file: &'static str,
    /// Commands that read it back: `{F}` is the file, `{D}` its directory (a rerun resumes
    /// there), `{O}` a directory for a merge's outputs.
    readers: &'static [&'static str],
    /// Edits of line 3: a column, and the value put in it.
    values: &'static [(&'static str, &'static str)],
    /// A column to take out of every line.
    column: &'static str,
}

/// Every kind of results file with what reads it back, and edits of its own words.
const RESULTS: &[Results] = &[
    Results {
        make: "annulus --max-cells 4 --k-max 3 --out {D}",
        file: "annulus.csv",
        readers: &[
            "annulus-merge {F} --out {O}",
            "annulus --max-cells 4 --k-max 3 --out {D}",
        ],
        values: &[
            ("outcome", "Banana"),
            ("rules", "chess"),
            ("topology", "torus"),
            ("depth", "deep"),
            ("flat_table1", "P3"),
            ("nodes", "many"),
        ],
        column: "outcome",
    },
    Results {
        make: "annulus --max-cells 4 --k-max 3 --strong-nodes 1 --weak-nodes 1 --out {D}",
        file: "open.csv",
        readers: &["annulus --max-cells 4 --k-max 3 --strong-nodes 1 --weak-nodes 1 --out {D}"],
        values: &[
            ("rules", "chess"),
            ("k", "x"),
            ("strong_nodes", "many"),
            ("table_mb", "-1"),
        ],
        column: "weak_nodes",
    },
    Results {
        make: "table1 --max-cells 4 --k-max 3 --out {D}",
        file: "table1.csv",
        readers: &[
            "merge {F} --out {O}",
            "table1 --max-cells 4 --k-max 3 --out {D}",
        ],
        values: &[
            ("solver", "Banana"),
            ("rules", "chess"),
            ("paper", "Maybe"),
            ("agree", "perhaps"),
            ("k", "-1"),
        ],
        column: "solver",
    },
    Results {
        make: "sizes -k 3 --min-side 2 --max-sum 5 --time-limit 10 --table-mb 16 --out {D}",
        file: "sizes.csv",
        readers: &[
            "merge {F} --out {O}",
            "sizes -k 3 --min-side 2 --max-sum 5 --time-limit 10 --table-mb 16 --out {D}",
        ],
        values: &[
            ("outcome", "Banana"),
            ("rules", "chess"),
            ("table1", "P3"),
            ("published", "P1 x"),
            ("remoteness", "many"),
        ],
        column: "outcome",
    },
    Results {
        make: "quarto split --size 3 --attributes 2 --turns 2 --table-mb 1 --csv {D}/split.csv",
        file: "split.csv",
        readers: &[
            "quarto merge --size 3 --attributes 2 --turns 2 {F}",
            "quarto split --size 3 --attributes 2 --turns 2 --table-mb 1 --csv {F}",
        ],
        values: &[
            ("outcome", "Banana"),
            ("remoteness", "many"),
            ("nodes", "-1"),
        ],
        column: "outcome",
    },
    Results {
        make: "quarto sweep --only 2x2 --table-mb 1 --out {D}",
        file: "variations.csv",
        readers: &["quarto sweep --only 2x2 --table-mb 1 --out {D}"],
        values: &[
            ("outcome", "Banana"),
            ("rules", "chess"),
            ("squares", "maybe"),
        ],
        column: "outcome",
    },
    Results {
        make: "book build --width 4 --height 4 --plies 2 --cover all --out {D}/b.ckbook",
        file: "b.rows.csv",
        readers: &[
            "book merge --width 4 --height 4 --out {O}/m.ckbook {F}",
            "book build --width 4 --height 4 --plies 2 --cover all --out {D}/b.ckbook",
        ],
        values: &[("outcome", "Banana"), ("plies", "many")],
        column: "outcome",
    },
];

/// `text`, a CSV file, with `edit` applied to each record, given its index (the header is
/// record 0) and the header.
fn edit_records(text: &str, edit: impl Fn(usize, &mut Vec<String>, &[String])) -> String {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    let records: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    let header = records[0].clone();
    let mut writer = csv::Writer::from_writer(Vec::new());
    for (i, mut record) in records.into_iter().enumerate() {
        edit(i, &mut record, &header);
        writer.write_record(&record).unwrap();
    }
    String::from_utf8(writer.into_inner().unwrap()).unwrap()
}

/// The edits of one results file: the edited text, and what the refusal must say after the
/// file's path.
fn edits(results: &Results, text: &str) -> Vec<(String, String)> {
    let mut edits = Vec::new();
    for &(column, value) in results.values {
        let edited = edit_records(text, |i, record, header| {
            if let Some(at) = header.iter().position(|c| c == column).filter(|_| i == 2) {
                record[at] = value.to_string();
            }
        });
        edits.push((edited, format!(" line 3: field {column}: \"{value}\"")));
    }
    let dropped = edit_records(text, |_, record, header| {
        if let Some(at) = header.iter().position(|c| c == results.column) {
            record.remove(at);
        }
    });
    edits.push((
        dropped,
        format!(" line 2: missing field `{}`", results.column),
    ));
    let lines: Vec<&str> = text.lines().collect();
    let torn = lines[2].len() / 2;
    let cut = format!(
        "{}\n{}\n{}\n",
        lines[..2].join("\n"),
        &lines[2][..torn],
        lines[3..].join("\n")
    );
    edits.push((cut, " line 3: ".to_string()));
    edits
}

#[test]
fn edited_result_files_are_refused_naming_file_line_and_field() {
    for (index, results) in RESULTS.iter().enumerate() {
        let dir = scratch(&format!("edited-{index}"));
        let out = dir.join("out");
        let paths = [("D", dir.as_path()), ("O", out.as_path())];
        let made = command(results.make, &paths);
        let made: Vec<std::ffi::OsString> = made
            .iter()
            .map(|w| {
                w.to_string_lossy()
                    .replace("{D}", &dir.display().to_string())
                    .replace('_', " ")
                    .into()
            })
            .collect();
        assert_eq!(run(&made).0, Some(0), "{}", results.make);
        let file = dir.join(results.file);
        let original = std::fs::read_to_string(&file).unwrap();
        assert!(
            original.lines().count() >= 4,
            "{}: {original}",
            results.file
        );
        for (edited, expected) in edits(results, &original) {
            for reader in results.readers {
                std::fs::write(&file, &edited).unwrap();
                let mut paths = paths.to_vec();
                paths.push(("F", file.as_path()));
                let args: Vec<std::ffi::OsString> = command(reader, &paths)
                    .iter()
                    .map(|w| {
                        w.to_string_lossy()
                            .replace("{D}", &dir.display().to_string())
                            .replace('_', " ")
                            .into()
                    })
                    .collect();
                let (code, stderr) = run(&args);
                assert!(!stderr.contains("panicked"), "{reader}: {stderr}");
                assert_eq!(code, Some(2), "{reader} on {expected}: {stderr}");
                let wanted = format!("{}{expected}", file.display());
                assert!(
                    stderr.contains(&wanted),
                    "{reader}: {wanted:?} not in {stderr}"
                );
                assert_eq!(stderr.lines().count(), 1, "{reader}: {stderr}");
            }
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// Numbers in range for their type but not for their board: a book row's remoteness past the
/// empty cells (once a panic in the book's byte conversion) and a Quarto opening's past the
/// turns left.
#[test]
fn remoteness_that_does_not_fit_the_board_is_refused() {
    let dir = scratch("remoteness");
    let out = dir.join("merged.ckbook");
    let paths = [("D", dir.as_path()), ("O", out.as_path())];
    let build = "book build --width 4 --height 4 --plies 2 --cover all --out {D}/b.ckbook";
    let split = "quarto split --size 3 --attributes 2 --turns 2 --table-mb 1 --csv {D}/split.csv";
    for made in [build, split] {
        assert_eq!(run(&command(made, &paths)).0, Some(0), "{made}");
    }
    let cases = [
        (
            "b.rows.csv",
            "300",
            "book merge --width 4 --height 4 --out {O} {D}/b.rows.csv",
            "remoteness 300",
        ),
        (
            "b.rows.csv",
            "0",
            "book merge --width 4 --height 4 --out {O} {D}/b.rows.csv",
            "remoteness 0",
        ),
        (
            "split.csv",
            "99",
            "quarto merge --size 3 --attributes 2 --turns 2 {D}/split.csv",
            "line 3: field remoteness: 99",
        ),
    ];
    for (file, value, reader, expected) in cases {
        let path = dir.join(file);
        let original = std::fs::read_to_string(&path).unwrap();
        let edited = edit_records(&original, |i, record, header| {
            if let Some(at) = header
                .iter()
                .position(|c| c == "remoteness")
                .filter(|_| i == 2)
            {
                record[at] = value.to_string();
            }
        });
        std::fs::write(&path, edited).unwrap();
        let (code, stderr) = run(&command(reader, &paths));
        assert!(!stderr.contains("panicked"), "{reader}: {stderr}");
        assert_eq!(code, Some(2), "{reader}: {stderr}");
        assert!(stderr.contains(expected), "{reader}: {stderr}");
        assert!(!out.exists(), "{reader}: a book was written");
        std::fs::write(&path, original).unwrap();
    }
    std::fs::remove_dir_all(dir).unwrap();
}
