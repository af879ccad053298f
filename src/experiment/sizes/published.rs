//! Published results of normal Connect Four (k = 4) by board size: who wins and on which move
//! the game ends under perfect play.
//!
//! John Tromp solved every board with width + height <= 15 (2006) and Christophe Steininger
//! extended the table to width + height = 16; the values below are the two tables of the
//! readme of Steininger's solver `c4` (github.com/ChristopheSteininger/c4, "Outcome" and
//! "Last Move"), widths 4 to 12 across, heights 4 to 13 down. "Last move" is the ply on which
//! the game ends, which is the remoteness of the empty board (a draw ends on the last cell).

use serde::{Deserialize, Serialize};

use crate::engine::outcome::{GameResult, Player};

/// Where the published values come from, for reports.
pub(crate) const SOURCE: &str = "J. Tromp (width + height <= 15) and C. Steininger (= 16), as tabled in the readme of Steininger's c4 solver";

/// Rows of the published outcome table, height 4 first; each row starts at width 4. `1`: the
/// first player wins, `2`: the second, `D`: draw.
const OUTCOMES: [&str; 10] = [
    "DD2D22222", // height 4: widths 4..=12
    "DDDD1111",  // height 5: widths 4..=11
    "DD21221",   // height 6: widths 4..=10
    "DD1D11",    // height 7: widths 4..=9
    "DD212",     // height 8: widths 4..=8
    "DD1D1",     // height 9: widths 4..=8
    "DD21",      // height 10: widths 4..=7
    "DD1",       // height 11: widths 4..=6
    "DD2",       // height 12: widths 4..=6
    "DD",        // height 13: widths 4..=5
];

/// Rows of the published last-move table, laid out as [`OUTCOMES`] (height 9 lacks width 8,
/// whose outcome alone is given).
const LAST_MOVES: [&[u32]; 10] = [
    &[16, 20, 24, 28, 32, 36, 40, 44, 48],
    &[20, 25, 30, 35, 39, 41, 47, 51],
    &[24, 30, 36, 41, 48, 52, 59],
    &[28, 35, 41, 49, 53, 55],
    &[32, 40, 48, 55, 62],
    &[36, 45, 53, 63],
    &[40, 50, 60, 69],
    &[44, 55, 63],
    &[48, 60, 72],
    &[52, 65],
];

/// A published value: the outcome and, where the table gives it, the ply on which the game
/// ends. Written `P1 41`, or the outcome alone (`P1`), in CSV files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Published {
    /// Who wins with perfect play, or a draw.
    pub result: GameResult,
    /// The ply on which the game ends, where given.
    pub last: Option<u32>,
}

impl std::fmt::Display for Published {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.result.label())?;
        match self.last {
            Some(last) => write!(f, " {last}"),
            None => Ok(()),
        }
    }
}

impl From<Published> for String {
    fn from(published: Published) -> String {
        published.to_string()
    }
}

/// Text that is not a published value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a published value: expected P1, P2 or Draw, then the last ply or nothing, as P1 41")]
pub struct NotPublished;

impl TryFrom<String> for Published {
    type Error = NotPublished;

    fn try_from(text: String) -> Result<Published, NotPublished> {
        let (outcome, last) = match text.split_once(' ') {
            Some((outcome, last)) => (outcome, Some(last.parse().map_err(|_| NotPublished)?)),
            None => (text.as_str(), None),
        };
        let result = GameResult::from_label(outcome).ok_or(NotPublished)?;
        Ok(Published { result, last })
    }
}

/// The published value of normal Connect Four on a `width` x `height` board; `None` where the
/// tables give nothing.
pub(crate) fn normal_connect_four(width: u32, height: u32) -> Option<Published> {
    let row = height.checked_sub(4)? as usize;
    let column = width.checked_sub(4)? as usize;
    let outcome = match OUTCOMES.get(row)?.as_bytes().get(column)? {
        b'1' => GameResult::Win(Player::P1),
        b'2' => GameResult::Win(Player::P2),
        _ => GameResult::Draw,
    };
    Some(Published {
        result: outcome,
        last: LAST_MOVES[row].get(column).copied(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_have_the_same_shape() {
        for (height, (outcomes, moves)) in (4..).zip(OUTCOMES.iter().zip(LAST_MOVES)) {
            let missing = if height == 9 { 1 } else { 0 };
            assert_eq!(outcomes.len(), moves.len() + missing, "height {height}");
        }
    }

    #[test]
    fn values_fit_their_boards() {
        for height in 4..=13 {
            for width in 4..=12 {
                let Some(Published {
                    result: outcome,
                    last: Some(last),
                }) = normal_connect_four(width, height)
                else {
                    continue;
                };
                let cells = width * height;
                assert!(last <= cells, "{width}x{height}");
                match outcome {
                    GameResult::Draw => assert_eq!(last, cells, "{width}x{height}"),
                    // Under normal rules the winner makes the last move.
                    GameResult::Win(Player::P1) => assert_eq!(last % 2, 1, "{width}x{height}"),
                    GameResult::Win(Player::P2) => assert_eq!(last % 2, 0, "{width}x{height}"),
                }
            }
        }
        // Standard Connect Four: a first-player win on the 41st move (Allis, Allen).
        let standard = normal_connect_four(7, 6).unwrap();
        assert_eq!(standard.to_string(), "P1 41");
        assert_eq!(Published::try_from("P1 41".to_string()), Ok(standard));
        let outcome_only = normal_connect_four(8, 9).unwrap();
        assert_eq!(outcome_only.to_string(), "P1");
        assert_eq!(Published::try_from("P1".to_string()), Ok(outcome_only));
        for bad in ["", "P3 41", "P1 x", "P1 41 2", "P1  41"] {
            assert!(Published::try_from(bad.to_string()).is_err(), "{bad:?}");
        }
        assert_eq!(normal_connect_four(13, 4), None);
        assert_eq!(normal_connect_four(3, 6), None);
    }
}
