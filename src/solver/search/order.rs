//! Move ordering: which children to search first, so that alpha-beta cuts off early.

use crate::engine::bits::{BitIter, Bits};
use crate::engine::layout::Layout;
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Variant};

/// Added to the rank of a bottom-row move that [`MoveOrder::sort`] puts first: more than any
/// difference of ranks (at most 11 * 128 threat points, times 256, plus a column rank below 256).
const BOTTOM_FIRST: i32 = 1 << 20;

/// A move of a node's list, with what ranking it found out.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ranked<B> {
    /// Higher is searched first.
    pub rank: i32,
    /// The move, as a single bit.
    pub bit: B,
    /// The empty cells that would complete a line of the mover's after the move: in the child,
    /// the opponent's threats, which its strategy bounds need.
    pub threats: B,
}

/// The empty cells that would complete a line of the mover's after each of a node's moves,
/// for the moves whose cells the expansion has already computed (under misère rules it needs
/// them to see which moves lose at the next turn), so that the ordering does not scan the
/// lines again.
pub(crate) struct ThreatsAfter<B> {
    /// By the bit index of the move.
    cells: Box<[B; 128]>,
    /// The moves whose entry holds their cells.
    known: B,
}

impl<B: Bits> ThreatsAfter<B> {
    /// Nothing known.
    pub(crate) fn new() -> ThreatsAfter<B> {
        ThreatsAfter {
            cells: Box::new([B::ZERO; 128]),
            known: B::ZERO,
        }
    }

    /// Forgets every move's cells: a new node.
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.known = B::ZERO;
    }

    /// Records `cells` for the move `m` (a single bit).
    #[inline(always)]
    pub(crate) fn record(&mut self, m: B, cells: B) {
        self.cells[m.trailing_zeros() as usize] = cells;
        self.known |= m;
    }

    /// The cells recorded for the move `m`, if any.
    #[inline(always)]
    pub(super) fn get(&self, m: B) -> Option<B> {
        (!(self.known & m).is_empty()).then(|| self.cells[m.trailing_zeros() as usize])
    }
}

/// Ranks moves for one set of rules.
pub(crate) struct MoveOrder<B: Bits> {
    /// Static preference of each column, higher first.
    column_rank: Vec<i32>,
    variant: Variant,
    /// Cells on rows 1, 3, 5, ... counted from 1 at the bottom (the first player's rows).
    odd_rows: B,
    /// Under misère rules on a board of odd height (3 or more), the cells of the second row
    /// from the bottom; empty otherwise (see [`MoveOrder::sort`]).
    second_row: B,
    /// Whether the answer on top comes first only when it leaves every column filled in pairs
    /// (see [`answer_on_top_when_paired`]), rather than always.
    on_top_only_when_paired: bool,
    /// The cells of the bottom row.
    bottom: B,
    /// Under misère rules on a flat board of even height, the cells of the even rows (the
    /// second, fourth, ... from the bottom), which the second player's follow-up claims;
    /// empty otherwise (see [`MoveOrder::threat_priority`]).
    even_rows: B,
    /// Under normal rules, the fewest empty cells at which moves of equal threats go by the
    /// live windows through their cells, the opponent's first (see [`MoveOrder::sort`]): every
    /// node of a cylinder, the nodes of [`LIVE_MIN_EMPTY_FLAT`] empty cells or more of a flat
    /// board; `None` under misère rules.
    live_from: Option<u32>,
}

/// How far the live windows through a cell are counted (see [`MoveOrder::sort`]).
const LIVE_COUNTED: usize = 8;

/// On a flat board, the fewest empty cells at which the live windows are counted (see
/// [`MoveOrder::sort`]).
const LIVE_MIN_EMPTY_FLAT: u32 = 18;

/// Where the live windows are counted, the column preference (centre first on a flat board)
/// weighs this many times what it weighs alone, against at most 40 points of live windows: a
/// centre column is worth 8 points more than one next to the edge on 7 columns.
const COLUMN_WEIGHT_BESIDE_LIVE: i32 = 4;

impl<B: Bits> MoveOrder<B> {
    /// The ordering for `layout`'s rules: on a flat board, centre columns first under normal
    /// rules (they take part in the most lines), edge columns first under misère rules (they
    /// take part in the fewest lines, so they create the fewest cells the mover must later
    /// avoid); on a cylinder, where no column is an edge, left to right.
    pub(crate) fn new(layout: &Layout<B>) -> MoveOrder<B> {
        let rules = layout.rules();
        let w = rules.width() as i32;
        // Every column of a cylinder takes part in as many lines as any other.
        let column_rank = (0..w)
            .map(|c| {
                let off_centre = if rules.is_cylinder() {
                    0
                } else {
                    (2 * c - (w - 1)).abs()
                };
                match rules.variant() {
                    Variant::Normal => -off_centre,
                    Variant::Misere => off_centre,
                }
            })
            .collect();
        let odd_misere = rules.variant() == Variant::Misere && rules.height() % 2 == 1;
        MoveOrder {
            column_rank,
            variant: rules.variant(),
            odd_rows: layout.odd_rows(),
            on_top_only_when_paired: answer_on_top_when_paired(&rules),
            second_row: if odd_misere && rules.height() >= 3 {
                (layout.bottom() << 1) & layout.full()
            } else {
                B::ZERO
            },
            bottom: layout.bottom(),
            even_rows: if rules.variant() == Variant::Misere
                && !rules.is_cylinder()
                && rules.height().is_multiple_of(2)
            {
                layout.full() & !layout.odd_rows()
            } else {
                B::ZERO
            },
            live_from: (rules.variant() == Variant::Normal).then_some(if rules.is_cylinder() {
                0
            } else {
                LIVE_MIN_EMPTY_FLAT
            }),
        }
    }

