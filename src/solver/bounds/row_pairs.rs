//! A bound for boards lower than a line is long (height < k), where every line runs along a
//! row: a player who can pair up cells that can be played now, two in a row, so that every
//! window the opponent could still complete holds a pair, keeps the opponent from any line.
//!
//! The strategy: whenever the opponent plays one cell of a pair, answer on the other. Both
//! cells of a pair are the lowest empty cells of their columns, so each stays playable until
//! one of the two players takes it, and the answer is always legal. Any other move of the
//! opponent's (or the player's own turn to start) is answered anywhere: a disc of the player's
//! only closes windows, and one played on a cell of a pair closes every window holding that
//! pair. So the opponent never gets both cells of a pair, every window it could complete holds
//! a pair or a disc of the player's, and under normal rules it cannot win, whoever is to move.
//!
//! Only cells that are playable now are paired: a pair resting on another pair (answered on
//! the other cell in the same way) can fail when the player must spend a move and has only
//! such cells left to spend it on, which depends on the parity of the empty cells.

use crate::engine::bits::{BitIter, Bits};
use crate::engine::layout::Layout;

/// The most pairs a row of at most 64 cells holds.
const MAX_PAIRS: usize = 32;

/// Whether the player with the discs `blocker` can pair the cells of `playable` (the lowest
/// empty cell of each column) so that every window of every row without a disc of the
/// blocker's holds a pair (see the module documentation), found greedily row by row. `false`
/// may mean that no such pairing exists or that the search missed one. The board's lines must
/// all run along its rows (height below k) and its rows hold at most 64 cells.
pub(crate) fn rows_paired<B: Bits>(layout: &Layout<B>, blocker: B, playable: B) -> bool {
    let rules = layout.rules();
    let (width, height, k) = (rules.width(), rules.height(), rules.k());
    debug_assert!(height < k && width <= 64);
    if k > width {
        return true;
    }
    let stride = layout.stride();
    // Each row's cells as bits by column: the set ones of the row only, few in a row.
    let by_column =
        |cells: B| BitIter(cells).fold(0u64, |row, bit| row | 1 << (bit.trailing_zeros() / stride));
    // From the top down: the higher rows hold fewer playable cells, and fail soonest.
    (0..height).rev().all(|row| {
        let cells = layout.bottom() << row;
        let (blocked, free) = (by_column(blocker & cells), by_column(playable & cells));
        let row = Row {
            width,
            k,
            ring: rules.is_cylinder(),
        };
        row.paired(blocked, free)
    })
}

/// One row: its width, the line length and whether it runs around (a cylinder's row).
#[derive(Clone, Copy)]
struct Row {
    width: u32,
    k: u32,
    ring: bool,
}

impl Row {
    /// Whether the cells of `free` pair up to cover every window holding no cell of `blocked`.
    fn paired(self, blocked: u64, free: u64) -> bool {
        // Needed by every pairing, and cheap: most rows fail here, before any offset is tried.
        if !self.every_open_window_holds_two(blocked, free) {
            return false;
        }
        if !self.ring {
            return self.greedy(blocked, free, 0, self.width - self.k + 1);
        }
        if blocked != 0 {
            // Every open window avoids a blocked cell: start just after one, and no window
            // before it wraps past it.
            let start = (blocked.trailing_zeros() + 1) % self.width;
            return self.greedy(blocked, free, start, self.width);
        }
        // A ring with no disc of the blocker's: every window is open, and where the pairs
        // start matters; try each offset within one window.
        (0..self.k.min(self.width)).any(|start| self.greedy(blocked, free, start, self.width))
    }

    /// Whether every window holding no cell of `blocked` holds two cells of `free`.
    fn every_open_window_holds_two(self, blocked: u64, free: u64) -> bool {
        let starts = if self.ring {
            self.width
        } else {
            self.width - self.k + 1
        };
        (0..starts).all(|s| {
            let window = self.window(s);
            window & blocked != 0 || (window & free).count_ones() >= 2
        })
    }

    /// The greedy pairing: the windows from `start` on (`count` of them, around the ring),
    /// each not yet covered given the two playable cells latest in it that no pair took,
    /// which also lie in the most windows after it. `false` when one window has no two.
    fn greedy(self, blocked: u64, free: u64, start: u32, count: u32) -> bool {
        let mut pairs = [0u64; MAX_PAIRS];
        let (mut chosen, mut used) = (0, 0u64);
        for s in start..start + count {
            let window = self.window(s % self.width);
            if window & blocked != 0 || pairs[..chosen].iter().any(|&pair| holds(window, pair)) {
                continue;
            }
            let mut left = self.rotated_down(free & !used & window, s % self.width);
            if left.count_ones() < 2 {
                return false;
            }
            let mut pair = 0;
            for _ in 0..2 {
                let top = 63 - left.leading_zeros();
                left &= !(1 << top);
                pair |= self.rotated_up(1 << top, s % self.width);
            }
            used |= pair;
            pairs[chosen] = pair;
            chosen += 1;
        }
        true
    }

