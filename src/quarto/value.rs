//! Values of Quarto positions in words: the game length counted in turns, the opening
//! handover included.

use crate::{GameResult, Value};

/// A value in words: `P2 wins in 7 turns`, `draw (17 turns)`, `P1 wins` (outcome only).
pub fn value_text(value: Value) -> String {
    let count = |r: u32| format!("{r} turn{}", if r == 1 { "" } else { "s" });
    match (value.result, value.remoteness) {
        (GameResult::Win(p), Some(r)) => format!("{p} wins in {}", count(r)),
        (GameResult::Win(p), None) => format!("{p} wins"),
        (GameResult::Draw, Some(r)) => format!("draw ({})", count(r)),
        (GameResult::Draw, None) => "draw".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Player;

    #[test]
    fn values_count_turns() {
        let win = Value {
            result: GameResult::Win(Player::P2),
            remoteness: Some(1),
        };
        assert_eq!(value_text(win), "P2 wins in 1 turn");
        let draw = Value {
            result: GameResult::Draw,
            remoteness: Some(17),
        };
        assert_eq!(value_text(draw), "draw (17 turns)");
    }
}
