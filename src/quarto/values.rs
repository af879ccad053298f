//! The value of each choice of a Quarto turn within a budget: each cell for the piece in hand,
//! or each piece to hand over; what the web page shows and its perfect player chooses from.

use std::time::{Duration, Instant};

use crate::solver::Budget;
use crate::{Depth, Value};

use super::piece::{Cell, Piece, bits_of};
use super::position::{Position, Turn};
use super::solver::{Solver, Unfinished};

/// The value of placing the piece in hand on each empty cell of `pos` (then handing over the
/// best piece), each found within its share of `budget` (in rounds that give the unknown ones more
/// time each); `None` when not
/// found in time, never a guess. Remoteness counts turns from `pos`.
///
/// # Panics
/// When the side to move holds no piece.
///
/// # Examples
/// ```
/// use connectk::quarto::{Rules, Solver, notation, values};
/// use connectk::{Budget, Depth, Variant};
/// let rules = Rules::new(3, 3, None, Variant::Normal, false).unwrap();
/// let (pos, _) = notation::parse(rules, "LSR").unwrap();
/// let mut solver = Solver::new(rules, 1 << 20);
/// let cells = values::placements(&mut solver, &pos, Depth::Strong, Budget::UNLIMITED);
/// assert!(cells.len() == 9 && cells.iter().all(|(_, v)| v.is_some()));
/// ```
pub fn placements(
    solver: &mut Solver,
    pos: &Position,
    depth: Depth,
    budget: Budget,
) -> Vec<(Cell, Option<Value>)> {
    let cells = bits_of(pos.empty_cells()).map(Cell::from_index).collect();
    in_rounds(solver, cells, budget, |s, &cell| {
        s.placement(pos, cell, depth)
    })
}

/// The value of each piece that can be handed over after placing the piece in hand on
/// `place` (`None` on the opening turn, which places nothing), found as in [`placements`];
/// empty when that placement ends the game.
///
/// # Panics
/// When `place` is not a legal placement in `pos`.
pub fn handovers(
    solver: &mut Solver,
    pos: &Position,
    place: Option<Cell>,
    depth: Depth,
    budget: Budget,
) -> Vec<(Piece, Option<Value>)> {
    let turns: Vec<Turn> = pos
        .legal_turns()
        .into_iter()
        .filter(|t| t.place == place && t.give.is_some())
        .collect();
    in_rounds(solver, turns, budget, |s, &turn| s.turn(pos, turn, depth))
        .into_iter()
        .filter_map(|(turn, value)| turn.give.map(|piece| (piece, value)))
        .collect()
}

/// The values of `items`, each solved by `solve` within its share of `budget`.
///
/// With a time budget the items are tried in rounds: in the first, each gets a quarter of an
/// equal share of the time; each later round doubles that allowance for the items still
/// unknown, the solver's table keeping what the failed attempts learned. So the quick ones
/// are all found even when a hard one comes first. A node budget limits each search. With
/// neither, every item is solved.
fn in_rounds<T>(
    solver: &mut Solver,
    items: Vec<T>,
    budget: Budget,
    mut solve: impl FnMut(&mut Solver, &T) -> Result<Value, Unfinished>,
) -> Vec<(T, Option<Value>)> {
    let mut found: Vec<(T, Option<Value>)> = items.into_iter().map(|t| (t, None)).collect();
    solver.set_node_limit(budget.nodes.unwrap_or(u64::MAX));
    let Some(time) = budget.time else {
        for (item, value) in &mut found {
            *value = solve(solver, item).ok();
        }
        return found;
    };
    let end = Instant::now() + time;
    let mut allowance = time / (4 * found.len().max(1) as u32);
    while Instant::now() < end && !solver.cancelled() {
        for (item, value) in found.iter_mut().filter(|(_, v)| v.is_none()) {
            let now = Instant::now();
            if now >= end {
                break;
            }
            solver.set_deadline(Some((now + allowance).min(end)));
            *value = solve(solver, item).ok();
        }
        if found.iter().all(|(_, v)| v.is_some()) {
            break;
        }
        allowance = (allowance * 2).max(Duration::from_millis(1));
    }
    solver.set_deadline(None);
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quarto::{Rules, notation};
    use crate::{GameResult, Player, Variant};

    #[test]
    fn a_budget_too_small_leaves_values_unknown_and_none_wrong() {
        let rules = Rules::new(3, 4, None, Variant::Misere, false).unwrap();
        let (pos, _) = notation::parse(rules, "LSRF a1:DTQH").unwrap();
        let mut solver = Solver::new(rules, 1 << 22);
        let all = placements(&mut solver, &pos, Depth::Strong, Budget::UNLIMITED);
        let mut fresh = Solver::new(rules, 1 << 22);
        let some = placements(&mut fresh, &pos, Depth::Strong, Budget::nodes(50));
        assert!(some.iter().any(|(_, v)| v.is_none()));
        for ((cell, known), (_, exact)) in some.iter().zip(&all) {
            if let Some(known) = known {
                assert_eq!(Some(*known), *exact, "{cell:?}");
            }
        }
        let timed = placements(
            &mut fresh,
            &pos,
            Depth::Strong,
            Budget::time(Duration::from_secs(5)),
        );
        assert_eq!(timed, all);
    }

    #[test]
    fn handovers_are_the_turns_of_one_placement() {
        let rules = Rules::new(2, 2, None, Variant::Normal, false).unwrap();
        let pos = Position::new(rules);
        let mut solver = Solver::new(rules, 1 << 20);
        let pieces = handovers(&mut solver, &pos, None, Depth::Strong, Budget::UNLIMITED);
        assert_eq!(pieces.len(), 4);
        // P2 wins 2x2 Quarto in 4 turns whatever P1 hands over first.
        for (_, value) in pieces {
            let value = value.unwrap();
            assert_eq!(
                (value.result, value.remoteness),
                (GameResult::Win(Player::P2), Some(4))
            );
        }
    }
}
