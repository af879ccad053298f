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
//! ([`super::pairing`]).
//!
//! It settles one-row boards that the main search cannot: misère Connect 2 on 36 cells by
//! search, and misère rows for k >= 3 of any width at their first node, by the pairing bound.

use std::collections::HashMap;

use crate::engine::outcome::Cell;
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Variant};

use super::pairing::{self, EMPTY, MINE, THEIRS};
use super::score::{Score, Value};

/// A position in reduced form, from the point of view of the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Reduced {
    /// Dead empty cells.
    dead: u32,
    /// The pieces, each in its canonical direction, sorted.
    pieces: Vec<Vec<u8>>,
}

/// The outcome-only solver for one-row boards, with the values of the reduced forms it has met.
pub struct StripSolver {
    k: usize,
    variant: Variant,
    /// Proved bounds (lower, upper) on the sign of each form met, by its packed key.
    memo: HashMap<PackedForm, (i8, i8)>,
    /// The solver gives up once it remembers more forms than this.
    form_limit: usize,
    nodes: u64,
}

impl StripSolver {
    /// A generous bound on the memory one remembered form takes, in bytes: a 16-byte key and
    /// its bounds in a hash map that is between 44% and 88% full, counted at the moment it
    /// grows, when its old and new buckets are both allocated.
    pub const BYTES_PER_FORM: usize = 96;

    /// A solver for one-row boards with lines of `k` under `variant` that gives up once it
    /// remembers more than `form_limit` reduced positions (see [`StripSolver::BYTES_PER_FORM`]).
    pub fn new(k: u32, variant: Variant, form_limit: usize) -> StripSolver {
        StripSolver {
            k: k as usize,
            variant,
            memo: HashMap::new(),
            form_limit,
            nodes: 0,
        }
    }

    /// Whether the solver takes positions of `rules`: flat one-row boards of at most 64
    /// cells. The row of a cylinder is a ring, whose windows run around the end: it does not
    /// fall into the intervals this solver searches.
    pub fn applies_to(rules: Rules) -> bool {
        rules.height() == 1 && !rules.is_cylinder() && rules.width() <= MAX_WIDTH
    }

    /// Reduced positions searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of an unfinished position of a one-row board with this solver's rules, outcome
    /// only; `None` when the solver passed its form limit.
    ///
    /// # Panics
    /// If the board has more than one row, other rules than the solver's, or the game is over.
    pub fn value(&mut self, pos: &Position) -> Option<Value> {
        let rules = pos.rules();
        assert_eq!(rules.height(), 1, "the strip solver takes one-row boards");
        assert_eq!(
            (rules.k() as usize, rules.variant()),
            (self.k, self.variant),
            "rules differ from the solver's"
        );
        assert!(!pos.is_over(), "the game is over");
        assert!(
            rules.width() <= MAX_WIDTH,
            "the strip solver takes rows of at most {MAX_WIDTH} cells"
        );
        let start = self.reduce(pos);
        let sign = self.negamax(&start, -1, 1)?;
        Some(Value::from_sign(Score::from(sign), pos.to_move()))
    }

    /// The reduced form of a one-row position, from the side to move.
    fn reduce(&self, pos: &Position) -> Reduced {
        let to_move = pos.to_move();
        let row: Vec<u8> = (0..pos.rules().width())
            .map(|column| match pos.cell(Cell { column, row: 0 }) {
                None => EMPTY,
                Some(p) if p == to_move => MINE,
                Some(_) => THEIRS,
            })
            .collect();
        let mut form = Reduced {
            dead: 0,
            pieces: Vec::new(),
        };
        self.split_into(&row, &mut form);
        canonicalize(&mut form);
        form
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
            Variant::Normal => (
                if other_can { -1 } else { 0 },
                if mover_can { 1 } else { 0 },
            ),
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
            // A piece that reads the same both ways offers each move twice.
            let half = if piece.iter().eq(piece.iter().rev()) {
                piece.len().div_ceil(2)
            } else {
                piece.len()
            };
            for at in (0..half).filter(|&i| piece[i] == EMPTY) {
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
        if self.memo.len() >= self.form_limit {
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
    use crate::solver::plain::{plain_sign, positions_along};

    #[test]
    fn the_form_limit_gives_up_without_an_answer() {
        let rules = Rules::new(2, 16, 1, Variant::Misere).unwrap();
        let mut solver = StripSolver::new(2, Variant::Misere, 10);
        assert_eq!(solver.value(&Position::new(rules)), None);
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
