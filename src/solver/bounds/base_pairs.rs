//! An upper bound from the opponent's follow-up with base pairs: Allis's claimeven and
//! baseinverse rules (Allis 1988) played together, for positions where some columns hold an
//! odd number of empty cells and plain follow-up ([`crate::solver::search::expand`]'s claimeven bound) does
//! not apply.
//!
//! The opponent (the follower) pairs up every empty cell and answers each move of the mover's
//! with the other cell of its pair:
//! - the lowest empty cell of each column with an odd number of empty cells is a base cell,
//!   and the base cells are paired with each other (a base pair: two cells that can both be
//!   played now, in different columns);
//! - every other empty cell is paired with the cell directly above or below it, going up
//!   from the lowest empty cell of the column that is not a base cell (a vertical pair).
//!
//! Every answer is legal: the partner of a base cell can be played as long as it is empty,
//! and it stays empty until the mover takes one of the two; the mover can only reach the
//! upper cell of a vertical pair by filling the lower one first, which the follower then
//! covers. So the follower gets the upper cell of every vertical pair (its cells) and one of
//! each base pair, whichever the mover leaves; the mover gets the lower cells (its cells) and
//! the other cell of each base pair. Since every empty cell is paired, the game goes on until
//! the board is full or a line is made.
//!
//! Under normal rules, if every window of k cells the mover could still complete holds a
//! follower's cell or both cells of a base pair, the mover never completes a line and cannot
//! win; if moreover the follower's discs and cells hold a line, the follower completes it: the
//! mover loses. Under misère rules the roles turn: if the follower's discs, its cells and the
//! base cells hold no line, the follower never completes one and the mover cannot win; if the
//! mover's discs and cells hold a line, the mover completes one and loses.

use crate::engine::bits::{BitIter, Bits};
use crate::engine::layout::Layout;
use crate::engine::position::Position;
use crate::engine::rules::Variant;

use super::dated_loss::{latest_loss, loss_when_needed};
use crate::solver::score::Score;

/// The most base cells the bound pairs up. Each way of pairing them is tried (3 for four
/// cells, 15 for six), each against every choice of one cell per pair (4 for four cells, 8 for
/// six); on the standard board there are never more than six.
const MAX_BASE_CELLS: usize = 6;

/// An upper bound on the mover's score from the opponent's follow-up with base pairs (see the
/// module documentation), or [`Score::MAX`] when no bound follows; with `enough` below zero,
/// also when no bound at most `enough` follows (see [`crate::solver::search::expand::bound_by_strategies`]).
/// It looks at positions with 2 or more columns holding an odd number of empty cells; with
/// none, or only one, [`crate::solver::search::expand`]'s plain follow-up bound covers the position.
/// `their_threats` are the empty cells that would complete a line of the opponent's (the
/// caller has them already). A loss comes by the ply [`latest_loss`] finds for the winner's
/// discs and cells: the strategy holds until the game is over.
pub(crate) fn bound_by_base_pairs<B: Bits>(
    pos: &Position<B>,
    their_threats: B,
    enough: Score,
) -> Score {
    let layout = pos.layout();
    let h = pos.rules().height();
    let lowest_parity = layout.lowest_parity_cells(pos.mask());
    // A column has an odd number of empty cells when its top cell has the lowest one's parity.
    let odd_tops = lowest_parity & (layout.bottom() << (h - 1));
    if odd_tops.count_ones() < 2 {
        return Score::MAX;
    }
    match pos.rules().variant() {
        Variant::Normal => normal_bound(pos, their_threats, lowest_parity, odd_tops, enough),
        Variant::Misere => misere_bound(pos, lowest_parity, odd_tops, enough),
    }
}

/// Normal rules:
/// - with an even number of columns holding an odd number of empty cells (their top cells
///   `odd_tops`), their lowest cells paired: 0 when the mover can never complete a line, a
///   loss when moreover the opponent's discs and cells hold a line;
/// - with an odd number (3 or more), all but one of them paired, and the one left over
///   followed up as the others are (the mover gets its lowest empty cell and every second
///   one above): a loss when the mover can never complete a line and the opponent has, on one
///   of its cells in the column left over, a cell that completes one of its lines now. The
///   board cannot fill up without that cell, which the opponent takes (and wins with) as soon
///   as the mover plays below it (Allis's odd threat, here with base pairs).
fn normal_bound<B: Bits>(
    pos: &Position<B>,
    their_threats: B,
    lowest_parity: B,
    odd_tops: B,
    enough: Score,
) -> Score {
    let layout = pos.layout();
    let odd_count = odd_tops.count_ones() as usize;
    if odd_count > MAX_BASE_CELLS + odd_count % 2 {
        return Score::MAX;
    }
    if odd_count.is_multiple_of(2) {
        let cells = follow_up_cells(pos, lowest_parity, odd_tops);
        let Some(loss) = loss_when_needed(enough, || {
            latest_loss(pos, pos.opponent(), cells.follower, enough)
        }) else {
            return Score::MAX;
        };
        return if guarded(pos, their_threats, &cells) {
            loss().min(0)
        } else {
            Score::MAX
        };
    }
    // The opponent's winning cells among those it gets by plain follow-up.
    let threats = their_threats & !lowest_parity;
    BitIter(odd_tops)
        .find_map(|top| {
            if (threats & layout.columns_of_tops(top)).is_empty() {
                return None;
            }
            let cells = follow_up_cells(pos, lowest_parity, odd_tops ^ top);
            // The winning cell's line is among the opponent's discs and cells.
            let loss = latest_loss(pos, pos.opponent(), cells.follower, enough);
            (loss != Score::MAX && guarded(pos, their_threats, &cells)).then_some(loss)
        })
        .unwrap_or(Score::MAX)
}

