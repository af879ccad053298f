//! A weak solver for one-row boards (height 1), which splits the row into independent pieces.
//!
//! On a board of height 1 every empty cell is playable, so the plain search meets up to 3^w
//! positions, far too many for rows of 30 cells. Most of them are the same game in disguise.
//! Call a window (k consecutive cells) open while it holds discs of at most one player: only an
//! open window can still become a line, and a closed window stays closed.
//! - An empty cell in no open window is dead: filling it never makes, blocks or helps a line.
//!   Dead cells are interchangeable moves that only pass the turn; only their number matters.
//! - The cells covered by open windows form intervals with no open window across two of them,
//!   so what happens in one interval never changes a line of another: the intervals are
//!   independent pieces, and a piece plays like its mirror image.
//!
//! A position is reduced to its pieces (each read in the direction that gives the smaller word,
//! discs named relative to the side to move, the pieces sorted) and its number of dead cells.
//! An alpha-beta negamax over win, draw and loss searches the reduced forms and remembers the
//! bounds it proves for each. Two static bounds settle many forms at once: a player with no
//! open window left can never make a line, and under misère rules a player who can pair up
//! empty cells so that each of its open windows holds a whole pair can avoid making one
//! ([`crate::solver::bounds::pairing`]).
//!
//! It settles one-row boards that the main search cannot: misère Connect 2 on 36 cells by
//! search, and misère rows for k >= 3 of any width at their first node, by the pairing bound.
//!
//! The row of a cylinder is a ring, whose windows run around its end. A ring is searched as
//! a ring (its positions keyed by the smallest of their rotations and reflections, with the
//! pairing bound of [`pairing::ring_reserved_cells_needed`]) only until it can be cut open:
//! - a cell in no open window: every window that can still become a line avoids it, so each
//!   lies within the row of the other cells read around the ring from the cell after it, and
//!   every window of that row is a window of the ring; the ring plays exactly as that row
//!   (with the cell, if empty, as one more dead cell);
//! - a disc with every window that holds it other than at an end closed (holding discs of
//!   both players): the row that starts and ends with the disc (written twice) and holds the
//!   other cells between, in ring order, has as its windows exactly the ring's windows that
//!   hold the disc at an end or not at all (a window of k <= w cells cannot hold both ends of
//!   the row), and those are all the ring's open windows; a move makes a line in one exactly
//!   when it does in the other. For k = 2 every disc qualifies.

use rustc_hash::FxHashMap;
use std::time::Instant;

use crate::engine::outcome::{Cell, Player};
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Variant};

use crate::solver::Budget;
use crate::solver::bounds::pairing::{self, EMPTY, MINE, THEIRS};
use crate::solver::others::row_cells::{distinct_moves, ring_key, ring_line_through};
use crate::solver::others::sums::{self, MisereSums};
use crate::solver::score::{Score, Value};

/// A position in reduced form, from the point of view of the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Reduced {
    /// Dead empty cells.
    dead: u32,
    /// The pieces, each in its canonical direction, sorted.
    pieces: Vec<Vec<u8>>,
}

/// The outcome-only solver for one-row boards, with the values of the reduced forms it has met.
pub(crate) struct StripSolver {
    k: usize,
    variant: Variant,
    /// Proved bounds (lower, upper) on the sign of each form met, by its packed key.
    memo: FxHashMap<PackedForm, (i8, i8)>,
    /// Proved bounds on the sign of each ring met that could not be cut open, by its key
    /// (see [`ring_key`]).
    ring_memo: FxHashMap<u128, (i8, i8)>,
    /// The solver gives up once it remembers more forms than this.
    form_limit: usize,
    nodes: u64,
    /// The solver gives up once `nodes` passes this, or at this instant (see
    /// [`StripSolver::set_budget`]).
    node_limit: u64,
    deadline: Option<Instant>,
    /// The budget of the search under way, which the sums of games get too (with the same
    /// deadline).
    budget_nodes: Option<u64>,
    /// Under misère rules, the sums of games the solver asks first (see
    /// [`StripSolver::closer_wins`]), kept while they settle positions.
    sums: Option<MisereSums>,
    /// Nodes of the sums of games dropped so far.
    sums_nodes: u64,
}

impl StripSolver {
    /// A generous bound on the memory one remembered form takes, in bytes: a 16-byte key and
    /// its bounds in a hash map that is between 44% and 88% full, counted at the moment it
    /// grows, when its old and new buckets are both allocated.
    pub(crate) const BYTES_PER_FORM: usize = 96;

    /// A solver for one-row boards with lines of `k` under `variant` that gives up once it
    /// remembers more than `form_limit` reduced positions (see [`StripSolver::BYTES_PER_FORM`]).
    pub(crate) fn new(k: u32, variant: Variant, form_limit: usize) -> StripSolver {
        StripSolver {
            k: k as usize,
            variant,
            memo: FxHashMap::default(),
            ring_memo: FxHashMap::default(),
            form_limit,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            budget_nodes: None,
            sums: None,
            sums_nodes: 0,
        }
    }

