//! The state of a game after a move string, as a record.

use serde::Serialize;

use crate::engine::outcome::{Cell, Player, Reason};
use crate::engine::position::Position;

/// Where a game stands: the board, whose turn it is, and for a finished game how it ended.
///
/// Cells are given twice: as `[column, row]` pairs in connectk's own convention (column 0 at
/// the left, row 0 at the bottom), and as flat indices `row * width + column` with row 0 at
/// the top, as web game services number a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameState {
    /// `normal` or `misere`.
    pub rules: &'static str,
    /// Line length.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// `flat`, or `cylinder` (column `width` next to column 1, lines running around).
    pub topology: &'static str,
    /// The moves played, in move notation.
    pub moves: String,
    /// Discs on the board.
    pub plies: u32,
    /// `P1` or `P2`; `null` once the game is over.
    pub to_move: Option<&'static str>,
    /// `P1`, `P2` or `Draw` once the game is over; `null` before.
    pub winner: Option<&'static str>,
    /// `line` (someone completed a line of k) or `board-full`; `null` before the end.
    pub reason: Option<&'static str>,
    /// Who completed the line (under misère rules, the loser); `null` unless the reason is
    /// `line`.
    pub completed_by: Option<&'static str>,
    /// The cells of the completed line(s), as `[column, row]` from the bottom left.
    pub winning_cells: Vec<[u32; 2]>,
    /// The same cells as flat indices `row * width + column`, row 0 at the top.
    pub winning_indices: Vec<u32>,
}

impl GameState {
    /// The state of `position`, reached by `moves` (in move notation).
    pub fn of(position: &Position, moves: &str) -> GameState {
        let rules = position.rules();
        let outcome = position.outcome();
        let (by, cells): (Option<Player>, &[Cell]) = match outcome.as_ref().map(|o| &o.reason) {
            Some(Reason::Line { by, cells }) => (Some(*by), cells),
            _ => (None, &[]),
        };
        GameState {
            rules: rules.variant().name(),
            k: rules.k(),
            width: rules.width(),
            height: rules.height(),
            topology: rules.topology().name(),
            moves: moves.trim().to_string(),
            plies: position.plies(),
            to_move: outcome.is_none().then(|| label(position.to_move())),
            winner: outcome.as_ref().map(|o| o.result.label()),
            reason: outcome.as_ref().map(|o| match o.reason {
                Reason::Line { .. } => "line",
                Reason::BoardFull => "board-full",
            }),
            completed_by: by.map(label),
            winning_cells: cells.iter().map(|c| [c.column, c.row]).collect(),
            winning_indices: cells
                .iter()
                .map(|c| (rules.height() - 1 - c.row) * rules.width() + c.column)
                .collect(),
        }
    }
}

/// `P1` or `P2`.
fn label(player: Player) -> &'static str {
    match player {
        Player::P1 => "P1",
        Player::P2 => "P2",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation;
    use crate::engine::rules::{Rules, Variant};

    #[test]
    fn a_finished_game_gives_its_line_both_ways() {
        // P1 stacks four in column 1 of a 7x6 board: cells (0, 0) to (0, 3).
        let rules = Rules::new(4, 7, 6, Variant::Normal).unwrap();
        let (pos, _) = notation::parse(rules, "1212121").unwrap();
        let state = GameState::of(&pos, "1212121");
        assert_eq!(state.winner, Some("P1"));
        assert_eq!(state.reason, Some("line"));
        assert_eq!(state.completed_by, Some("P1"));
        assert_eq!(state.to_move, None);
        assert_eq!(state.winning_cells, vec![[0, 0], [0, 1], [0, 2], [0, 3]]);
        // Row 0 (the bottom) is row 5 from the top: 5 * 7 + 0 = 35, then 28, 21, 14.
        let mut flat = state.winning_indices.clone();
        flat.sort_unstable();
        assert_eq!(flat, vec![14, 21, 28, 35]);
    }

    #[test]
    fn a_game_in_progress_has_no_end_yet() {
        let rules = Rules::new(4, 7, 6, Variant::Misere).unwrap();
        let (pos, _) = notation::parse(rules, "44").unwrap();
        let state = GameState::of(&pos, "44");
        assert_eq!(
            (state.to_move, state.winner, state.reason),
            (Some("P1"), None, None)
        );
        assert!(state.winning_cells.is_empty() && state.winning_indices.is_empty());
        assert_eq!(state.rules, "misere");
        assert_eq!(state.topology, "flat");
    }

    #[test]
    fn a_line_around_a_cylinder_is_given_as_it_lies() {
        // P1 holds columns 5, 1 and 2 of a 5x1 ring: a line of three through the wall.
        let rules = Rules::new(3, 5, 1, Variant::Normal)
            .unwrap()
            .with_topology(crate::engine::rules::Topology::Cylinder);
        let (pos, _) = notation::parse(rules, "53142").unwrap();
        let state = GameState::of(&pos, "53142");
        assert_eq!(state.topology, "cylinder");
        assert_eq!(state.winner, Some("P1"));
        assert_eq!(state.winning_cells, vec![[0, 0], [1, 0], [4, 0]]);
        assert_eq!(state.winning_indices, vec![0, 1, 4]);
    }
}
