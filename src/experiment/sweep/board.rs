//! The boards that Connect-k sweeps solve, and the grid of board sizes Table I and the annulus
//! share.

use std::cmp::Ordering;

use crate::engine::rules::{Rules, RulesError, Topology, Variant};

/// One board of a sweep: a rule set, a line length and a size, flat or on a cylinder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Normal or misère.
    pub variant: Variant,
    /// Flat, or a cylinder (column `width` next to column 1).
    pub topology: Topology,
    /// Line length.
    pub k: u32,
    /// Width (the circumference of a cylinder).
    pub width: u32,
    /// Height.
    pub height: u32,
}

impl Board {
    /// A flat board.
    pub(crate) fn flat(variant: Variant, k: u32, width: u32, height: u32) -> Board {
        Board {
            variant,
            topology: Topology::Flat,
            k,
            width,
            height,
        }
    }

    /// The rules of this board, checked.
    ///
    /// # Errors
    /// [`RulesError`] for a board the engine does not take.
    pub(crate) fn checked_rules(self) -> Result<Rules, RulesError> {
        Ok(Rules::new(self.k, self.width, self.height, self.variant)?.with_topology(self.topology))
    }

    /// The rules of this board.
    ///
    /// # Panics
    /// For a board the engine does not take; every grid checks its boards when it lists them.
    pub(crate) fn rules(self) -> Rules {
        self.checked_rules().expect("grid boards are valid")
    }

    /// `k = 4, 7x6`, as reports and messages name a board.
    pub fn name(self) -> String {
        format!("k = {}, {}x{}", self.k, self.width, self.height)
    }

    /// The fields boards are ordered by: rule set, k, width, height, then flat before cylinder.
    fn order(&self) -> (Variant, u32, u32, u32, bool) {
        let cylinder = self.topology == Topology::Cylinder;
        (self.variant, self.k, self.width, self.height, cylinder)
    }
}

impl Ord for Board {
    fn cmp(&self, other: &Board) -> Ordering {
        self.order().cmp(&other.order())
    }
}

impl PartialOrd for Board {
    fn partial_cmp(&self, other: &Board) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Every board size up to a number of cells, for a range of line lengths: every `k` in
/// `k_min..=k_max` and every width and height >= 1 with `width * height <= max_cells`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Smallest line length.
    pub k_min: u32,
    /// Largest line length.
    pub k_max: u32,
    /// Largest number of cells.
    pub max_cells: u32,
}

impl Grid {
    /// Every board of the grid under `variant` on `topology`, in a fixed order (by k, then
    /// width, then height).
    ///
    /// # Errors
    /// [`RulesError`] if some board of the grid is not supported by the engine.
    pub fn boards(&self, variant: Variant, topology: Topology) -> Result<Vec<Board>, RulesError> {
        let mut boards = Vec::new();
        for k in self.k_min..=self.k_max {
            for width in 1..=self.max_cells {
                for height in 1..=self.max_cells / width {
                    let board = Board {
                        variant,
                        topology,
                        k,
                        width,
                        height,
                    };
                    board.checked_rules()?;
                    boards.push(board);
                }
            }
        }
        Ok(boards)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::shard::Shard;

    #[test]
    fn default_grid_size() {
        // Boards with w*h <= 24: sum over w of floor(24/w) = 84, for each of 5 values of k.
        let grid = Grid {
            k_min: 2,
            k_max: 6,
            max_cells: 24,
        };
        let boards = grid.boards(Variant::Misere, Topology::Flat).unwrap();
        assert_eq!(boards.len(), 5 * 84);
    }

    #[test]
    fn shards_partition_the_grid() {
        let grid = Grid {
            k_min: 2,
            k_max: 4,
            max_cells: 12,
        };
        let boards = grid.boards(Variant::Misere, Topology::Flat).unwrap();
        let mut joined: Vec<Board> = (1..=5)
            .flat_map(|index| Shard { index, count: 5 }.select(&boards))
            .collect();
        joined.sort();
        let mut all = boards.clone();
        all.sort();
        assert_eq!(joined, all);
    }

    #[test]
    fn a_cylinder_board_has_cylinder_rules() {
        let board = Board {
            topology: Topology::Cylinder,
            ..Board::flat(Variant::Normal, 3, 4, 3)
        };
        assert!(board.rules().is_cylinder());
        assert_eq!(board.name(), "k = 3, 4x3");
    }
}
