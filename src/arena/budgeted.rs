//! What the solver settles about each move of a position within a time budget: the one
//! analysis behind `play`'s hint and the web API.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::engine::position::{Column, Position};
use crate::solver::{Budget, Depth, Solver, Value, rank};

/// What a budgeted analysis settled about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ColumnValue {
    /// The move.
    pub column: Column,
    /// The value of the game after the move, counted from the position before it (a move that
    /// ends the game has remoteness 1), with remoteness when it was settled too; `None` when
    /// not even the outcome was settled within the budget.
    pub value: Option<Value>,
}

/// The value of every legal move of `pos` (left to right), as far as `solver` settles it
/// within `budget`: first every move's outcome, then every move's remoteness, the moves with
/// the best outcomes first. Values the solver's opening book holds cost nothing, so on a
/// position the book covers every value is known at once. What a search had learned when the
/// budget ran out stays in the solver's table and serves the next call.
///
/// This is the function for programs that show a position's moves (the web API, `play`'s
/// hint): it always answers within about the budget (searches look at the clock every 1,024
/// nodes), with the values it could settle.
///
/// # Examples
/// ```
/// use std::time::Duration;
/// use connectk::arena::column_values;
/// use connectk::{Mib, Position, Rules, Solver, Variant};
/// let rules = Rules::new(3, 3, 3, Variant::Misere).unwrap();
/// let values = column_values(&mut Solver::new(Mib(1)), &Position::new(rules), Duration::from_secs(1));
/// assert_eq!(values.len(), 3);
/// assert!(values.iter().all(|c| c.value.is_some_and(|v| v.remoteness.is_some())));
/// ```
pub fn column_values(solver: &mut Solver, pos: &Position, budget: Duration) -> Vec<ColumnValue> {
    let deadline = Instant::now() + budget;
    let children: Vec<(Column, Position)> = pos
        .legal_columns()
        .into_iter()
        .map(|column| (column, pos.played(column).expect("legal column")))
        .collect();
    let mut values: Vec<Option<Value>> = vec![None; children.len()];
    for depth in [Depth::Weak, Depth::Strong] {
        let mut order: Vec<usize> = (0..children.len()).collect();
        // Settle the most promising moves first: a hint or a player wants the best ones.
        order.sort_by_key(|&i| std::cmp::Reverse(values[i].map_or(i64::MIN, |v| rank(pos, v))));
        for i in order {
            if depth == Depth::Strong && values[i].is_some_and(|v| v.remoteness.is_some()) {
                continue;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let child = &children[i].1;
            if let Some(after) = solver.limited(Budget::time(left), |s| s.value(child, depth)) {
                values[i] = Some(Value {
                    result: after.result,
                    remoteness: after.remoteness.map(|r| r + 1),
                });
            }
        }
    }
    children
        .iter()
        .zip(values)
        .map(|(&(column, _), value)| ColumnValue { column, value })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation;
    use crate::engine::rules::{Rules, Variant};
    use crate::solver::{Book, Mib};
    use std::sync::Arc;

    #[test]
    fn with_time_every_move_gets_its_exact_value() {
        let rules = Rules::new(4, 5, 4, Variant::Misere).unwrap();
        let (pos, _) = notation::parse(rules, "3").unwrap();
        let values = column_values(&mut Solver::new(Mib(4)), &pos, Duration::from_secs(60));
        let expected = Solver::new(Mib(4)).move_values(&pos, Depth::Strong);
        assert_eq!(values.len(), expected.len());
        for (got, want) in values.iter().zip(&expected) {
            assert_eq!((got.column, got.value), (want.column, Some(want.value)));
        }
    }

    #[test]
    fn without_time_only_the_book_answers() {
        let rules = Rules::standard();
        let (pos, _) = notation::parse(rules, "44").unwrap();
        // A made-up book entry for one child: the analysis must take it as it is.
        let (child, _) = notation::parse(rules, "444").unwrap();
        let claimed = Value {
            result: crate::engine::outcome::GameResult::Draw,
            remoteness: None,
        };
        let book = Arc::new(Book::from_values(rules, [(child, claimed)]));
        let mut solver = Solver::new(Mib(1)).with_book(book);
        let values = column_values(&mut solver, &pos, Duration::ZERO);
        // A drawn position's remoteness is its number of empty cells, so the entry settles
        // the exact value at once too: 39 after the move, 40 counted from before it.
        let exact = Value {
            remoteness: Some(40),
            ..claimed
        };
        for c in &values {
            let expected = (c.column.number() == 4).then_some(exact);
            assert_eq!(c.value, expected, "column {}", c.column);
        }
    }
}
