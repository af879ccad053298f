//! Experiment specs (`experiments/*.json`): a name, a description and the connectk argument
//! lists to run in order.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Deserialize;

/// An experiment spec: `{"name": ..., "description": ..., "runs": [["table1", "--max-cells",
/// "24"], ...]}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// The experiment's name.
    pub name: String,
    /// What the experiment does, for the log of a run.
    pub description: String,
    /// The runs, each a connectk argument list without the program's name.
    pub runs: Vec<Vec<String>>,
}

/// Why a spec cannot be read or run.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// The file cannot be read.
    #[error("cannot read experiment spec {path}: {source}")]
    Unreadable {
        /// The spec's path.
        path: String,
        /// What reading it said.
        source: std::io::Error,
    },
    /// The file is not a spec.
    #[error("bad experiment spec {path}: {source} (expected fields name, description, runs)")]
    Malformed {
        /// The spec's path.
        path: String,
        /// What parsing it said.
        source: serde_json::Error,
    },
    /// The spec lists no run.
    #[error("{path}: no runs: list at least one argument list under \"runs\"")]
    NoRuns {
        /// The spec's path.
        path: String,
    },
    /// The spec runs itself, directly or through others.
    #[error("experiment specs run each other in a circle: {0}")]
    Circle(String),
}

impl Spec {
    /// Reads the spec at `path`.
    ///
    /// # Errors
    /// [`SpecError`] for a file that cannot be read, is not a spec, or lists no run.
    pub fn read(path: &Path) -> Result<Spec, SpecError> {
        let shown = || path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| SpecError::Unreadable {
            path: shown(),
            source,
        })?;
        let spec: Spec = serde_json::from_str(&text).map_err(|source| SpecError::Malformed {
            path: shown(),
            source,
        })?;
        if spec.runs.is_empty() {
            return Err(SpecError::NoRuns { path: shown() });
        }
        Ok(spec)
    }

    /// The runs, with every argument that is `results` or starts with `results/` moved under
    /// `dir` when one is given, so that a rerun can leave the committed results alone.
    pub fn runs_under(&self, dir: Option<&Path>) -> Vec<Vec<String>> {
        let Some(dir) = dir else {
            return self.runs.clone();
        };
        let moved = |arg: &String| {
            let rest = if arg == "results" {
                Some("")
            } else {
                arg.strip_prefix("results/")
            };
            rest.map_or_else(|| arg.clone(), |rest| dir.join(rest).display().to_string())
        };
        self.runs
            .iter()
            .map(|run| run.iter().map(moved).collect())
            .collect()
    }
}

/// The specs being run, outermost first. A spec may run others, so the process keeps one
/// stack of them to refuse a spec that would run itself forever.
static RUNNING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A spec being run: made by [`Running::enter`], it leaves the stack of specs being run when
/// dropped.
#[derive(Debug)]
pub struct Running(());

impl Running {
    /// Marks the spec at `path` as being run.
    ///
    /// # Errors
    /// [`SpecError::Circle`] when it is already being run (it runs itself, directly or
    /// through others); [`SpecError::Unreadable`] when its path cannot be resolved.
    pub fn enter(path: &Path) -> Result<Running, SpecError> {
        let key = path
            .canonicalize()
            .map_err(|source| SpecError::Unreadable {
                path: path.display().to_string(),
                source,
            })?;
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        if running.contains(&key) {
            let mut cycle: Vec<String> = running.iter().map(|p| p.display().to_string()).collect();
            cycle.push(key.display().to_string());
            return Err(SpecError::Circle(cycle.join(" -> ")));
        }
        running.push(key);
        Ok(Running(()))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.lock().unwrap_or_else(|e| e.into_inner()).pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_paths_move_under_the_given_directory() {
        let spec = Spec {
            name: "t".to_string(),
            description: String::new(),
            runs: vec![vec![
                "table1".to_string(),
                "--out".to_string(),
                "results/table1".to_string(),
                "results".to_string(),
                "resultsx".to_string(),
            ]],
        };
        let moved = spec.runs_under(Some(Path::new("/tmp/r")));
        assert_eq!(moved[0][2], "/tmp/r/table1");
        assert_eq!(moved[0][3], "/tmp/r/");
        assert_eq!(moved[0][4], "resultsx");
        assert_eq!(spec.runs_under(None), spec.runs);
    }
}
