//! Move strings: digits `1`-`9` for columns counted from 1 (`4453`), or comma-separated column
//! numbers for boards wider than 9 (`10,3,3`).

use super::position::{Column, MoveError, Position};
use super::rules::Rules;

/// Why a move string was refused; `at` is the 1-based position of the offending move in the string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// A character that is neither a digit `1`-`9` nor part of a comma-separated number.
    #[error(
        "move {at}: bad character {found:?}: use digits 1-9, or comma-separated column numbers for wide boards"
    )]
    BadCharacter {
        /// 1-based index of the move.
        at: usize,
        /// The offending text.
        found: String,
    },
    /// The move was parsed but cannot be played.
    #[error("move {at}: {error}")]
    Illegal {
        /// 1-based index of the move.
        at: usize,
        /// Why the move is illegal (part of the message, so not given as its source too).
        error: MoveError,
    },
}

/// Splits a move string into 1-based column numbers without checking them against a board.
///
/// # Errors
/// [`NotationError::BadCharacter`] for anything but digits (and commas between numbers).
pub(crate) fn parse_numbers(moves: &str) -> Result<Vec<u32>, NotationError> {
    let moves = moves.trim();
    if moves.is_empty() {
        return Ok(Vec::new());
    }
    if moves.contains(',') {
        // A trailing comma marks a single wide-board move such as `10,` (see [`format`]).
        let moves = moves.strip_suffix(',').unwrap_or(moves);
        moves
            .split(',')
            .enumerate()
            .map(|(i, token)| {
                let token = token.trim();
                if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
                    token
                        .parse::<u32>()
                        .map_err(|_| NotationError::BadCharacter {
                            at: i + 1,
                            found: token.to_string(),
                        })
                } else {
                    Err(NotationError::BadCharacter {
                        at: i + 1,
                        found: token.to_string(),
                    })
                }
            })
            .collect()
    } else {
        moves
            .chars()
            .enumerate()
            .map(|(i, ch)| match ch.to_digit(10) {
                Some(d) => Ok(d),
                None => Err(NotationError::BadCharacter {
                    at: i + 1,
                    found: ch.to_string(),
                }),
            })
            .collect()
    }
}

/// Plays a move string from the empty board of `rules`.
///
/// # Errors
/// [`NotationError`] naming the first move that is malformed or illegal (column 0 or past the
/// width, a full column, or a move after the game ended).
///
/// # Examples
/// ```
/// use connectk::{notation, Rules};
/// let (pos, moves) = notation::parse(Rules::standard(), "4453").unwrap();
/// assert_eq!(pos.plies(), 4);
/// assert_eq!(notation::format(Rules::standard(), &moves), "4453");
/// assert!(notation::parse(Rules::standard(), "48").is_err());
/// ```
pub fn parse(rules: Rules, moves: &str) -> Result<(Position, Vec<Column>), NotationError> {
    play_all(Position::new(rules), moves)
}

/// Plays a move string from `start`, returning the final position and the columns played.
///
/// # Errors
/// As [`parse`].
pub(crate) fn play_all(
    start: Position,
    moves: &str,
) -> Result<(Position, Vec<Column>), NotationError> {
    let mut pos = start;
    let mut columns = Vec::new();
    for (i, number) in parse_numbers(moves)?.into_iter().enumerate() {
        let at = i + 1;
        let column = Column::from_number(number).ok_or(NotationError::Illegal {
            at,
            error: MoveError::NoSuchColumn {
                column: 0,
                width: pos.rules().width(),
            },
        })?;
        pos.play(column)
            .map_err(|error| NotationError::Illegal { at, error })?;
        columns.push(column);
    }
    Ok((pos, columns))
}

/// Writes columns as a move string: digits for boards up to 9 wide, comma-separated otherwise.
///
/// A single move of column 10 or more gets a trailing comma (`10,`): without a comma, `10`
/// would be read back as the two moves `1` and `0`.
pub fn format(rules: Rules, moves: &[Column]) -> String {
    let numbers = moves.iter().map(|c| c.number().to_string());
    if rules.width() <= 9 {
        numbers.collect()
    } else {
        let mut text = numbers.collect::<Vec<_>>().join(",");
        if moves.len() == 1 && moves[0].number() >= 10 {
            text.push(',');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;

    #[test]
    fn errors_name_the_move_and_the_reason() {
        let rules = Rules::standard();
        let err = parse(rules, "44a").unwrap_err();
        assert_eq!(
            err,
            NotationError::BadCharacter {
                at: 3,
                found: "a".into()
            }
        );
        assert!(
            parse(rules, "408")
                .unwrap_err()
                .to_string()
                .starts_with("move 2: no column 0")
        );
        let err = parse(rules, "4444444").unwrap_err();
        assert!(
            err.to_string().contains("move 7: column 4 is full"),
            "{err}"
        );
        let err = parse(rules, "12121212").unwrap_err();
        assert!(
            err.to_string().contains("move 8: the game is already over"),
            "{err}"
        );
    }

    #[test]
    fn wide_boards_use_commas() {
        let rules = Rules::new(4, 12, 4, Variant::Misere).unwrap();
        let (pos, moves) = parse(rules, "10,3,3,12").unwrap();
        assert_eq!(pos.plies(), 4);
        assert_eq!(format(rules, &moves), "10,3,3,12");
        assert!(parse(rules, "10,,3").is_err());
        assert!(parse(rules, "13").is_ok());
        assert!(parse(rules, "13,1").is_err());
    }
}