    /// How much a move `m` that leaves the mover with the completing cells `own` is worth;
    /// `their_completing` are the empty cells that complete a line of the opponent's.
    ///
    /// Normal rules: more threats first, and a threat on a row of the mover's parity (odd rows
    /// for the first player, even rows for the second) counts double: in the endgame the
    /// columns fill up in pairs, so it is the threats of the right parity that zugzwang lets
    /// their owner cash in. A threat directly above a playable cell counts once more: the
    /// opponent can no longer play in that column, which narrows its choices at once (the
    /// weighting of Steininger's solver `c4` puts such threats first too). A threat the
    /// opponent must block at once (on a playable cell) counts half of that more: among moves
    /// otherwise equal, the forcing one first, whose reply is forced and cheap to search.
    ///
    /// Misère rules: a misère game is lost by the player who runs out of safe moves, so first
    /// the moves that leave the opponent the fewest safe moves (playable cells that complete
    /// none of its lines; a disc just below such a cell takes one away, a disc below one of the
    /// mover's own gives one), each worth four of the cells the mover must never fill.
    ///
    /// On a flat misère board of even height the second player's moves onto the even rows
    /// (the second, fourth, ... cell of a column: a move that leaves its column with an even
    /// number of discs) gain three quarters of a safe move fewer for the opponent: those are
    /// the cells the second player's follow-up claims, and keeping the columns filled in pairs
    /// is what wins misère 7x6 for it. In a proof that the first player loses, most nodes go to
    /// refuting the second player's moves that do not win. Boards of odd height, where the
    /// parity works otherwise (see [`MoveOrder::sort`]), took more nodes with the preference,
    /// so they are left out, and so are cylinders, not measured.
    #[inline]
    fn threat_priority(&self, pos: &Position<B>, m: B, own: B, their_completing: B) -> i32 {
        match self.variant {
            Variant::Normal => {
                let parity = if pos.plies().is_multiple_of(2) {
                    self.odd_rows
                } else {
                    !self.odd_rows
                };
                let playable = pos.layout().playable(pos.mask() | m);
                let above_playable = own & (playable << 1);
                let forcing = own & playable;
                (4 * (own.count_ones() + (own & parity).count_ones())
                    + 2 * above_playable.count_ones()
                    + forcing.count_ones()) as i32
            }
            Variant::Misere => {
                let their_safe = pos.layout().playable(pos.mask() | m) & !their_completing;
                let pairs = if pos.plies().is_multiple_of(2) {
                    0
                } else {
                    (m & self.even_rows).count_ones() as i32
                };
                -(own.count_ones() as i32) - 4 * their_safe.count_ones() as i32 + 3 * pairs
            }
        }
    }

