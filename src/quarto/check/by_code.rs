//! Version 2 strategies: one entry per canonical code, written as the code's representative
//! position with the turn in its frame; a position met in the replay finds its entry through
//! its own code and plays the stored turn mapped back.

use std::collections::HashMap;

use super::super::notation;
use super::super::piece::{Cell, Piece, bits_of};
use super::super::position::{Position, Turn};
use super::super::rules::Rules;
use super::Entries;
use super::canonical::{Canonizer, Layout};
use super::plain::position_text;
use super::replay::{Fault, Lookup};

/// A turn in the canonical frame: the cell placed on and the counted attributes of the piece
/// handed over, with the entry's line for reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CanonicalTurn {
    place: Option<u8>,
    give: Option<u8>,
    line: usize,
}

/// A version 2 or 3 strategy: canonical code -> the turn in the canonical frame (kept small,
/// since a certificate may hold tens of millions of entries).
pub struct CanonicalTurns<'a> {
    canon: &'a Canonizer,
    rules: Rules,
    turns: HashMap<u128, CanonicalTurn>,
}

impl<'a> CanonicalTurns<'a> {
    /// A strategy with no entries yet, read with `canon` under `rules`.
    pub fn new(canon: &'a Canonizer, rules: &Rules) -> Self {
        CanonicalTurns {
            canon,
            rules: *rules,
            turns: HashMap::new(),
        }
    }

    /// A turn as the certificate writes it, for reports.
    fn text(&self, turn: &CanonicalTurn) -> String {
        let turn = Turn {
            place: turn.place.map(|c| Cell::from_index(u32::from(c))),
            give: turn
                .give
                .map(|values| Piece::from_bits(self.canon.piece_bits(values))),
        };
        notation::format_turn(&self.rules, turn)
    }

    /// A piece of `pos` not yet placed nor in hand with counted attributes `values`. Which
    /// one among such pieces does not matter: they differ only in attributes that never
    /// count, so swapping them is a symmetry of the game.
    fn remaining_piece(&self, pos: &Position, values: u8) -> Option<Piece> {
        bits_of(pos.remaining())
            .map(|p| p as u8)
            .find(|&p| self.canon.values(p) == values)
            .and_then(|p| Piece::new(p, &self.rules))
    }
}

impl Entries for CanonicalTurns<'_> {
    /// `position` must be written as the representative of its own code.
    fn insert(&mut self, position: &str, turn: &str, line: usize) -> Result<(), String> {
        let (canon, rules) = (self.canon, &self.rules);
        let layout = parse_layout(canon, rules, position)?;
        let (code, _) = canon.canonical_layout(&layout);
        let written = layout_text(canon, rules, &canon.representative(code));
        if written != position {
            return Err(format!(
                "position {position} is not in canonical form ({written})"
            ));
        }
        let turn = parse_turn(canon, rules, &layout, turn, line)?;
        match self.turns.insert(code.value(), turn) {
            Some(_) => Err("a second entry for the same position".into()),
            None => Ok(()),
        }
    }
}

impl Lookup for CanonicalTurns<'_> {
    fn key(&self, pos: &Position) -> u128 {
        self.canon.canonical(pos).0.value()
    }

    fn turn(&self, pos: &Position) -> Result<(Turn, Position), Fault> {
        let (code, frame) = self.canon.canonical(pos);
        let Some(entry) = self.turns.get(&code.value()) else {
            let canonical = layout_text(self.canon, &self.rules, &self.canon.representative(code));
            return Err(Fault {
                line: 0,
                reason: format!(
                    "strategy has no turn for position {} (canonical form {canonical})",
                    position_text(pos)
                ),
            });
        };
        let fault = |reason: String| Fault {
            line: entry.line,
            reason: format!("turn {}: {reason}", self.text(entry)),
        };
        let give = match entry.give {
            None => None,
            Some(values) => {
                let values = frame.values_from_canonical(values);
                let piece = self.remaining_piece(pos, values);
                Some(piece.ok_or_else(|| fault("no piece of that kind is left".into()))?)
            }
        };
        let place = entry
            .place
            .map(|c| Cell::from_index(frame.cell_from_canonical(u32::from(c))));
        let turn = Turn { place, give };
        let next = pos.play(turn).map_err(|e| fault(e.to_string()))?;
        Ok((turn, next))
    }
}

/// A layout as version 2 writes it: one character per cell (`.` or the number of the piece
/// whose counted attributes are the cell's and whose others are 0, in hexadecimal) and the
/// piece in hand as a code (`-` for none).
pub fn layout_text(canon: &Canonizer, rules: &Rules, layout: &Layout) -> String {
    let cells: String = (0..rules.cells())
        .map(|i| match layout.occupied >> i & 1 {
            1 => piece_char(canon.piece_bits(layout.values[i as usize])),
            _ => '.',
        })
        .collect();
    let hand = layout.hand.map_or("-".to_string(), |v| {
        Piece::from_bits(canon.piece_bits(v)).code(rules)
    });
    format!("{cells} {hand}")
}

/// A piece number as one hexadecimal digit.
fn piece_char(bits: u8) -> char {
    char::from_digit(u32::from(bits), 16).unwrap_or('?')
}

/// Reads a layout written by [`layout_text`].
fn parse_layout(canon: &Canonizer, rules: &Rules, text: &str) -> Result<Layout, String> {
    let (cells, hand) = text.split_once(' ').unwrap_or((text, ""));
    if cells.chars().count() != rules.cells() as usize {
        return Err(format!("{cells:?} does not have {} cells", rules.cells()));
    }
    let mut layout = Layout {
        occupied: 0,
        values: [0; 16],
        hand: None,
    };
    for (i, c) in cells.chars().enumerate() {
        if c == '.' {
            continue;
        }
        let bits = c
            .to_digit(16)
            .filter(|&b| b < rules.pieces())
            .ok_or_else(|| format!("{c:?} is not a piece"))?;
        layout.occupied |= 1 << i;
        layout.values[i] = canon.values(bits as u8);
    }
    if hand != "-" {
        let piece = Piece::parse(hand, rules).map_err(|e| e.to_string())?;
        layout.hand = Some(canon.values(piece.bits()));
    }
    Ok(layout)
}

/// Reads a turn in the canonical frame of `layout`: `cell:piece`, a bare piece for the
/// opening handover, a bare cell for a last placement.
fn parse_turn(
    canon: &Canonizer,
    rules: &Rules,
    layout: &Layout,
    text: &str,
    line: usize,
) -> Result<CanonicalTurn, String> {
    let (cell, piece) = match text.split_once(':') {
        Some((cell, piece)) => (Some(cell), Some(piece)),
        None if layout.hand.is_none() => (None, Some(text)),
        None => (Some(text), None),
    };
    let place = cell
        .map(|c| Cell::parse(c, rules).map(|c| c.index() as u8))
        .transpose()
        .map_err(|e| e.to_string())?;
    let give = piece
        .map(|p| Piece::parse(p, rules).map(|p| canon.values(p.bits())))
        .transpose()
        .map_err(|e| e.to_string())?;
    Ok(CanonicalTurn { place, give, line })
}