    /// Makes the solver give up (its value `None`, as past the form limit) once it has searched
    /// `budget.nodes` more forms or once `budget.time` has passed from now; either `None` lifts
    /// that limit.
    pub(crate) fn set_budget(&mut self, budget: Budget) {
        self.node_limit = budget
            .nodes
            .map_or(u64::MAX, |n| self.nodes.saturating_add(n));
        self.deadline = budget.time.map(|t| Instant::now() + t);
        self.budget_nodes = budget.nodes;
    }

    /// Whether the next form would pass the form limit, the node limit or the deadline.
    fn must_stop(&self, remembered: usize) -> bool {
        remembered >= self.form_limit
            || self.nodes >= self.node_limit
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the solver takes positions of `rules`: one-row boards of at most 64 cells, 63
    /// on a cylinder (a ring of k = 2 cut open at a disc is a row of one cell more).
    pub(crate) fn applies_to(rules: Rules) -> bool {
        let widest = if rules.is_cylinder() {
            MAX_WIDTH - 1
        } else {
            MAX_WIDTH
        };
        rules.height() == 1 && rules.width() <= widest
    }

    /// Reduced positions searched so far, with the groups and positions the sums of games
    /// valued or searched.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes + self.sums_nodes + self.sums.as_ref().map_or(0, MisereSums::nodes)
    }

    /// The value of an unfinished position of a one-row board with this solver's rules, outcome
    /// only; `None` when the solver passed its form limit or its budget. Under misère rules
    /// the sums of games are asked first whether the closer wins ([`StripSolver::closer_wins`]).
    ///
    /// # Panics
    /// If the board has more than one row, other rules than the solver's, or the game is over.
    pub(crate) fn value(&mut self, pos: &Position) -> Option<Value> {
        let (lower, upper) = self.root_bounds(pos);
        let (mut alpha, mut beta) = (-1, 1);
        // Under misère rules, whether the player to move at the full board (the closer) wins
        // is asked of the sums of games first, unless the bounds already rule it out.
        let closer_sign = if pos.empty_cells() % 2 == 0 { 1 } else { -1 };
        let closer_may_win = if closer_sign == 1 {
            upper == 1
        } else {
            lower == -1
        };
        if lower < upper && closer_may_win && self.variant == Variant::Misere {
            let closer_wins = self.closer_wins(pos);
            if closer_wins != Some(true) {
                // The search after them needs the memory.
                self.drop_sums();
            }
            match closer_wins {
                Some(true) => return Some(Value::from_sign(closer_sign, pos.to_move())),
                // The closer's result is a draw at best: the search needs only tell which.
                Some(false) if closer_sign == 1 => beta = 0,
                Some(false) => alpha = 0,
                None => {}
            }
        }
        let row = row_of(pos);
        let sign = if pos.rules().is_cylinder() {
            self.ring_negamax(&row, alpha, beta)?
        } else {
            let start = self.form_of(&row);
            self.negamax(&start, alpha, beta)?
        };
        Some(Value::from_sign(
            Score::from(sign.clamp(alpha, beta)),
            pos.to_move(),
        ))
    }

    /// Whether the outcome of an unfinished position for its side to move is above `probe`
    /// (-1: it does not lose; 0: it wins); `None` when the solver passed its form limit or its
    /// budget. Under misère rules, the question whether the closer wins (the side to move
    /// winning when the closer is to move, not losing when the other side is) is the sums of
    /// games' alone, which keep what they learned for the next question: a question split
    /// into many positions ([`crate::experiment::question`]) asks them nothing else when it
    /// asks whether the closer wins.
    ///
    /// # Panics
    /// As [`StripSolver::value`], and for a probe other than -1 and 0.
    #[cfg(any(test, feature = "experiments"))]
    pub(crate) fn above(&mut self, pos: &Position, probe: Score) -> Option<bool> {
        use crate::engine::outcome::GameResult;
        assert!(probe == -1 || probe == 0, "an outcome's probe is -1 or 0");
        let (lower, upper) = self.root_bounds(pos);
        if Score::from(lower) > probe || Score::from(upper) <= probe {
            return Some(Score::from(lower) > probe);
        }
        let closer_moves = pos.empty_cells() % 2 == 0;
        let closers_question = probe == if closer_moves { 0 } else { -1 };
        if self.variant == Variant::Misere
            && closers_question
            && MisereSums::applies_to(pos.rules())
        {
            return self.closer_wins(pos).map(|wins| wins == closer_moves);
        }
        let sign = match self.value(pos)?.result {
            GameResult::Win(p) if p == pos.to_move() => 1,
            GameResult::Win(_) => -1,
            GameResult::Draw => 0,
        };
        Some(sign > probe)
    }

