//! The value of every move of a position within a budget: the one question the web page, its
//! analysis and its perfect opponent, and `play`'s hint ask the solver, so that an opening book
//! answers it too.

use std::time::Instant;

use crate::engine::outcome::GameResult;
use crate::engine::position::{Column, Position};
use crate::solver::{Book, Budget, Depth, Solver, Value, rank};

/// What was learned about each legal move of a position within a budget.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnValues {
    /// Every legal move, left to right, with its value when it was found in time (counted from
    /// the position before the move, so a move that ends the game has remoteness 1).
    pub moves: Vec<(Column, Option<Value>)>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock seconds spent.
    pub seconds: f64,
}

impl ColumnValues {
    /// Whether every move's value is known.
    pub fn complete(&self) -> bool {
        self.moves.iter().all(|(_, value)| value.is_some())
    }

    /// The value of the position, once every move's value is known (`None` before, and for a
    /// finished game, which has no moves).
    pub fn value(&self, pos: &Position) -> Option<Value> {
        let values: Option<Vec<Value>> = self.moves.iter().map(|(_, v)| *v).collect();
        values?.into_iter().max_by_key(|v| rank(pos, *v))
    }

    /// The moves a player who knows only these values should choose between: the fastest
    /// known win, else a known draw, else a move of unknown value, else the slowest known
    /// loss. A value without remoteness (from an outcome-only solve) counts as the longest
    /// game it could be: an exact search finds short wins and losses first, so one it could
    /// not finish within the budget is far off.
    pub fn best_columns(&self, pos: &Position) -> Vec<Column> {
        let score = |value: Option<Value>| match value {
            None => -1,
            Some(v) => rank(
                pos,
                Value {
                    remoteness: Some(v.remoteness.unwrap_or(pos.empty_cells())),
                    ..v
                },
            ),
        };
        let best = self.moves.iter().map(|(_, v)| score(*v)).max();
        self.moves
            .iter()
            .filter(|(_, v)| Some(score(*v)) == best)
            .map(|(c, _)| *c)
            .collect()
    }

    /// These values, each unknown one replaced by its value in `fallback` (a weaker solve of
    /// the same position, say).
    pub(crate) fn or(mut self, fallback: &ColumnValues) -> ColumnValues {
        for ((_, value), (_, other)) in self.moves.iter_mut().zip(&fallback.moves) {
            *value = value.or(*other);
        }
        self.nodes += fallback.nodes;
        self.seconds += fallback.seconds;
        self
    }
}