    /// Fills `out` with `moves` best first. Under misère rules the move on `above_last` (the
    /// cell above the opponent's last disc) comes first: answering on top keeps every column
    /// filled in pairs (the paper's take-even), which denies the opponent the safe cells it
    /// needs late in the game. On the boards of [`answer_on_top_when_paired`], only when the
    /// answer leaves every column filled in pairs; there it is otherwise ranked like any other
    /// move. `their_completing` are the empty cells that complete a line of the opponent's
    /// (which the misère ranking counts). `known` holds the cells that complete a line of the
    /// mover's after some of the moves, computed already.
    ///
    /// One exception, on misère boards of odd height: after a disc of the opponent's on the
    /// bottom row, the bottom row's moves come first (in their usual order), ahead of the
    /// answer on top. That is the paper's delayed take-even (Theorem 2): the bottom row is
    /// answered within the bottom row, by a pairing, which leaves an even number of empty
    /// cells in every column above it, and answering on top of a bottom-row disc gives that
    /// parity up. (Exact misère 10x3, k = 4: 626,879,071 nodes with the answer on top first,
    /// 1,638,246 with this order.)
    ///
    /// On a normal cylinder, where no column is preferred, moves of equal threats go by the
    /// live windows through their cell (k-long windows holding none of the other side's
    /// discs), counted up to [`LIVE_COUNTED`]: four points for each of the opponent's (a disc
    /// there takes them from the opponent), one for each of the mover's own. Most of a drawn
    /// ring's search proves that the side defending holds the draw, and the blocking moves
    /// find its defence soonest. (Outcome only, one thread, 1 GiB, nodes left to right, then
    /// by membership of the windows alone, then counted: 11x3 k = 7 1,265,462,100, 27,641,314
    /// and 7,418,594; 12x2 k = 6 51,968,213, 14,876,151 and 207,961.)
    ///
    /// A flat normal board counts them too, at its nodes of [`LIVE_MIN_EMPTY_FLAT`] empty cells
    /// or more, where the order decides the most, beside the centre-first column preference
    /// weighted [`COLUMN_WEIGHT_BESIDE_LIVE`] times. Narrow and tall boards gain most, their
    /// draws being proofs that the defender blocks every window in time. (Exact empty boards,
    /// one thread, 1 GiB, nodes before and after: 4x10 40,182,622 and 12,183,675; 4x11
    /// 30,251,788 and 17,483,894; 5x9 83,087,776 and 60,523,955; 7x6 72,999,871 and
    /// 50,304,117; 6x7 53,905,881 and 45,908,777; 9x4 44,379,480 and 44,770,537; 8x4
    /// 5,595,648 and 6,318,919. Counted at every node the nodes were about the same and each
    /// cost a sixth more; counted alone, without the column preference, 9x4 and 6x7 took
    /// 46% and 23% more nodes than before.)
    #[inline]
    pub(crate) fn sort(
        &self,
        pos: &Position<B>,
        moves: B,
        above_last: B,
        their_completing: B,
        known: &ThreatsAfter<B>,
        out: &mut Vec<Ranked<B>>,
    ) {
        out.clear();
        let layout = pos.layout();
        let bottom_first = !(above_last & self.second_row).is_empty();
        let misere = self.variant == Variant::Misere;
        // Columns filled in pairs (an even number of discs: the boards of
        // `answer_on_top_when_paired` have an even height) have their playable cells on odd rows.
        let on_top_first = misere
            && !bottom_first
            && !(above_last & moves).is_empty()
            && (!self.on_top_only_when_paired
                || (layout.playable(pos.mask() | above_last) & !self.odd_rows).is_empty());
        let mut their_windows = [B::ZERO; LIVE_COUNTED];
        let mut own_windows = [B::ZERO; LIVE_COUNTED];
        let live_here = self
            .live_from
            .is_some_and(|least| pos.empty_cells() >= least);
        if live_here {
            let empty = layout.full() & !pos.mask();
            layout.window_counts(pos.opponent() | empty, &mut their_windows);
            layout.window_counts(pos.current() | empty, &mut own_windows);
        }
        let count = |planes: &[B], m: B| -> i32 {
            planes.iter().map(|p| (m & *p).count_ones() as i32).sum()
        };
        for m in BitIter(moves) {
            let column = layout.bit_cell(m).column;
            // Misère boards and the lower nodes of flat ones skip the counting: it is on the
            // path of every node, and costs about a sixth of a node's time.
            let (live, column_weight) = if live_here {
                (
                    4 * count(&their_windows, m) + count(&own_windows, m),
                    COLUMN_WEIGHT_BESIDE_LIVE,
                )
            } else {
                (0, 1)
            };
            let own = known.get(m).unwrap_or_else(|| {
                layout.completing_cells(pos.current() | m) & layout.full() & !(pos.mask() | m)
            });
            let rank = if m == above_last && on_top_first {
                i32::MAX
            } else {
                let rank = self.threat_priority(pos, m, own, their_completing) * 256
                    + column_weight * self.column_rank[column as usize]
                    + live;
                if bottom_first && !(m & self.bottom).is_empty() {
                    rank + BOTTOM_FIRST
                } else {
                    rank
                }
            };
            // Insertion keeps the list sorted, best first; lists are at most one move per column.
            let at = out.iter().position(|r| r.rank < rank).unwrap_or(out.len());
            out.insert(
                at,
                Ranked {
                    rank,
                    bit: m,
                    threats: own,
                },
            );
        }
    }

    /// Moves the move in `column` (if `list` holds one) ahead of all others, keeping the
    /// order of the rest: the table's best move from an earlier search of the position.
    #[inline]
    pub(crate) fn put_first(layout: &Layout<B>, column: u32, list: &mut [Ranked<B>]) {
        if let Some(at) = list
            .iter()
            .position(|r| layout.bit_cell(r.bit).column == column)
        {
            list[..=at].rotate_right(1);
        }
    }
}

/// Whether the misère move ordering on `rules`' board puts the answer on top first only when
/// it leaves every column filled in pairs (see [`MoveOrder::sort`]), rather than always: on
/// the standard 7x6 board with k = 3 or 4, the only boards measured where that pays
/// (everywhere else it was worse, often by far).
fn answer_on_top_when_paired(rules: &Rules) -> bool {
    rules.variant() == Variant::Misere
        && !rules.is_cylinder()
        && (rules.width(), rules.height()) == (7, 6)
        && rules.k() <= 4
}
