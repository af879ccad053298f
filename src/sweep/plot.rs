//! One SVG map per k: width across, height up, each board coloured by the solver's outcome.

use std::path::Path;

use plotters::prelude::*;

use super::SweepError;
use super::store::Row;

/// Fill colour of an outcome label.
fn colour(outcome: &str) -> RGBColor {
    match outcome {
        "P1" => RGBColor(66, 133, 244),
        "P2" => RGBColor(234, 67, 53),
        _ => RGBColor(189, 189, 189),
    }
}

/// Draws the outcome map of the rows of one `k` into `path`; boards where the solver and
/// Table I disagree are marked with a black cross.
///
/// # Errors
/// [`SweepError::Plot`] when the file cannot be drawn.
pub fn outcome_map(path: &Path, k: u32, rows: &[&Row]) -> Result<(), SweepError> {
    draw(path, k, rows).map_err(|e| SweepError::Plot {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

fn draw(path: &Path, k: u32, rows: &[&Row]) -> Result<(), Box<dyn std::error::Error>> {
    let max_w = rows.iter().map(|r| r.width).max().unwrap_or(1);
    let max_h = rows.iter().map(|r| r.height).max().unwrap_or(1);
    let root = SVGBackend::new(path, (720, 640)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("Misère Connect {k}: solver outcome (x = differs from Table I)"),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(40)
        .build_cartesian_2d(0.5f64..max_w as f64 + 0.5, 0.5f64..max_h as f64 + 0.5)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("width")
        .y_desc("height")
        .x_labels(max_w as usize)
        .y_labels(max_h as usize)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .draw()?;
    for outcome in ["P1", "P2", "Draw"] {
        let fill = colour(outcome);
        chart
            .draw_series(rows.iter().filter(|r| r.solver == outcome).map(|r| {
                let (x, y) = (r.width as f64, r.height as f64);
                Rectangle::new([(x - 0.45, y - 0.45), (x + 0.45, y + 0.45)], fill.filled())
            }))?
            .label(outcome)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], fill.filled()));
    }
    chart.draw_series(
        rows.iter()
            .filter(|r| r.agree == Some(false))
            .map(|r| Cross::new((r.width as f64, r.height as f64), 8, BLACK.stroke_width(3))),
    )?;
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    root.present()?;
    Ok(())
}
