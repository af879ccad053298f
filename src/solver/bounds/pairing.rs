//! Pairing strategies for avoiding a line on one row, the misère bound shared by the one-row
//! solver ([`crate::solver::others::strip`]) and the delayed take-even bound of the main search
//! ([`crate::solver::search::expand`]).
//!
//! A player guards a row with a set of disjoint pairs of empty cells and at most one empty cell
//! it reserves (never fills), such that each window of the row still open for it (k cells
//! holding no opponent disc) holds a whole pair or the reserved cell. The player keeps one
//! rule: never fill a reserved cell, never fill both cells of a pair. Then every window open
//! for it keeps an empty cell, so it never completes a line in the row.
//!
//! It must also always have a move that keeps the rule. When the opponent fills a cell of a
//! pair or the reserved cell, the windows that relied on it close (they now hold an opponent
//! disc), and the other cell of that pair becomes free. On its own move the player fills a
//! free cell (in no pair, not reserved) or one cell of a pair, whose partner it then reserves
//! (each window that pair guarded now holds that reserved cell). So the player is stuck only
//! when all that is left for it is reserved cells. With f free cells, p pairs and r reserved
//! cells, and the opponent free to fill a free, a reserved or a paired cell, the counter game
//! this describes (checked exhaustively in the tests) ends as [`reserve_affordable`] says: with
//! r = 0 the player is never stuck; with r = 1 it is never stuck exactly when the other empty
//! cells (f + 2p) are odd in number on its own move and even on the opponent's; with r >= 2 the
//! opponent can always strand it.

/// An empty cell of a row.
pub(crate) const EMPTY: u8 = 0;
/// A disc of the side to move.
pub(crate) const MINE: u8 = 1;
/// A disc of the other player.
pub(crate) const THEIRS: u8 = 2;

/// The fewest reserved cells (0 or 1) with which pairs of consecutive empty cells of `cells`
/// guard every window of `k` cells open for `player` ([`MINE`] or [`THEIRS`]): each such window
/// holds a whole pair or the reserved cell. `None` when one reserved cell is not enough.
///
/// One pass from left to right. For each number of reserved cells (0 or 1), and whether the
/// last empty cell opened a pair still waiting for its partner (the next empty cell), it keeps
/// the largest left end of a finished guard (a closed pair or the reserved cell): a window is
/// guarded exactly when that left end lies inside it, so the largest is the best to keep.
pub(crate) fn reserved_cells_needed(cells: &[u8], k: usize, player: u8) -> Option<u8> {
    let other = MINE + THEIRS - player;
    // best[2 * reserved + waiting]: the largest left end of a finished guard (-1: none yet),
    // or `None` when no choice so far reaches that state.
    let mut best: [Option<isize>; 4] = [Some(-1), None, None, None];
    let mut last_empty = -1;
    let mut others_in_window = 0;
    for (i, &cell) in cells.iter().enumerate() {
        others_in_window += usize::from(cell == other);
        if i >= k {
            others_in_window -= usize::from(cells[i - k] == other);
        }
        if cell == EMPTY {
            let here = i as isize;
            let mut next = [None; 4];
            let mut raise = |state: usize, left: isize| {
                if next[state].is_none_or(|old| old < left) {
                    next[state] = Some(left);
                }
            };
            for reserved in 0..2 {
                // A waiting pair must take this cell as its partner.
                if best[2 * reserved + 1].is_some() {
                    raise(2 * reserved, last_empty);
                }
                if let Some(left) = best[2 * reserved] {
                    raise(2 * reserved, left); // free
                    raise(2 * reserved + 1, left); // opens a pair
                    if reserved == 0 {
                        raise(2, here); // reserved
                    }
                }
            }
            best = next;
            last_empty = here;
        }
        if i + 1 >= k && others_in_window == 0 {
            let start = (i + 1 - k) as isize;
            for state in &mut best {
                if state.is_some_and(|left| left < start) {
                    *state = None;
                }
            }
        }
    }
    (0..2u8).find(|&reserved| best[2 * usize::from(reserved)].is_some())
}

/// [`reserved_cells_needed`] for a ring: the row of a cylinder, whose last cell is next to
/// its first, so that windows run around the end. It may answer `None` where a guard exists
/// (the bound that asks then does not apply), never the other way round.
///
/// - With a disc of the other player in the row, the ring is read as a row that ends with
///   that disc: the only windows the row lacks are those around the end, which all hold that
///   disc and are closed for `player`, so a guard of the row guards the ring.
/// - Otherwise every window of the ring is open for `player`; with an even number of empty
///   cells and `k <= len`, pairs of neighbouring empty cells (in ring order, starting at the
///   first empty cell or at the second) that put a whole pair in every window are a guard
///   with no reserved cell.
pub(crate) fn ring_reserved_cells_needed(cells: &[u8], k: usize, player: u8) -> Option<u8> {
    let other = MINE + THEIRS - player;
    let len = cells.len();
    if let Some(at) = cells.iter().position(|&cell| cell == other) {
        let row: Vec<u8> = (1..=len).map(|i| cells[(at + i) % len]).collect();
        return reserved_cells_needed(&row, k, player);
    }
    if k > len {
        // No window: nothing to guard.
        return Some(0);
    }
    let empty: Vec<usize> = (0..len).filter(|&i| cells[i] == EMPTY).collect();
    if empty.is_empty() || empty.len() % 2 == 1 {
        return None;
    }
    (0..2).find_map(|phase| {
        // `partner[i]`: the other cell of the pair that holds cell i, if any.
        let mut partner = vec![None; len];
        for first in (phase..empty.len() + phase).step_by(2) {
            let (a, b) = (empty[first % empty.len()], empty[(first + 1) % empty.len()]);
            partner[a] = Some(b);
            partner[b] = Some(a);
        }
        let in_window = |start: usize, cell: usize| (cell + len - start) % len < k;
        let guarded = (0..len).all(|start| {
            (0..k).any(|i| {
                let cell = (start + i) % len;
                partner[cell].is_some_and(|mate| in_window(start, mate))
            })
        });
        guarded.then_some(0)
    })
}

