//! The example sessions of README.md and of the guides in `docs/`, run: every `$ connectk ...`
//! line in a ```text block is run (in a scratch directory, with this build's binary as `connectk`) and its
//! output must be the one shown, apart from timings. A `[...]` line in the README stands for
//! any number of lines. A block right after the comment `<!-- readme-test: skip (REASON) -->`
//! is not run (a session that takes minutes, say).
//!
//! `CONNECTK_UPDATE_README=1 cargo test --release --test cli readme` writes the actual output
//! into the documents instead, for the examples without `[...]`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One example: the command after `$ `, the lines shown after it, and where it is.
struct Example {
    /// Line of the `$ ` in its document, from 1.
    line: usize,
    command: String,
    /// The lines shown as its output (indices into the document's lines: `first..end`).
    first: usize,
    end: usize,
}

/// The marker that keeps the next block from being run.
const SKIP: &str = "<!-- readme-test: skip";

fn readme_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")
}

/// Every example of the README's text blocks.
fn examples(lines: &[&str]) -> Vec<Example> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i] != "```text" {
            i += 1;
            continue;
        }
        let skipped = lines[..i]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.starts_with(SKIP));
        let close = (i + 1..lines.len())
            .find(|&j| lines[j] == "```")
            .expect("every text block is closed");
        let mut j = i + 1;
        while j < close {
            let Some(command) = lines[j].strip_prefix("$ ") else {
                j += 1;
                continue;
            };
            let end = (j + 1..close)
                .find(|&k| lines[k].starts_with("$ "))
                .unwrap_or(close);
            if !skipped && command.contains("connectk ") {
                found.push(Example {
                    line: j + 1,
                    command: command.to_string(),
                    first: j + 1,
                    end,
                });
            }
            j = end;
        }
        i = close + 1;
    }
    found
}

