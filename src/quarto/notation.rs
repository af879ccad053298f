//! Game records: the opening handover as a piece code, then one `cell:piece` per turn (place
//! the piece you were handed on the cell, hand over the piece), a bare cell for a last turn
//! that hands over nothing. Example: `LSRF a1:DTQH b2:LTRF`.

use super::piece::{Cell, CellError, Piece, PieceError};
use super::position::{PlayError, Position, Turn};
use super::rules::Rules;

/// Why a record was refused: which turn, where it starts in the text, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("turn {turn} ({token:?} at character {at}): {reason}")]
pub struct ParseError {
    /// 1-based number of the turn.
    pub turn: usize,
    /// 1-based character position of the turn's text in the record.
    pub at: usize,
    /// The turn as written.
    pub token: String,
    /// What is wrong with it.
    pub reason: TurnError,
}

/// What is wrong with one turn of a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// The cell is not on the board.
    #[error(transparent)]
    Cell(#[from] CellError),
    /// The piece code is malformed.
    #[error(transparent)]
    Piece(#[from] PieceError),
    /// The turn is well formed but cannot be played.
    #[error(transparent)]
    Illegal(#[from] PlayError),
}

/// Reads one turn's text against the position it is played in.
fn parse_turn(token: &str, pos: &Position) -> Result<Turn, TurnError> {
    let rules = pos.rules();
    let (cell, piece) = match token.split_once(':') {
        Some((cell, piece)) => (Some(cell), Some(piece)),
        None if pos.hand().is_none() && !pos.is_over() => (None, Some(token)),
        None => (Some(token), None),
    };
    Ok(Turn {
        place: cell.map(|c| Cell::parse(c, rules)).transpose()?,
        give: piece.map(|p| Piece::parse(p, rules)).transpose()?,
    })
}

/// Reads one turn's text against `pos` and plays it, for a game entered one turn at a time.
///
/// # Errors
/// [`TurnError`] for a turn that is malformed or cannot be played in `pos`.
pub fn play_turn(pos: &Position, text: &str) -> Result<(Turn, Position), TurnError> {
    let turn = parse_turn(text, pos)?;
    let next = pos.play(turn)?;
    Ok((turn, next))
}

/// Plays a record from the empty board. Turns are separated by spaces or commas.
///
/// # Errors
/// [`ParseError`] naming the first turn that is malformed or illegal.
///
/// # Examples
/// ```
/// use connectk::quarto::{Rules, notation};
/// let rules = Rules::standard();
/// let (pos, turns) = notation::parse(rules, "LSRF a1:DTQH").unwrap();
/// assert_eq!((turns.len(), pos.plies()), (2, 2));
/// let err = notation::parse(rules, "LSRF a1:LSRF").unwrap_err();
/// assert_eq!(err.turn, 2);
/// ```
pub fn parse(rules: Rules, record: &str) -> Result<(Position, Vec<Turn>), ParseError> {
    let mut pos = Position::new(rules);
    let mut turns = Vec::new();
    for (at, token) in tokens(record) {
        let error = |reason| ParseError {
            turn: turns.len() + 1,
            at,
            token: token.to_string(),
            reason,
        };
        let turn = parse_turn(token, &pos).map_err(error)?;
        pos = pos.play(turn).map_err(|e| error(e.into()))?;
        turns.push(turn);
    }
    Ok((pos, turns))
}

/// The turns of a record with the 1-based character position of each.
fn tokens(record: &str) -> impl Iterator<Item = (usize, &str)> {
    let separator = |c: char| c.is_whitespace() || c == ',';
    record
        .char_indices()
        .filter(move |&(i, c)| {
            !separator(c) && record[..i].chars().next_back().is_none_or(separator)
        })
        .map(move |(i, _)| {
            let rest = &record[i..];
            let end = rest.find(separator).unwrap_or(rest.len());
            (record[..i].chars().count() + 1, &rest[..end])
        })
}

/// One turn as a record writes it: `a1:DTQH`, `DTQH` for the opening, `a1` for a last turn.
pub fn format_turn(rules: &Rules, turn: Turn) -> String {
    match (turn.place, turn.give) {
        (Some(cell), Some(piece)) => format!("{}:{}", cell.name(rules), piece.code(rules)),
        (Some(cell), None) => cell.name(rules),
        (None, Some(piece)) => piece.code(rules),
        (None, None) => String::new(),
    }
}

/// A record of turns, separated by spaces.
pub fn format(rules: &Rules, turns: &[Turn]) -> String {
    turns
        .iter()
        .map(|&t| format_turn(rules, t))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn records_round_trip_and_errors_name_turn_and_character() {
        let rules = Rules::standard();
        let record = "LSRF a1:DTQH, b2:LTRF  c3:0001";
        let (pos, turns) = parse(rules, record).unwrap();
        assert_eq!(pos.plies(), 4);
        assert_eq!(format(&rules, &turns), "LSRF a1:DTQH b2:LTRF c3:LSRH");
        let err = parse(rules, "LSRF a1:DTQH  a1:LTRF").unwrap_err();
        assert_eq!((err.turn, err.at), (3, 15));
        assert_eq!(
            err.to_string(),
            "turn 3 (\"a1:LTRF\" at character 15): cell a1 is taken: choose an empty cell"
        );
        let err = parse(rules, "LSRF e1:DTQH").unwrap_err();
        assert!(matches!(err.reason, TurnError::Cell(_)), "{err}");
        let err = parse(rules, "LSRF a1:DTXH").unwrap_err().to_string();
        assert!(
            err.contains("piece letter 3") && err.contains("R or Q"),
            "{err}"
        );
        let err = parse(rules, "LSRF a1").unwrap_err();
        assert_eq!(err.reason, TurnError::Illegal(PlayError::MustGive));
        let err = parse(rules, "a1:LSRF").unwrap_err();
        assert_eq!(err.reason, TurnError::Illegal(PlayError::NothingToPlace));
    }

    #[test]
    fn a_game_on_a_small_board_ends_when_the_pieces_run_out() {
        // 3x3 with two attributes: four pieces, no line of three can share an attribute
        // here, and the game is a draw after the fourth piece.
        let rules = Rules::new(3, 2, None, Variant::Normal, false).unwrap();
        let (pos, _) = parse(rules, "LS a1:DT b3:LT c2:DS a2").unwrap();
        assert_eq!(
            pos.outcome().unwrap().describe(&rules),
            "draw: every piece is placed"
        );
    }
}
