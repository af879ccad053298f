//! One line of the UCI data set: its 42 cells and class, replayed into a position.

use std::collections::HashSet;

use crate::engine::outcome::{Cell, GameResult, Player};
use crate::engine::position::{Column, Position};
use crate::engine::rules::Rules;

const WIDTH: usize = 7;
const HEIGHT: usize = 6;
/// Fields of a line: 42 cells and the class.
const FIELDS: usize = WIDTH * HEIGHT + 1;

/// A line of the data set, parsed and replayed.
#[derive(Clone, Debug)]
pub struct Example {
    /// Line number in the file, counted from 1.
    pub line: usize,
    /// A move order that produces the line's cells, first move first.
    pub moves: Vec<Column>,
    /// The position after those moves (its cells checked against the line's).
    pub position: Position,
    /// The line's class: the value of the position under normal rules.
    pub expected: GameResult,
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The line does not split into 42 cells and a class.
    #[error("{0} comma-separated fields, expected 43 (cells a1..a6, ..., g1..g6, then the class)")]
    FieldCount(usize),
    /// A cell field is not `x`, `o` or `b`.
    #[error("cell {cell} is {value:?}, expected x, o or b")]
    BadCell {
        /// The cell's name in the data set (`a1` .. `g6`).
        cell: String,
        /// What the field holds.
        value: String,
    },
    /// The class field is not `win`, `loss` or `draw`.
    #[error("class {0:?}, expected win, loss or draw")]
    BadClass(String),
    /// A disc rests on an empty cell.
    #[error("cell {0} holds a disc above an empty cell")]
    FloatingDisc(String),
    /// No alternation of x (first) and o moves fills exactly these cells, or the order found
    /// completes a line before its last move (the data set's positions hold no line).
    #[error("no move order (x first, then alternating with o) gives these cells")]
    NoMoveOrder,
}

/// A malformed line of the data set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct LineError {
    /// Line number in the file, counted from 1.
    pub line: usize,
    /// What is wrong with it.
    pub problem: Problem,
}

/// The cells of a line: `grid[column][row]`, row 0 at the bottom.
type Grid = [[Option<Player>; HEIGHT]; WIDTH];

/// The data set's name for a cell: column letter `a`..`g`, then the row from 1 at the bottom.
fn cell_name(column: usize, row: usize) -> String {
    format!("{}{}", char::from(b'a' + column as u8), row + 1)
}

/// Parses line number `line` (counted from 1) of the data set and replays it.
///
/// # Errors
/// [`LineError`] naming the line and what is wrong with it.
///
/// # Examples
/// ```
/// use connectk::{GameResult, Player, notation};
/// use connectk::experiment::uci_dataset::parse_line;
/// // x on c1 and e1, o on d1 and d2: x played first.
/// let text = "b,b,b,b,b,b,b,b,b,b,b,b,x,b,b,b,b,b,o,o,b,b,b,b,x,b,b,b,b,b,\
///             b,b,b,b,b,b,b,b,b,b,b,b,win";
/// let example = parse_line(1, text).unwrap();
/// assert_eq!(example.expected, GameResult::Win(Player::P1));
/// assert_eq!(example.position.plies(), 4);
/// assert_eq!(notation::format(example.position.rules(), &example.moves), "5434");
/// ```
pub fn parse_line(line: usize, text: &str) -> Result<Example, LineError> {
    let fail = |problem| LineError { line, problem };
    let fields: Vec<&str> = text.trim_end().split(',').collect();
    if fields.len() != FIELDS {
        return Err(fail(Problem::FieldCount(fields.len())));
    }
    let mut grid: Grid = [[None; HEIGHT]; WIDTH];
    for (i, field) in fields[..FIELDS - 1].iter().enumerate() {
        let (column, row) = (i / HEIGHT, i % HEIGHT);
        grid[column][row] = match *field {
            "x" => Some(Player::P1),
            "o" => Some(Player::P2),
            "b" => None,
            other => {
                return Err(fail(Problem::BadCell {
                    cell: cell_name(column, row),
                    value: other.to_string(),
                }));
            }
        };
    }
    let expected = match fields[FIELDS - 1] {
        "win" => GameResult::Win(Player::P1),
        "loss" => GameResult::Win(Player::P2),
        "draw" => GameResult::Draw,
        other => return Err(fail(Problem::BadClass(other.to_string()))),
    };
    let moves = move_order(&grid).map_err(fail)?;
    let position = replay(&grid, &moves).ok_or_else(|| fail(Problem::NoMoveOrder))?;
    Ok(Example {
        line,
        moves,
        position,
        expected,
    })
}

