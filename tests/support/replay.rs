//! Random games for property tests: a list of choices turned into legal moves.

use connectk::{Column, Position, Rules};

/// Plays the choices as legal moves (each taken modulo the number of legal columns) until they
/// run out or the game ends; returns the position and the moves played.
pub fn replay(rules: Rules, choices: &[usize]) -> (Position, Vec<Column>) {
    let mut pos = Position::new(rules);
    let mut moves = Vec::new();
    for &choice in choices {
        if pos.is_over() {
            break;
        }
        let legal = pos.legal_columns();
        let column = legal[choice % legal.len()];
        pos.play(column).unwrap();
        moves.push(column);
    }
    (pos, moves)
}