/// Whether a player guarding with one reserved cell is never stuck, when `empty_cells` empty
/// cells are left (the reserved one included) and the player is to move when `to_move`.
pub(crate) fn reserve_affordable(empty_cells: usize, to_move: bool) -> bool {
    to_move == empty_cells.is_multiple_of(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counter game of the module documentation: whether the guarding player, with `free`
    /// free cells, `pairs` pairs and `reserved` reserved cells left, avoids being left to move
    /// with nothing but reserved cells, whatever the opponent fills.
    fn survives(free: u32, pairs: u32, reserved: u32, to_move: bool) -> bool {
        if free + 2 * pairs + reserved == 0 {
            return true;
        }
        if to_move {
            (free > 0 && survives(free - 1, pairs, reserved, false))
                || (pairs > 0 && survives(free, pairs - 1, reserved + 1, false))
        } else {
            (free == 0 || survives(free - 1, pairs, reserved, true))
                && (reserved == 0 || survives(free, pairs, reserved - 1, true))
                && (pairs == 0 || survives(free + 1, pairs - 1, reserved, true))
        }
    }

    #[test]
    fn the_counter_game_matches_the_reserve_rule() {
        for free in 0..10 {
            for pairs in 0..6 {
                for reserved in 0..4 {
                    for to_move in [true, false] {
                        let empty = (free + 2 * pairs + reserved) as usize;
                        let rule = match reserved {
                            0 => true,
                            1 => reserve_affordable(empty, to_move),
                            _ => false,
                        };
                        assert_eq!(
                            survives(free, pairs, reserved, to_move),
                            rule,
                            "f={free} p={pairs} r={reserved} to_move={to_move}"
                        );
                    }
                }
            }
        }
    }

    /// A row written as a string: `.` empty, `x` the side to move, `o` the other.
    fn row(text: &str) -> Vec<u8> {
        text.bytes()
            .map(|b| match b {
                b'.' => EMPTY,
                b'x' => MINE,
                _ => THEIRS,
            })
            .collect()
    }

    #[test]
    fn ring_guards_found_by_hand() {
        let needed =
            |text: &str, k: usize, player: u8| ring_reserved_cells_needed(&row(text), k, player);
        // An empty ring of even length: pairs (0,1), (2,3), ... lie in every window of three,
        // also in those around the end.
        assert_eq!(needed("......", 3, MINE), Some(0));
        // With k = 2 the windows (1,2), (3,4), ... hold no pair in either phase.
        assert_eq!(needed("......", 2, MINE), None);
        // Odd number of empty cells and no opponent disc: not settled here.
        assert_eq!(needed(".....", 3, MINE), None);
        // An opponent disc cuts the ring, which is read as the row that ends with it: windows
        // through the disc are closed. In "x.o.x" the window (3, 4, 0) holds x's two discs
        // and one empty cell, as does (4, 0, 1): two cells to reserve, one too many; the same
        // row without the ring needs none.
        assert_eq!(needed("x.o.x", 3, MINE), None);
        assert_eq!(reserved_cells_needed(&row("x.o.x"), 3, MINE), Some(0));
        // In ".o..x" the row's one open window (2, 3, 4) holds the pair (2, 3); the ring adds
        // (3, 4, 0), and no pairing of the empty cells 0, 2, 3 serves both windows.
        assert_eq!(reserved_cells_needed(&row(".o..x"), 3, MINE), Some(0));
        assert_eq!(needed(".o..x", 3, MINE), Some(1));
    }

    #[test]
    fn guards_found_by_hand() {
        let needed =
            |text: &str, k: usize, player: u8| reserved_cells_needed(&row(text), k, player);
        // Pairs (0,1), (2,3), (4,5) lie in every window of three.
        assert_eq!(needed("......", 3, MINE), Some(0));
        // Two discs of the mover with one empty cell between: that cell must be reserved.
        assert_eq!(needed("x.x...", 3, MINE), Some(1));
        // Two windows that each need their own reserved cell.
        assert_eq!(needed("xx.o.xx", 3, MINE), None);
        // The same row is safe for the other player: its only window holds the pair (2,4).
        assert_eq!(needed("xx.o.xx", 3, THEIRS), Some(0));
        // A window already full of the player's discs cannot be guarded.
        assert_eq!(needed("xxx..", 3, MINE), None);
        // Rows shorter than k have no window.
        assert_eq!(needed("..", 3, MINE), Some(0));
        // With k = 2 every window is a pair of neighbours: a reserved cell guards the two
        // windows around it, and the rest must be disjoint pairs.
        assert_eq!(needed("..", 2, MINE), Some(0));
        assert_eq!(needed("...", 2, MINE), Some(1));
        assert_eq!(needed(".....", 2, MINE), Some(1));
        assert_eq!(needed("......", 2, MINE), None);
        // An opponent disc splits the row: ". o ." needs nothing, ".. o .." two pairs.
        assert_eq!(needed(".o.", 2, MINE), Some(0));
        assert_eq!(needed("..o..", 2, MINE), Some(0));
    }
}
