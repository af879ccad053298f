//! SVG plots: the shared colours, a writer that draws a whole plot into one file, and the
//! outcome map that the board-grid experiments share.

use std::error::Error;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{ExportError, write_text};
use crate::engine::outcome::{GameResult, Player};

/// The first player's colour in every plot (blue).
pub(crate) const P1_COLOUR: RGBColor = RGBColor(66, 133, 244);
/// The second player's colour in every plot (red).
pub(crate) const P2_COLOUR: RGBColor = RGBColor(234, 67, 53);
/// The colour of a draw (grey).
pub(crate) const DRAW_COLOUR: RGBColor = RGBColor(189, 189, 189);

/// The colour of a game's result.
pub(crate) fn outcome_colour(result: GameResult) -> RGBColor {
    match result {
        GameResult::Win(Player::P1) => P1_COLOUR,
        GameResult::Win(Player::P2) => P2_COLOUR,
        GameResult::Draw => DRAW_COLOUR,
    }
}

/// The drawing area a plot paints on.
pub(crate) type Canvas<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Draws a plot of `size` pixels on a white canvas with `paint` and writes it to `path`,
/// whole.
///
/// # Errors
/// [`ExportError::Plot`] when `paint` fails, [`ExportError::Io`] when the file cannot be
/// written.
pub(crate) fn write_svg(
    path: &Path,
    size: (u32, u32),
    paint: impl FnOnce(&Canvas<'_>) -> Result<(), Box<dyn Error>>,
) -> Result<(), ExportError> {
    let mut svg = String::new();
    let drawn = (|| {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE)?;
        paint(&root)?;
        root.present()?;
        Ok::<(), Box<dyn Error>>(())
    })();
    drawn.map_err(|e| ExportError::Plot {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    write_text(path, &svg)
}

/// One square of an outcome map: a board at (`x`, `y`) and its result, crossed out when
/// `marked` (for instance where it differs from a published value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MapCell {
    /// Position across (a board's width, say).
    pub x: u32,
    /// Position up (a board's height, say).
    pub y: u32,
    /// The result the square is coloured by.
    pub result: GameResult,
    /// Whether the square carries a cross.
    pub marked: bool,
}

/// The axis names and title of an outcome map.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MapLabels<'a> {
    /// The caption above the map.
    pub title: &'a str,
    /// What `x` counts.
    pub x: &'a str,
    /// What `y` counts.
    pub y: &'a str,
}

/// Draws an outcome map into `path`: one coloured square per cell (P1 blue, P2 red, draw
/// grey) with a legend, and a black cross on every marked cell.
///
/// # Errors
/// [`ExportError`] when the file cannot be drawn or written.
pub(crate) fn outcome_map(
    path: &Path,
    labels: MapLabels<'_>,
    cells: &[MapCell],
) -> Result<(), ExportError> {
    write_svg(path, (720, 640), |root| {
        let max_x = cells.iter().map(|c| c.x).max().unwrap_or(1);
        let max_y = cells.iter().map(|c| c.y).max().unwrap_or(1);
        let mut chart = ChartBuilder::on(root)
            .caption(labels.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(40)
            .build_cartesian_2d(0.5f64..max_x as f64 + 0.5, 0.5f64..max_y as f64 + 0.5)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(labels.x)
            .y_desc(labels.y)
            .x_labels(max_x as usize)
            .y_labels(max_y as usize)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()?;
        let results = [
            GameResult::Win(Player::P1),
            GameResult::Win(Player::P2),
            GameResult::Draw,
        ];
        for result in results {
            let fill = outcome_colour(result);
            chart
                .draw_series(cells.iter().filter(|c| c.result == result).map(|c| {
                    let (x, y) = (c.x as f64, c.y as f64);
                    Rectangle::new([(x - 0.45, y - 0.45), (x + 0.45, y + 0.45)], fill.filled())
                }))?
                .label(result.label())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], fill.filled()));
        }
        chart.draw_series(
            cells
                .iter()
                .filter(|c| c.marked)
                .map(|c| Cross::new((c.x as f64, c.y as f64), 8, BLACK.stroke_width(3))),
        )?;
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()?;
        Ok(())
    })
}