/// The value of each legal move of `pos` at `depth`, each found within its share of `budget`.
///
/// The moves are tried in rounds. In the first round each gets a quarter of an equal share of
/// the budget; each later round doubles that allowance for the moves still unknown, the
/// solver's table keeping what the failed attempts learned, until every move gets an equal
/// share of what is left. So the quick moves are all found even when a hard one comes first,
/// and time a quick move leaves over goes to the others. A move not settled in time is
/// `None`: never a guess.
///
/// The moves the solver's opening book holds at `depth` are settled first, at no cost and
/// whatever the budget. An outcome-only analysis then solves the position itself with a
/// quarter of the budget:
/// when the side to move loses, every move loses, which settles them all at once (the
/// empty misère 7x6 board takes 0.2 s, some of its moves minutes).
///
/// # Examples
/// ```
/// use connectk::analysis::column_values;
/// use connectk::{Budget, Depth, Mib, Position, Rules, Solver, Variant};
/// let rules = Rules::new(3, 3, 3, Variant::Misere).unwrap();
/// let mut solver = Solver::new(Mib(1));
/// let values = column_values(&mut solver, &Position::new(rules), Depth::Strong, Budget::UNLIMITED);
/// assert!(values.complete() && values.moves.len() == 3);
/// ```
pub fn column_values(
    solver: &mut Solver,
    pos: &Position,
    depth: Depth,
    budget: Budget,
) -> ColumnValues {
    let start = Instant::now();
    solver.prepare(pos.rules());
    let nodes_before = solver.nodes();
    let mut moves = values_without_search(pos, |child| solver.book_value(child, depth));
    if depth == Depth::Weak && moves.iter().any(|(_, v)| v.is_none()) {
        let quarter = Budget {
            time: budget.time.map(|t| t / 4),
            nodes: budget.nodes.map(|n| n / 4),
        };
        let whole = solver.limited(quarter, |s| s.value(pos, depth));
        if let Some(lost) = whole.filter(|v| v.result == GameResult::Win(pos.to_move().other())) {
            for (_, value) in &mut moves {
                *value = Some(lost);
            }
        }
    }
    // A round's allowance per move is the budget divided by `parts`.
    let mut parts = 4 * moves.len().max(1) as u32;
    loop {
        let unknown: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].1.is_none()).collect();
        if unknown.is_empty() {
            break;
        }
        // The solver searches the unknown moves in waves (one move per thread), and each wave
        // may have an equal share of what is left.
        let waves = unknown.len().div_ceil(solver.side_by_side(budget)) as u32;
        let spent = solver.nodes() - nodes_before;
        let share = Budget {
            time: budget
                .time
                .map(|t| (t.saturating_sub(start.elapsed()) / waves).min(t / parts)),
            nodes: budget
                .nodes
                .map(|m| (m.saturating_sub(spent) / u64::from(waves)).min(m / u64::from(parts))),
        };
        if share.time.is_some_and(|t| t.is_zero()) || share.nodes == Some(0) {
            break;
        }
        let children: Vec<Position> = unknown
            .iter()
            .map(|&i| pos.played(moves[i].0).expect("legal column"))
            .collect();
        let found = solver.values_each(&children, depth, share);
        let settled = found.iter().any(Option::is_some);
        for (&i, value) in unknown.iter().zip(found) {
            moves[i].1 = value.map(after_move);
        }
        if parts == 1 && !settled {
            // Every unknown move had an equal share of the rest, and none was enough.
            break;
        }
        parts = (parts / 2).max(1);
    }
    ColumnValues {
        moves,
        nodes: solver.nodes() - nodes_before,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Each legal move of `pos` with its value where it needs no search: a move that ends the game,
/// or one whose position `lookup` knows (an opening book, say).
fn values_without_search(
    pos: &Position,
    lookup: impl Fn(&Position) -> Option<Value>,
) -> Vec<(Column, Option<Value>)> {
    pos.legal_columns()
        .into_iter()
        .map(|c| {
            let child = pos.played(c).expect("legal column");
            let known = match child.outcome() {
                Some(outcome) => Some(Value {
                    result: outcome.result,
                    remoteness: Some(0),
                }),
                None => lookup(&child),
            };
            (c, known.map(after_move))
        })
        .collect()
}

/// Every move's value at `depth` when none needs a search (`None` otherwise): the position is
/// over (no moves), or each move ends the game or leads to a position `book` holds at `depth`.
/// A server answers these at once, without waiting for a solver.
pub fn values_from_book(pos: &Position, depth: Depth, book: Option<&Book>) -> Option<ColumnValues> {
    let start = Instant::now();
    let moves = if pos.is_over() {
        Vec::new()
    } else {
        values_without_search(pos, |child| book?.value_at(child, depth))
    };
    let values = ColumnValues {
        moves,
        nodes: 0,
        seconds: start.elapsed().as_secs_f64(),
    };
    values.complete().then_some(values)
}

/// The value of a move, counted from the position before it, from `after`, the value of the
/// position it leads to.
fn after_move(after: Value) -> Value {
    Value {
        result: after.result,
        remoteness: after.remoteness.map(|r| r + 1),
    }
}

/// What the perfect player, the web page and `play`'s hint know of each move of `pos` within
/// `budget`: outcomes first (a weak solve is far cheaper), then exact values with what is
/// left, each unknown exact value replaced by its outcome. With an opening book in `solver`,
/// every move it holds is known at once.
///
/// This is the function for programs that show a position's moves: it answers within about
/// the budget (searches look at the clock every 1,024 nodes), with the values it could settle
/// and never a guess.
///
/// # Examples
/// ```
/// use connectk::analysis::perfect_values;
/// use connectk::{Budget, Mib, Position, Rules, Solver, Variant};
/// let rules = Rules::new(3, 3, 3, Variant::Misere).unwrap();
/// let pos = Position::new(rules);
/// let values = perfect_values(&mut Solver::new(Mib(1)), &pos, Budget::UNLIMITED);
/// assert!(values.complete() && values.moves.len() == 3);
/// assert!(values.moves.iter().all(|(_, v)| v.unwrap().remoteness.is_some()));
/// ```
pub fn perfect_values(solver: &mut Solver, pos: &Position, budget: Budget) -> ColumnValues {
    let start = Instant::now();
    let weak = column_values(solver, pos, Depth::Weak, budget);
    let rest = Budget {
        time: budget.time.map(|t| t.saturating_sub(start.elapsed())),
        nodes: budget.nodes.map(|n| n.saturating_sub(weak.nodes)),
    };
    column_values(solver, pos, Depth::Strong, rest).or(&weak)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation;
    use crate::engine::rules::{Rules, Variant};
    use crate::solver::Mib;

    fn position(k: u32, w: u32, h: u32, variant: Variant, moves: &str) -> Position {
        notation::parse(Rules::new(k, w, h, variant).unwrap(), moves)
            .unwrap()
            .0
    }

    #[test]
    fn with_time_enough_they_are_the_solvers_move_values() {
        for (variant, moves) in [(Variant::Normal, "4453"), (Variant::Misere, "3")] {
            let pos = position(4, 5, 4, variant, moves);
            for (depth, threads) in [Depth::Weak, Depth::Strong]
                .into_iter()
                .flat_map(|depth| [(depth, 1), (depth, 2)])
            {
                let mut solver = Solver::new(Mib(4)).with_threads(threads);
                let values = column_values(&mut solver, &pos, depth, Budget::UNLIMITED);
                let expected = Solver::new(Mib(4)).move_values(&pos, depth);
                let got: Vec<_> = values.moves.iter().map(|(c, v)| (*c, v.unwrap())).collect();
                let want: Vec<_> = expected.iter().map(|m| (m.column, m.value)).collect();
                assert_eq!(got, want, "{variant:?} {moves} {depth:?} {threads}");
                let analysed = Solver::new(Mib(4)).analyze(&pos, depth);
                assert_eq!(values.value(&pos), Some(analysed.value));
                assert_eq!(values.best_columns(&pos), analysed.best_moves);
            }
        }
    }

    #[test]
    fn a_lost_position_settles_every_move_at_once() {
        // Misère 7x6: P2 wins (Table I); some of P1's first moves take minutes on their own.
        let pos = position(4, 7, 6, Variant::Misere, "");
        let budget = Budget::nodes(2_000_000);
        let values = column_values(&mut Solver::new(Mib(16)), &pos, Depth::Weak, budget);
        assert!(values.complete());
        let loss = GameResult::Win(crate::Player::P2);
        assert!(values.moves.iter().all(|(_, v)| v.unwrap().result == loss));
        assert!(values.nodes <= 2_000_000);
    }

    #[test]
    fn a_budget_too_small_leaves_values_unknown() {
        // Normal 7x6 from the empty board takes millions of nodes per move.
        let pos = position(4, 7, 6, Variant::Normal, "");
        let values = column_values(
            &mut Solver::new(Mib(4)),
            &pos,
            Depth::Weak,
            Budget::nodes(700),
        );
        assert!(!values.complete());
        assert_eq!(values.value(&pos), None);
        assert!(values.nodes <= 1_000, "{} nodes", values.nodes);
        // Nothing is known, so every move is a candidate.
        assert_eq!(values.best_columns(&pos).len(), 7);
    }

    #[test]
    fn best_columns_prefer_a_known_draw_to_an_unknown_and_an_unknown_to_a_loss() {
        let pos = position(4, 7, 6, Variant::Normal, "");
        let draw = Value {
            result: GameResult::Draw,
            remoteness: None,
        };
        let loss = Value {
            result: GameResult::Win(crate::Player::P2),
            remoteness: Some(3),
        };
        let c = Column::from_number;
        let mut values = ColumnValues {
            moves: vec![
                (c(1).unwrap(), Some(loss)),
                (c(2).unwrap(), None),
                (c(3).unwrap(), Some(draw)),
            ],
            nodes: 0,
            seconds: 0.0,
        };
        assert_eq!(values.best_columns(&pos), vec![c(3).unwrap()]);
        values.moves[2].1 = Some(loss);
        assert_eq!(values.best_columns(&pos), vec![c(2).unwrap()]);
        // A loss of unknown length counts as the longest: kept over a known loss in 3.
        let far = Value {
            remoteness: None,
            ..loss
        };
        let mut losses = values.clone();
        losses.moves[0].1 = Some(far);
        losses.moves[1].1 = Some(loss);
        assert_eq!(losses.best_columns(&pos), vec![c(1).unwrap()]);
        let strong = ColumnValues {
            moves: vec![
                (c(1).unwrap(), None),
                (c(2).unwrap(), Some(draw)),
                (c(3).unwrap(), None),
            ],
            nodes: 1,
            seconds: 0.0,
        };
        let merged = strong.or(&values);
        assert_eq!(merged.moves[0].1, Some(loss));
        assert_eq!(merged.moves[1].1, Some(draw));
        assert_eq!(merged.moves[2].1, Some(loss));
        assert!(merged.complete());
    }

    #[test]
    fn without_time_only_the_book_answers() {
        let rules = Rules::standard();
        let pos = position(4, 7, 6, Variant::Normal, "44");
        // A made-up book entry for one child: the analysis must take it as it is.
        let child = position(4, 7, 6, Variant::Normal, "444");
        let claimed = Value {
            result: GameResult::Draw,
            remoteness: None,
        };
        let book = std::sync::Arc::new(crate::solver::Book::from_values(rules, [(child, claimed)]));
        let mut solver = Solver::new(Mib(1)).with_book(book);
        let values = perfect_values(&mut solver, &pos, Budget::time(std::time::Duration::ZERO));
        // A drawn position's remoteness is its number of empty cells, so the entry settles
        // the exact value at once too: 39 after the move, 40 counted from before it.
        let exact = Value {
            remoteness: Some(40),
            ..claimed
        };
        for (column, value) in &values.moves {
            let expected = (column.number() == 4).then_some(exact);
            assert_eq!(*value, expected, "column {column}");
        }
    }
}
