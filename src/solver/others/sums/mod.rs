//! Misère one-row boards as sums of games: does the player who would move at the full board
//! win?
//!
//! Under misère rules a move that completes a line loses at once, so no player makes one
//! unless every move it has does. Call a move safe when it completes no line. The game is then
//! the *safe-move game*: players take turns making safe moves, and a player with none loses,
//! except when the board is full, which is a draw. Every move fills a cell, so who is to move
//! at the full board (if it is reached) is known from the start: the side to move when the
//! number of empty cells is even, the other side when it is odd. Call that player the
//! *closer*. The other player never moves at the full board, so it can only lose by having no
//! safe move on a board with empty cells, a true loss. Hence the closer wins the game exactly
//! when it wins the safe-move game played by the normal rule (a player who cannot move loses),
//! in which being stuck at the full board counts as a loss too. That is a question about a
//! short partisan game, and short partisan games add up ([`games`]).
//!
//! The row falls into independent parts: two empty cells are linked when a window (k
//! consecutive cells) holding both could still become a line (it does not hold discs of both
//! players), and a move in one group of linked cells never changes which moves are safe in
//! another, as every window a move can complete holds only cells of its own group. A group is
//! played out on its own, as the stretch of row from k - 1 cells before its first empty cell to
//! k - 1 after its last, with the empty cells of other groups walled off (every window holding
//! one of them and a cell of the group already holds discs of both players, so what fills it
//! never matters). The value of the row is the sum of its groups' values.
//!
//! A ring (the row of a cylinder) is cut open into such stretches as soon as every group
//! leaves a gap of k - 1 cells around the ring; until then it is searched move by move, each
//! player's safe moves, to the positions that can be cut. Groups with many empty cells are
//! searched too rather than valued, their short neighbours added up as values ([`long`]).

mod games;
mod long;
mod stretch;

use rustc_hash::FxHashMap;
use std::time::Instant;

use games::{GameId, Games};
use long::SplitMemo;
use stretch::{MAX_STRETCH, Stretch};

use crate::engine::rules::{Rules, Variant};
use crate::solver::others::row_cells::{ring_key, ring_line_through};

/// Groups with more empty cells than this are searched rather than valued (see [`long`]):
/// the fastest of 8, 10, 12 and 14 on the misère k = 3 ring of 27 cells (`docs/solver.md`).
const SHORT_GROUP: usize = 12;

/// An empty cell.
pub(crate) const EMPTY: u8 = 0;
/// A disc of the first player (Left).
pub(crate) const LEFT: u8 = 1;
/// A disc of the second player (Right).
pub(crate) const RIGHT: u8 = 2;
/// A cell that no line of the group can use (an empty cell of another group).
const WALL: u8 = 3;

/// Values of misère one-row positions as sums of games, remembered by group and by ring.
pub(crate) struct MisereSums {
    k: usize,
    games: Games,
    /// The value of each group's stretch met, by its canonical form ([`Stretch::canonical`]).
    groups: FxHashMap<Stretch, GameId>,
    /// Whether the side to move wins the safe-move game of each ring met that could not be
    /// cut open, by the ring's key and whether Left is to move.
    rings: FxHashMap<(u128, bool), bool>,
    /// Whether the side to move wins the safe-move game of each split position searched (see
    /// [`long`]), by the position and whether Left is to move.
    splits: SplitMemo,
    /// Groups with more empty cells than this are searched rather than valued.
    short_group: usize,
    /// The solver gives up once it remembers more than this many values and comparisons.
    limit: usize,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
}

impl MisereSums {
    /// A generous bound on the memory one remembered value, comparison or searched position
    /// takes, in bytes (the positions, with their list of long groups, take the most).
    pub(crate) const BYTES_PER_ENTRY: usize = 128;

    /// A solver for lines of `k` that gives up once it remembers more than `limit` values and
    /// comparisons (see [`MisereSums::BYTES_PER_ENTRY`]).
    pub(crate) fn new(k: u32, limit: usize) -> MisereSums {
        MisereSums {
            k: k as usize,
            games: Games::new(),
            groups: FxHashMap::default(),
            rings: FxHashMap::default(),
            splits: SplitMemo::default(),
            short_group: SHORT_GROUP,
            limit,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
        }
    }

    /// Whether the solver takes boards of `rules`: one row, misère rules, and every group's
    /// stretch short enough for its key (a row of at most [`MAX_STRETCH`] cells; a ring whose
    /// width and k - 1 more cells fit).
    pub(crate) fn applies_to(rules: Rules) -> bool {
        let (w, k) = (rules.width() as usize, rules.k() as usize);
        let longest = if rules.is_cylinder() && k <= w {
            w + k - 1
        } else {
            w
        };
        rules.height() == 1 && rules.variant() == Variant::Misere && longest <= MAX_STRETCH
    }

