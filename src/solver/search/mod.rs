//! Negamax alpha-beta search over one bit type.

mod busy;
pub(super) mod expand;
mod order;
mod probe;
mod table;

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::time::{Duration, Instant};

use crate::engine::bits::{BitIter, Bits};
use crate::engine::layout::{Layout, Symmetry};
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Variant};

use super::Depth;
use super::book::Book;
use super::score::Score;
use busy::Busy;
use expand::{Expansion, bound_by_strategies, expand};
use order::{MoveOrder, Ranked, ThreatsAfter};
use probe::{OutcomeOrder, ScoreSearch};
use table::{Learned, NEAR_LEAF_EMPTY, Tables, near_leaf};

/// Under misère rules, nodes with at least this many empty cells try an enhanced transposition
/// cutoff first: one table probe per child is cheap next to the subtrees it can save, but not
/// near the leaves.
const ETC_MIN_EMPTY_MISERE: u32 = 12;

/// The same under normal rules, where the probes pay off only higher up: normal games end
/// sooner, so a subtree near the leaves is smaller than in misère.
const ETC_MIN_EMPTY_NORMAL: u32 = 18;

// The cutoff probes children with one empty cell fewer than the node in the large table.
const _: () = assert!(ETC_MIN_EMPTY_MISERE > NEAR_LEAF_EMPTY);
const _: () = assert!(ETC_MIN_EMPTY_NORMAL > NEAR_LEAF_EMPTY);

/// Nodes with at least this many empty cells, in the windows of an outcome and the one next
/// to it (see [`Search::node`]), look for a strategy cutoff (see [`strategy_cutoff`]) before
/// searching. It cuts off about a third of the nodes with 8 to 16 empty cells that try it,
/// fewer higher up; below 6 the bounds cost about what the small subtrees they save do.
const STRATEGY_CUTOFF_MIN_EMPTY: u32 = 6;

/// Nodes with at least this many empty cells mark themselves busy while they search, and put
/// off their busy moves (see [`Busy`]); near the leaves the bookkeeping would cost more than
/// the work it spreads.
const DEFER_MIN_EMPTY: u32 = 20;

/// Helpers join only root searches of positions with at least this many empty cells: smaller
/// searches end before starting threads pays off.
const PARALLEL_MIN_EMPTY: u32 = 24;

/// Searches look at their stop signal and their deadline once every this many nodes.
const STOP_CHECK_NODES: u64 = 1 << 10;

/// An exhaustive search for one set of rules, with its transposition table.
///
/// A search may have helpers: searches in other threads that share its large table and run
/// the same root search alongside it ("lazy SMP", as chess engines call it). Every thread puts
/// off the moves another thread is searching (see [`Busy`]), so the threads spread over the
/// moves of a node that must all be searched, and what one stores spares the others that work.
/// The main search's answer is the answer: helpers only ever add sound bounds to the table, so
/// values and remoteness are the same for any number of threads (node counts are not).
pub(crate) struct Search<B: Bits> {
    layout: Layout<B>,
    table: Tables<B>,
    order: MoveOrder<B>,
    /// One move list per ply, reused so that the search allocates nothing per node.
    move_lists: Vec<Vec<Ranked<B>>>,
    /// What the expansion of the node being expanded found of the mover's threats after its
    /// moves, for its move ordering (the node orders its moves before it searches a child).
    threats_after: ThreatsAfter<B>,
    nodes: u64,
    /// The search gives up once `nodes` passes this count (see [`Search::set_budget`]).
    node_limit: u64,
    /// The search gives up once this time has passed (see [`Search::set_budget`]).
    deadline: Option<Instant>,
    /// Searches in other threads that share the large table.
    helpers: Vec<Search<B>>,
    /// Raised by the main search when its root search is done, to stop the helpers.
    stop: Arc<AtomicBool>,
    /// Raised by whoever asked for the search when its answer is no longer wanted: every
    /// thread then gives up as when its budget is spent (see [`Search::set_cancel`]).
    cancel: Option<Arc<AtomicBool>>,
    /// Whether this search stops when [`Search::stop`] is raised: a helper's does, and so does
    /// every thread's in [`Search::score_each`].
    obeys_stop: bool,
    /// The positions the threads are searching, when there are helpers.
    busy: Option<Arc<Busy>>,
    /// The opening book of these rules, whose values bound the scores of the positions it
    /// holds.
    book: Option<Arc<Book>>,
    /// Nodes with at least this many empty cells try an enhanced transposition cutoff
    /// ([`ETC_MIN_EMPTY_NORMAL`] or [`ETC_MIN_EMPTY_MISERE`]).
    etc_min_empty: u32,
    /// Which question of an outcome-only search goes first (see [`Search::sign`]).
    outcome_order: OutcomeOrder,
}