    /// The cells of the window starting at `s` (around the ring).
    fn window(self, s: u32) -> u64 {
        self.rotated_up(low_bits(self.k), s)
    }

    /// `cells` turned so that cell `s` comes to bit 0 (the row taken around).
    fn rotated_down(self, cells: u64, s: u32) -> u64 {
        if s == 0 {
            return cells;
        }
        ((cells >> s) | (cells << (self.width - s))) & low_bits(self.width)
    }

    /// `cells` turned so that bit 0 goes to cell `s` (the row taken around).
    fn rotated_up(self, cells: u64, s: u32) -> u64 {
        if s == 0 {
            return cells;
        }
        ((cells << s) | (cells >> (self.width - s))) & low_bits(self.width)
    }
}

/// Whether the cells of `window` include both cells of `pair`.
fn holds(window: u64, pair: u64) -> bool {
    window & pair == pair
}

/// The lowest `n` bits (n at most 64).
fn low_bits(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;
    use crate::engine::position::Position;
    use crate::engine::rules::{Rules, Topology, Variant};
    use crate::solver::others::plain::{plain_sign, positions_along};

    /// Whether the player not to move (`opponent`) or the one to move (`mover`) pairs.
    fn bounds(pos: &Position) -> (bool, bool) {
        let layout = pos.layout();
        let playable = layout.playable(pos.mask());
        (
            rows_paired(layout, pos.opponent(), playable),
            rows_paired(layout, pos.current(), playable),
        )
    }

    /// On the empty 2-row ring of 6 for k = 4, no row-2 cell can be played yet: the windows
    /// of row 2 hold no pair, and neither player pairs. Once the bottom row is full, either
    /// player pairs the top row (three pairs cover every window of four around the ring).
    #[test]
    fn pairs_need_cells_that_can_be_played() {
        let rules = Rules::new(4, 6, 2, Variant::Normal)
            .unwrap()
            .with_topology(Topology::Cylinder);
        assert_eq!(bounds(&Position::new(rules)), (false, false));
        let (bottom, _) = crate::engine::notation::parse(rules, "123456").unwrap();
        assert_eq!(bounds(&bottom), (true, true));
    }

    /// Every position of small boards lower than k (rows and rings): wherever a player pairs,
    /// plain minimax says its opponent does not win; and the bound fires on each board.
    #[test]
    fn every_pairing_on_small_boards_holds() {
        for (k, width, height, topology) in [
            (3, 5, 2, Topology::Flat),
            (3, 5, 2, Topology::Cylinder),
            (4, 6, 2, Topology::Cylinder),
            (4, 5, 3, Topology::Flat),
            (2, 6, 1, Topology::Cylinder),
        ] {
            let rules = Rules::new(k, width, height, Variant::Normal)
                .unwrap()
                .with_topology(topology);
            let mut memo = HashMap::new();
            let (mut seen, mut fired) = (std::collections::HashSet::new(), 0);
            let mut stack = vec![Position::new(rules)];
            while let Some(pos) = stack.pop() {
                if pos.is_over() || !seen.insert(pos.key()) {
                    continue;
                }
                let (opponent_pairs, mover_pairs) = bounds(&pos);
                if opponent_pairs || mover_pairs {
                    fired += 1;
                    let sign = plain_sign(&pos, &mut memo);
                    assert!(!opponent_pairs || sign <= 0, "{rules}\n{}", pos.diagram());
                    assert!(!mover_pairs || sign >= 0, "{rules}\n{}", pos.diagram());
                }
                stack.extend(
                    pos.legal_columns()
                        .into_iter()
                        .map(|c| pos.played(c).unwrap()),
                );
            }
            assert!(fired > 0, "{rules}: no pairing in {} positions", seen.len());
            eprintln!("{rules}: pairings in {fired} of {} positions", seen.len());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Along random games on boards lower than k, under normal rules, rows and rings:
        /// wherever a player pairs, plain minimax says its opponent does not win.
        #[test]
        fn a_pairing_player_never_loses(
            width in 3u32..=6,
            height in 1u32..=2,
            extra in 1u32..=3,
            ring in any::<bool>(),
            choices in prop::collection::vec(0usize..6, 0..12),
        ) {
            let k = (height + extra).min(width);
            prop_assume!(k > height);
            let topology = if ring { Topology::Cylinder } else { Topology::Flat };
            let rules = Rules::new(k, width, height, Variant::Normal)
                .unwrap()
                .with_topology(topology);
            let mut memo = HashMap::new();
            let start = Position::new(rules);
            for pos in std::iter::once(start).chain(positions_along(rules, &choices)) {
                let (opponent_pairs, mover_pairs) = bounds(&pos);
                if !opponent_pairs && !mover_pairs {
                    continue;
                }
                let sign = plain_sign(&pos, &mut memo);
                prop_assert!(!opponent_pairs || sign <= 0, "{}\n{}", rules, pos.diagram());
                prop_assert!(!mover_pairs || sign >= 0, "{}\n{}", rules, pos.diagram());
            }
        }
    }
}