/// Finds a move order producing `grid`, by taking discs off the tops of the columns from the
/// last ply back to the first: the disc taken back as ply `n` must belong to whoever played
/// ply `n`.
fn move_order(grid: &Grid) -> Result<Vec<Column>, Problem> {
    let mut heights = [0usize; WIDTH];
    for (c, column) in grid.iter().enumerate() {
        heights[c] = column.iter().take_while(|cell| cell.is_some()).count();
        if let Some(above) = column[heights[c]..].iter().position(Option::is_some) {
            return Err(Problem::FloatingDisc(cell_name(c, heights[c] + above)));
        }
    }
    let mut reversed = Vec::with_capacity(heights.iter().sum());
    let mut dead_ends = HashSet::new();
    if take_back(grid, &mut heights, &mut reversed, &mut dead_ends) {
        reversed.reverse();
        Ok(reversed)
    } else {
        Err(Problem::NoMoveOrder)
    }
}

/// Depth-first search for a take-back order from `heights` to the empty board. `dead_ends`
/// remembers the column heights already found to lead nowhere, which keeps a malformed full
/// board from costing an exponential search.
fn take_back(
    grid: &Grid,
    heights: &mut [usize; WIDTH],
    reversed: &mut Vec<Column>,
    dead_ends: &mut HashSet<[usize; WIDTH]>,
) -> bool {
    let plies: usize = heights.iter().sum();
    if plies == 0 {
        return true;
    }
    if dead_ends.contains(heights) {
        return false;
    }
    let mover = Player::to_move_after(plies as u32 - 1);
    for c in 0..WIDTH {
        let h = heights[c];
        if h > 0 && grid[c][h - 1] == Some(mover) {
            heights[c] -= 1;
            reversed.push(Column::new(c as u32));
            if take_back(grid, heights, reversed, dead_ends) {
                return true;
            }
            reversed.pop();
            heights[c] += 1;
        }
    }
    dead_ends.insert(*heights);
    false
}