/// What the threads of [`Search::score_each`] share about the positions they take in turn.
struct Turns {
    /// The index of the next position not yet started.
    next: AtomicUsize,
    /// Raised for each position once it is settled (or out of time): it stops every thread
    /// still searching it.
    done: Vec<Arc<AtomicBool>>,
    /// Each position's deadline, set by the first thread to start it.
    deadlines: Vec<OnceLock<Instant>>,
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
    /// Whether the node is the root of a search (see [`root_refutes_as_outcome`]).
    root: bool,
}

impl<B: Bits> Hint<B> {
    /// A root search, which is not told the last move. It guesses it for the move ordering:
    /// when exactly one column holds an odd number of discs and its top disc is the
    /// opponent's, that disc. A game in which the side to move has answered every move on top
    /// (the second player's winning plan under misère rules) leaves exactly that, and without
    /// the guess the root searches the edge columns first, which can cost a thousand times
    /// the nodes.
    fn root(pos: &Position<B>) -> Hint<B> {
        let odd_tops = pos.playable() & !pos.layout().odd_rows();
        let above_last =
            if odd_tops.count_ones() == 1 && !(pos.opponent() & (odd_tops >> 1)).is_empty() {
                odd_tops
            } else {
                B::ZERO
            };
        Hint {
            above_last,
            their_threats: None,
            try_strategies: true,
            root: true,
        }
    }
}

/// Whether a root move after the first is refuted in an outcome's window before its own: at a
/// root asked, under normal rules, whether the side to move wins sooner than on the last ply
/// it could win on (`alpha` 1 or 2, by the parity of the empty cells).
///
/// That question follows the sign when a position is won late, and fails low: every root
/// move must then be shown not to win sooner. For a move that does not win at all, "it does
/// not win" says as much and is far cheaper to prove, as the opponent's strategy bounds cut
/// off in an outcome's windows only (see [`Search::node`]); for one that wins too, the
/// outcome search is wasted. Not under misère rules, where a won position often has several
/// winning moves; nor for later wins; nor below the root, where it gains too little.
fn root_refutes_as_outcome<B: Bits>(pos: &Position<B>, window: Window) -> bool {
    pos.rules().variant() == Variant::Normal && (1..=2).contains(&window.alpha)
}

/// The canonical keys of a node's children, in the order of their moves' bits.
struct ChildKeys<B> {
    keys: [B; 64],
    count: usize,
}

/// A node's search window: the scores strictly between `alpha` and `beta` are the ones the
/// caller needs exactly; outside them a bound will do (the fail-soft contract of
/// [`Search::negamax`]).
#[derive(Clone, Copy)]
struct Window {
    /// Scores at most this are only needed as upper bounds.
    alpha: Score,
    /// Scores at least this are only needed as lower bounds.
    beta: Score,
}

impl Window {
    /// The window met with bounds `lower..=upper` on the node's score: breaks with `lower`
    /// when it is at least `beta`, with `upper` when it is at most `alpha`, and with the
    /// score when the narrowed window closes (`lower == upper`, the exact score); otherwise
    /// continues with the window narrowed to the bounds.
    ///
    /// Sound for fail-soft: a lower bound at least `beta` is a score at least `beta` and at
    /// most the true one, as the contract asks (an upper bound at most `alpha` likewise), and
    /// a search in the narrowed window meets the contract for the wider one, since the true
    /// score lies within the bounds.
    #[inline(always)]
    fn narrow(self, lower: Score, upper: Score) -> ControlFlow<Score, Window> {
        if lower >= self.beta {
            return ControlFlow::Break(lower);
        }
        if upper <= self.alpha {
            return ControlFlow::Break(upper);
        }
        let window = Window {
            alpha: self.alpha.max(lower),
            beta: self.beta.min(upper),
        };
        if window.alpha >= window.beta {
            return ControlFlow::Break(window.alpha);
        }
        ControlFlow::Continue(window)
    }
}

/// Where a node's bounds live in the tables (see [`Tables`]).
struct Slot<B> {
    /// The canonical key: the smallest key of the position's images under the board's
    /// symmetries (see [`Position::canonical_key`]).
    key: B,
    /// The symmetry that takes the position to the image of `key`, so that stored columns
    /// are that image's.
    symmetry: Symmetry,
    /// Whether the node belongs in the near-leaf table (see [`near_leaf`]).
    near: bool,
}

