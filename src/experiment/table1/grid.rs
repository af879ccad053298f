//! Which boards a sweep solves, and how the list is cut into shards for a job array.

use std::fmt;
use std::str::FromStr;

use crate::engine::rules::{Rules, RulesError, Variant};

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

/// The `index`-th (1-based) of `count` deterministic slices of a grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub index: u32,
    /// How many slices.
    pub count: u32,
}

impl Shard {
    /// The items of this shard: every `count`-th item of a fixed order, starting at `index`.
    /// Interleaving spreads the large boards evenly over the shards.
    pub fn select<T: Clone>(&self, items: &[T]) -> Vec<T> {
        items
            .iter()
            .enumerate()
            .filter(|(i, _)| *i as u32 % self.count == self.index - 1)
            .map(|(_, item)| item.clone())
            .collect()
    }
}

/// A shard string was not `I/N` with `1 <= I <= N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad shard {0:?}: expected I/N with 1 <= I <= N, e.g. 3/8")]
pub struct BadShard(String);

impl FromStr for Shard {
    type Err = BadShard;

    fn from_str(s: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
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

    #[test]
    fn shard_strings() {
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
        assert!("0/8".parse::<Shard>().is_err());
        assert!("9/8".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }
}
