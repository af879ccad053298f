//! Negamax alpha-beta search over one bit type.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;

use crate::engine::bits::{BitIter, Bits};
use crate::engine::layout::Layout;
use crate::engine::position::Position;
use crate::engine::rules::Rules;

use super::busy::Busy;
use super::expand::{Expansion, bound_by_strategies, expand};
use super::order::{MoveOrder, Ranked};
use super::score::Score;
use super::table::{Learned, NEAR_LEAF_EMPTY, Tables, near_leaf};

/// Nodes with at least this many empty cells try an enhanced transposition cutoff first: one
/// table probe per child is cheap next to the subtrees it can save, but not near the leaves.
/// (UCI lines 53,249-53,848, 2 workers, 16 MiB: 25.4 s wall at 12, 25.8 s at 16, 26.5 s at 20,
/// 28.9 s at 26.)
const ETC_MIN_EMPTY: u32 = 12;

// The cutoff probes children with one empty cell fewer than the node in the large table.
const _: () = assert!(ETC_MIN_EMPTY > NEAR_LEAF_EMPTY);

/// Nodes with at least this many empty cells look for a strategy cutoff (see
/// [`strategy_cutoff`]) before searching. It cuts off about a third of the nodes with 8 to 16
/// empty cells that try it (UCI lines 53,249-53,398), fewer higher up; below 6 the bounds
/// cost about what the small subtrees they save do. (UCI lines 53,249-53,848, 2 workers,
/// 16 MiB: 24.9 s wall at 2, 25.1 s at 4, 24.8 s at 6, 25.4 s at 8, 25.7 s at 10.)
const STRATEGY_CUTOFF_MIN_EMPTY: u32 = 6;

/// Nodes with at least this many empty cells mark themselves busy while they search, and put
/// off their busy moves (see [`Busy`]); near the leaves the bookkeeping would cost more than
/// the work it spreads.
const DEFER_MIN_EMPTY: u32 = 20;

/// Helpers join only root searches of positions with at least this many empty cells: smaller
/// searches end before starting threads pays off.
const PARALLEL_MIN_EMPTY: u32 = 24;

/// Helpers look at their stop signal once every this many nodes.
const STOP_CHECK_NODES: u64 = 1 << 10;

/// An exhaustive search for one set of rules, with its transposition table.
///
/// A search may have helpers: searches in other threads that share its large table and run
/// the same root search alongside it ("lazy SMP", as chess engines call it). Every thread puts
/// off the moves another thread is searching (see [`Busy`]), so the threads spread over the
/// moves of a node that must all be searched, and what one stores spares the others that work.
/// The main search's answer is the answer: helpers only ever add sound bounds to the table, so
/// values and remoteness are the same for any number of threads (node counts are not).
pub struct Search<B: Bits> {
    layout: Layout<B>,
    table: Tables<B>,
    order: MoveOrder<B>,
    /// One move list per ply, reused so that the search allocates nothing per node.
    move_lists: Vec<Vec<Ranked<B>>>,
    nodes: u64,
    /// The search gives up once `nodes` passes this count (see [`Search::set_node_budget`]).
    node_limit: u64,
    /// Searches in other threads that share the large table.
    helpers: Vec<Search<B>>,
    /// Raised by the main search when its root search is done, to stop the helpers.
    stop: Arc<AtomicBool>,
    /// Whether this is a helper (which stops when [`Search::stop`] is raised).
    is_helper: bool,
    /// The positions the threads are searching, when there are helpers.
    busy: Option<Arc<Busy>>,
}

/// What a parent passes to the child it searches, besides the window.
#[derive(Clone, Copy)]
struct Hint<B> {
    /// The cell just above the opponent's last disc (for move ordering only; empty when
    /// unknown).
    above_last: B,
    /// The empty cells that would complete a line of the opponent's, when the parent has them
    /// already (its move ordering finds them for every child).
    their_threats: Option<B>,
    /// False when the parent's strategy cutoff found the child's strategy bounds above the
    /// child's `alpha`, so that its expansion skips them (see [`expand`]).
    try_strategies: bool,
}

impl<B: Bits> Hint<B> {
    /// Nothing known: a root search.
    const ROOT: Hint<B> = Hint {
        above_last: B::ZERO,
        their_threats: None,
        try_strategies: true,
    };
}

