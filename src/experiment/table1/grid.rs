//! Which boards a sweep solves.

use crate::engine::rules::{Rules, RulesError, Variant};
#[cfg(test)]
use crate::experiment::shard::Shard;

/// One misère board of the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// Line length.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
}

impl Board {
    /// The misère rules of this board.
    ///
    /// # Panics
    /// Never for boards produced by [`Grid::boards`], which are all validated.
    pub fn rules(self) -> Rules {
        Rules::new(self.k, self.width, self.height, Variant::Misere).expect("grid boards are valid")
    }
}

/// The grid of a sweep: every `k` in `k_min..=k_max` and every width and height >= 1 with
/// `width * height <= max_cells`.
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
    /// Every board of the grid in a fixed order (by k, then width, then height).
    ///
    /// # Errors
    /// [`RulesError`] if some board of the grid is not supported by the engine.
    pub fn boards(&self) -> Result<Vec<Board>, RulesError> {
        let mut boards = Vec::new();
        for k in self.k_min..=self.k_max {
            for width in 1..=self.max_cells {
                for height in 1..=self.max_cells / width {
                    Rules::new(k, width, height, Variant::Misere)?;
                    boards.push(Board { k, width, height });
                }
            }
        }
        Ok(boards)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_grid_size() {
        // Boards with w*h <= 24: sum over w of floor(24/w) = 84, for each of 5 values of k.
        let grid = Grid {
            k_min: 2,
            k_max: 6,
            max_cells: 24,
        };
        assert_eq!(grid.boards().unwrap().len(), 5 * 84);
    }

    #[test]
    fn shards_partition_the_grid() {
        let boards = Grid {
            k_min: 2,
            k_max: 4,
            max_cells: 12,
        }
        .boards()
        .unwrap();
        let mut joined: Vec<Board> = (1..=5)
            .flat_map(|index| Shard { index, count: 5 }.select(&boards))
            .collect();
        joined.sort();
        let mut all = boards.clone();
        all.sort();
        assert_eq!(joined, all);
    }
}