/// `text` with its timings replaced by `<time>`: seconds in text and JSON, and the micros
/// column of `solve --batch`.
fn mask(text: &str) -> String {
    text.lines()
        .map(|line| {
            let line = line.trim_end();
            let words: Vec<String> = line
                .split(' ')
                .enumerate()
                .map(|(i, word)| {
                    let next_is_unit = line.split(' ').nth(i + 1) == Some("s");
                    let unit_attached = word.strip_suffix("s").is_some_and(is_decimal);
                    if (next_is_unit && is_decimal(word.trim_end_matches(','))) || unit_attached {
                        "<time>".to_string()
                    } else {
                        word.to_string()
                    }
                })
                .collect();
            let line = words.join(" ");
            let line = match line.find("\"seconds\":") {
                Some(at) => {
                    let rest = &line[at + 10..];
                    let end = rest.find(['}', ',']).unwrap_or(rest.len());
                    format!("{}\"seconds\":<time>{}", &line[..at], &rest[end..])
                }
                None => line,
            };
            mask_batch_micros(&line)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `word` is a number with a decimal point.
fn is_decimal(word: &str) -> bool {
    word.contains('.') && word.parse::<f64>().is_ok()
}

/// A `solve --batch` line (`moves,outcome,remoteness,nodes,micros`) with its micros masked.
fn mask_batch_micros(line: &str) -> String {
    let fields: Vec<&str> = line.split(',').collect();
    let is_row = fields.len() == 5
        && ["P1", "P2", "Draw"].contains(&fields[1])
        && fields[3].parse::<u64>().is_ok()
        && fields[4].parse::<u64>().is_ok();
    if is_row {
        format!("{},<time>", fields[..4].join(","))
    } else {
        line.to_string()
    }
}

/// Runs `command` with this build's binary first on the PATH, in `dir`; stdout and stderr
/// together, in the order written.
fn run(command: &str, dir: &Path) -> String {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_connectk"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("{command} 2>&1"))
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .expect("sh runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Whether `actual` shows `expected`, where a `[...]` line of `expected` stands for any lines.
fn shows(actual: &[&str], expected: &[&str]) -> bool {
    let segments: Vec<&[&str]> = expected.split(|l| *l == "[...]").collect();
    let mut at = 0;
    for (i, segment) in segments.iter().enumerate() {
        let (first, last) = (i == 0, i == segments.len() - 1);
        let fits = |start: usize| actual.get(start..start + segment.len()) == Some(*segment);
        let start = if first {
            fits(0).then_some(0)
        } else if last {
            let start = actual.len().checked_sub(segment.len());
            start.filter(|&s| s >= at && fits(s))
        } else {
            (at..=actual.len().saturating_sub(segment.len())).find(|&s| fits(s))
        };
        let Some(start) = start else { return false };
        at = start + segment.len();
        if first && last {
            return at == actual.len();
        }
    }
    true
}

/// The documents whose sessions are run: README.md and every Markdown file in `docs/`, which
/// the README links for the longer guides.
fn documents() -> Vec<PathBuf> {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&docs)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found.insert(0, readme_path());
    found
}

/// Runs every example of the document at `path` in `dir`; returns the ones whose output
/// differs (or, with `update`, writes the actual output into the document instead).
fn check_document(path: &Path, dir: &Path, update: bool) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let found = examples(&lines);
    let name = path.file_name().unwrap().to_string_lossy();
    let mut replaced: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut wrong = Vec::new();
    for example in &found {
        let actual = run(&example.command, dir);
        let mut shown: Vec<&str> = lines[example.first..example.end].to_vec();
        while shown.last().is_some_and(|l| l.trim().is_empty()) {
            shown.pop();
        }
        let (actual_masked, shown_masked) = (mask(&actual), mask(&shown.join("\n")));
        let actual_lines: Vec<&str> = actual_masked.lines().collect();
        let shown_lines: Vec<&str> = shown_masked.lines().collect();
        if shows(&actual_lines, &shown_lines) {
            continue;
        }
        if update && !shown.contains(&"[...]") {
            let end = example.first + shown.len();
            replaced.push((
                example.first,
                end,
                actual.lines().map(String::from).collect(),
            ));
        } else {
            wrong.push(format!(
                "{name} line {}: `{}` printed:\n{}\n",
                example.line, example.command, actual
            ));
        }
    }
    if !replaced.is_empty() {
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for (first, end, new) in replaced.into_iter().rev() {
            out.splice(first..end, new);
        }
        std::fs::write(path, out.join("\n") + "\n").unwrap();
    }
    wrong
}

#[test]
fn every_example_session_of_the_documents_shows_what_connectk_prints() {
    let readme = std::fs::read_to_string(readme_path()).unwrap();
    let in_readme = examples(&readme.lines().collect::<Vec<_>>()).len();
    assert!(
        in_readme >= 10,
        "only {in_readme} examples found in README.md"
    );
    let dir = std::env::temp_dir().join(format!("connectk-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let update = std::env::var_os("CONNECTK_UPDATE_README").is_some();
    let wrong: Vec<String> = documents()
        .iter()
        .flat_map(|path| check_document(path, &dir, update))
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_matcher_takes_elisions_and_masks_timings() {
    assert!(shows(&["a", "b", "c", "d"], &["a", "[...]", "d"]));
    assert!(shows(&["a", "b", "c"], &["a", "b", "c"]));
    assert!(!shows(&["a", "b", "c"], &["a", "b"]));
    assert!(!shows(&["a", "x", "d"], &["a", "[...]", "c", "[...]", "d"]));
    assert!(shows(
        &["a", "x", "c", "y", "d"],
        &["a", "[...]", "c", "[...]", "d"]
    ));
    assert_eq!(mask("nodes 45679, 0.225 s"), "nodes 45679, <time> s");
    assert_eq!(
        mask("played 12 games in 3.1 s"),
        "played 12 games in <time> s"
    );
    assert_eq!(
        mask(r#"{"nodes":5,"seconds":0.1}"#),
        r#"{"nodes":5,"seconds":<time>}"#
    );
    assert_eq!(mask("4453,P2,16,7349,52929"), "4453,P2,16,7349,<time>");
}
