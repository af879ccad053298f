//! The checker's own board symmetries: every cell permutation that maps the winning sets onto
//! themselves, found by a backtracking search and each verified against the sets.

use super::super::piece::bits_of;
use super::super::rules::Rules;

/// Most cells of a board.
const MAX_CELLS: usize = 16;

/// A cell permutation: `to[c]` is where cell `c` goes, `from[c]` the cell that goes to `c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellMap {
    to: [u8; MAX_CELLS],
    from: [u8; MAX_CELLS],
}

impl CellMap {
    /// Where cell `cell` goes.
    #[inline]
    pub fn image(&self, cell: u32) -> u32 {
        u32::from(self.to[cell as usize])
    }

    /// The cell that goes to `cell`.
    #[inline]
    pub fn preimage(&self, cell: u32) -> u32 {
        u32::from(self.from[cell as usize])
    }

    /// The image of a cell mask.
    #[inline]
    pub fn image_of_mask(&self, mask: u16) -> u16 {
        bits_of(mask).fold(0, |m, c| m | 1 << self.image(c))
    }

    /// The identity permutation of `cells` cells.
    pub fn identity(cells: u32) -> CellMap {
        // Unused cells as `new` leaves them, so that equal permutations compare equal.
        let mut map = CellMap {
            to: [0; MAX_CELLS],
            from: [u8::MAX; MAX_CELLS],
        };
        for cell in 0..(cells as usize).min(MAX_CELLS) {
            map.to[cell] = cell as u8;
            map.from[cell] = cell as u8;
        }
        map
    }

    /// The permutation sending cell `c` to `to[c]`; `None` unless `to` is a permutation of
    /// `0..to.len()`.
    pub fn new(to: &[u8]) -> Option<CellMap> {
        let mut map = CellMap {
            to: [0; MAX_CELLS],
            from: [u8::MAX; MAX_CELLS],
        };
        if to.len() > MAX_CELLS {
            return None;
        }
        for (cell, &image) in to.iter().enumerate() {
            let slot = map.from.get_mut(usize::from(image))?;
            if usize::from(image) >= to.len() || *slot != u8::MAX {
                return None;
            }
            *slot = cell as u8;
            map.to[cell] = image;
        }
        Some(map)
    }

    /// Whether the permutation maps the winning sets of `rules` onto themselves (as a
    /// permutation of a finite set, mapping each set to a set is enough).
    pub fn is_symmetry_of(&self, rules: &Rules) -> bool {
        let lines = rules.lines();
        lines
            .iter()
            .all(|&line| lines.contains(&self.image_of_mask(line)))
    }
}

/// The board symmetries of `rules`: every permutation of the cells that maps the winning sets
/// (with the 2x2 squares when they count) onto themselves, the identity first. Each is checked
/// against the sets before it is returned, so a permutation that is not a symmetry is never
/// used, whatever the search did.
pub fn board_symmetries(rules: &Rules) -> Vec<CellMap> {
    let cells = rules.cells() as usize;
    let together = sets_through_pairs(rules);
    let mut found = Vec::new();
    let mut to = Vec::with_capacity(cells);
    extend(&together, cells, &mut to, &mut found);
    found.retain(|map| map.is_symmetry_of(rules));
    found
}

/// `together[a][b]`: how many winning sets hold both cells `a` and `b` (on the diagonal,
/// the sets through `a`). A symmetry keeps every such count.
fn sets_through_pairs(rules: &Rules) -> Vec<Vec<u32>> {
    let cells = rules.cells();
    (0..cells)
        .map(|a| {
            (0..cells)
                .map(|b| {
                    let pair = 1u16 << a | 1u16 << b;
                    rules.lines().iter().filter(|&&l| l & pair == pair).count() as u32
                })
                .collect()
        })
        .collect()
}

/// Extends the partial permutation `to` (cells `0..to.len()` placed) in every way that keeps
/// the pair counts, pushing each complete one onto `found`.
fn extend(together: &[Vec<u32>], cells: usize, to: &mut Vec<u8>, found: &mut Vec<CellMap>) {
    let cell = to.len();
    if cell == cells {
        found.extend(CellMap::new(to));
        return;
    }
    for image in 0..cells {
        let fits = !to.contains(&(image as u8))
            && together[cell][cell] == together[image][image]
            && to
                .iter()
                .enumerate()
                .all(|(c, &i)| together[cell][c] == together[image][usize::from(i)]);
        if fits {
            to.push(image as u8);
            extend(together, cells, to, found);
            to.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn rules(size: u32, squares: bool) -> Rules {
        Rules::new(size, 2, None, Variant::Normal, squares).unwrap()
    }

    #[test]
    fn the_boards_have_their_known_symmetry_counts() {
        // 2x2: any two cells share a line; 3x3: the square's 8; 4x4: 32 with the swaps of
        // inner and outer rows and columns.
        assert_eq!(board_symmetries(&rules(2, false)).len(), 24);
        assert_eq!(board_symmetries(&rules(3, false)).len(), 8);
        assert_eq!(board_symmetries(&rules(4, false)).len(), 32);
        for size in 2..=4 {
            for squares in [false, true] {
                let found = board_symmetries(&rules(size, squares));
                assert_eq!(found[0], CellMap::identity(size * size));
            }
        }
    }

    fn identity(size: u32) -> Vec<u8> {
        (0..(size * size) as u8).collect()
    }

    #[test]
    fn a_permutation_that_moves_a_line_off_the_lines_is_no_symmetry() {
        // Swapping a corner and the centre of 3x3 breaks the middle row.
        let mut to = identity(3);
        to.swap(0, 4);
        let swap = CellMap::new(&to).unwrap();
        assert!(!swap.is_symmetry_of(&rules(3, false)));
        assert!(CellMap::new(&[0, 0, 1, 2]).is_none());
        assert!(CellMap::new(&[0, 1, 2, 7]).is_none());
    }
}
