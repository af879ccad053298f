//! One SVG map per k: width across, height up, each board coloured by the solver's outcome.

use std::path::Path;

use super::row::Row;
use crate::experiment::export::ExportError;
use crate::experiment::export::svg::{MapCell, MapLabels, outcome_map};

/// Draws the outcome map of the rows of one `k` into `path`; boards where the solver and
/// Table I disagree are marked with a black cross.
///
/// # Errors
/// [`ExportError`] when the file cannot be drawn or written.
pub(crate) fn outcome_map_of_k(path: &Path, k: u32, rows: &[&Row]) -> Result<(), ExportError> {
    let cells: Vec<MapCell> = rows
        .iter()
        .map(|r| MapCell {
            x: r.width,
            y: r.height,
            result: r.solver,
            marked: r.agree == Some(false),
        })
        .collect();
    let title = format!("Misère Connect {k}: solver outcome (x = differs from Table I)");
    let labels = MapLabels {
        title: &title,
        x: "width",
        y: "height",
    };
    outcome_map(path, labels, &cells)
}