/// Misère rules, with an even number of columns holding an odd number of empty cells (their
/// top cells `odd_tops`), their lowest cells paired: when the opponent's discs, its cells and
/// all base cells (it may have to take either of a pair) hold no line, the opponent never
/// completes one, so the mover cannot win (0); if moreover the mover's discs and cells hold a
/// line, the mover must complete one before the board is full, and loses.
fn misere_bound<B: Bits>(pos: &Position<B>, lowest_parity: B, odd_tops: B, enough: Score) -> Score {
    if !odd_tops.count_ones().is_multiple_of(2) {
        return Score::MAX;
    }
    let layout = pos.layout();
    let cells = follow_up_cells(pos, lowest_parity, odd_tops);
    let Some(loss) = loss_when_needed(enough, || {
        latest_loss(pos, pos.current(), cells.mover, enough)
    }) else {
        return Score::MAX;
    };
    if layout.has_line(pos.opponent() | cells.follower | cells.base) {
        return Score::MAX;
    }
    loss().min(0)
}

/// Who gets which empty cell under the follow-up with base pairs.
struct FollowUpCells<B> {
    /// The lower cell of each vertical pair.
    mover: B,
    /// The upper cell of each vertical pair.
    follower: B,
    /// The lowest empty cells of the paired columns.
    base: B,
}

/// The cells of each side when the columns whose top cells are `paired_tops` have their lowest
/// cells paired (base cells) and every other empty cell is followed up. `lowest_parity` holds,
/// in each column, the empty cells on the rows of the parity of its lowest empty cell.
fn follow_up_cells<B: Bits>(
    pos: &Position<B>,
    lowest_parity: B,
    paired_tops: B,
) -> FollowUpCells<B> {
    let layout = pos.layout();
    let empty = layout.full() & !pos.mask();
    let paired_columns = layout.columns_of_tops(paired_tops);
    let base = pos.playable() & paired_columns;
    // In a column without a base cell, its lowest empty cell and every second above; in the
    // others, the second lowest and every second above.
    let mover = (lowest_parity & !paired_columns) | (empty & !lowest_parity & paired_columns);
    FollowUpCells {
        mover,
        follower: empty & !mover & !base,
        base,
    }
}

/// Normal rules: whether, with the cells of each side under a follow-up with base pairs
/// (`cells`, see [`follow_up_cells`]), some pairing of the base cells leaves the mover no line
/// it could ever complete.
fn guarded<B: Bits>(pos: &Position<B>, their_threats: B, cells: &FollowUpCells<B>) -> bool {
    let layout = pos.layout();
    // The mover never gets a cell above one of the opponent's winning cells among its cells:
    // the opponent answers the move below it there, and wins.
    let threats = their_threats & cells.follower;
    let mover_reach = (pos.current() | cells.mover) & !layout.at_or_above(threats << 1);
    // A line without base cells holds no base pair: quick to rule out before pairing.
    if layout.has_line(mover_reach) {
        return false;
    }
    let mut pairs = [(B::ZERO, B::ZERO); MAX_BASE_CELLS / 2];
    some_pairing_guards(layout, mover_reach | cells.base, cells.base, &mut pairs, 0)
}

/// Whether some way of pairing the cells of `unpaired` (added to the `paired` pairs already
/// in `pairs`) leaves no line in `reach` that holds at most one cell of each pair.
fn some_pairing_guards<B: Bits>(
    layout: &Layout<B>,
    reach: B,
    unpaired: B,
    pairs: &mut [(B, B)],
    paired: usize,
) -> bool {
    if unpaired.is_empty() {
        return every_choice_breaks_the_lines(layout, reach, &pairs[..paired]);
    }
    let first = unpaired.lowest();
    let rest = unpaired ^ first;
    for partner in BitIter(rest) {
        pairs[paired] = (first, partner);
        if some_pairing_guards(layout, reach, rest ^ partner, pairs, paired + 1) {
            return true;
        }
    }
    false
}