/// The canonical keys of a node's children, in the order of their moves' bits.
struct ChildKeys<B> {
    keys: [B; 64],
    count: usize,
}

/// Strategy cutoff: a move after which one of the opponent's strategy bounds
/// ([`bound_by_strategies`]) already proves the node's score at least `beta` ends the node
/// without searching anything, as an enhanced transposition cutoff does with stored bounds.
/// Returns that score (a lower bound, valid for fail-soft) when one is found; when none is,
/// every child's bound is above `-beta`, which its own expansion need not find out again.
///
/// Sound because an upper bound `u` on the child's score (from the child's side) means the
/// move scores at least `-u` for the mover. The bounds are -1, 0 or none, so only windows
/// with `beta <= 1` can be cut off. `list` holds the moves to search, which never complete a
/// line (the expansion settles those nodes), so each child is a position without a line; a
/// child with a full board is a draw, which the search scores itself. Moves are tried in the
/// list's order, the likeliest refutation first.
fn strategy_cutoff<B: Bits>(pos: &Position<B>, list: &[Ranked<B>], beta: Score) -> Option<Score> {
    debug_assert!(beta <= 1, "no strategy bound reaches above a score of 1");
    list.iter().find_map(|ranked| {
        let mut child = *pos;
        child.play_bit(ranked.bit);
        let upper = if child.empty_cells() == 0 {
            Score::MAX
        } else {
            bound_by_strategies(&child, ranked.threats, -beta)
        };
        (-upper >= beta).then_some(-upper)
    })
}

impl<B: Bits> Search<B> {
    /// A search for `rules` with a table of at most `table_bytes`, run by `threads` threads
    /// (the caller's and `threads - 1` helpers, which share the large table); `None` if the
    /// board does not fit in `B`.
    pub fn new(rules: Rules, table_bytes: usize, threads: usize) -> Option<Search<B>> {
        let layout = Layout::new(rules)?;
        let mut search = Search {
            layout,
            table: Tables::with_bytes(table_bytes, threads > 1),
            order: MoveOrder::new(&layout),
            move_lists: vec![Vec::new(); rules.cells() as usize + 1],
            nodes: 0,
            node_limit: u64::MAX,
            helpers: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
            is_helper: false,
            busy: (threads > 1).then(Arc::default),
        };
        search.helpers = (1..threads)
            .map(|_| Search {
                layout,
                table: search.table.share().expect("the table was made shared"),
                order: MoveOrder::new(&layout),
                move_lists: search.move_lists.clone(),
                nodes: 0,
                node_limit: u64::MAX,
                helpers: Vec::new(),
                stop: Arc::clone(&search.stop),
                is_helper: true,
                busy: search.busy.clone(),
            })
            .collect();
        Some(search)
    }

    /// Nodes visited since the search was created, by this search and its helpers.
    pub fn nodes(&self) -> u64 {
        self.nodes + self.helpers.iter().map(|h| h.nodes).sum::<u64>()
    }

    /// Makes the search give up once it has visited `budget` more nodes of its own (helpers'
    /// nodes not counted); `None` lifts the limit. Once it gives up, [`Search::exhausted`] is
    /// true and every score returned is meaningless, but the table stays sound: a node whose
    /// subtree was cut short stores nothing.
    pub fn set_node_budget(&mut self, budget: Option<u64>) {
        self.node_limit = budget.map_or(u64::MAX, |b| self.nodes.saturating_add(b));
    }

    /// Whether the search has passed its node limit.
    pub fn exhausted(&self) -> bool {
        self.nodes > self.node_limit
    }

    /// The exact score of a non-terminal position, by a sequence of null-window searches.
    pub fn exact(&mut self, pos: &Position<B>) -> Score {
        let span = pos.empty_cells() as Score;
        let (mut lower, mut upper) = (-span, span);
        while lower < upper {
            // Probe near zero first (the sign is cheapest to settle), then bisect.
            let mut probe = lower + (upper - lower) / 2;
            if probe <= 0 && lower / 2 < probe {
                probe = lower / 2;
            } else if probe >= 0 && upper / 2 > probe {
                probe = upper / 2;
            }
            let r = self.negamax(pos, probe, probe + 1);
            if r <= probe {
                upper = r;
            } else {
                lower = r;
            }
        }
        lower
    }