    /// The same solver valuing groups of at most `short_group` empty cells and searching longer
    /// ones, so that tests reach the search on small boards.
    #[cfg(test)]
    fn with_short_group(self, short_group: usize) -> MisereSums {
        MisereSums {
            short_group,
            ..self
        }
    }

    /// Makes the solver give up once it has valued or searched `nodes` more groups and
    /// positions, or at `deadline`; either `None` lifts that limit.
    pub(crate) fn set_limits(&mut self, nodes: Option<u64>, deadline: Option<Instant>) {
        self.node_limit = nodes.map_or(u64::MAX, |n| self.nodes.saturating_add(n));
        self.deadline = deadline;
    }

    /// Groups valued and rings and positions searched so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the player who would be to move at the full board wins the position `cells`
    /// ([`EMPTY`], [`LEFT`], [`RIGHT`]; around a ring when `ring`) with Left to move when
    /// `left_to_move`; `None` when the solver passed its limit or budget. The position must
    /// hold no line.
    pub(crate) fn closer_wins(
        &mut self,
        cells: &[u8],
        ring: bool,
        left_to_move: bool,
    ) -> Option<bool> {
        let empty = cells.iter().filter(|&&c| c == EMPTY).count();
        let mover_wins = if ring {
            self.ring_mover_wins(cells, left_to_move)?
        } else {
            let groups = Stretch::from_cells(cells.iter().copied()).groups(self.k);
            let pos = self.split(groups, Games::ZERO)?;
            self.split_mover_wins(&pos, left_to_move)?
        };
        Some(if empty % 2 == 0 {
            mover_wins
        } else {
            !mover_wins
        })
    }

    /// Whether the player to move (Left when `left`) wins the safe-move game `value`.
    fn wins_first(&mut self, value: GameId, left: bool) -> bool {
        if left {
            self.games.left_wins_first(value)
        } else {
            self.games.right_wins_first(value)
        }
    }