    /// The static bounds on the sign of an unfinished position for its side to move.
    ///
    /// # Panics
    /// As [`StripSolver::value`].
    fn root_bounds(&self, pos: &Position) -> (i8, i8) {
        let rules = pos.rules();
        assert_eq!(rules.height(), 1, "the strip solver takes one-row boards");
        assert_eq!(
            (rules.k() as usize, rules.variant()),
            (self.k, self.variant),
            "rules differ from the solver's"
        );
        assert!(!pos.is_over(), "the game is over");
        assert!(
            StripSolver::applies_to(rules),
            "the strip solver takes rows of at most {MAX_WIDTH} cells, rings of one fewer"
        );
        let row = row_of(pos);
        match (rules.is_cylinder(), self.cut(&row)) {
            (true, None) => self.ring_static_bounds(&row),
            (true, Some(form)) => self.static_bounds(&form),
            (false, _) => self.static_bounds(&self.form_of(&row)),
        }
    }

    /// Under misère rules, whether the player who would be to move at the full board (the
    /// closer) wins, by the sums of games ([`sums`]) with a budget as large as the search's and
    /// the same deadline; `None` when they gave up or the board is too wide for them.
    fn closer_wins(&mut self, pos: &Position) -> Option<bool> {
        let rules = pos.rules();
        if !MisereSums::applies_to(rules) {
            return None;
        }
        let limit = self.form_limit.saturating_mul(StripSolver::BYTES_PER_FORM)
            / MisereSums::BYTES_PER_ENTRY;
        let sums = self
            .sums
            .get_or_insert_with(|| MisereSums::new(rules.k(), limit));
        sums.set_limits(self.budget_nodes, self.deadline);
        let cells: Vec<u8> = (0..rules.width())
            .map(|column| match pos.cell(Cell { column, row: 0 }) {
                None => sums::EMPTY,
                Some(Player::P1) => sums::LEFT,
                Some(Player::P2) => sums::RIGHT,
            })
            .collect();
        let left_to_move = pos.to_move() == Player::P1;
        sums.closer_wins(&cells, rules.is_cylinder(), left_to_move)
    }

    /// Forgets what the sums of games learned, counting their nodes.
    fn drop_sums(&mut self) {
        if let Some(sums) = self.sums.take() {
            self.sums_nodes += sums.nodes();
        }
    }

    /// The reduced form of a flat one-row position, from the side to move.
    #[cfg(test)]
    fn reduce(&self, pos: &Position) -> Reduced {
        self.form_of(&row_of(pos))
    }

    /// The reduced form of a row of cells, from the side to move.
    fn form_of(&self, row: &[u8]) -> Reduced {
        let mut form = Reduced {
            dead: 0,
            pieces: Vec::new(),
        };
        self.split_into(row, &mut form);
        canonicalize(&mut form);
        form
    }

    /// The reduced form of a ring that can be cut open (see the module documentation), from
    /// the side to move; `None` for a ring that cannot.
    fn cut(&self, ring: &[u8]) -> Option<Reduced> {
        let (w, k) = (ring.len(), self.k);
        let open = |start: usize| {
            let window = (0..k).map(|i| ring[(start + i) % w]);
            !window.clone().any(|c| c == MINE) || !window.clone().any(|c| c == THEIRS)
        };
        let mut covered = vec![false; w];
        if k <= w {
            for start in (0..w).filter(|&start| open(start)) {
                for i in 0..k {
                    covered[(start + i) % w] = true;
                }
            }
        }
        if let Some(at) = covered.iter().position(|&c| !c) {
            let row: Vec<u8> = (1..w).map(|i| ring[(at + i) % w]).collect();
            let mut form = self.form_of(&row);
            form.dead += u32::from(ring[at] == EMPTY);
            return Some(form);
        }
        // A window starting at `start` holds the disc at `at` other than at an end when `at`
        // lies 1 to k - 2 cells after `start`.
        let inner_windows_closed = |at: usize| (1..k - 1).all(|back| !open((at + w - back) % w));
        if let Some(at) = (0..w).find(|&at| ring[at] != EMPTY && inner_windows_closed(at)) {
            let row: Vec<u8> = (0..=w).map(|i| ring[(at + i) % w]).collect();
            return Some(self.form_of(&row));
        }
        None
    }
    /// Splits `cells` into pieces added to `form`, and counts its dead empty cells there.
    fn split_into(&self, cells: &[u8], form: &mut Reduced) {
        let k = self.k;
        let mut covered = vec![false; cells.len()];
        for start in 0..(cells.len() + 1).saturating_sub(k) {
            let window = &cells[start..start + k];
            if !window.contains(&MINE) || !window.contains(&THEIRS) {
                covered[start..start + k].fill(true);
            }
        }
        let mut at = 0;
        while at < cells.len() {
            if !covered[at] {
                form.dead += u32::from(cells[at] == EMPTY);
                at += 1;
                continue;
            }
            let end = (at..cells.len())
                .find(|&i| !covered[i])
                .unwrap_or(cells.len());
            form.pieces.push(cells[at..end].to_vec());
            at = end;
        }
    }