    /// A score of a non-terminal position with the right sign (win, draw or loss) only.
    pub fn sign(&mut self, pos: &Position<B>) -> Score {
        // Two null-window searches (is it a win? then: is it a loss?) cut off more than one
        // search with the window (-1, 1). The first one's fail-soft answer may settle a loss
        // already: below the window, it is an upper bound on the score.
        let first = self.negamax(pos, 0, 1);
        if first > 0 {
            1
        } else if first < 0 || self.negamax(pos, -1, 0) < 0 {
            -1
        } else {
            0
        }
    }

    /// The canonical keys of the children reached by `moves` (at most 64), whose buckets in the
    /// large table start loading now for [`Search::transposition_cutoff`]: the node orders its
    /// moves meanwhile, so the probes there find them in the cache.
    fn prefetch_children(&self, pos: &Position<B>, moves: B) -> ChildKeys<B> {
        let mut children = ChildKeys {
            keys: [B::ZERO; 64],
            count: 0,
        };
        for (m, slot) in BitIter(moves).zip(children.keys.iter_mut()) {
            let mut child = *pos;
            child.play_bit(m);
            *slot = child.canonical_key().0;
            self.table.prefetch(*slot, false);
            children.count += 1;
        }
        children
    }

    /// Enhanced transposition cutoff: a child (of `children`, from
    /// [`Search::prefetch_children`]) whose stored upper bound already proves the node's score
    /// at least `beta` ends the node without searching anything. Returns that score (a lower
    /// bound, valid for fail-soft) when one is found.
    ///
    /// Sound because a child's upper bound `u` (from the child's side) means the move to it
    /// scores at least `-u` for the mover, and the node's score is the best of its moves.
    fn transposition_cutoff(&self, children: &ChildKeys<B>, beta: Score) -> Option<Score> {
        children.keys[..children.count].iter().find_map(|&key| {
            let known = self.table.get(key, false)?;
            (-known.upper >= beta).then_some(-known.upper)
        })
    }

