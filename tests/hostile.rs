//! A seeded corpus of hostile invocations of every subcommand, as a careless script or a new
//! user would type them: bad numbers, sizes, names and move strings, malformed files of every
//! kind the tools read, unwritable paths, garbage piped into `play`, and a closed stdout. Each
//! must end on its own within its time limit, without a panic or a signal, with the exit status
//! its help promises (2 for bad input, with a message on stderr), never accepting nonsense.
//!
//! The corpus needs nothing outside the repository; its files live in a scratch directory.

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

/// One hostile invocation of a random subcommand.
fn case(rng: &mut ChaCha8Rng, files: &Files) -> Case {
    let n = |rng: &mut ChaCha8Rng| pick(rng, BAD_NUMBERS).to_string();
    let board = |rng: &mut ChaCha8Rng| {
        let (option, value) = BAD_BOARDS[rng.random_range(0..BAD_BOARDS.len())];
        words(&[option, value])
    };
    let file = |name: &str| files.path(name).display().to_string();
    match rng.random_range(0..19) {
        0 => {
            let mut args = words(&["show"]);
            if rng.random_bool(0.5) {
                args.extend(board(rng));
            } else {
                args.extend(words(&["--moves", pick(rng, BAD_MOVES)]));
            }
            refused(args)
        }
        1 => {
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
                _ => n(rng),
            };
            args.extend([option.to_string(), value]);
            refused(args)
        }
        2 => {
            let mut args = words(&["solve"]);
            if rng.random_bool(0.5) {
                args.extend(board(rng));
            } else {
                let source = pick(rng, &["/no/such/file", "a-directory", "garbage.txt"]);
                let path = if source.starts_with('/') {
                    source.to_string()
                } else {
                    file(source)
                };
                args.extend(words(&["--width", "4", "--height", "4", "--batch", &path]));
            }
            refused(args)
        }
        3 => {
            let mut args = words(&["perft"]);
            if rng.random_bool(0.5) {
                args.extend(board(rng));
            } else {
                args.extend(["--plies".to_string(), n(rng)]);
            }
            refused(args)
        }
        4 => {
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
                _ => ("--max-cells", n(rng)),
            };
            args.extend([option.to_string(), value]);
            refused(args)
        }
        5 => {
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
                args.push(if other.starts_with('/') {
                    other.to_string()
                } else {
                    file(other)
                });
            }
            refused(args)
        }
        6 => {
            let dir = pick(rng, &["/no/such/dir", "bench-garbage", "empty.txt"]);
            let dir = if dir.starts_with('/') {
                dir.to_string()
            } else {
                file(dir)
            };
            let mut args = words(&["bench", "--data", &dir]);
            if rng.random_bool(0.3) {
                args.extend(words(&["--threads", pick(rng, &["0", "65"])]));
            }
            refused(args)
        }
        7 => {
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
            let spec = if spec.starts_with('/') {
                spec.to_string()
            } else {
                file(spec)
            };
            let mut args = words(&["experiment", &spec]);
            if rng.random_bool(0.5) {
                args.push("--check".into());
            }
            refused(args)
        }
        8 => {
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
        9 => {
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
                &file(claims),
                "--out",
                UNWRITABLE,
            ]))
        }
        10 => {
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
        11 => {
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
        12 => {
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
        13 => {
            let data = pick(
                rng,
                &[
                    "/no/such/file",
                    "garbage.txt",
                    "uci-garbage.data",
                    "a-directory",
                ],
            );
            let data = if data.starts_with('/') {
                data.to_string()
            } else {
                file(data)
            };
            let mut args = words(&["uci-dataset", "--data", &data, "--out", UNWRITABLE]);
            match rng.random_range(0..4) {
                0 => args.extend(words(&["--every", "0"])),
                1 => args.extend(words(&["--every", "2", "--offset", "2"])),
                2 => args.extend(words(&["--threads", "0"])),
                _ => args.extend(words(&["--table-mb", "65536"])),
            }
            refused(args)
        }
        14 => refused(vec![
            pick(rng, &["frobnicate", "--bogus", "solve --moves", "SOLVE"]).to_string(),
        ]),
        15 => {
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
        16 => {
            let mut args = match rng.random_range(0..3) {
                0 => words(&["quarto", "merge", &file("a-directory")]),
                1 => words(&["quarto", "merge", "/no/such/file"]),
                _ => words(&["quarto", "merge", &file("garbage.txt")]),
            };
            if rng.random_bool(0.2) {
                let shard = pick(rng, &["/no/such/file", "a-directory", "garbage.txt"]);
                let shard = if shard.starts_with('/') {
                    shard.to_string()
                } else {
                    file(shard)
                };
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
        _ => {
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
