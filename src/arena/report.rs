//! What a tournament writes: one CSV row per pairing, a Markdown summary, and the two plots.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::matches::Standing;
use super::plot;
use super::stats::wilson;
use super::tournament::{PairingResult, Tournament};

/// Why a tournament's files could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A file or directory could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A CSV row could not be written.
    #[error("cannot write {path}: {source}")]
    Csv {
        /// The file.
        path: String,
        /// The underlying error.
        source: csv::Error,
    },
    /// A plot could not be drawn.
    #[error("cannot draw {path}: {message}")]
    Plot {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

/// One CSV row: a pairing, its counts from P1's side and 95% Wilson intervals. Every count and
/// interval is empty for a pairing that was not played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingRow {
    /// The player moving first.
    pub p1: String,
    /// The player moving second.
    pub p2: String,
    /// `played` or `n/a`.
    pub status: &'static str,
    /// Games played.
    pub games: Option<u64>,
    /// Games won by P1.
    pub p1_wins: Option<u64>,
    /// Games drawn.
    pub draws: Option<u64>,
    /// Games won by P2.
    pub p2_wins: Option<u64>,
    /// Lower end of the 95% Wilson interval of P1's win rate.
    pub p1_win_low: Option<f64>,
    /// Upper end of the 95% Wilson interval of P1's win rate.
    pub p1_win_high: Option<f64>,
    /// Lower end of the 95% Wilson interval of the draw rate.
    pub draw_low: Option<f64>,
    /// Upper end of the 95% Wilson interval of the draw rate.
    pub draw_high: Option<f64>,
    /// Lower end of the 95% Wilson interval of P2's win rate.
    pub p2_win_low: Option<f64>,
    /// Upper end of the 95% Wilson interval of P2's win rate.
    pub p2_win_high: Option<f64>,
    /// Mean game length in plies.
    pub mean_length: Option<f64>,
    /// Longest game in plies.
    pub max_length: Option<u32>,
    /// Why the pairing was not played (empty when it was).
    pub note: String,
}

/// Rounds to four decimals, enough for rates and lengths in a table.
fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// The CSV rows of `tournament`, in schedule order.
pub fn rows(tournament: &Tournament) -> Vec<PairingRow> {
    tournament
        .pairings
        .iter()
        .map(|p| {
            let mut row = PairingRow {
                p1: p.p1.clone(),
                p2: p.p2.clone(),
                status: "n/a",
                games: None,
                p1_wins: None,
                draws: None,
                p2_wins: None,
                p1_win_low: None,
                p1_win_high: None,
                draw_low: None,
                draw_high: None,
                p2_win_low: None,
                p2_win_high: None,
                mean_length: None,
                max_length: None,
                note: String::new(),
            };
            match &p.result {
                PairingResult::NotApplicable(reason) => row.note = reason.clone(),
                PairingResult::Played(t) => {
                    let n = t.games();
                    let interval = |count| {
                        let (low, high) = wilson(count, n);
                        (Some(round4(low)), Some(round4(high)))
                    };
                    row.status = "played";
                    row.games = Some(n);
                    row.p1_wins = Some(t.p1_wins);
                    row.draws = Some(t.draws);
                    row.p2_wins = Some(t.p2_wins);
                    (row.p1_win_low, row.p1_win_high) = interval(t.p1_wins);
                    (row.draw_low, row.draw_high) = interval(t.draws);
                    (row.p2_win_low, row.p2_win_high) = interval(t.p2_wins);
                    row.mean_length = Some(round4(t.mean_length()));
                    row.max_length = Some(t.longest);
                }
            }
            row
        })
        .collect()
}

/// A rate and its 95% Wilson interval as `61.5% (58.4-64.5)`.
fn rate(count: u64, games: u64) -> String {
    let (low, high) = wilson(count, games);
    format!(
        "{:.1}% ({:.1}-{:.1})",
        100.0 * count as f64 / games.max(1) as f64,
        100.0 * low,
        100.0 * high
    )
}

