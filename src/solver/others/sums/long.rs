//! Positions with long groups: searched move by move, the short groups added up as values.
//!
//! Valuing a group means valuing every position its cells can reach, whose number grows about
//! twofold with each empty cell. A position whose groups are all short is settled by its value
//! alone; one with long groups is searched: each move in a long group leads to a position whose
//! new short groups join the sum of values, and a move in the short part is a move to one of
//! the sum's options (the sum equals its canonical form, so it may be played as that form).
//! The search only needs one winning answer at each node of the winner, so it meets far fewer
//! positions of the long groups than valuing them would.

use super::games::GameId;
use super::{EMPTY, LEFT, MisereSums, RIGHT, reading_key};

/// A position split into its long groups (each stretch in its smaller reading, sorted) and the
/// sum of its short groups' values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Split {
    long: Vec<Vec<u8>>,
    short: GameId,
}

impl MisereSums {
    /// The split of a position made of `groups` and a part of value `short`.
    pub(super) fn split(&mut self, groups: Vec<Vec<u8>>, mut short: GameId) -> Option<Split> {
        let mut long = Vec::new();
        for group in groups {
            if empty_cells(&group) > self.short_group {
                long.push(smaller_reading(group));
            } else {
                let value = self.group_value(&group)?;
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
        let key = (
            pos.long.iter().map(|g| reading_key(g)).collect::<Vec<_>>(),
            pos.short,
            left,
        );
        if let Some(&known) = self.splits.get(&key) {
            return Some(known);
        }
        if self.must_stop() {
            return None;
        }
        self.nodes += 1;
        let mut children = self.split_children(pos, left)?;
        // The moves that leave the shortest long groups first: they need the least search.
        children.sort_by_cached_key(|child| {
            let longest = child.long.iter().map(|g| empty_cells(g)).max().unwrap_or(0);
            (longest, child.long.len())
        });
        let mut wins = false;
        for child in children {
            if !self.split_mover_wins(&child, !left)? {
                wins = true;
                break;
            }
        }
        self.splits.insert(key, wins);
        Some(wins)
    }

    /// The positions one safe move of the side to move (Left when `left`) away from `pos`,
    /// moves in equal long groups and mirror-image moves in a symmetric group taken once.
    fn split_children(&mut self, pos: &Split, left: bool) -> Option<Vec<Split>> {
        let disc = if left { LEFT } else { RIGHT };
        let mut children = Vec::new();
        for (index, group) in pos.long.iter().enumerate() {
            if index > 0 && pos.long[index - 1] == *group {
                continue;
            }
            let symmetric = group.iter().eq(group.iter().rev());
            let half = if symmetric {
                group.len().div_ceil(2)
            } else {
                group.len()
            };
            for at in (0..half).filter(|&at| group[at] == EMPTY) {
                let mut cells = group.clone();
                cells[at] = disc;
                if self.makes_line(&cells, at, false) {
                    continue;
                }
                let groups = self.groups_of(&cells, false).expect("a row always splits");
                let mut child = self.split(groups, pos.short)?;
                let others = pos.long.iter().enumerate().filter(|&(i, _)| i != index);
                child.long.extend(others.map(|(_, g)| g.clone()));
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

/// The number of empty cells of a stretch.
fn empty_cells(stretch: &[u8]) -> usize {
    stretch.iter().filter(|&&c| c == EMPTY).count()
}

/// `stretch` read in the direction that gives the smaller sequence.
fn smaller_reading(mut stretch: Vec<u8>) -> Vec<u8> {
    if stretch.iter().rev().lt(stretch.iter()) {
        stretch.reverse();
    }
    stretch
}
