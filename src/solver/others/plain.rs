//! Plain minimax for the solver's unit tests: the engine's moves and nothing else (no bound,
//! no pruning, no move ordering), so that the bounds can be checked against it.

use std::collections::HashMap;

use proptest::test_runner::TestCaseError;

use crate::engine::bits::Bits;
use crate::engine::outcome::GameResult;
use crate::engine::position::Position;
use crate::engine::rules::Rules;

use crate::solver::score::{Score, loss_at, win_at};

/// The exact score of a position for the side to move (see [`Score`]), remembering the
/// scores of the positions it meets in `memo`.
pub(crate) fn plain_score(pos: &Position, memo: &mut HashMap<u128, Score>) -> Score {
    let key = pos.key().to_u128();
    if let Some(&score) = memo.get(&key) {
        return score;
    }
    let cells = pos.rules().cells();
    let mut best = Score::MIN;
    for column in pos.legal_columns() {
        let child = pos.played(column).unwrap();
        let score = match child.outcome().map(|o| o.result) {
            Some(GameResult::Draw) => 0,
            Some(GameResult::Win(p)) if p == pos.to_move() => win_at(cells, child.plies()),
            Some(GameResult::Win(_)) => loss_at(cells, child.plies()),
            None => -plain_score(&child, memo),
        };
        best = best.max(score);
    }
    memo.insert(key, best);
    best
}

/// The sign of a position's value for the side to move (1 win, 0 draw, -1 loss), from
/// [`plain_score`] with the same `memo`.
pub(crate) fn plain_sign(pos: &Position, memo: &mut HashMap<u128, Score>) -> i8 {
    plain_score(pos, memo).signum() as i8
}

/// The positions of a game under `rules` that plays `choices` (each an index into the legal
/// moves, taken modulo their number), after each move, up to the first finished position
/// (which is left out).
pub(crate) fn positions_along(rules: Rules, choices: &[usize]) -> Vec<Position> {
    let mut pos = Position::new(rules);
    let mut along = Vec::new();
    for &choice in choices {
        let legal = pos.legal_columns();
        pos.play(legal[choice % legal.len()]).unwrap();
        if pos.is_over() {
            break;
        }
        along.push(pos);
    }
    along
}

/// The empty cells that would complete a line of the opponent's (the player not to move), as
/// the search hands them to the strategy bounds; computed here straight from the engine.
pub(crate) fn threats_of(pos: &Position) -> u128 {
    pos.completing_cells(pos.to_move().other())
}

/// Checks an upper bound on the mover's score against plain minimax along a game under `rules`
/// (see [`positions_along`]): wherever `bound` proves a loss by some ply (a score below zero)
/// or at most a draw (0), the position's exact score must be no higher. Positions with more
/// than `max_empty` empty cells are skipped, where plain minimax is too slow.
pub(crate) fn bound_holds_along(
    rules: Rules,
    choices: &[usize],
    max_empty: u32,
    bound: impl Fn(&Position) -> Score,
) -> Result<(), TestCaseError> {
    let mut memo = HashMap::new();
    for pos in positions_along(rules, choices) {
        let upper = bound(&pos);
        if upper > 0 || pos.empty_cells() > max_empty {
            continue;
        }
        let score = plain_score(&pos, &mut memo);
        if score > upper {
            return Err(TestCaseError::fail(format!(
                "{rules}: bound {upper} but minimax {score} for\n{}",
                pos.diagram()
            )));
        }
    }
    Ok(())
}