/// Strategy cutoff: a move after which one of the opponent's strategy bounds
/// ([`bound_by_strategies`]) already proves the node's score at least `beta` ends the node
/// without searching anything, as an enhanced transposition cutoff does with stored bounds.
/// Returns that score (a lower bound, valid for fail-soft) when one is found; when none is,
/// every child's bound is above `-beta`, which its own expansion need not find out again.
///
/// Sound because an upper bound `u` on the child's score (from the child's side) means the
/// move scores at least `-u` for the mover. The bounds are 0, a loss at most a column's height
/// before the end (see [`super::bounds::dated_loss::latest_loss`]) or none, so only windows with `beta` up
/// to the height can be cut off. `list` holds the moves to search, which never complete a line
/// (the expansion settles those nodes), so each child is a position without a line; a child
/// with a full board is a draw, which the search scores itself. Moves are tried in the list's
/// order, the likeliest refutation first.
fn strategy_cutoff<B: Bits>(pos: &Position<B>, list: &[Ranked<B>], beta: Score) -> Option<Score> {
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
    /// (the caller's and `threads - 1` helpers, which share the large table), consulting
    /// `book` (which must be of `rules`); `None` if the board does not fit in `B`.
    pub(crate) fn new(
        rules: Rules,
        table_bytes: usize,
        threads: usize,
        book: Option<Arc<Book>>,
    ) -> Option<Search<B>> {
        debug_assert!(book.as_ref().is_none_or(|b| b.rules() == rules));
        let layout = Layout::new(rules)?;
        let mut search = Search {
            layout,
            table: Tables::with_bytes(table_bytes, threads > 1),
            order: MoveOrder::new(&layout),
            move_lists: vec![Vec::new(); rules.cells() as usize + 1],
            threats_after: ThreatsAfter::new(),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            helpers: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
            cancel: None,
            obeys_stop: false,
            busy: (threads > 1).then(Arc::default),
            book,
            etc_min_empty: match rules.variant() {
                Variant::Normal => ETC_MIN_EMPTY_NORMAL,
                Variant::Misere => ETC_MIN_EMPTY_MISERE,
            },
            outcome_order: OutcomeOrder::default(),
        };
        search.helpers = (1..threads)
            .map(|_| Search {
                layout,
                table: search.table.share().expect("the table was made shared"),
                order: MoveOrder::new(&layout),
                move_lists: search.move_lists.clone(),
                threats_after: ThreatsAfter::new(),
                nodes: 0,
                node_limit: u64::MAX,
                deadline: None,
                helpers: Vec::new(),
                stop: Arc::clone(&search.stop),
                cancel: None,
                obeys_stop: true,
                busy: search.busy.clone(),
                book: search.book.clone(),
                etc_min_empty: search.etc_min_empty,
                outcome_order: OutcomeOrder::default(),
            })
            .collect();
        Some(search)
    }

    /// Nodes visited since the search was created, by this search and its helpers.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes + self.helpers.iter().map(|h| h.nodes).sum::<u64>()
    }

    /// Makes the search give up once it has visited `nodes` more nodes or once `deadline` has
    /// passed; `None` lifts either limit. With a node limit the search runs without its
    /// helpers, so that what a budget of nodes settles is the same from run to run. Once it
    /// gives up, [`Search::exhausted`] is true and every score returned is meaningless, but the
    /// table stays sound: a node whose subtree was cut short stores nothing.
    pub(crate) fn set_budget(&mut self, nodes: Option<u64>, deadline: Option<Instant>) {
        self.node_limit = nodes.map_or(u64::MAX, |b| self.nodes.saturating_add(b));
        self.deadline = deadline;
    }

    /// Makes this search and its helpers give up (as when the budget is spent: see
    /// [`Search::set_budget`]) once `cancel` is raised; `None` removes the signal.
    pub(crate) fn set_cancel(&mut self, cancel: Option<Arc<AtomicBool>>) {
        for helper in &mut self.helpers {
            helper.cancel.clone_from(&cancel);
        }
        self.cancel = cancel;
    }

    /// Whether the signal of [`Search::set_cancel`] has been raised.
    fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Relaxed))
    }

    /// Whether the search has passed its node limit.
    pub(crate) fn exhausted(&self) -> bool {
        self.nodes > self.node_limit
    }

    /// The exact score of a non-terminal position, by a sequence of null-window searches
    /// whose questions [`ScoreSearch`] chooses.
    pub(crate) fn exact(&mut self, pos: &Position<B>) -> Score {
        let (lower, upper) = self.narrow(pos, (-Score::MAX, Score::MAX), &mut |_, _| {});
        debug_assert!(self.exhausted() || lower == upper);
        lower
    }

    /// Narrows bounds `lower ..= upper` known to hold the score of a non-terminal position by
    /// null-window searches until they meet or the budget is spent (see
    /// [`Search::set_budget`]); the bounds reached, each also handed to `narrowed` as soon as
    /// a question sets it, with the nodes searched since the call. A question cut short by the
    /// budget narrows nothing, so what is returned always holds, and a later call can go on
    /// from it.
    pub(crate) fn narrow(
        &mut self,
        pos: &Position<B>,
        (lower, upper): (Score, Score),
        narrowed: &mut dyn FnMut((Score, Score), u64),
    ) -> (Score, Score) {
        let start = self.nodes();
        let variant = pos.rules().variant();
        let mut search = ScoreSearch::within(pos.empty_cells(), variant, lower, upper);
        while let Some((front, probe)) = search.next() {
            let before = self.nodes;
            let r = self.negamax(pos, probe, probe + 1);
            if self.exhausted() {
                break;
            }
            search.record(front, probe, r, self.nodes - before);
            narrowed(search.bounds(), self.nodes() - start);
        }
        search.bounds()
    }

    /// A score of a non-terminal position with the right sign (win, draw or loss) only.
    pub(crate) fn sign(&mut self, pos: &Position<B>) -> Score {
        // Two null-window searches (is it a win? is it a loss?) cut off more than one search
        // with the window (-1, 1). Either one's fail-soft answer may settle the outcome alone:
        // "is it a win?" answered below zero is a loss, "is it a loss?" answered above zero a
        // win. Under misère rules the one likelier to be answered "yes" goes first (see
        // `OutcomeOrder`); under normal rules "is it a win?", as draws are common there and
        // need both questions in either order.
        let plies = pos.plies();
        let misere = pos.rules().variant() == Variant::Misere;
        let sign = if misere && self.outcome_order.loss_first(plies) {
            let first = self.negamax(pos, -1, 0);
            if first != 0 {
                first.signum()
            } else {
                Score::from(self.negamax(pos, 0, 1) > 0)
            }
        } else {
            let first = self.negamax(pos, 0, 1);
            if first > 0 {
                1
            } else if first < 0 || self.negamax(pos, -1, 0) < 0 {
                -1
            } else {
                0
            }
        };
        if !self.exhausted() {
            self.outcome_order.record(plies, sign);
        }
        sign
    }

    /// The score of a non-terminal position at `depth`: exact, or with the right sign only.
    pub(crate) fn score(&mut self, pos: &Position<B>, depth: Depth) -> Score {
        match depth {
            Depth::Weak => self.sign(pos),
            Depth::Strong => self.exact(pos),
        }
    }

    /// The score of each of `positions` (non-terminal) at `depth`, each searched for at most
    /// `time` from its start (no limit when `None`); `None` where the time ran out.
    ///
    /// The threads (this search and its helpers) take the positions in turn, each searching
    /// the next one not yet started on its own, all sharing the large table: the moves of one
    /// position searched side by side keep every core on work of its own, where the helpers of
    /// one root search ([`Search::negamax`]) repeat much of each other's. A thread that finds
    /// none left to start joins a search still under way, as a helper would, and the first to
    /// finish a position stops the others on it.
    pub(crate) fn score_each(
        &mut self,
        positions: &[Position<B>],
        depth: Depth,
        time: Option<Duration>,
    ) -> Vec<Option<Score>> {
        let turns = Turns {
            next: AtomicUsize::new(0),
            done: positions.iter().map(|_| Arc::default()).collect(),
            deadlines: positions.iter().map(|_| OnceLock::new()).collect(),
        };
        let mut helpers = std::mem::take(&mut self.helpers);
        let found = std::thread::scope(|scope| {
            let threads: Vec<_> = helpers
                .iter_mut()
                .map(|helper| scope.spawn(|| helper.take_turns(positions, depth, time, &turns)))
                .collect();
            let mut found = self.take_turns(positions, depth, time, &turns);
            for thread in threads {
                found.extend(
                    thread
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                );
            }
            found
        });
        self.helpers = helpers;
        let mut scores = vec![None; positions.len()];
        for (i, score) in found {
            scores[i] = Some(score);
        }
        scores
    }

    /// This thread's part of [`Search::score_each`]: the index and score of each position it
    /// finished searching.
    fn take_turns(
        &mut self,
        positions: &[Position<B>],
        depth: Depth,
        time: Option<Duration>,
        turns: &Turns,
    ) -> Vec<(usize, Score)> {
        let mut found = Vec::new();
        // The next position not yet started, else one still being searched.
        let pick = || {
            let next = turns.next.fetch_add(1, Relaxed);
            (next < positions.len())
                .then_some(next)
                .or_else(|| turns.done.iter().rposition(|done| !done.load(Relaxed)))
        };
        let own_stop = Arc::clone(&self.stop);
        let obeys_stop = self.obeys_stop;
        // Every search here stops once another thread has finished its position.
        self.obeys_stop = true;
        while let Some(i) = pick() {
            self.stop = Arc::clone(&turns.done[i]);
            let deadline = time.map(|t| *turns.deadlines[i].get_or_init(|| Instant::now() + t));
            self.set_budget(None, deadline);
            let score = self.score(&positions[i], depth);
            if !self.exhausted() {
                turns.done[i].store(true, Relaxed);
                found.push((i, score));
            } else if deadline.is_some_and(|d| Instant::now() >= d) {
                // Out of time: no thread may go on with it.
                turns.done[i].store(true, Relaxed);
            } else if self.cancelled() {
                // Nobody wants any of the answers now.
                break;
            }
        }
        self.stop = own_stop;
        self.obeys_stop = obeys_stop;
        self.set_budget(None, None);
        found
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
    /// done, unless a node limit is set (see [`Search::set_budget`]).
    pub(crate) fn negamax(&mut self, pos: &Position<B>, alpha: Score, beta: Score) -> Score {
        if self.helpers.is_empty()
            || pos.empty_cells() < PARALLEL_MIN_EMPTY
            || self.node_limit != u64::MAX
        {
            return self.node(pos, alpha, beta, Hint::root(pos));
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        self.stop.store(false, Relaxed);
        let score = std::thread::scope(|scope| {
            for helper in helpers.iter_mut() {
                helper.node_limit = u64::MAX;
                scope.spawn(|| helper.node(pos, alpha, beta, Hint::root(pos)));
            }
            let score = self.node(pos, alpha, beta, Hint::root(pos));
            self.stop.store(true, Relaxed);
            score
        });
        self.helpers = helpers;
        score
    }

    /// [`Search::negamax`] with what the parent knows of the node (see [`Hint`]), in steps of
    /// which each but the last two may settle the node: count it, expand it (static bounds),
    /// the opening book, the single-move shortcut, order its moves and probe the table, the cutoffs
    /// (strategy, transposition), the move loop, and store what it proved.
    fn node(&mut self, pos: &Position<B>, alpha: Score, beta: Score, hint: Hint<B>) -> Score {
        debug_assert!(alpha < beta);
        if !self.count_node() || pos.empty_cells() == 0 {
            return 0;
        }
        let slot = self.locate(pos);
        let their_threats = hint.their_threats.unwrap_or_else(|| {
            self.layout.completing_cells(pos.opponent()) & self.layout.full() & !pos.mask()
        });
        let window = Window { alpha, beta };
        let (moves, window) = match self.expand_node(pos, their_threats, hint, window) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(open) => open,
        };
        let window = match self.probe_book(pos, &slot, window) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(window) => window,
        };
        if moves.count_ones() == 1 {
            return self.only_move(pos, moves, window);
        }
        let children =
            (pos.empty_cells() >= self.etc_min_empty).then(|| self.prefetch_children(pos, moves));
        let window =
            match self.order_moves(pos, moves, hint.above_last, their_threats, &slot, window) {
                ControlFlow::Break(score) => return score,
                ControlFlow::Continue(window) => window,
            };
        // Whether the strategy cutoff looks at every child's bounds (and finds none that cuts
        // off, if the node goes on): the children then skip them. The bounds (0 or a dated loss
        // for the child) could cut off any beta up to the height, but further from zero the
        // exact search asks how long a lost mover survives, where they rarely hold, and the
        // children's own expansions find the same bounds once they are searched. So only the
        // windows of an outcome (beta 0 or 1) look, and those at beta -2, of the question next
        // to it on the losing side: does the mover lose no earlier than the last ply it could
        // lose on (the second question of the exact normal 7x6: "can the first player win
        // before ply 41?"). Wider ranges of beta save nodes but cost more time than they save.
        let strategies_tried =
            pos.empty_cells() >= STRATEGY_CUTOFF_MIN_EMPTY && (-2..=1).contains(&window.beta);
        if let Some(score) = self.cutoff(pos, children.as_ref(), window.beta, strategies_tried) {
            return score;
        }
        let nodes_before = self.nodes;
        let (best, best_move) = self.search_moves(
            pos,
            slot.key,
            window,
            strategies_tried,
            hint.root && root_refutes_as_outcome(pos, window),
        );
        if self.exhausted() {
            // Some child gave up: `best` means nothing and must not be stored.
            return best;
        }
        self.store(&slot, window, best, best_move, self.nodes - nodes_before);
        best
    }

    /// Counts the node and says whether the search goes on: false once the budget is spent
    /// (see [`Search::set_budget`]), which is when the score returned means nothing. A helper
    /// spends its budget at once when the main search raises [`Search::stop`], and any search
    /// when its deadline passes (it looks every [`STOP_CHECK_NODES`] nodes).
    #[inline(always)]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(STOP_CHECK_NODES) && self.should_stop() {
            // Everything this search finds from now on is thrown away, and nothing is stored.
            self.node_limit = 0;
        }
        self.nodes <= self.node_limit
    }

    /// Whether a search that obeys its stop signal has been told to stop, or the deadline has
    /// passed.
    #[cold]
    fn should_stop(&self) -> bool {
        (self.obeys_stop && self.stop.load(Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cancelled()
    }

    /// The node's place in the tables (see [`Slot`]), whose bucket starts loading now: it is
    /// fetched from memory while the node is expanded and its moves are ordered.
    #[inline(always)]
    fn locate(&self, pos: &Position<B>) -> Slot<B> {
        let (key, symmetry) = pos.canonical_key();
        let near = near_leaf(pos);
        self.table.prefetch(key, near);
        Slot {
            key,
            symmetry,
            near,
        }
    }

    /// Expansion and static bounds: the moves worth searching (see [`expand`], given
    /// `their_threats`, the empty cells that complete a line of the opponent's) with `window`
    /// narrowed to the bounds on the score that the expansion proves. Breaks with the score
    /// when the expansion decides the node, or when its bounds alone settle it (see
    /// [`Window::narrow`]; its closing check never fires here, as the expansion's bounds are
    /// never equal).
    ///
    /// Sound because every rule of the expansion is exact (it drops no move that could be
    /// strictly better than the ones it keeps).
    #[inline(always)]
    fn expand_node(
        &mut self,
        pos: &Position<B>,
        their_threats: B,
        hint: Hint<B>,
        window: Window,
    ) -> ControlFlow<Score, (B, Window)> {
        // The strategies' bounds date a loss (see `dated_loss::latest_loss`), so they may
        // fail low in any window, not only in an outcome's.
        match expand(
            pos,
            their_threats,
            hint.try_strategies.then_some(window.alpha),
            &mut self.threats_after,
        ) {
            Expansion::Decided(score) => ControlFlow::Break(score),
            Expansion::Open {
                moves,
                lower,
                upper,
            } => ControlFlow::Continue((moves, window.narrow(lower, upper)?)),
        }
    }

    /// Book probe: narrows `window` to the bounds the opening book holds for the node (at
    /// `slot`), breaking with the score when they settle it (see [`Window::narrow`]). Only
    /// nodes with no more discs than the book's deepest entry look.
    ///
    /// Sound because a book holds proved values only: a strong entry gives the exact score, a
    /// weak one its sign.
    #[inline(always)]
    fn probe_book(
        &self,
        pos: &Position<B>,
        slot: &Slot<B>,
        window: Window,
    ) -> ControlFlow<Score, Window> {
        let bounds = self
            .book
            .as_ref()
            .and_then(|book| book.score_bounds(slot.key.to_u128(), pos.plies()));
        match bounds {
            Some((lower, upper)) => window.narrow(lower, upper),
            None => ControlFlow::Continue(window),
        }
    }

    /// The single-move shortcut: the score (fail-soft, for `window`) of a node with one move
    /// to search, `m` (a forced block, say), which is its child's.
    ///
    /// The node is neither probed nor stored: the child's own table entry and cutoffs serve,
    /// and storing the node as well would only push a more useful entry out of the table.
    #[inline(always)]
    fn only_move(&mut self, pos: &Position<B>, m: B, window: Window) -> Score {
        let mut child = *pos;
        child.play_bit(m);
        let hint = Hint {
            above_last: m << 1,
            their_threats: None,
            try_strategies: true,
            root: false,
        };
        -self.node(&child, -window.beta, -window.alpha, hint)
    }

    /// The legal moves of `pos` (not over) in the order this search tries them: the table's
    /// best move from an earlier search first, then [`Search::static_order`]'s. For a caller
    /// that splits a question into its children's (see `experiment::question`): the likeliest
    /// refutation first, as in the search itself.
    pub(crate) fn move_order(&mut self, pos: &Position<B>, last: Option<u32>) -> Vec<u32> {
        let mut list = self.ranked(pos, last);
        let slot = self.locate(pos);
        if let Some(column) = self.table.get(slot.key, slot.near).and_then(|k| k.best) {
            let column = slot.symmetry.undo(column, self.layout.rules().width());
            MoveOrder::put_first(&self.layout, column, &mut list);
        }
        self.columns(&list)
    }

    /// The legal moves of `pos` (not over) in [`MoveOrder::sort`]'s order, told the last
    /// move `last` (the misère ordering answers on top of it): what the search tries first
    /// where the table has no move for the position. It depends on the position and `last`
    /// alone, never on what the table holds, so a caller that takes the first move of it
    /// that does something gets the same move in every run.
    pub(crate) fn static_order(&self, pos: &Position<B>, last: Option<u32>) -> Vec<u32> {
        self.columns(&self.ranked(pos, last))
    }

    /// `pos`'s legal moves ranked by [`MoveOrder::sort`] after the move `last`.
    fn ranked(&self, pos: &Position<B>, last: Option<u32>) -> Vec<Ranked<B>> {
        let empty = self.layout.full() & !pos.mask();
        let their_threats = self.layout.completing_cells(pos.opponent()) & empty;
        let above_last = last.map_or(B::ZERO, |c| pos.playable() & self.layout.column_mask(c));
        let mut list = Vec::new();
        self.order.sort(
            pos,
            pos.playable(),
            above_last,
            their_threats,
            &ThreatsAfter::new(),
            &mut list,
        );
        list
    }

    /// The columns of `list`'s moves, in its order.
    fn columns(&self, list: &[Ranked<B>]) -> Vec<u32> {
        list.iter()
            .map(|r| self.layout.bit_cell(r.bit).column)
            .collect()
    }

    /// Move ordering and table probe: sorts `moves` into the node's move list, likeliest
    /// refutation first (see [`MoveOrder::sort`], which is given `above_last` and
    /// `their_threats`), then narrows `window` to the bounds the
    /// table holds for the node (at `slot`) and puts the best move of its earlier search
    /// first. Breaks with the score when the stored bounds settle the node (see
    /// [`Window::narrow`]).
    ///
    /// Sound because the table only ever holds bounds that a search proved, under whole keys
    /// (a hit is never another position's).
    #[inline(always)]
    fn order_moves(
        &mut self,
        pos: &Position<B>,
        moves: B,
        above_last: B,
        their_threats: B,
        slot: &Slot<B>,
        window: Window,
    ) -> ControlFlow<Score, Window> {
        let ply = pos.plies() as usize;
        let list = &mut self.move_lists[ply];
        let threats_after = &self.threats_after;
        self.order
            .sort(pos, moves, above_last, their_threats, threats_after, list);
        let Some(known) = self.table.get(slot.key, slot.near) else {
            return ControlFlow::Continue(window);
        };
        let window = window.narrow(known.lower, known.upper)?;
        if let Some(column) = known.best {
            let column = slot.symmetry.undo(column, self.layout.rules().width());
            MoveOrder::put_first(&self.layout, column, &mut self.move_lists[ply]);
        }
        ControlFlow::Continue(window)
    }

    /// Cutoffs before searching: with `strategies`, the strategy cutoff over the node's move
    /// list (see [`strategy_cutoff`]), then the enhanced transposition cutoff over `children`
    /// (see [`Search::transposition_cutoff`]; none without them). Returns the score (a lower
    /// bound, valid for fail-soft) when a child's strategy or stored bound proves the node's
    /// score at least `beta`.
    ///
    /// The strategy bounds first: they read only the position, while the table probes may
    /// still wait on the children's buckets, which then have longer to arrive.
    #[inline(always)]
    fn cutoff(
        &self,
        pos: &Position<B>,
        children: Option<&ChildKeys<B>>,
        beta: Score,
        strategies: bool,
    ) -> Option<Score> {
        if strategies
            && let Some(score) = strategy_cutoff(pos, &self.move_lists[pos.plies() as usize], beta)
        {
            return Some(score);
        }
        children.and_then(|children| self.transposition_cutoff(children, beta))
    }

    /// The move loop: searches the node's moves (its move list, in order, at least one) with
    /// `window` until one reaches `beta`, and returns the best score with its move. The score
    /// is fail-soft for `window` (see [`Search::negamax`]), as the best of the children's
    /// negated fail-soft scores with `alpha` raised to each new best. With `strategies_tried`
    /// (the strategy cutoff found every child's strategy bounds above the child's `alpha`,
    /// which is `-beta` throughout), the children skip those bounds (see [`Hint`]). With
    /// `refute_later` (a root that [`root_refutes_as_outcome`] picks), each move after the
    /// first is refuted in an outcome's window first.
    ///
    /// With helpers, a node with at least [`DEFER_MIN_EMPTY`] empty cells is marked busy (at
    /// `key`) while it searches, and a move other than the first whose child another thread
    /// is searching is put off to a second pass: the same moves are searched either way, only
    /// in another order.
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: &Position<B>,
        key: B,
        mut window: Window,
        strategies_tried: bool,
        refute_later: bool,
    ) -> (Score, B) {
        let ply = pos.plies() as usize;
        let list = std::mem::take(&mut self.move_lists[ply]);
        let tracked = pos.empty_cells() >= DEFER_MIN_EMPTY;
        if tracked && let Some(busy) = &self.busy {
            busy.enter(key);
        }
        let mut best = Score::MIN;
        let mut best_move = B::ZERO;
        // Moves put off because another thread is searching them; searched in a second pass.
        let mut deferred = B::ZERO;
        'passes: for pass in 0..2 {
            for (i, ranked) in list.iter().enumerate() {
                let m = ranked.bit;
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
                    their_threats: Some(ranked.threats),
                    try_strategies: !strategies_tried,
                    root: false,
                };
                let score = if refute_later && i > 0 {
                    self.refute_as_outcome(&child, window, hint)
                } else {
                    -self.node(&child, -window.beta, -window.alpha, hint)
                };
                if score > best {
                    best = score;
                    best_move = m;
                    if score > window.alpha {
                        window.alpha = score;
                        if window.alpha >= window.beta {
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
        (best, best_move)
    }

    /// The score (fail-soft, for `window`) of a move's `child`, searched first as "does the
    /// move not win?" (the child's null window at -1, which [`root_refutes_as_outcome`]
    /// explains), and in `window` only when it wins after all. Kept out of line: only roots
    /// call it.
    #[cold]
    #[inline(never)]
    fn refute_as_outcome(&mut self, child: &Position<B>, window: Window, hint: Hint<B>) -> Score {
        let outcome = self.node(child, -1, 0, hint);
        if outcome >= 0 {
            // The move does not win: at most `-outcome <= 0`, which is at most `alpha`.
            -outcome
        } else {
            -self.node(child, -window.beta, -window.alpha, hint)
        }
    }

    /// Stores what the move loop proved about the node (at `slot`): `best`, its fail-soft
    /// score for `window` (the window it searched with), is an upper bound when at most
    /// `alpha`, a lower bound when at least `beta`, and exact between, by the contract of
    /// [`Search::negamax`]. `best_move` is kept as the move to try first next time, unless
    /// every move failed low (their scores are then only upper bounds, which do not tell the
    /// best move). `nodes` is what the node's search cost (the table keeps costly entries).
    ///
    /// The caller must not store a node whose search was cut short ([`Search::exhausted`]):
    /// its `best` means nothing.
    #[inline(always)]
    fn store(&self, slot: &Slot<B>, window: Window, best: Score, best_move: B, nodes: u64) {
        let column = self.layout.bit_cell(best_move).column;
        let best_column = Some(slot.symmetry.apply(column, self.layout.rules().width()));
        let (lower, upper, best_column) = if best <= window.alpha {
            (None, Some(best), None)
        } else if best >= window.beta {
            (Some(best), None, best_column)
        } else {
            (Some(best), Some(best), best_column)
        };
        self.table.put(
            slot.key,
            slot.near,
            Learned {
                lower,
                upper,
                best: best_column,
                nodes,
            },
        );
    }
}
