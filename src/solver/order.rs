//! Move ordering: which children to search first, so that alpha-beta cuts off early.

use crate::engine::bits::{BitIter, Bits};
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Variant};

/// Ranks moves for one set of rules.
pub struct MoveOrder {
    /// Static preference of each column, higher first.
    column_rank: Vec<i32>,
    variant: Variant,
}

impl MoveOrder {
    /// The ordering for `rules`: centre columns first under normal rules (they take part in
    /// the most lines), edge columns first under misère rules (they take part in the fewest
    /// lines, so they create the fewest cells the mover must later avoid).
    pub fn new(rules: Rules) -> MoveOrder {
        let w = rules.width() as i32;
        let column_rank = (0..w)
            .map(|c| {
                let off_centre = (2 * c - (w - 1)).abs();
                match rules.variant() {
                    Variant::Normal => -off_centre,
                    Variant::Misere => off_centre,
                }
            })
            .collect();
        MoveOrder {
            column_rank,
            variant: rules.variant(),
        }
    }

    /// Fills `out` with `moves` best first. `first` (a column) goes ahead of everything.
    ///
    /// Normal rules: moves that create more cells where the mover would complete a line
    /// (threats) come first. Misère rules: moves that create fewer such cells (cells the
    /// mover must never fill) come first.
    #[inline]
    pub fn sort<B: Bits>(
        &self,
        pos: &Position<B>,
        moves: B,
        first: Option<u32>,
        out: &mut Vec<(i32, B)>,
    ) {
        out.clear();
        let layout = pos.layout();
        for m in BitIter(moves) {
            let column = layout.bit_cell(m).column;
            let priority = if Some(column) == first {
                i32::MAX
            } else {
                let after = pos.current() | m;
                let empty_after = layout.full() & !(pos.mask() | m);
                let own = (layout.completing_cells(after) & empty_after).count_ones() as i32;
                let sign = match self.variant {
                    Variant::Normal => 1,
                    Variant::Misere => -1,
                };
                sign * own * 256 + self.column_rank[column as usize]
            };
            // Insertion keeps the list sorted, best first; lists are at most one move per column.
            let at = out
                .iter()
                .position(|&(p, _)| p < priority)
                .unwrap_or(out.len());
            out.insert(at, (priority, m));
        }
    }
}
