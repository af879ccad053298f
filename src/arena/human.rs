//! A person's turn at the terminal: the commands they may type, and how a hint reads.

use std::time::Duration;

use crate::engine::outcome::{GameResult, Player};
use crate::engine::position::{Column, MoveError, Position};
use crate::solver::Value;

/// The time a hint gets by default: the web page's target for showing every column's value.
pub const HINT_TIME: Duration = Duration::from_secs(2);

/// What a person typed on their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Drop a disc in this (legal) column.
    Play(Column),
    /// Show the solver's value of every column.
    Hint,
    /// Leave the game.
    Quit,
}

/// Why a line typed on a person's turn was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// Neither a number nor a command.
    #[error("{found:?} is not a move: type a column number 1-{width}, hint or quit")]
    NotAMove {
        /// The text typed.
        found: String,
        /// The board width.
        width: u32,
    },
    /// A column number that cannot be played here.
    #[error(transparent)]
    Illegal(#[from] MoveError),
}

/// Reads one line typed on a person's turn in `pos`: a column number from 1, `hint` or `quit`
/// (any case, surrounding spaces ignored).
///
/// # Errors
/// [`InputError::NotAMove`] for any other text; [`InputError::Illegal`] for column 0, a
/// column past the width, or a full column.
///
/// # Examples
/// ```
/// use connectk::arena::human::{parse_command, Command};
/// use connectk::{Column, Position, Rules};
/// let pos = Position::new(Rules::standard());
/// assert_eq!(parse_command(" 4 ", &pos), Ok(Command::Play(Column::new(3))));
/// assert_eq!(parse_command("HINT", &pos), Ok(Command::Hint));
/// assert!(parse_command("8", &pos).is_err());
/// ```
pub fn parse_command(line: &str, pos: &Position) -> Result<Command, InputError> {
    let word = line.trim();
    let width = pos.rules().width();
    match word.to_ascii_lowercase().as_str() {
        "hint" => Ok(Command::Hint),
        "quit" => Ok(Command::Quit),
        _ => {
            let number: u32 = word.parse().map_err(|_| InputError::NotAMove {
                found: word.to_string(),
                width,
            })?;
            let column =
                Column::from_number(number).ok_or(MoveError::NoSuchColumn { column: 0, width })?;
            pos.check_move(column)?;
            Ok(Command::Play(column))
        }
    }
}

/// A move's value as its mover would say it: `win in 3`, `draw`, `loss in 4` (plies counted
/// from the move itself, under perfect play by both sides), `win` or `loss` when the
/// remoteness was not settled, `not settled` when the outcome was not either.
pub fn describe(mover: Player, value: Option<Value>) -> String {
    let Some(value) = value else {
        return "not settled".to_string();
    };
    let plies = value
        .remoteness
        .map(|r| format!(" in {r}"))
        .unwrap_or_default();
    match value.result {
        GameResult::Win(p) if p == mover => format!("win{plies}"),
        GameResult::Win(_) => format!("loss{plies}"),
        GameResult::Draw => "draw".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation;
    use crate::engine::rules::Rules;

    #[test]
    fn bad_lines_are_refused_with_the_reason() {
        let (pos, _) = notation::parse(Rules::standard(), "444444").unwrap();
        let refuse = |line: &str| parse_command(line, &pos).unwrap_err().to_string();
        assert!(refuse("4").contains("column 4 is full"));
        assert!(refuse("0").contains("no column 0: columns are numbered 1 to 7"));
        assert!(refuse("9").contains("no column 9"));
        assert!(refuse("four").contains("\"four\" is not a move: type a column number 1-7"));
        assert!(refuse("").contains("\"\" is not a move"));
        assert_eq!(parse_command("quit", &pos), Ok(Command::Quit));
    }

    #[test]
    fn hints_read_as_the_mover_says_them() {
        let win = |remoteness| Value {
            result: GameResult::Win(Player::P1),
            remoteness,
        };
        assert_eq!(describe(Player::P1, Some(win(Some(3)))), "win in 3");
        assert_eq!(describe(Player::P2, Some(win(Some(3)))), "loss in 3");
        assert_eq!(describe(Player::P2, Some(win(None))), "loss");
        assert_eq!(describe(Player::P1, None), "not settled");
        let draw = Value {
            result: GameResult::Draw,
            remoteness: Some(5),
        };
        assert_eq!(describe(Player::P2, Some(draw)), "draw");
    }
}
