//! Alpha-beta search over Quarto positions with remoteness scores.
//!
//! A turn has two steps, and the search has one function for each: [`Search::give`] (the side
//! to move has placed its piece, or it is the opening, and now hands a piece over) and
//! [`Search::place`] (the side to move holds a piece and chooses its cell). Both return scores
//! from the point of view of the side to move; the same player places and then gives, so
//! only `give` negates its children's scores. Only `give` positions are stored in the table:
//! they are boards alone (the pieces left follow from the board), so their canonical keys
//! are cheap and they are where different orders of turns meet.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::Variant;

use super::super::board::{Board, Threats};
use super::super::piece::{Cell, Piece, bits_of};
use super::super::rules::Rules;
use super::super::symmetry::Canonizer;
use super::knowledge::Knowledge;
use super::table::Table;

/// A score from the point of view of the side to move: positive wins, negative loses, zero
/// draws. A game that ends at absolute ply `q` (turns counted from the opening handover as 1)
/// scores `last_ply + 1 - q` for its winner, so sooner wins and later losses score higher and
/// a score means the same wherever its position is reached.
pub type Score = i32;

/// Give positions with fewer empty cells than this are not stored: their subtrees cost about
/// what a canonical key and a probe cost. (Weak solves of positions with 3 and 5 pieces
/// placed: from 4 to 5 empty cells, 3% and 20% more nodes, about the same time.)
const STORE_MIN_EMPTY: u32 = 5;

/// Misère placements that seek a draw are ordered by the lines they leave alive only on
/// boards with fewer pieces than this, where subtrees are large enough to repay the count.
const ORDER_BY_LIVE_LINES_BELOW: u32 = 9;

/// The search looks at its deadline and its signal once every this many nodes: a few
/// microseconds of search, so a stop is late by no more than that.
const STOP_CHECK_NODES: u64 = 1 << 12;

/// When a search gives up besides its node limit.
#[derive(Clone, Debug, Default)]
pub(super) struct Stop {
    /// Give up at this instant.
    pub(super) deadline: Option<Instant>,
    /// Give up once this is raised.
    pub(super) cancel: Option<Arc<AtomicBool>>,
}

