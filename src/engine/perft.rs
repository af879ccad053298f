//! Counting distinct positions by ply, a check of move generation and game-end detection.

use std::collections::HashSet;

use super::bits::{BitIter, Bits};
use super::layout::Layout;
use super::rules::Rules;

/// Number of distinct positions reachable after exactly `ply` moves, for `ply` in `0..=max_ply`.
///
/// A position in which the game has ended (a line was made or the board is full) is counted but
/// not expanded. Positions are told apart by their discs, so the same arrangement reached by
/// different move orders counts once (OEIS A212693 for standard 7x6).
///
/// Returns `None` when the board does not fit in `B`.
pub fn positions_by_ply<B: Bits>(rules: Rules, max_ply: u32) -> Option<Vec<u64>> {
    let layout = Layout::<B>::new(rules)?;
    let mut counts = vec![1];
    // Each level holds (discs of the side to move, all discs).
    let mut level: HashSet<(B, B)> = HashSet::from([(B::ZERO, B::ZERO)]);
    for _ in 1..=max_ply.min(rules.cells()) {
        let mut next = HashSet::with_capacity(level.len() * 3);
        for &(current, mask) in &level {
            let just_moved = current ^ mask;
            if layout.has_line(just_moved) {
                continue;
            }
            for bit in BitIter(layout.playable(mask)) {
                next.insert((current ^ mask, mask | bit));
            }
        }
        counts.push(next.len() as u64);
        level = next;
    }
    Some(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;

    #[test]
    fn tiny_board_counts_by_hand() {
        // 2x1, k=2: X takes either cell, O the other.
        let rules = Rules::new(2, 2, 1, Variant::Normal).unwrap();
        assert_eq!(positions_by_ply::<u64>(rules, 2).unwrap(), vec![1, 2, 2]);
    }
}
