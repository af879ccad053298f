//! What a tournament writes: one CSV row per pairing, a Markdown summary, and the two plots.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::plot;
use super::{PairingResult, Tournament};
use crate::arena::Standing;
use crate::arena::wilson;
use crate::experiment::export::ExportError;
use crate::experiment::export::csv::write_all;
use crate::experiment::export::markdown::Document;
use crate::experiment::provenance::written_by;

/// One CSV row: a pairing, its counts from P1's side and 95% Wilson intervals. Every count and
/// interval is empty for a pairing that was not played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingRow {
    /// `normal` or `misere`.
    pub rules: &'static str,
    /// Line length.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// The player moving first.
    pub p1: &'static str,
    /// The player moving second.
    pub p2: &'static str,
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
            let rules = tournament.rules;
            let mut row = PairingRow {
                rules: rules.variant().name(),
                k: rules.k(),
                width: rules.width(),
                height: rules.height(),
                p1: p.p1.as_str(),
                p2: p.p2.as_str(),
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

/// Every player's results over both colours.
fn standings(doc: &mut Document, t: &Tournament) {
    doc.heading("Standings (both colours)").table(
        &[
            "player",
            "games",
            "wins",
            "draws",
            "losses",
            "score",
            "win rate (95% CI)",
        ],
        t.standings().into_iter().map(|(name, s)| {
            vec![
                name.to_string(),
                s.games().to_string(),
                s.wins.to_string(),
                s.draws.to_string(),
                s.losses.to_string(),
                format!("{:.1}%", 100.0 * s.score()),
                rate(s.wins, s.games()),
            ]
        }),
    );
}

/// P1's score in every pairing, P1 by row and P2 by column.
fn score_matrix(doc: &mut Document, t: &Tournament) {
    doc.heading("Score matrix")
        .paragraph("Row player moving first (P1) against column player (P2): P1's score.")
        .paragraph("![score matrix](score-matrix.svg)");
    let header: Vec<&str> = std::iter::once("P1 \\ P2")
        .chain(t.players.iter().map(|p| p.as_str()))
        .collect();
    doc.table(
        &header,
        t.players.iter().map(|&p1| {
            let cells = t.players.iter().map(|&p2| match t.tally(p1, p2) {
                _ if p1 == p2 => "-".to_string(),
                Some(tally) => format!("{:.1}%", 100.0 * Standing::as_p1(tally).score()),
                None => "n/a".to_string(),
            });
            std::iter::once(format!("**{p1}**")).chain(cells).collect()
        }),
    );
}

/// Every pairing played, with its counts, rates and game lengths.
fn pairings(doc: &mut Document, t: &Tournament) {
    doc.heading("Pairings")
        .paragraph("![win rates](win-rates.svg)")
        .table(
            &[
                "P1",
                "P2",
                "games",
                "P1 wins",
                "draws",
                "P2 wins",
                "P1 win rate",
                "draw rate",
                "P2 win rate",
                "mean length",
                "max length",
            ],
            t.pairings.iter().filter_map(|p| match &p.result {
                PairingResult::Played(tally) => {
                    let n = tally.games();
                    Some(vec![
                        p.p1.to_string(),
                        p.p2.to_string(),
                        n.to_string(),
                        tally.p1_wins.to_string(),
                        tally.draws.to_string(),
                        tally.p2_wins.to_string(),
                        rate(tally.p1_wins, n),
                        rate(tally.draws, n),
                        rate(tally.p2_wins, n),
                        format!("{:.1}", tally.mean_length()),
                        tally.longest.to_string(),
                    ])
                }
                PairingResult::NotApplicable(_) => None,
            }),
        );
}

/// The Markdown summary: standings over both colours, the score matrix, every pairing with
/// its intervals, and the pairings that were skipped with the reason. `command` is the command
/// line that produced the tournament, quoted at the top.
pub(crate) fn markdown(tournament: &Tournament, command: &str) -> Document {
    let t = tournament;
    let mut doc = Document::new(&format!("Tournament on {}", t.rules));
    doc.paragraph(&format!(
        "{}: {} players, {} games per ordered pairing, seed {}. Game i of every pairing has the \
         same game seed, so the two colours of a pair replay the same seeds. Rates carry 95% \
         Wilson intervals; a score counts a win 1 and a draw 1/2.",
        written_by(command),
        t.players.len(),
        t.games,
        t.seed
    ));
    standings(&mut doc, t);
    score_matrix(&mut doc, t);
    pairings(&mut doc, t);
    let skipped: Vec<String> = t
        .pairings
        .iter()
        .filter_map(|p| match &p.result {
            PairingResult::NotApplicable(reason) => {
                Some(format!("{} (P1) vs {} (P2): n/a, {reason}", p.p1, p.p2))
            }
            PairingResult::Played(_) => None,
        })
        .collect();
    if !skipped.is_empty() {
        doc.heading("Not applicable").bullets(skipped);
    }
    doc
}

/// Writes `tournament.csv`, `tournament.md`, `score-matrix.svg` and `win-rates.svg` into
/// `dir` (created if needed) and returns their paths.
///
/// # Errors
/// [`ExportError`] naming the first file that could not be written.
pub fn publish(
    dir: &Path,
    tournament: &Tournament,
    command: &str,
) -> Result<Vec<PathBuf>, ExportError> {
    let csv_path = dir.join("tournament.csv");
    write_all(&csv_path, &rows(tournament))?;
    let md_path = dir.join("tournament.md");
    markdown(tournament, command).write(&md_path)?;
    let matrix_path = dir.join("score-matrix.svg");
    plot::score_matrix(&matrix_path, tournament)?;
    let rates_path = dir.join("win-rates.svg");
    plot::win_rates(&rates_path, tournament)?;
    Ok(vec![csv_path, md_path, matrix_path, rates_path])
}