impl Stop {
    /// Whether the deadline has passed or the signal is raised.
    fn reached(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// The search's state: rules, tables and counters.
pub struct Search {
    rules: Rules,
    canon: Canonizer,
    table: Table,
    knowledge: Knowledge,
    /// Positions visited: every call of `give` or `place`.
    pub nodes: u64,
    /// Stop (and mark the search aborted) once `nodes` passes this.
    pub limit: u64,
    /// Whether the node limit (or the stop) stopped the search; its scores are then
    /// meaningless.
    pub aborted: bool,
    /// When to give up besides the node limit: a deadline and a signal raised from outside
    /// (a server's client that went away), looked at every [`STOP_CHECK_NODES`] nodes.
    pub(super) stop: Stop,
    /// For each set of attribute values that complete a line somewhere (bit `2 * attribute
    /// + value`, as [`Threats::values`]), the pieces that have none of them: the safe ones.
    safe: [u16; 256],
}

impl Search {
    /// A search for `rules` with a table of `table_bytes` bytes.
    pub fn new(rules: Rules, table_bytes: usize) -> Search {
        Search {
            rules,
            canon: Canonizer::new(&rules),
            table: Table::with_bytes(table_bytes),
            knowledge: Knowledge::new(&rules),
            nodes: 0,
            limit: u64::MAX,
            aborted: false,
            stop: Stop::default(),
            safe: std::array::from_fn(|values| {
                bits_of(rules.all_pieces())
                    .filter(|&p| (0..4).all(|i| values >> (2 * i + (p >> i & 1)) & 1 == 0))
                    .fold(0, |m, p| m | 1 << p)
            }),
        }
    }

    /// The rules searched.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Score of a win for the side to move at absolute ply `q`; zero or less past the last
    /// ply, where no win can happen.
    #[inline]
    pub fn win_at(&self, q: u32) -> Score {
        self.rules.last_ply() as Score + 1 - q as Score
    }

    /// Score bounds of a give position of `count` pieces from what the rules allow at once:
    /// (least, greatest). Normal rules: the side to move cannot win before it places again
    /// (ply `count + 3`) nor lose before the opponent places twice (`count + 4`; the piece
    /// handed over is safe, see `give`). Misère rules: it loses at the earliest when it places
    /// next (`count + 3`) and wins when the opponent places the time after (`count + 4`), the
    /// immediate win of `give` aside.
    #[inline]
    fn static_bounds(&self, count: u32) -> (Score, Score) {
        let (win, loss) = match self.rules.variant() {
            Variant::Normal => (count + 3, count + 4),
            Variant::Misere => (count + 4, count + 3),
        };
        (-self.win_at(loss).max(0), self.win_at(win).max(0))
    }

    /// The pieces worth handing over on `board` (whose threats are `threats`), one per kind
    /// (pieces that agree on every counted attribute are interchangeable), or the score when
    /// the handover decides the game at once.
    ///
    /// Normal rules: a piece that completes a line somewhere is never handed over while a
    /// safe one is left, since the opponent would win with it at once (ply `count + 2`),
    /// the worst result there is; with no safe piece the side to move loses at that ply.
    /// Misère rules: a piece that completes a line on every empty cell forces the opponent
    /// to complete one at once: the best result there is, so it is taken.
    #[inline]
    fn candidates(&self, board: &Board, threats: &Threats) -> Result<u16, Score> {
        let rules = &self.rules;
        let q = board.count() + 2;
        let remaining = rules.all_pieces() & !board.used();
        let chosen = match rules.variant() {
            Variant::Normal => {
                let safe = remaining & self.safe[usize::from(threats.values())];
                if safe == 0 {
                    return Err(-self.win_at(q));
                }
                safe
            }
            Variant::Misere => {
                let empty = rules.all_cells() & !board.occupied();
                // Only when every empty cell is threatened can a piece be forced into a line.
                if threats.cells() == empty
                    && bits_of(remaining)
                        .any(|p| threats.cells_for(Piece::from_bits(p as u8)) == empty)
                {
                    return Err(self.win_at(q));
                }
                remaining
            }
        };
        if rules.all_count() {
            return Ok(chosen);
        }
        let mut kinds = 0u16;
        Ok(bits_of(chosen).fold(0, |m, p| {
            let kind = p as u8 & rules.criteria();
            let new = kinds >> kind & 1 == 0;
            kinds |= 1 << kind;
            m | u16::from(new) << p
        }))
    }

    /// Counts a node of `give` and says whether the search must stop: past the node limit, at
    /// the deadline, on the signal (both looked at every [`STOP_CHECK_NODES`] nodes), or already
    /// aborted. A stopped search is marked aborted.
    #[inline]
    fn count_node_and_stop(&mut self) -> bool {
        self.nodes += 1;
        let stopped = self.nodes.is_multiple_of(STOP_CHECK_NODES) && self.stop.reached();
        if self.nodes > self.limit || stopped || self.aborted {
            self.aborted = true;
        }
        self.aborted
    }

    /// The score of `board` with the side to move about to hand over a piece (it has just
    /// placed one without ending the game, or it is the opening; `threats` are the board's),
    /// within the window
    /// (`alpha`, `beta`). Fail-soft: a result at or below `alpha` is an upper bound on the
    /// score, at or above `beta` a lower bound, and in between the exact score.
    pub fn give(
        &mut self,
        board: &Board,
        threats: &Threats,
        mut alpha: Score,
        mut beta: Score,
    ) -> Score {
        if self.count_node_and_stop() {
            return 0;
        }
        let chosen = match self.candidates(board, threats) {
            Ok(chosen) => chosen,
            Err(score) => return score,
        };
        if !self
            .knowledge
            .any_live_line(board, self.rules.all_pieces() & !board.used())
        {
            // Nobody can complete a line any more: a draw, whatever is played.
            return 0;
        }
        let (least, greatest) = self.static_bounds(board.count());
        if greatest <= alpha {
            return greatest;
        }
        if least >= beta {
            return least;
        }
        alpha = alpha.max(least);
        beta = beta.min(greatest);
        let key = match self.probe_table(board, &mut alpha, &mut beta) {
            Ok(key) => key,
            Err(bound) => return bound,
        };
        let alpha0 = alpha;
        let nodes0 = self.nodes;
        let (pieces, n) = self.piece_order(chosen, threats);
        let mut best = Score::MIN;
        for &(_, p) in &pieces[..n] {
            let score = -self.place(board, threats, Piece::from_bits(p), -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if let Some(key) = key {
            let lower = (best > alpha0).then_some(best);
            let upper = (best < beta).then_some(best);
            self.table.put(key, lower, upper, self.nodes - nodes0);
        }
        best
    }

    /// The table's bounds on `board`, narrowing the window (`alpha`, `beta`): `Err` with a
    /// bound that settles the window, else `Ok` with the key to store the result under (`None`
    /// for boards too near the end to be worth storing).
    fn probe_table(
        &self,
        board: &Board,
        alpha: &mut Score,
        beta: &mut Score,
    ) -> Result<Option<(u16, u64)>, Score> {
        if self.rules.cells() - board.count() < STORE_MIN_EMPTY {
            return Ok(None);
        }
        let key = self.canon.board_key(board);
        if let Some((lower, upper)) = self.table.get(key) {
            if let Some(lower) = lower {
                if lower >= *beta {
                    return Err(lower);
                }
                *alpha = (*alpha).max(lower);
            }
            if let Some(upper) = upper {
                if upper <= *alpha {
                    return Err(upper);
                }
                *beta = (*beta).min(upper);
            }
        }
        Ok(Some(key))
    }

    /// The pieces of `chosen` (a set of piece bits) in the order they are handed over, with
    /// their count, given the board's `threats`.
    fn piece_order(&self, chosen: u16, threats: &Threats) -> ([(u32, u8); 16], usize) {
        let mut pieces = [(0u32, 0u8); 16];
        let mut n = 0;
        for p in bits_of(chosen) {
            // Misère rules: first the pieces that complete a line on the most cells, which
            // leave the opponent the least room (25% fewer nodes than index order on the
            // positions of `cell_order`); under normal rules every candidate completes none.
            let room =
                self.rules.cells() - threats.cells_for(Piece::from_bits(p as u8)).count_ones();
            pieces[n] = (room, p as u8);
            n += 1;
        }
        pieces[..n].sort_unstable_by_key(|piece| piece.0);
        (pieces, n)
    }

    /// The rank of a placement of `piece` on `board` whose result has `threats`: cells are
    /// tried in increasing rank.
    ///
    /// Normal rules: first the placements that leave the fewest safe pieces to hand over
    /// (but at least one: with none the placer loses at once, so those go last), and among
    /// them those that threaten the most cells; the opponent then has the fewest answers.
    /// Misère rules: first the placements that threaten the most cells, where the opponent
    /// has the least room; when the placer only seeks a draw (`seeking_draw`), among those
    /// the ones that leave the fewest lines alive, since a game without live lines is drawn.
    /// (Measured on positions with 4 and 5 pieces placed, weak solves: 6 to 10 times fewer
    /// nodes under normal rules, 2 to 4 times under misère rules, than cells in index order.)
    #[inline]
    fn cell_order(
        &self,
        board: &Board,
        piece: Piece,
        cell: Cell,
        threats: &Threats,
        seeking_draw: bool,
    ) -> i32 {
        let threatened = threats.cells().count_ones() as i32;
        let left = self.rules.all_pieces() & !board.used() & !(1 << piece.bits());
        match self.rules.variant() {
            Variant::Normal => {
                match (left & self.safe[usize::from(threats.values())]).count_ones() as i32 {
                    0 => i32::MAX,
                    safe => safe * 32 - threatened,
                }
            }
            Variant::Misere if seeking_draw => {
                let child = board.with(cell, piece);
                self.knowledge.live_lines(&child, left) as i32 - threatened * 32
            }
            Variant::Misere => -threatened,
        }
    }

    /// The score of `board` with the side to move holding `piece`, about to place it (and
    /// then hand one over), within (`alpha`, `beta`), fail-soft as [`Search::give`].
    /// `threats` are the board's.
    ///
    /// Normal rules: a cell that completes a line wins at once, the best result there is.
    /// Misère rules: a cell that completes a line loses at once, the worst result there is,
    /// so such cells are tried only when there is no other (and then the game is lost).
    pub fn place(
        &mut self,
        board: &Board,
        threats: &Threats,
        piece: Piece,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        self.nodes += 1;
        let q = board.count() + 2;
        let empty = self.rules.all_cells() & !board.occupied();
        let hits = threats.cells_for(piece);
        let cells = match self.rules.variant() {
            Variant::Normal if hits != 0 => return self.win_at(q),
            Variant::Normal => empty,
            Variant::Misere if hits == empty => return -self.win_at(q),
            Variant::Misere => empty & !hits,
        };
        if board.count() + 1 == self.rules.placements() {
            // The last piece or the last cell, and no line: a draw.
            return 0;
        }
        let mut children = [(0i32, 0u8, Threats::default()); 16];
        let mut n = 0;
        for c in bits_of(cells) {
            let cell = Cell::from_index(c);
            let threats = board
                .with(cell, piece)
                .threats_after(&self.rules, threats, cell);
            let rank = self.cell_order(
                board,
                piece,
                cell,
                &threats,
                beta <= 0 && board.count() < ORDER_BY_LIVE_LINES_BELOW,
            );
            children[n] = (rank, c as u8, threats);
            n += 1;
        }
        children[..n].sort_unstable_by_key(|child| child.0);
        let mut best = Score::MIN;
        for (_, c, threats) in &children[..n] {
            let cell = Cell::from_index(u32::from(*c));
            let score = self.give(&board.with(cell, piece), threats, alpha, beta);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
