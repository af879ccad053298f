//! How a results folder was made: connectk's version and commit, the command, the date, the
//! machine and the wall time, written beside the results as `run.json`.
//!
//! The result files themselves (CSV, Markdown, plots) hold nothing that depends on when or
//! where they were made, so that running the same command again writes them byte for byte the
//! same; this record is the one file that changes.

use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;

use super::export::{ExportError, write_text};

/// The record of one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Provenance {
    /// connectk's version (`Cargo.toml`).
    pub version: &'static str,
    /// The commit the binary was built from, `-modified` when the work tree had changes
    /// (`unknown` outside a git checkout).
    pub commit: &'static str,
    /// The command, as typed (the program named `connectk`).
    pub command: String,
    /// When the run ended, UTC, as `2026-11-25T10:27:56Z`.
    pub date: String,
    /// The machine: cores and memory.
    pub machine: Machine,
    /// Wall-clock seconds of the run.
    pub wall_seconds: f64,
}

/// The machine a run was made on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Machine {
    /// Cores available to the process.
    pub cores: usize,
    /// Physical memory in MiB, where the system says (Linux).
    pub memory_mib: Option<u64>,
    /// The operating system and architecture, as `linux x86_64`.
    pub system: String,
}

impl Machine {
    /// This machine.
    pub(crate) fn this() -> Machine {
        Machine {
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_mib: memory_mib(),
            system: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        }
    }
}

/// Physical memory in MiB from `/proc/meminfo`, where there is one.
pub fn memory_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

impl Provenance {
    /// The record of a run of `command` (its words after the program's name) that took `wall`.
    pub fn now(command: &[String], wall: Duration) -> Provenance {
        Provenance {
            version: env!("CARGO_PKG_VERSION"),
            commit: env!("CONNECTK_COMMIT"),
            command: command_line(command),
            date: utc_date(SystemTime::now()),
            machine: Machine::this(),
            wall_seconds: (wall.as_secs_f64() * 1e3).round() / 1e3,
        }
    }

    /// Writes the record as `run.json` in `dir`.
    ///
    /// # Errors
    /// [`ExportError::Io`] when the file cannot be written.
    pub fn write(&self, dir: &Path) -> Result<(), ExportError> {
        let text = serde_json::to_string_pretty(self).expect("the record serialises") + "\n";
        write_text(&dir.join("run.json"), &text)
    }
}

/// The sentence with which a report names how it was made: the command quoted, the version,
/// and the file that records the rest.
pub(crate) fn written_by(command: &str) -> String {
    format!(
        "Written by `{command}` (connectk {}; when, on which machine and how long: `run.json`)",
        env!("CARGO_PKG_VERSION")
    )
}

/// `command` as one line that a shell would split back into the same words (`connectk ...`).
pub fn command_line(command: &[String]) -> String {
    let quoted = command.iter().map(|word| {
        let plain = !word.is_empty()
            && word
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./,=:@%+".contains(c));
        if plain {
            word.clone()
        } else {
            format!("'{}'", word.replace('\'', r"'\''"))
        }
    });
    std::iter::once("connectk".to_string())
        .chain(quoted)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `time` as a UTC date and time, `YYYY-MM-DDTHH:MM:SSZ`.
pub(crate) fn utc_date(time: SystemTime) -> String {
    let seconds = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The Gregorian date of the day `days` after 1970-01-01 (Howard Hinnant's well-known
/// days-to-civil arithmetic, in eras of 400 years).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u32;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_calendar_dates() {
        assert_eq!(utc_date(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        // 2026-11-25 10:27:56 UTC.
        let t = UNIX_EPOCH + Duration::from_secs(1_795_602_476);
        assert_eq!(utc_date(t), "2026-11-25T10:27:56Z");
        // A leap day.
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(utc_date(t), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn command_lines_quote_what_a_shell_would_split() {
        let words = ["table1", "--out", "my results", "--k-max", "6"].map(String::from);
        assert_eq!(
            command_line(&words),
            "connectk table1 --out 'my results' --k-max 6"
        );
    }
}