    /// Whether a disc of the side to move at `cells[at]` (already placed) completes a line.
    fn makes_line(&self, cells: &[u8], at: usize) -> bool {
        let left = cells[..at].iter().rev().take_while(|&&c| c == MINE).count();
        let right = cells[at + 1..].iter().take_while(|&&c| c == MINE).count();
        left + 1 + right >= self.k
    }

    /// Bounds on the sign of `form`'s value from the open windows alone: a player with no open
    /// window can never complete a line, so under normal rules it cannot win and under misère
    /// rules it cannot lose.
    ///
    /// Under misère rules a player whose open windows can be paired off
    /// ([`StripSolver::pairing_holds`]) cannot be made to lose either.
    fn static_bounds(&self, form: &Reduced) -> (i8, i8) {
        let open_for = |player: u8| {
            let other = MINE + THEIRS - player;
            form.pieces
                .iter()
                .any(|p| p.windows(self.k).any(|w| !w.contains(&other)))
        };
        let (mover_can, other_can) = (open_for(MINE), open_for(THEIRS));
        match self.variant {
            Variant::Normal => {
                let mover_blocked = !mover_can || self.blocking_holds(form, MINE, false);
                let other_blocked = !other_can || self.blocking_holds(form, THEIRS, true);
                (
                    if other_blocked { 0 } else { -1 },
                    if mover_blocked { 0 } else { 1 },
                )
            }
            Variant::Misere => {
                let mover_safe = !mover_can || self.pairing_holds(form, MINE, true);
                let other_safe = !other_can || self.pairing_holds(form, THEIRS, false);
                (
                    if mover_safe { 0 } else { -1 },
                    if other_safe { 0 } else { 1 },
                )
            }
        }
    }

    /// Under normal rules, whether the opponent of `player` (to move when `blocker_to_move`)
    /// can be sure that `player` never completes a line: it pairs up empty cells so that each
    /// window open for `player` holds a whole pair or, when the opponent moves first, one
    /// reserved cell in all, which it takes at once; then it answers each move of `player`'s
    /// into a pair with the other cell of the pair (and plays anywhere otherwise: any disc of
    /// its own only closes windows). `player` never gets both cells of a pair, so each of its
    /// open windows keeps a cell it does not hold.
    fn blocking_holds(&self, form: &Reduced, player: u8, blocker_to_move: bool) -> bool {
        let mut reserve_left = blocker_to_move;
        for piece in &form.pieces {
            match pairing::reserved_cells_needed(piece, self.k, player) {
                Some(0) => {}
                Some(_) if reserve_left => reserve_left = false,
                _ => return false,
            }
        }
        true
    }

    /// Whether `player` (to move when `to_move`) can be sure never to complete a line of its
    /// own, by guarding each piece with pairs, and one piece with a reserved cell if that is
    /// affordable (see [`pairing`] for why this is sound: dead cells count as free cells).
    fn pairing_holds(&self, form: &Reduced, player: u8, to_move: bool) -> bool {
        let empty = form.dead as usize
            + form
                .pieces
                .iter()
                .flatten()
                .filter(|&&c| c == EMPTY)
                .count();
        let mut reserve_left = pairing::reserve_affordable(empty, to_move);
        for piece in &form.pieces {
            match pairing::reserved_cells_needed(piece, self.k, player) {
                Some(0) => {}
                Some(_) if reserve_left => reserve_left = false,
                _ => return false,
            }
        }
        true
    }

    /// [`StripSolver::static_bounds`] for a ring that cannot be cut open, with the pairing
    /// bound for rings ([`pairing::ring_reserved_cells_needed`]).
    fn ring_static_bounds(&self, ring: &[u8]) -> (i8, i8) {
        let w = ring.len();
        let open_for = |player: u8| {
            let other = MINE + THEIRS - player;
            self.k <= w && (0..w).any(|start| (0..self.k).all(|i| ring[(start + i) % w] != other))
        };
        let (mover_can, other_can) = (open_for(MINE), open_for(THEIRS));
        let empty = ring.iter().filter(|&&c| c == EMPTY).count();
        let safe = |player: u8, to_move: bool| match pairing::ring_reserved_cells_needed(
            ring, self.k, player,
        ) {
            Some(0) => true,
            Some(_) => pairing::reserve_affordable(empty, to_move),
            None => false,
        };
        // Under normal rules, `player`'s lines are blocked (see `blocking_holds`).
        let blocked = |player: u8, blocker_to_move: bool| match pairing::ring_reserved_cells_needed(
            ring, self.k, player,
        ) {
            Some(0) => true,
            Some(_) => blocker_to_move,
            None => false,
        };
        match self.variant {
            Variant::Normal => (
                if !other_can || blocked(THEIRS, true) {
                    0
                } else {
                    -1
                },
                if !mover_can || blocked(MINE, false) {
                    0
                } else {
                    1
                },
            ),
            Variant::Misere => (
                if !mover_can || safe(MINE, true) {
                    0
                } else {
                    -1
                },
                if !other_can || safe(THEIRS, false) {
                    0
                } else {
                    1
                },
            ),
        }
    }

