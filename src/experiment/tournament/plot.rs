//! The tournament's SVG plots: the score matrix as a heat map, and every pairing's win rates
//! with their 95% Wilson intervals.

use std::error::Error;
use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{PairingResult, Tournament};
use crate::arena::Standing;
use crate::arena::wilson;
use crate::experiment::export::ExportError;
use crate::experiment::export::svg::{Canvas, P1_COLOUR, P2_COLOUR, write_svg};

/// Cells of pairings that were not played.
const SKIPPED: RGBColor = RGBColor(210, 210, 210);

/// Text of `size` points anchored at `h` horizontally and centred vertically.
fn text(size: u32, h: HPos) -> TextStyle<'static> {
    TextStyle::from(("sans-serif", size).into_font()).pos(Pos::new(h, VPos::Center))
}

/// A score from 0 (red) through 1/2 (white) to 1 (blue).
fn score_colour(score: f64) -> RGBColor {
    let (end, t) = if score < 0.5 {
        (P2_COLOUR, 1.0 - 2.0 * score)
    } else {
        (P1_COLOUR, 2.0 * score - 1.0)
    };
    let mix = |c: u8| (255.0 + (c as f64 - 255.0) * t).round() as u8;
    RGBColor(mix(end.0), mix(end.1), mix(end.2))
}

/// Draws the score matrix of `tournament` into `path`: one cell per ordered pairing, the row
/// player moving first, coloured and labelled by its score; skipped pairings are grey "n/a".
///
/// # Errors
/// [`ExportError`] when the file cannot be drawn or written.
pub(crate) fn score_matrix(path: &Path, t: &Tournament) -> Result<(), ExportError> {
    let n = t.players.len() as i32;
    let longest = t
        .players
        .iter()
        .map(|p| p.as_str().len())
        .max()
        .unwrap_or(1) as i32;
    let cell = (8 * longest).max(80);
    let (left, top) = (8 * longest + 24, 90);
    let size = ((left + n * cell + 24) as u32, (top + n * cell + 50) as u32);
    write_svg(path, size, |root| {
        root.draw(&Text::new(
            format!("{}: score of P1 (row) against P2 (column)", t.rules),
            (size.0 as i32 / 2, 24),
            text(18, HPos::Center),
        ))?;
        root.draw(&Text::new(
            "P1 \\ P2",
            (left - 10, top - 16),
            text(13, HPos::Right),
        ))?;
        for (j, p2) in t.players.iter().enumerate() {
            let x = left + j as i32 * cell + cell / 2;
            root.draw(&Text::new(
                p2.as_str(),
                (x, top - 16),
                text(13, HPos::Center),
            ))?;
        }
        for (i, &p1) in t.players.iter().enumerate() {
            let y = top + i as i32 * cell;
            root.draw(&Text::new(
                p1.as_str(),
                (left - 10, y + cell / 2),
                text(13, HPos::Right),
            ))?;
            for (j, &p2) in t.players.iter().enumerate() {
                let x = left + j as i32 * cell;
                let (fill, label) = match t.tally(p1, p2) {
                    _ if p1 == p2 => (WHITE, "-".to_string()),
                    Some(tally) => {
                        let score = Standing::as_p1(tally).score();
                        (score_colour(score), format!("{:.1}%", 100.0 * score))
                    }
                    None => (SKIPPED, "n/a".to_string()),
                };
                root.draw(&Rectangle::new(
                    [(x, y), (x + cell, y + cell)],
                    fill.filled(),
                ))?;
                root.draw(&Rectangle::new(
                    [(x, y), (x + cell, y + cell)],
                    BLACK.mix(0.3).stroke_width(1),
                ))?;
                root.draw(&Text::new(
                    label,
                    (x + cell / 2, y + cell / 2),
                    text(14, HPos::Center),
                ))?;
            }
        }
        root.draw(&Text::new(
        format!(
            "{} games per pairing, seed {}; blue: P1 scores 100%, white 50%, red 0%; grey: not applicable",
            t.games, t.seed
        ),
        (size.0 as i32 / 2, size.1 as i32 - 22),
        text(12, HPos::Center),
    ))?;
        Ok(())
    })
}

/// Draws every played pairing's P1 and P2 win rates with their 95% Wilson intervals into
/// `path`, one row per pairing (draws are the rest).
///
/// # Errors
/// [`ExportError`] when the file cannot be drawn or written.
pub(crate) fn win_rates(path: &Path, t: &Tournament) -> Result<(), ExportError> {
    let played = rate_rows(t);
    let rows = played.len().max(1) as i32;
    let label_width = played.iter().map(|p| p.label.len()).max().unwrap_or(1) as i32 * 7 + 20;
    let size = (label_width as u32 + 640, (rows * 26 + 130) as u32);
    write_svg(path, size, |root| {
        paint_win_rates(root, t, &played, label_width)
    })
}

/// One row of the win-rate chart.
struct RateRow {
    label: String,
    /// Games won by P1 and by P2.
    wins: [u64; 2],
    games: u64,
}

/// The played pairings of `t`, in schedule order.
fn rate_rows(t: &Tournament) -> Vec<RateRow> {
    t.pairings
        .iter()
        .filter_map(|p| match &p.result {
            PairingResult::Played(tally) => Some(RateRow {
                label: format!("{} vs {}", p.p1, p.p2),
                wins: [tally.p1_wins, tally.p2_wins],
                games: tally.games(),
            }),
            PairingResult::NotApplicable(_) => None,
        })
        .collect()
}

/// Paints the win-rate chart of the `played` pairings of `t` on `root`, with `label_width`
/// pixels for the pairings' names.
fn paint_win_rates(
    root: &Canvas<'_>,
    t: &Tournament,
    played: &[RateRow],
    label_width: i32,
) -> Result<(), Box<dyn Error>> {
    let rows = played.len().max(1) as i32;
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!(
                "{}: win rates with 95% Wilson intervals ({} games per pairing)",
                t.rules, t.games
            ),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(label_width)
        .build_cartesian_2d(-2f64..102f64, -0.5f64..rows as f64 - 0.5)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(WHITE)
        .y_labels(0)
        .x_desc("games won (%): P1 blue (above), P2 red (below), bars: 95% Wilson intervals")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .draw()?;
    // The first pairing at the top; P1 a little above the row's centre, P2 a little below.
    let y_of = |row: usize| (rows - 1 - row as i32) as f64;
    for (side, (colour, offset)) in [(P1_COLOUR, 0.15), (P2_COLOUR, -0.15)]
        .into_iter()
        .enumerate()
    {
        chart.draw_series(played.iter().enumerate().map(|(row, r)| {
            let (low, high) = wilson(r.wins[side], r.games);
            let y = y_of(row) + offset;
            PathElement::new(
                vec![(100.0 * low, y), (100.0 * high, y)],
                colour.stroke_width(2),
            )
        }))?;
        chart.draw_series(played.iter().enumerate().map(|(row, r)| {
            let rate = 100.0 * r.wins[side] as f64 / r.games.max(1) as f64;
            Circle::new((rate, y_of(row) + offset), 4, colour.filled())
        }))?;
    }
    for (row, p) in played.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(-2.0, y_of(row)));
        root.draw(&Text::new(
            p.label.as_str(),
            (x - 8, y),
            text(12, HPos::Right),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_shade_from_red_through_white_to_blue() {
        assert_eq!(score_colour(0.0), P2_COLOUR);
        assert_eq!(score_colour(0.5), WHITE);
        assert_eq!(score_colour(1.0), P1_COLOUR);
    }
}
