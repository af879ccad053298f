//! Version 1 strategies: one entry per position as it stands on the board, found by its
//! text, with no symmetry.

use std::collections::HashMap;

use super::super::notation;
use super::super::piece::Cell;
use super::super::position::{Position, Turn};
use super::Entries;
use super::replay::{Fault, Lookup};

/// A version 1 strategy: position text (cells and hand) -> (turn text, line).
#[derive(Default)]
pub struct PlainTurns {
    turns: HashMap<String, (String, usize)>,
}

impl Entries for PlainTurns {
    fn insert(&mut self, position: &str, turn: &str, line: usize) -> Result<(), String> {
        match self
            .turns
            .insert(position.to_string(), (turn.to_string(), line))
        {
            Some(_) => Err("a second entry for the same position".into()),
            None => Ok(()),
        }
    }
}

impl Lookup for PlainTurns {
    fn key(&self, pos: &Position) -> u128 {
        exact_key(pos)
    }

    fn turn(&self, pos: &Position) -> Result<(Turn, Position), Fault> {
        let text = position_text(pos);
        let Some((turn, line)) = self.turns.get(&text) else {
            return Err(Fault {
                line: 0,
                reason: format!("strategy has no turn for position {text}"),
            });
        };
        notation::play_turn(pos, turn).map_err(|e| Fault {
            line: *line,
            reason: format!("turn {turn}: {e}"),
        })
    }
}

/// A number naming a position exactly: the piece on each cell (four bits, plus one for
/// occupied) and the piece in hand (four bits, plus one for present).
pub fn exact_key(pos: &Position) -> u128 {
    let board = pos.board();
    let cells = (0..pos.rules().cells()).fold(0u128, |key, i| {
        let piece = board.piece_at(Cell::from_index(i));
        key | piece.map_or(0, |p| u128::from(p.bits() | 16)) << (5 * i)
    });
    cells << 5 | pos.hand().map_or(0, |p| u128::from(p.bits() | 16))
}

/// A position as version 1 certificates name it: one character per cell in index order (`.`
/// or the piece's number in hexadecimal) and the piece in hand as a code (`-` for none).
pub fn position_text(pos: &Position) -> String {
    let rules = pos.rules();
    let cells: String = (0..rules.cells())
        .map(|i| {
            pos.board()
                .piece_at(Cell::from_index(i))
                .and_then(|p| char::from_digit(u32::from(p.bits()), 16))
                .unwrap_or('.')
        })
        .collect();
    let hand = pos.hand().map_or("-".to_string(), |p| p.code(rules));
    format!("{cells} {hand}")
}