    /// Alpha-beta negamax over a non-terminal position (no line made yet, not necessarily
    /// with empty cells).
    ///
    /// Contract (fail-soft): the true score `v` and the result `r` satisfy `r >= v` when
    /// `r <= alpha`, `r <= v` when `r >= beta`, and `r == v` when `alpha < r < beta`.
    ///
    /// The helpers, if any, search the same position in other threads until this search is
    /// done.
    pub fn negamax(&mut self, pos: &Position<B>, alpha: Score, beta: Score) -> Score {
        if self.helpers.is_empty() || pos.empty_cells() < PARALLEL_MIN_EMPTY {
            return self.node(pos, alpha, beta, Hint::ROOT);
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        self.stop.store(false, Relaxed);
        let score = std::thread::scope(|scope| {
            for helper in helpers.iter_mut() {
                helper.node_limit = u64::MAX;
                scope.spawn(|| helper.node(pos, alpha, beta, Hint::ROOT));
            }
            let score = self.node(pos, alpha, beta, Hint::ROOT);
            self.stop.store(true, Relaxed);
            score
        });
        self.helpers = helpers;
        score
    }

    /// [`Search::negamax`] with what the parent knows of the node (see [`Hint`]).
    fn node(
        &mut self,
        pos: &Position<B>,
        mut alpha: Score,
        mut beta: Score,
        hint: Hint<B>,
    ) -> Score {
        debug_assert!(alpha < beta);
        self.nodes += 1;
        if self.is_helper && self.nodes.is_multiple_of(STOP_CHECK_NODES) && self.stop.load(Relaxed)
        {
            // Everything this helper finds from now on is thrown away, and nothing is stored.
            self.node_limit = 0;
        }
        if pos.empty_cells() == 0 || self.nodes > self.node_limit {
            return 0;
        }
        // The table's bucket is fetched from memory while the node is expanded and its moves
        // are ordered.
        let (key, mirrored) = pos.canonical_key();
        let empty = pos.empty_cells();
        let near = near_leaf(pos);
        self.table.prefetch(key, near);
        let their_threats = hint.their_threats.unwrap_or_else(|| {
            self.layout.completing_cells(pos.opponent()) & self.layout.full() & !pos.mask()
        });
        let (moves, lower, upper) = match expand(pos, their_threats, hint.try_strategies) {
            Expansion::Decided(score) => return score,
            Expansion::Open {
                moves,
                lower,
                upper,
            } => (moves, lower, upper),
        };
        if upper <= alpha {
            return upper;
        }
        if lower >= beta {
            return lower;
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        if moves.count_ones() == 1 {
            // One move to search (a forced block, say): the node's score is its child's, so
            // the child's own table entry and cutoffs serve; storing the node as well would
            // only push a more useful entry out of the table.
            let mut child = *pos;
            child.play_bit(moves);
            let hint = Hint {
                above_last: moves << 1,
                their_threats: None,
                try_strategies: true,
            };
            return -self.node(&child, -beta, -alpha, hint);
        }
        let children = (empty >= ETC_MIN_EMPTY).then(|| self.prefetch_children(pos, moves));
        let ply = pos.plies() as usize;
        self.order
            .sort(pos, moves, hint.above_last, &mut self.move_lists[ply]);

        let w = self.layout.rules().width();
        let orient = |column: u32| if mirrored { w - 1 - column } else { column };
        if let Some(known) = self.table.get(key, near) {
            if known.lower >= beta {
                return known.lower;
            }
            if known.upper <= alpha {
                return known.upper;
            }
            alpha = alpha.max(known.lower);
            beta = beta.min(known.upper);
            if alpha >= beta {
                return alpha;
            }
            if let Some(column) = known.best {
                MoveOrder::put_first(&self.layout, orient(column), &mut self.move_lists[ply]);
            }
        }
        if let Some(children) = &children
            && let Some(score) = self.transposition_cutoff(children, beta)
        {
            return score;
        }
        // Whether the strategy cutoff looks at every child's bounds (and finds none that cuts
        // off, if the node goes on): the children then skip them.
        let strategies_tried = empty >= STRATEGY_CUTOFF_MIN_EMPTY && beta <= 1;
        if strategies_tried && let Some(score) = strategy_cutoff(pos, &self.move_lists[ply], beta) {
            return score;
        }
        let alpha_in = alpha;
        let nodes_before = self.nodes;

        let list = std::mem::take(&mut self.move_lists[ply]);
        let tracked = empty >= DEFER_MIN_EMPTY;
        if tracked && let Some(busy) = &self.busy {
            busy.enter(key);
        }
        let mut best = Score::MIN;
        let mut best_move = B::ZERO;
        // Moves put off because another thread is searching them; searched in a second pass.
        let mut deferred = B::ZERO;
        'passes: for pass in 0..2 {
            for (
                i,
                &Ranked {
                    bit: m, threats, ..
                },
            ) in list.iter().enumerate()
            {
                let mut child = *pos;
                child.play_bit(m);
                if pass == 1 {
                    if (deferred & m).is_empty() {
                        continue;
                    }
                } else if tracked
                    && i > 0
                    && let Some(busy) = &self.busy
                    && busy.contains(child.canonical_key().0)
                {
                    deferred |= m;
                    continue;
                }
                let hint = Hint {
                    above_last: m << 1,
                    their_threats: Some(threats),
                    try_strategies: !strategies_tried,
                };
                let score = -self.node(&child, -beta, -alpha, hint);
                if score > best {
                    best = score;
                    best_move = m;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            break 'passes;
                        }
                    }
                }
            }
            if deferred.is_empty() {
                break;
            }
        }
        if tracked && let Some(busy) = &self.busy {
            busy.leave(key);
        }
        self.move_lists[ply] = list;
        if self.exhausted() {
            // Some child gave up: `best` means nothing and must not be stored.
            return best;
        }

        let best_column = Some(orient(self.layout.bit_cell(best_move).column));
        let (lower, upper, best_column) = if best <= alpha_in {
            (None, Some(best), None)
        } else if best >= beta {
            (Some(best), None, best_column)
        } else {
            (Some(best), Some(best), best_column)
        };
        self.table.put(
            key,
            near,
            Learned {
                lower,
                upper,
                best: best_column,
                nodes: self.nodes - nodes_before,
            },
        );
        best
    }
}