/// The Markdown summary: standings over both colours, the score matrix, every pairing with
/// its intervals, and the pairings that were skipped with the reason. `command` is the command
/// line that produced the tournament, quoted at the top.
pub fn markdown(tournament: &Tournament, command: &str) -> String {
    let t = tournament;
    let mut md = String::new();
    let _ = writeln!(md, "# Tournament on {}\n", t.rules);
    let _ = writeln!(
        md,
        "Written by `{command}`: {} players, {} games per ordered pairing, seed {}. Game i of \
         every pairing has the same game seed, so the two colours of a pair replay the same \
         seeds. Rates carry 95% Wilson intervals; a score counts a win 1 and a draw 1/2.\n",
        t.players.len(),
        t.games,
        t.seed
    );
    let _ = writeln!(md, "## Standings (both colours)\n");
    let _ = writeln!(
        md,
        "| player | games | wins | draws | losses | score | win rate (95% CI) |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|");
    for (name, s) in t.standings() {
        let _ = writeln!(
            md,
            "| {name} | {} | {} | {} | {} | {:.1}% | {} |",
            s.games(),
            s.wins,
            s.draws,
            s.losses,
            100.0 * s.score(),
            rate(s.wins, s.games())
        );
    }
    let _ = writeln!(
        md,
        "\n## Score matrix\n\nRow player moving first (P1) against column player (P2): P1's \
         score.\n\n![score matrix](score-matrix.svg)\n"
    );
    let _ = writeln!(md, "| P1 \\ P2 | {} |", t.players.join(" | "));
    let _ = writeln!(md, "|---|{}", "---|".repeat(t.players.len()));
    for p1 in &t.players {
        let cells: Vec<String> = t
            .players
            .iter()
            .map(|p2| match t.tally(p1, p2) {
                _ if p1 == p2 => "-".to_string(),
                Some(tally) => {
                    let s = Standing::as_p1(tally);
                    format!("{:.1}%", 100.0 * s.score())
                }
                None => "n/a".to_string(),
            })
            .collect();
        let _ = writeln!(md, "| **{p1}** | {} |", cells.join(" | "));
    }
    let _ = writeln!(
        md,
        "\n## Pairings\n\n![win rates](win-rates.svg)\n\n\
         | P1 | P2 | games | P1 wins | draws | P2 wins | P1 win rate | draw rate | P2 win rate | mean length | max length |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|---|");
    let mut skipped = Vec::new();
    for p in &t.pairings {
        match &p.result {
            PairingResult::Played(tally) => {
                let n = tally.games();
                let _ = writeln!(
                    md,
                    "| {} | {} | {n} | {} | {} | {} | {} | {} | {} | {:.1} | {} |",
                    p.p1,
                    p.p2,
                    tally.p1_wins,
                    tally.draws,
                    tally.p2_wins,
                    rate(tally.p1_wins, n),
                    rate(tally.draws, n),
                    rate(tally.p2_wins, n),
                    tally.mean_length(),
                    tally.longest
                );
            }
            PairingResult::NotApplicable(reason) => skipped.push((p, reason)),
        }
    }
    if !skipped.is_empty() {
        let _ = writeln!(md, "\n## Not applicable\n");
        for (p, reason) in skipped {
            let _ = writeln!(md, "- {} (P1) vs {} (P2): n/a, {reason}", p.p1, p.p2);
        }
    }
    md
}

/// Writes `tournament.csv`, `tournament.md`, `score-matrix.svg` and `win-rates.svg` into
/// `dir` (created if needed) and returns their paths.
///
/// # Errors
/// [`ReportError`] naming the first file that could not be written.
pub fn publish(
    dir: &Path,
    tournament: &Tournament,
    command: &str,
) -> Result<Vec<PathBuf>, ReportError> {
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| ReportError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let csv_path = dir.join("tournament.csv");
    let csv_error = |source| ReportError::Csv {
        path: csv_path.display().to_string(),
        source,
    };
    let mut writer = csv::Writer::from_path(&csv_path).map_err(csv_error)?;
    for row in rows(tournament) {
        writer.serialize(row).map_err(csv_error)?;
    }
    writer.flush().map_err(io(&csv_path))?;
    let md_path = dir.join("tournament.md");
    std::fs::write(&md_path, markdown(tournament, command)).map_err(io(&md_path))?;
    let matrix_path = dir.join("score-matrix.svg");
    plot::score_matrix(&matrix_path, tournament)?;
    let rates_path = dir.join("win-rates.svg");
    plot::win_rates(&rates_path, tournament)?;
    Ok(vec![csv_path, md_path, matrix_path, rates_path])
}
