//! One SVG map per rule set and k: circumference across, height up, each cylinder board
//! coloured by the solver's outcome.

use std::path::Path;

use super::row::Row;
use crate::engine::rules::Variant;
use crate::experiment::export::ExportError;
use crate::experiment::export::svg::{MapCell, MapLabels, outcome_map};

/// Draws the outcome map of `rows` (one variant and one `k`) into `path`; boards whose
/// outcome differs from Table I's for the flat board are marked with a black cross.
///
/// # Errors
/// [`ExportError`] when the file cannot be drawn or written.
pub(crate) fn outcome_map_of(
    path: &Path,
    variant: Variant,
    k: u32,
    rows: &[&Row],
) -> Result<(), ExportError> {
    let cells: Vec<MapCell> = rows
        .iter()
        .map(|r| MapCell {
            x: r.width,
            y: r.height,
            result: r.outcome,
            marked: r.differs_from_flat(),
        })
        .collect();
    let title = match variant {
        Variant::Misere => {
            format!("Misère Connect {k} on a cylinder (x = differs from Table I's flat board)")
        }
        Variant::Normal => format!("Connect {k} on a cylinder, normal rules"),
    };
    let labels = MapLabels {
        title: &title,
        x: "circumference (width)",
        y: "height",
    };
    outcome_map(path, labels, &cells)
}