    /// Whether the next group or ring would pass the memory limit, the node limit or the
    /// deadline.
    fn must_stop(&self) -> bool {
        self.games.remembered() + self.groups.len() + self.rings.len() + self.splits.len()
            >= self.limit
            || self.nodes >= self.node_limit
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// How many results each generation of the searched positions' memory holds: a quarter
    /// of the limit, so that the two take at most half of it.
    fn split_generation(&self) -> usize {
        (self.limit / 4).max(1)
    }

    /// The sum of the values of `groups`.
    fn sum_of(&mut self, groups: &[Stretch]) -> Option<GameId> {
        let mut sum = Games::ZERO;
        for &group in groups {
            let value = self.group_value(group)?;
            sum = self.games.add(sum, value);
        }
        Some(sum)
    }

    /// The value of one group's stretch: the game whose Left options are the values after each
    /// safe Left move, and likewise for Right. A stretch read backwards has the same value, and
    /// with the discs' colours swapped the negative value, so each is remembered once.
    fn group_value(&mut self, stretch: Stretch) -> Option<GameId> {
        let (key, swapped) = stretch.canonical();
        if let Some(&value) = self.groups.get(&key) {
            return Some(if swapped {
                self.games.negative(value)
            } else {
                value
            });
        }
        if self.must_stop() {
            return None;
        }
        self.nodes += 1;
        let mut options = [Vec::new(), Vec::new()];
        for at in stretch.empty_places() {
            for (side, disc) in [LEFT, RIGHT].into_iter().enumerate() {
                let child = stretch.with(at, disc);
                if !child.makes_line(at, self.k) {
                    let groups = child.groups(self.k);
                    options[side].push(self.sum_of(&groups)?);
                }
            }
        }
        let [left, right] = options;
        let value = self.games.game(left, right);
        let kept = if swapped {
            self.games.negative(value)
        } else {
            value
        };
        self.groups.insert(key, kept);
        Some(value)
    }

    /// Whether the side to move (Left when `left`) wins the safe-move game of `ring`: its value
    /// when it can be cut open, else a search of the moves, those that cut it first.
    fn ring_mover_wins(&mut self, ring: &[u8], left: bool) -> Option<bool> {
        if let Some(groups) = self.ring_groups(ring) {
            let pos = self.split(groups, Games::ZERO)?;
            return self.split_mover_wins(&pos, left);
        }
        let key = (ring_key(ring), left);
        if let Some(&known) = self.rings.get(&key) {
            return Some(known);
        }
        if self.must_stop() {
            return None;
        }
        self.nodes += 1;
        let disc = if left { LEFT } else { RIGHT };
        let mut children: Vec<(bool, Vec<u8>)> = Vec::new();
        let mut seen = Vec::new();
        for at in (0..ring.len()).filter(|&at| ring[at] == EMPTY) {
            let mut child = ring.to_vec();
            child[at] = disc;
            let child_key = ring_key(&child);
            if ring_line_through(&child, at, self.k) || seen.contains(&child_key) {
                continue;
            }
            seen.push(child_key);
            children.push((self.ring_groups(&child).is_none(), child));
        }
        children.sort_by_key(|(uncut, _)| *uncut);
        let mut wins = false;
        for (_, child) in children {
            if !self.ring_mover_wins(&child, !left)? {
                wins = true;
                break;
            }
        }
        self.rings.insert(key, wins);
        Some(wins)
    }

    /// The groups of the ring's empty cells, each as its stretch, trimmed ([`Stretch::trimmed`]);
    /// `None` while the ring cannot be cut open (a group would not leave k - 1 cells of the
    /// ring outside its stretch). As on a row ([`Stretch::groups`]), a group is a run of
    /// neighbouring empty cells (here around the ring), two in one group exactly when a window
    /// that could still become a line holds both.
    fn ring_groups(&self, ring: &[u8]) -> Option<Vec<Stretch>> {
        let (n, k) = (ring.len(), self.k);
        // Fixed arrays rather than vectors: a ring the sums take holds at most MAX_STRETCH
        // cells (`applies_to`), and as many groups at most.
        let (mut empties, mut count) = ([0usize; MAX_STRETCH], 0);
        for i in (0..n).filter(|&i| ring[i] == EMPTY) {
            empties[count] = i;
            count += 1;
        }
        let empties = &empties[..count];
        if k > n {
            // No line fits: every empty cell is a group of its own, a free move for both.
            return Some(vec![Stretch::from_cells([EMPTY]); count]);
        }
        // Each group runs from the empty cell after one break to the next break.
        let (mut starts, mut groups_found) = ([0usize; MAX_STRETCH], 0);
        for i in 0..count {
            if !self.ring_linked(ring, empties[i], empties[(i + 1) % count]) {
                starts[groups_found] = (i + 1) % count;
                groups_found += 1;
            }
        }
        if count > 0 && groups_found == 0 {
            return None;
        }
        let starts = &starts[..groups_found];
        let mut groups = Vec::with_capacity(starts.len());
        for (g, &start) in starts.iter().enumerate() {
            let end = starts.get(g + 1).copied().unwrap_or(starts[0]);
            let size = (end + count - start - 1) % count + 1;
            let (first, last) = (empties[start], empties[(start + size - 1) % count]);
            let span = (last + n - first) % n + 1;
            if n - span < k - 1 {
                return None;
            }
            let (from, len) = ((first + n - (k - 1)) % n, span + 2 * (k - 1));
            // Empty cells in the margins belong to other groups: walls. The cells are read
            // around the ring from `from`, without a division a cell.
            let lead = (first + n - from) % n;
            let around = ring[from..].iter().chain(ring.iter().cycle());
            let stretch =
                Stretch::from_cells(around.take(len).enumerate().map(|(i, &cell)| match cell {
                    EMPTY if i < lead || i >= lead + span => WALL,
                    cell => cell,
                }));
            groups.push(stretch.trimmed(k));
        }
        Some(groups)
    }

    /// Whether the empty cells `a` and `b` (`b` the next empty cell after `a` around the ring)
    /// lie in a common window that could still become a line.
    fn ring_linked(&self, ring: &[u8], a: usize, b: usize) -> bool {
        let (n, k) = (ring.len(), self.k);
        let distance = if b >= a { b - a } else { b + n - a };
        if a == b || distance >= k {
            return false;
        }
        // Windows start from k - 1 cells before `b` to `a` itself.
        (0..k - distance).any(|back| {
            let start = if a >= back { a - back } else { a + n - back };
            open((start..start + k).map(|i| ring[if i >= n { i - n } else { i }]))
        })
    }
}

/// Whether a window holding `cells` could still become a line: it holds no wall and not discs
/// of both players.
fn open(cells: impl Iterator<Item = u8>) -> bool {
    let (mut left, mut right) = (false, false);
    for cell in cells {
        match cell {
            LEFT => left = true,
            RIGHT => right = true,
            WALL => return false,
            _ => {}
        }
    }
    !(left && right)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;
    use crate::engine::outcome::{Cell, GameResult, Player};
    use crate::engine::position::Position;
    use crate::engine::rules::{Rules, Topology, Variant};
    use crate::solver::others::plain::{plain_sign, positions_along};
    use crate::solver::others::strip::StripSolver;
    use crate::solver::score::{Score, Value};

    /// The cells of a one-row position, Left for the first player's discs.
    fn cells_of(pos: &Position) -> Vec<u8> {
        (0..pos.rules().width())
            .map(|column| match pos.cell(Cell { column, row: 0 }) {
                None => EMPTY,
                Some(Player::P1) => LEFT,
                Some(Player::P2) => RIGHT,
            })
            .collect()
    }

    /// Rings and rows too wide for plain minimax, empty and after two moves: whether the closer
    /// wins by the sums against the one-row solver's search of the same position (a method of
    /// its own: alpha-beta over whole reduced positions with pairing bounds). Among them the
    /// k = 3 rings of odd width, second-player wins from 11 cells on, and the even ones, draws.
    #[test]
    fn the_closer_wins_exactly_as_the_one_row_search_says() {
        for k in [3, 4] {
            for width in k..=17 {
                for topology in [Topology::Cylinder, Topology::Flat] {
                    let rules = Rules::new(k, width, 1, Variant::Misere)
                        .unwrap()
                        .with_topology(topology);
                    let mut sums = MisereSums::new(k, usize::MAX).with_short_group(6);
                    let mut search = StripSolver::new(k, Variant::Misere, usize::MAX);
                    let start = Position::new(rules);
                    let along = positions_along(rules, &[0, width as usize / 2]);
                    for pos in std::iter::once(start).chain(along) {
                        let mover = pos.to_move();
                        let closer = if pos.empty_cells() % 2 == 0 {
                            mover
                        } else {
                            mover.other()
                        };
                        let expected =
                            search.value(&pos).unwrap().result == GameResult::Win(closer);
                        let ring = topology == Topology::Cylinder;
                        let wins = sums.closer_wins(&cells_of(&pos), ring, mover == Player::P1);
                        assert_eq!(wins, Some(expected), "{rules}\n{}", pos.diagram());
                    }
                }
            }
        }
    }

    /// A memory limit far below what the searched positions need (31,366 of them) makes the
    /// search forget old results (to search them again) rather than give up: the k = 3 ring of
    /// 19 cells is still the second player's, with at most half the limit spent on them.
    #[test]
    fn a_small_memory_forgets_searched_positions_without_giving_up() {
        let mut unbounded = MisereSums::new(3, usize::MAX).with_short_group(6);
        assert_eq!(unbounded.closer_wins(&[EMPTY; 19], true, true), Some(true));
        let limit = 12_000;
        let mut bounded = MisereSums::new(3, limit).with_short_group(6);
        assert_eq!(bounded.closer_wins(&[EMPTY; 19], true, true), Some(true));
        assert!(bounded.splits.len() <= limit / 2);
        assert!(
            bounded.nodes > unbounded.nodes,
            "some positions were searched twice"
        );
    }

    proptest! {
        /// Rows and rings under misère rules: along a random game, whether the closer wins by
        /// the sums of games (groups valued up to `short_group` empty cells, searched beyond)
        /// against plain minimax on the engine's positions.
        #[test]
        fn the_closer_wins_exactly_as_plain_minimax_says(
            width in 1u32..=11,
            k in 2u32..=5,
            ring in any::<bool>(),
            short_group in 0usize..=11,
            choices in prop::collection::vec(0usize..11, 0..10),
        ) {
            let topology = if ring { Topology::Cylinder } else { Topology::Flat };
            let rules = Rules::new(k, width, 1, Variant::Misere)
                .unwrap()
                .with_topology(topology);
            let mut sums = MisereSums::new(k, usize::MAX).with_short_group(short_group);
            let mut memo = HashMap::new();
            let start = Position::new(rules);
            for pos in std::iter::once(start).chain(positions_along(rules, &choices)) {
                let mover = pos.to_move();
                let closer = if pos.empty_cells() % 2 == 0 { mover } else { mover.other() };
                let sign = plain_sign(&pos, &mut memo);
                let result = Value::from_sign(Score::from(sign), mover).result;
                let cells = cells_of(&pos);
                let wins = sums.closer_wins(&cells, ring, mover == Player::P1);
                prop_assert_eq!(
                    wins,
                    Some(result == GameResult::Win(closer)),
                    "{}\n{}",
                    rules,
                    pos.diagram()
                );
            }
        }
    }
}