/// Whether `reach` holds no line once one cell of each pair is taken out, whichever is. A line
/// with at most one cell of each pair survives one of these choices (take out the cell it
/// does not hold), so this says that every line of `reach` holds a whole pair.
fn every_choice_breaks_the_lines<B: Bits>(layout: &Layout<B>, reach: B, pairs: &[(B, B)]) -> bool {
    (0..1u32 << pairs.len()).all(|choice| {
        let kept = pairs.iter().enumerate().fold(reach, |kept, (i, &(a, b))| {
            kept & !if choice >> i & 1 == 1 { a } else { b }
        });
        !layout.has_line(kept)
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;
    use crate::engine::rules::Rules;
    use crate::solver::others::plain::{bound_holds_along, plain_score, threats_of};

    fn normal(k: u32, width: u32, height: u32) -> Rules {
        Rules::new(k, width, height, Variant::Normal).unwrap()
    }

    fn after(rules: Rules, moves: &str) -> Position {
        let mut pos = Position::new(rules);
        for c in moves.bytes() {
            let column = crate::engine::position::Column::from_number(u32::from(c - b'0'));
            pos.play(column.unwrap()).unwrap();
        }
        pos
    }

    /// Positions found by enumerating short games where the bound holds. Normal rules, 5x4,
    /// k = 4: two columns of an odd number of empty cells paired (so plain follow-up gives no
    /// bound), and three, of which one is left to an odd threat of the opponent's. Misère
    /// rules: two columns paired, on 5x4 with k = 4 and 5x3 with k = 3. Each case: the bound
    /// and the exact score by plain minimax, here the same: the losses come as late as the
    /// bound allows (-3: two plies before the board is full).
    #[test]
    fn bounds_found_by_enumeration_hold() {
        let cases = [
            (Variant::Normal, (4, 5, 4), "55554344", 0, 0),
            (Variant::Normal, (4, 5, 4), "55554244", -3, -3),
            (Variant::Normal, (4, 5, 4), "552554133", -2, -2),
            (Variant::Misere, (4, 5, 4), "5555434441", 0, 0),
            (Variant::Misere, (3, 5, 3), "535521221", -2, -2),
        ];
        for (variant, (k, width, height), moves, bound, score) in cases {
            let pos = after(Rules::new(k, width, height, variant).unwrap(), moves);
            let found = bound_by_base_pairs(&pos, threats_of(&pos), 0);
            let exact = plain_score(&pos, &mut HashMap::new());
            assert_eq!((found, exact), (bound, score), "{variant:?} {moves}");
        }
    }

    #[test]
    fn needs_an_even_number_of_odd_columns() {
        // One disc: one odd column, nothing to pair.
        assert_eq!(
            bound_by_base_pairs(&after(normal(3, 4, 4), "1"), 0, 0),
            Score::MAX
        );
        // The empty board: no odd column, the plain follow-up bound's case.
        assert_eq!(
            bound_by_base_pairs(&Position::new(normal(3, 4, 4)), 0, 0),
            Score::MAX
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Along a random game on a small board, under each set of rules, wherever the bound
        /// holds, plain minimax agrees.
        #[test]
        #[ignore = "slow: plain minimax along random games (12 s); run by .ci/run with --ignored"]
        fn the_bound_never_contradicts_plain_minimax(
            board in prop::sample::select(vec![
                (3, 4, 4), (3, 5, 3), (4, 5, 4), (4, 6, 4), (3, 4, 5), (4, 5, 5), (4, 7, 3),
                (3, 6, 3), (2, 4, 3),
            ]),
            choices in prop::collection::vec(0usize..8, 2..16),
        ) {
            let (k, width, height) = board;
            for variant in [Variant::Normal, Variant::Misere] {
                let rules = Rules::new(k, width, height, variant).unwrap();
                bound_holds_along(rules, &choices, 15, |pos| {
                    bound_by_base_pairs(pos, threats_of(pos), 0)
                })?;
            }
        }

        /// The same on cylinders: the pairing argument counts cells, and the layout's lines
        /// are the cylinder's.
        #[test]
        #[ignore = "slow: plain minimax along random games (8 s); run by .ci/run with --ignored"]
        fn the_bound_never_contradicts_plain_minimax_on_cylinders(
            board in prop::sample::select(vec![
                (3, 4, 4), (3, 5, 3), (4, 4, 4), (3, 3, 4), (2, 4, 3), (3, 6, 3), (4, 3, 5),
            ]),
            choices in prop::collection::vec(0usize..8, 2..16),
        ) {
            let (k, width, height) = board;
            for variant in [Variant::Normal, Variant::Misere] {
                let rules = Rules::new(k, width, height, variant)
                    .unwrap()
                    .with_topology(crate::engine::rules::Topology::Cylinder);
                bound_holds_along(rules, &choices, 15, |pos| {
                    bound_by_base_pairs(pos, threats_of(pos), 0)
                })?;
            }
        }
    }
}