/// Plays `moves` on the standard board and checks every cell against `grid`; `None` when a
/// move is refused (a line was completed before the last move) or a cell differs.
fn replay(grid: &Grid, moves: &[Column]) -> Option<Position> {
    let mut position = Position::new(Rules::standard());
    for &column in moves {
        position.play(column).ok()?;
    }
    let same = grid.iter().enumerate().all(|(c, column)| {
        column.iter().enumerate().all(|(r, &cell)| {
            let at = Cell {
                column: c as u32,
                row: r as u32,
            };
            position.cell(at) == cell
        })
    });
    same.then_some(position)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation;

    /// A line from per-column strings (bottom first, padded with `b`) and a class.
    fn line(columns: [&str; WIDTH], class: &str) -> String {
        let mut fields = Vec::new();
        for column in columns {
            let mut cells: Vec<String> = column.chars().map(String::from).collect();
            cells.resize(HEIGHT, "b".to_string());
            fields.extend(cells);
        }
        fields.push(class.to_string());
        fields.join(",")
    }

    fn problem(text: &str) -> Problem {
        parse_line(7, text).unwrap_err().problem
    }

    #[test]
    fn the_first_line_of_the_data_set_replays_to_its_cells() {
        let text = "b,b,b,b,b,b,b,b,b,b,b,b,x,o,b,b,b,b,x,o,x,o,x,o,\
                    b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,win";
        let example = parse_line(1, text).unwrap();
        assert_eq!(example.line, 1);
        assert_eq!(example.expected, GameResult::Win(Player::P1));
        assert_eq!(example.position.plies(), 8);
        assert_eq!(example.position.to_move(), Player::P1);
        assert!(!example.position.is_over());
        let moves = notation::format(Rules::standard(), &example.moves);
        let (replayed, _) = notation::parse(Rules::standard(), &moves).unwrap();
        assert_eq!(replayed.key(), example.position.key());
    }

    #[test]
    fn classes_are_values_for_the_first_player() {
        let cells = ["", "", "xo", "o", "x", "", ""];
        for (class, result) in [
            ("win", GameResult::Win(Player::P1)),
            ("loss", GameResult::Win(Player::P2)),
            ("draw", GameResult::Draw),
        ] {
            let example = parse_line(3, &line(cells, class)).unwrap();
            assert_eq!(example.expected, result);
            assert_eq!(example.position.plies(), 4);
        }
    }

    #[test]
    fn the_empty_board_needs_no_moves() {
        let example = parse_line(1, &line([""; WIDTH], "draw")).unwrap();
        assert!(example.moves.is_empty());
        assert_eq!(example.position.plies(), 0);
    }

    #[test]
    fn a_trailing_carriage_return_is_accepted() {
        let text = line(["x", "o", "", "", "", "", ""], "win") + "\r";
        assert!(parse_line(1, &text).is_ok());
    }

    #[test]
    fn malformed_lines_name_their_line_and_problem() {
        let good = line(["x", "o", "", "", "", "", ""], "win");
        let error = parse_line(12, &good.replace(",win", "")).unwrap_err();
        assert_eq!(error.problem, Problem::FieldCount(42));
        assert!(
            error
                .to_string()
                .starts_with("line 12: 42 comma-separated fields")
        );
        assert_eq!(problem(""), Problem::FieldCount(1));
        assert_eq!(
            problem(&good.replacen('x', "X", 1)),
            Problem::BadCell {
                cell: "a1".into(),
                value: "X".into()
            }
        );
        assert_eq!(
            problem(&good.replace("win", "won")),
            Problem::BadClass("won".into())
        );
        assert_eq!(
            problem(&line(["x", "o", "bbbbbx", "", "", "", ""], "win")),
            Problem::FloatingDisc("c6".into())
        );
    }

    #[test]
    fn cells_no_game_can_reach_are_refused() {
        // Two x and no o; o alone (x moves first); x below x below o below o.
        assert_eq!(
            problem(&line(["x", "x", "", "", "", "", ""], "win")),
            Problem::NoMoveOrder
        );
        assert_eq!(
            problem(&line(["o", "", "", "", "", "", ""], "win")),
            Problem::NoMoveOrder
        );
        assert_eq!(
            problem(&line(["xxoo", "", "", "", "", "", ""], "win")),
            Problem::NoMoveOrder
        );
    }

    #[test]
    fn a_board_with_a_line_made_before_the_last_move_is_refused() {
        // x has four in column a and o has made a move since: the game ended before it.
        assert_eq!(
            problem(&line(["xxxx", "ooo", "o", "", "", "", ""], "win")),
            Problem::NoMoveOrder
        );
    }

    #[test]
    fn a_malformed_full_board_is_refused_quickly() {
        // 22 x and 20 o: a take-back search without memory of dead ends would try a vast
        // number of orders before giving up.
        let mut columns = ["xoxoxo"; WIDTH];
        columns[WIDTH - 1] = "xoxoxx";
        let text = line(columns, "draw");
        assert_eq!(problem(&text), Problem::NoMoveOrder);
    }
}