    /// [`StripSolver::negamax`] for a ring: the form it is cut open into when it can be (see
    /// the module documentation), else a search of the ring's moves, one per class of moves
    /// that lead to the same ring up to rotation and reflection.
    fn ring_negamax(&mut self, ring: &[u8], mut alpha: i8, mut beta: i8) -> Option<i8> {
        if let Some(form) = self.cut(ring) {
            return self.negamax(&form, alpha, beta);
        }
        let (mut lower, mut upper) = self.ring_static_bounds(ring);
        let key = ring_key(ring);
        if let Some(&(known_lower, known_upper)) = self.ring_memo.get(&key) {
            lower = lower.max(known_lower);
            upper = upper.min(known_upper);
        }
        if lower >= beta || lower == upper {
            return Some(lower);
        }
        if upper <= alpha {
            return Some(upper);
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        if self.must_stop(self.memo.len() + self.ring_memo.len()) {
            return None;
        }
        self.nodes += 1;
        let alpha_in = alpha;
        let mut best = -1;
        let mut seen = Vec::new();
        for at in (0..ring.len()).filter(|&at| ring[at] == EMPTY) {
            let mut child = ring.to_vec();
            child[at] = MINE;
            let score = if ring_line_through(&child, at, self.k) {
                match self.variant {
                    Variant::Normal => 1,
                    Variant::Misere => -1,
                }
            } else {
                for cell in &mut child {
                    *cell = match *cell {
                        MINE => THEIRS,
                        THEIRS => MINE,
                        empty => empty,
                    };
                }
                let child_key = ring_key(&child);
                if seen.contains(&child_key) {
                    continue;
                }
                seen.push(child_key);
                -self.ring_negamax(&child, -beta, -alpha)?
            };
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let bounds = if best <= alpha_in {
            (lower, best)
        } else if best >= beta {
            (best, upper)
        } else {
            (best, best)
        };
        let entry = self.ring_memo.entry(key).or_insert((-1, 1));
        *entry = (entry.0.max(bounds.0), entry.1.min(bounds.1));
        Some(best)
    }

    /// The positions one move away from `form`, each with its sign when the move ends the game
    /// and its reduced form (from the next mover's side) when it does not. Moves that reach the
    /// same form twice are listed once.
    fn children(&self, form: &Reduced) -> Vec<Result<Reduced, i8>> {
        // What completing a line is worth to the player who does it.
        let line = match self.variant {
            Variant::Normal => 1,
            Variant::Misere => -1,
        };
        let mut children = Vec::new();
        if form.dead > 0 {
            let mut child = form.clone();
            child.dead -= 1;
            hand_over(&mut child);
            children.push(Ok(child));
        }
        for (index, piece) in form.pieces.iter().enumerate() {
            // Equal pieces offer equal moves: take the first of them only.
            if index > 0 && form.pieces[index - 1] == *piece {
                continue;
            }
            for at in (0..distinct_moves(piece)).filter(|&i| piece[i] == EMPTY) {
                let mut cells = piece.clone();
                cells[at] = MINE;
                if self.makes_line(&cells, at) {
                    children.push(Err(line));
                    continue;
                }
                let mut child = Reduced {
                    dead: form.dead,
                    pieces: Vec::with_capacity(form.pieces.len() + 1),
                };
                child.pieces.extend(
                    (form.pieces.iter().enumerate())
                        .filter(|&(i, _)| i != index)
                        .map(|(_, p)| p.clone()),
                );
                self.split_into(&cells, &mut child);
                hand_over(&mut child);
                children.push(Ok(child));
            }
        }
        children
    }

    /// Alpha-beta negamax on the sign of `form`'s value for its side to move (1 win, 0 draw,
    /// -1 loss), fail-soft like the main search; `None` past the form limit.
    fn negamax(&mut self, form: &Reduced, mut alpha: i8, mut beta: i8) -> Option<i8> {
        if form.pieces.is_empty() {
            // No line can be made any more: the dead cells fill up to a draw.
            return Some(0);
        }
        let (mut lower, mut upper) = self.static_bounds(form);
        let key = pack(form);
        if let Some(&(known_lower, known_upper)) = self.memo.get(&key) {
            lower = lower.max(known_lower);
            upper = upper.min(known_upper);
        }
        if lower >= beta || lower == upper {
            return Some(lower);
        }
        if upper <= alpha {
            return Some(upper);
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        if self.must_stop(self.memo.len()) {
            return None;
        }
        self.nodes += 1;
        let alpha_in = alpha;
        let mut best = -1;
        for child in self.children(form) {
            let score = match child {
                Err(score) => score,
                Ok(child) => -self.negamax(&child, -beta, -alpha)?,
            };
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let bounds = if best <= alpha_in {
            (lower, best)
        } else if best >= beta {
            (best, upper)
        } else {
            (best, best)
        };
        let entry = self.memo.entry(key).or_insert((-1, 1));
        *entry = (entry.0.max(bounds.0), entry.1.min(bounds.1));
        Some(best)
    }
}

/// The widest row the solver takes: every engine board of height 1 (width * 2 <= 128).
const MAX_WIDTH: u32 = 64;

/// A reduced form packed into 128 bits, two per symbol from the most significant end: first
/// one 0 per dead cell, then the pieces' cells (an empty cell 1, the mover's disc 2, the
/// other player's 3) with a 0 between two pieces, then 0s to the end.
///
/// The packing is one-to-one on the forms the solver stores (at least one piece): the leading
/// 0s count the dead cells because a piece starts with a non-zero symbol, a single 0 then
/// separates pieces because pieces are not empty, and the trailing 0s follow the last piece's
/// non-zero last cell. It fits because a form of a row of w cells has at most w symbols: each
/// dead cell was a cell of the row, and so was each piece's cell, and between two pieces there
/// was at least one cell (a disc or dead cell) in no open window, which the separator stands
/// for.
type PackedForm = [u64; 2];

/// The packed key of `form` (see [`PackedForm`]).
fn pack(form: &Reduced) -> PackedForm {
    let separators = form.pieces.len().saturating_sub(1);
    let symbols = form.dead as usize + form.pieces.iter().map(Vec::len).sum::<usize>() + separators;
    debug_assert!(symbols <= MAX_WIDTH as usize, "form of {symbols} symbols");
    let mut bits = 0u128;
    let mut at = 2 * form.dead;
    for (index, piece) in form.pieces.iter().enumerate() {
        at += 2 * u32::from(index > 0);
        for &cell in piece {
            bits |= u128::from(cell + 1) << (126 - at);
            at += 2;
        }
    }
    [(bits >> 64) as u64, bits as u64]
}

/// The cells of a one-row position, from the side to move.
fn row_of(pos: &Position) -> Vec<u8> {
    let to_move = pos.to_move();
    (0..pos.rules().width())
        .map(|column| match pos.cell(Cell { column, row: 0 }) {
            None => EMPTY,
            Some(p) if p == to_move => MINE,
            Some(_) => THEIRS,
        })
        .collect()
}

/// Hands the turn over: every disc changes sides, and the form is made canonical again.
fn hand_over(form: &mut Reduced) {
    for cell in form.pieces.iter_mut().flatten() {
        *cell = match *cell {
            MINE => THEIRS,
            THEIRS => MINE,
            empty => empty,
        };
    }
    canonicalize(form);
}

/// Turns each piece to its canonical direction (the smaller of its two readings) and sorts
/// the pieces.
fn canonicalize(form: &mut Reduced) {
    for piece in &mut form.pieces {
        if piece.iter().rev().lt(piece.iter()) {
            piece.reverse();
        }
    }
    form.pieces.sort_unstable();
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;
    use crate::engine::outcome::GameResult;
    use crate::solver::others::plain::{plain_sign, positions_along};

    #[test]
    fn the_form_limit_gives_up_without_an_answer() {
        let rules = Rules::new(2, 16, 1, Variant::Misere).unwrap();
        let mut solver = StripSolver::new(2, Variant::Misere, 10);
        assert_eq!(solver.value(&Position::new(rules)), None);
    }

    /// A budget of nodes or of time stops the solver as its form limit does; lifted, the same
    /// solver goes on to the answer.
    #[test]
    fn a_budget_gives_up_without_an_answer() {
        let rules = Rules::new(2, 16, 1, Variant::Misere).unwrap();
        let start = Position::new(rules);
        let mut solver = StripSolver::new(2, Variant::Misere, usize::MAX);
        solver.set_budget(Budget::nodes(10));
        assert_eq!(solver.value(&start), None);
        // The sums of games (a misère board) and then the search each get the budget.
        assert!(solver.nodes() <= 2 * 10);
        solver.set_budget(Budget::time(std::time::Duration::ZERO));
        assert_eq!(solver.value(&start), None);
        solver.set_budget(Budget::UNLIMITED);
        let mut fresh = StripSolver::new(2, Variant::Misere, usize::MAX);
        assert_eq!(solver.value(&start), fresh.value(&start));
        assert!(fresh.value(&start).is_some());
    }

    /// A misère ring whose closer wins is settled by the sums of games within a budget far
    /// below what the search alone needs: k = 3 on 19 cells, a second-player win, as the
    /// unlimited search finds (in 350,381 forms). A ring whose closer does not win goes on to
    /// the search, with the window narrowed: 20 cells, a draw.
    #[test]
    fn the_sums_settle_misere_rings_before_the_search() {
        for (width, budget, result) in [
            (19, 100_000, GameResult::Win(Player::P2)),
            (20, u64::MAX, GameResult::Draw),
        ] {
            let rules = Rules::new(3, width, 1, Variant::Misere)
                .unwrap()
                .with_topology(crate::engine::rules::Topology::Cylinder);
            let start = Position::new(rules);
            let mut alone = StripSolver::new(3, Variant::Misere, usize::MAX);
            let full = alone.ring_negamax(&row_of(&start), -1, 1).unwrap();
            assert_eq!(
                Value::from_sign(Score::from(full), Player::P1).result,
                result
            );
            let mut solver = StripSolver::new(3, Variant::Misere, usize::MAX);
            solver.set_budget(Budget::nodes(budget));
            assert_eq!(solver.value(&start).map(|v| v.result), Some(result));
            assert!(solver.nodes() <= budget);
        }
    }

    /// Misère rows for k >= 3 far wider than the main search can settle: the pairing bound
    /// draws them at the first form, as Theorem 3 of Steele & Larremore says (each player can
    /// pair the row's cells left to right). A form limit of one shows no search was needed.
    #[test]
    fn misere_rows_for_k_from_3_are_draws_by_the_pairing_bound() {
        for k in 3..=7 {
            for width in [25, 36, 37, 64] {
                let rules = Rules::new(k, width, 1, Variant::Misere).unwrap();
                let value = StripSolver::new(k, Variant::Misere, 1)
                    .value(&Position::new(rules))
                    .expect("settled without search");
                assert_eq!(value.result, GameResult::Draw, "k={k} {width}x1");
            }
        }
    }

    /// The form whose packed key is `key` (the inverse of [`pack`] on forms with a piece).
    fn unpack(key: PackedForm) -> Reduced {
        let bits = u128::from(key[0]) << 64 | u128::from(key[1]);
        let symbols: Vec<u8> = (0..64).map(|i| (bits >> (126 - 2 * i)) as u8 & 3).collect();
        let dead = symbols.iter().take_while(|&&s| s == 0).count();
        let end = symbols
            .iter()
            .rposition(|&s| s != 0)
            .map_or(dead, |last| last + 1);
        let pieces = symbols[dead..end]
            .split(|&s| s == 0)
            .map(|piece| piece.iter().map(|&s| s - 1).collect())
            .collect();
        Reduced {
            dead: dead as u32,
            pieces,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Along a random game on a misère row, wherever the pairing bound says a player cannot
        /// lose, plain minimax agrees.
        #[test]
        fn the_pairing_bound_never_contradicts_plain_minimax(
            width in 3u32..=14,
            k in 2u32..=5,
            choices in prop::collection::vec(0usize..14, 0..12),
        ) {
            let rules = Rules::new(k, width, 1, Variant::Misere).unwrap();
            let solver = StripSolver::new(k, Variant::Misere, 0);
            let mut memo = HashMap::new();
            for pos in positions_along(rules, &choices) {
                let form = solver.reduce(&pos);
                let mover_safe = solver.pairing_holds(&form, MINE, true);
                let other_safe = solver.pairing_holds(&form, THEIRS, false);
                // Plain minimax is too slow on the longest rows' early positions.
                let checked = mover_safe || other_safe;
                if form.pieces.is_empty() || !checked || pos.empty_cells() > 11 {
                    continue;
                }
                let sign = plain_sign(&pos, &mut memo);
                prop_assert!(!mover_safe || sign >= 0, "mover safe but loses: {:?}", form);
                prop_assert!(!other_safe || sign <= 0, "other safe but loses: {:?}", form);
            }
        }

        /// Along a random game on a normal row, wherever a player's lines are blocked by the
        /// opponent's pairs, plain minimax agrees that the player cannot win.
        #[test]
        fn the_blocking_bound_never_contradicts_plain_minimax(
            width in 3u32..=14,
            k in 2u32..=5,
            choices in prop::collection::vec(0usize..14, 0..12),
        ) {
            let rules = Rules::new(k, width, 1, Variant::Normal).unwrap();
            let solver = StripSolver::new(k, Variant::Normal, 0);
            let mut memo = HashMap::new();
            for pos in positions_along(rules, &choices) {
                let form = solver.reduce(&pos);
                let mover_blocked = solver.blocking_holds(&form, MINE, false);
                let other_blocked = solver.blocking_holds(&form, THEIRS, true);
                let checked = mover_blocked || other_blocked;
                if form.pieces.is_empty() || !checked || pos.empty_cells() > 11 {
                    continue;
                }
                let sign = plain_sign(&pos, &mut memo);
                prop_assert!(!mover_blocked || sign <= 0, "mover blocked but wins: {:?}", form);
                prop_assert!(!other_blocked || sign >= 0, "other blocked but wins: {:?}", form);
            }
        }

        /// Rings (the row of a cylinder): along a random game, the solver's outcome of every
        /// position against plain minimax on the engine's positions, under both rule sets.
        #[test]
        fn ring_values_match_plain_minimax(
            width in 2u32..=11,
            k in 2u32..=5,
            misere in any::<bool>(),
            choices in prop::collection::vec(0usize..11, 0..10),
        ) {
            let variant = if misere { Variant::Misere } else { Variant::Normal };
            let rules = Rules::new(k, width, 1, variant)
                .unwrap()
                .with_topology(crate::engine::rules::Topology::Cylinder);
            let mut solver = StripSolver::new(k, variant, usize::MAX);
            let mut memo = HashMap::new();
            let start = Position::new(rules);
            for pos in std::iter::once(start).chain(positions_along(rules, &choices)) {
                let sign = plain_sign(&pos, &mut memo);
                let expected = Value::from_sign(Score::from(sign), pos.to_move()).result;
                let value = solver.value(&pos).expect("no form limit");
                prop_assert_eq!(value.result, expected, "{}\n{}", rules, pos.diagram());
            }
        }

        /// Rows and rings: along a random game, whether each position's outcome is above -1
        /// and above 0 (misère questions about the closer answered by the sums of games
        /// alone, which keep their memory from one question to the next) against plain
        /// minimax, under both rule sets.
        #[test]
        fn outcome_questions_match_plain_minimax(
            width in 2u32..=11,
            k in 2u32..=5,
            misere in any::<bool>(),
            ring in any::<bool>(),
            choices in prop::collection::vec(0usize..11, 0..10),
        ) {
            let variant = if misere { Variant::Misere } else { Variant::Normal };
            let topology = if ring {
                crate::engine::rules::Topology::Cylinder
            } else {
                crate::engine::rules::Topology::Flat
            };
            let rules = Rules::new(k, width, 1, variant).unwrap().with_topology(topology);
            let mut solver = StripSolver::new(k, variant, usize::MAX);
            let mut memo = HashMap::new();
            let start = Position::new(rules);
            for pos in std::iter::once(start).chain(positions_along(rules, &choices)) {
                let sign = Score::from(plain_sign(&pos, &mut memo));
                for probe in [-1, 0] {
                    let above = solver.above(&pos, probe).expect("no form limit");
                    prop_assert_eq!(above, sign > probe, "probe {}: {}\n{}", probe, rules,
                        pos.diagram());
                }
            }
        }

        /// A ring cut open is a form of at most one symbol more than the ring has cells (a
        /// disc is written twice), and its packed key reads back unchanged.
        #[test]
        fn rings_cut_open_fit_their_keys(
            width in 2u32..=MAX_WIDTH - 1,
            k in 2u32..=6,
            choices in prop::collection::vec(0usize..64, 0..40),
        ) {
            let rules = Rules::new(k, width, 1, Variant::Misere)
                .unwrap()
                .with_topology(crate::engine::rules::Topology::Cylinder);
            let solver = StripSolver::new(k, Variant::Misere, 0);
            for pos in positions_along(rules, &choices) {
                let Some(form) = solver.cut(&row_of(&pos)) else { continue };
                if form.pieces.is_empty() {
                    continue;
                }
                let symbols = form.dead as usize
                    + form.pieces.iter().map(Vec::len).sum::<usize>()
                    + form.pieces.len()
                    - 1;
                prop_assert!(symbols <= width as usize + 1, "{} symbols: {:?}", symbols, form);
                prop_assert_eq!(unpack(pack(&form)), form);
            }
        }

        /// Every reduced form met along random games on rows up to the widest, and each of
        /// its children, has at most as many symbols as its row has cells, and is read back
        /// from its packed key unchanged (so no two forms share a key).
        #[test]
        fn packed_keys_tell_forms_apart(
            width in 2u32..=MAX_WIDTH,
            k in 2u32..=6,
            choices in prop::collection::vec(0usize..64, 0..40),
        ) {
            let rules = Rules::new(k, width, 1, Variant::Misere).unwrap();
            let solver = StripSolver::new(k, Variant::Misere, 0);
            for pos in positions_along(rules, &choices) {
                let form = solver.reduce(&pos);
                let children = solver.children(&form).into_iter().filter_map(Result::ok);
                for form in std::iter::once(form.clone()).chain(children) {
                    if form.pieces.is_empty() {
                        continue;
                    }
                    let symbols = form.dead as usize
                        + form.pieces.iter().map(Vec::len).sum::<usize>()
                        + form.pieces.len()
                        - 1;
                    prop_assert!(symbols <= width as usize, "{} symbols: {:?}", symbols, form);
                    prop_assert_eq!(unpack(pack(&form)), form);
                }
            }
        }
    }
}
