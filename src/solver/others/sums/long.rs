//! Positions with long groups: searched move by move, the short groups added up as values.
//!
//! Valuing a group means valuing every position its cells can reach, whose number grows about
//! twofold with each empty cell. A position whose groups are all short is settled by its value
//! alone; one with long groups is searched: each move in a long group leads to a position whose
//! new short groups join the sum of values, and a move in the short part is a move to one of
//! the sum's options (the sum equals its canonical form, so it may be played as that form).
//! The search only needs one winning answer at each node of the winner, so it meets far fewer
//! positions of the long groups than valuing them would.
//!
//! What the search proves is remembered in two generations: once the newer one is full it
//! becomes the older one and the oldest results are forgotten (to be searched again if met),
//! so that memory stays bounded however long the search runs.

use rustc_hash::FxHashMap;

use super::games::{GameId, Games};
use super::stretch::Stretch;
use super::{LEFT, MisereSums, RIGHT};

/// A position split into its long groups (each stretch in the reading [`Stretch::reading`]
/// keeps, sorted) and the sum of its short groups' values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Split {
    long: Vec<Stretch>,
    short: GameId,
}

/// Whether the side to move wins each split position searched, with Left to move or not.
/// One map for each side to move (Left's second), so that a lookup borrows the position
/// rather than copying it into a key.
#[derive(Default)]
pub(super) struct SplitMemo {
    newer: [FxHashMap<Split, bool>; 2],
    older: [FxHashMap<Split, bool>; 2],
}

impl SplitMemo {
    /// The results remembered.
    pub(super) fn len(&self) -> usize {
        self.newer_len() + self.older.iter().map(FxHashMap::len).sum::<usize>()
    }

    fn newer_len(&self) -> usize {
        self.newer.iter().map(FxHashMap::len).sum()
    }

    /// Whether the side to move (Left when `left`) wins `pos`, if remembered.
    fn get(&self, pos: &Split, left: bool) -> Option<bool> {
        let side = usize::from(left);
        self.newer[side]
            .get(pos)
            .or_else(|| self.older[side].get(pos))
            .copied()
    }

    /// Remembers a result, first moving the newer generation to the older one (forgetting
    /// that) when the newer one holds `generation` results.
    fn insert(&mut self, pos: Split, left: bool, wins: bool, generation: usize) {
        if self.newer_len() >= generation {
            self.older = std::mem::take(&mut self.newer);
        }
        self.newer[usize::from(left)].insert(pos, wins);
    }
}

impl MisereSums {
    /// The split of a position made of `groups` and a part of value `short`.
    pub(super) fn split(&mut self, groups: Vec<Stretch>, mut short: GameId) -> Option<Split> {
        let mut long = Vec::new();
        for group in groups {
            if group.empty_cells() > self.short_group {
                long.push(group.reading());
            } else {
                let value = self.group_value(group)?;
                short = self.games.add(short, value);
            }
        }
        long.sort_unstable();
        Some(Split { long, short })
    }

    /// Whether the side to move (Left when `left`) wins the safe-move game of `pos`.
    pub(super) fn split_mover_wins(&mut self, pos: &Split, left: bool) -> Option<bool> {
        if pos.long.is_empty() {
            return Some(self.wins_first(pos.short, left));
        }
        if let Some(known) = self.splits.get(pos, left) {
            return Some(known);
        }
        if self.must_stop() {
            return None;
        }
        let parts = pos.short != Games::ZERO || pos.long.len() > 1;
        if parts && let Some(wins) = self.by_parts(pos, left)? {
            let generation = self.split_generation();
            self.splits.insert(pos.clone(), left, wins, generation);
            return Some(wins);
        }
        self.nodes += 1;
        let mut children = self.split_children(pos, left)?;
        // The moves that leave the shortest long groups first: they need the least search.
        children.sort_by_cached_key(|child| {
            let longest = child.long.iter().map(|g| g.empty_cells());
            (longest.max().unwrap_or(0), child.long.len())
        });
        // A child already known lost for the other side wins at once, wherever it stands.
        let mut wins = children
            .iter()
            .any(|child| self.splits.get(child, !left) == Some(false));
        if !wins {
            for child in &children {
                if !self.split_mover_wins(child, !left)? {
                    wins = true;
                    break;
                }
            }
        }
        let generation = self.split_generation();
        self.splits.insert(pos.clone(), left, wins, generation);
        Some(wins)
    }

    /// The outcome of `pos` for the side to move (Left when `left`) when the outcomes of two
    /// parts decide it: its first long group alone (`L`) and the rest (`R`: the other long
    /// groups and the short part), each searched with either side moving first. Writing
    /// `G <= 0` for "the mover, moving first in G, loses": when `R <= 0` and `L <= 0` the sum is
    /// too, a loss; when the mover wins moving first in `R` and the other side loses moving
    /// first in `L` (`L >= 0`), the mover wins moving first in the sum (were the sum `<= 0`,
    /// `R <= -L <= 0` would follow). When neither holds, `None`: the search decides. The parts
    /// are smaller positions that many others share, so their results are met again (it
    /// halves the nodes on the misère k = 3 rings: `docs/solver.md`).
    fn by_parts(&mut self, pos: &Split, left: bool) -> Option<Option<bool>> {
        let alone = Split {
            long: pos.long[..1].to_vec(),
            short: Games::ZERO,
        };
        let rest = Split {
            long: pos.long[1..].to_vec(),
            short: pos.short,
        };
        if self.split_mover_wins(&rest, left)? {
            let other_wins_alone = self.split_mover_wins(&alone, !left)?;
            return Some((!other_wins_alone).then_some(true));
        }
        let mover_wins_alone = self.split_mover_wins(&alone, left)?;
        Some((!mover_wins_alone).then_some(false))
    }

    /// The positions one safe move of the side to move (Left when `left`) away from `pos`,
    /// moves in equal long groups and mirror-image moves in a symmetric group taken once.
    fn split_children(&mut self, pos: &Split, left: bool) -> Option<Vec<Split>> {
        let disc = if left { LEFT } else { RIGHT };
        let mut children = Vec::new();
        for (index, &group) in pos.long.iter().enumerate() {
            if index > 0 && pos.long[index - 1] == group {
                continue;
            }
            let distinct = group.distinct_moves();
            for at in group.empty_places().take_while(|&at| at < distinct) {
                let child = group.with(at, disc);
                if child.makes_line(at, self.k) {
                    continue;
                }
                let groups = child.groups(self.k);
                let mut child = self.split(groups, pos.short)?;
                let others = pos.long.iter().enumerate().filter(|&(i, _)| i != index);
                child.long.extend(others.map(|(_, &g)| g));
                child.long.sort_unstable();
                children.push(child);
            }
        }
        for option in self.games.options(pos.short, left) {
            children.push(Split {
                long: pos.long.clone(),
                short: option,
            });
        }
        Some(children)
    }
}
