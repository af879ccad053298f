//! Appendix A's canonical-board play (Lemmas 3 and 4, Theorem 5 of Steele & Larremore): on a
//! one-row board, never make three in a row, even against an opponent whose lines do not count.

use std::fmt;

use crate::engine::outcome::Player;
use crate::engine::position::Column;
use crate::engine::rules::{Rules, Variant};

use super::{Game, Strategy, StrategyError, StrategyName, bottom_row};

/// This strategy's name.
const NAME: StrategyName = StrategyName::Canonical;

/// The five canonical boards of Table III, told apart by how many of the strategy player's
/// discs (X) touch the filler at each end of the stretch of empty cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// No X at either end.
    A,
    /// One X at one end.
    B,
    /// One X at each end.
    C,
    /// Two Xs at one end.
    D,
    /// Two Xs at one end and one at the other.
    E,
}

/// One canonical board: a stretch of empty cells of the row, bounded on each side by filler
/// (the opponent's discs, full stretches and the walls), with X's discs next to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CanonicalBoard {
    /// Its type.
    pub kind: Kind,
    /// Its number of empty cells (the subscript in the paper).
    pub empty: usize,
    /// The leftmost empty cell (0-based column).
    first: usize,
    /// Xs next to the filler on the left.
    left: usize,
}

impl CanonicalBoard {
    /// The leftmost empty cell (0-based column).
    pub(crate) fn first(&self) -> usize {
        self.first
    }

    /// The rightmost empty cell (0-based column).
    pub(crate) fn last(&self) -> usize {
        self.first + self.empty - 1
    }

    /// X's prescribed cell in this board (Table III): A -> B at an end, B -> C at the end away
    /// from the X, C -> E beside an X, D -> E at the end away from the two Xs; none for E.
    fn prescribed(&self) -> Option<usize> {
        match self.kind {
            Kind::A | Kind::C => Some(self.first),
            Kind::B | Kind::D if self.left > 0 => Some(self.last()),
            Kind::B | Kind::D => Some(self.first),
            Kind::E => None,
        }
    }
}

impl fmt::Display for CanonicalBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}{}", self.kind, self.empty)
    }
}

/// The canonical boards of `row` as seen by `me` (X), left to right.
///
/// # Errors
/// A description of the first stretch that is no canonical board: X's discs between empty
/// cells, or more Xs at its ends than boards A to E allow.
pub(crate) fn boards(row: &[Option<Player>], me: Player) -> Result<Vec<CanonicalBoard>, String> {
    let mut out = Vec::new();
    // Stretches between the opponent's discs (and the walls); full ones are filler.
    let mut start = 0;
    for end in (0..=row.len()).filter(|&c| c == row.len() || row[c] == Some(me.other())) {
        let stretch = &row[start..end];
        let offset = start;
        start = end + 1;
        if stretch.iter().all(Option::is_some) {
            continue;
        }
        let left = stretch.iter().take_while(|c| c.is_some()).count();
        let right = stretch.iter().rev().take_while(|c| c.is_some()).count();
        let middle = &stretch[left..stretch.len() - right];
        if middle.iter().any(Option::is_some) {
            return Err(format!(
                "columns {}-{} hold X's discs between empty cells",
                offset + 1,
                offset + stretch.len()
            ));
        }
        let kind = match (left.max(right), left.min(right)) {
            (0, 0) => Kind::A,
            (1, 0) => Kind::B,
            (1, 1) => Kind::C,
            (2, 0) => Kind::D,
            (2, 1) => Kind::E,
            _ => {
                return Err(format!(
                    "columns {}-{} have {left} and {right} X discs at their ends",
                    offset + 1,
                    offset + stretch.len()
                ));
            }
        };
        out.push(CanonicalBoard {
            kind,
            empty: middle.len(),
            first: offset + left,
            left,
        });
    }
    Ok(out)
}

/// The priority tiers of X's boards, as (type, odd number of empty cells) pairs: Lemma 3 when X
/// faces an odd number of empty cells, Lemma 4 when the number is even.
fn tiers(total_odd: bool) -> &'static [&'static [(Kind, bool)]] {
    if total_odd {
        &[&[(Kind::A, true), (Kind::B, true)]]
    } else {
        &[
            &[(Kind::D, false)],
            &[(Kind::A, false), (Kind::A, true), (Kind::B, true)],
            &[(Kind::B, false), (Kind::C, false)],
        ]
    }
}

/// The canonical-board play for `me` on the one-row board `row`: in the highest-priority tier
/// that has a board, the leftmost such board, and in it the cell Table III prescribes.
///
/// # Errors
/// Why there is no move: a stretch that is no canonical board, or no board in any tier.
///
/// # Examples
/// ```
/// use connectk::Player::{P1, P2};
/// use connectk::strategy::canonical_move;
/// // X faces F--XXF, a D2, and F--F, an A2: the D2 comes first (Lemma 4), played away from XX.
/// let row = [None, None, Some(P1), Some(P1), Some(P2), None, None];
/// assert_eq!(canonical_move(&row, P1), Ok(0));
/// ```
pub fn canonical_move(row: &[Option<Player>], me: Player) -> Result<usize, String> {
    canonical_choice(row, me).map(|(_, cell)| cell)
}

/// The board the canonical-board play for `me` picks on `row`, and its cell in it (see
/// [`canonical_move`]).
///
/// # Errors
/// As [`canonical_move`].
pub(crate) fn canonical_choice(
    row: &[Option<Player>],
    me: Player,
) -> Result<(CanonicalBoard, usize), String> {
    let boards = boards(row, me)?;
    let total: usize = boards.iter().map(|b| b.empty).sum();
    tiers(total % 2 == 1)
        .iter()
        .find_map(|tier| {
            boards
                .iter()
                .find(|b| tier.contains(&(b.kind, b.empty % 2 == 1)))
        })
        .and_then(|board| board.prescribed().map(|cell| (*board, cell)))
        .ok_or_else(|| {
            let seen: Vec<String> = boards.iter().map(CanonicalBoard::to_string).collect();
            format!("no board of the priority order among {}", seen.join(" "))
        })
}

/// Appendix A's canonical-board play on one-row boards with k >= 3, for either player.
///
/// It never completes three in a row, whatever the opponent does, even when the opponent's
/// own lines do not end the game: P1 by Lemma 3 (odd widths) and Lemma 4 (even widths), P2 by
/// the same lemmas after P1's opening (Theorem 5). So it never loses for any k >= 3.
#[derive(Clone, Copy, Debug)]
pub struct Canonical;

impl Canonical {
    /// The canonical-board play for `player` under `rules`.
    ///
    /// # Errors
    /// [`StrategyError::NotApplicable`] unless the rules are misère with height 1 and k >= 3.
    pub fn new(rules: Rules, player: Player) -> Result<Canonical, StrategyError> {
        StrategyError::require(
            NAME.as_str(),
            rules,
            player,
            &[
                (
                    rules.variant() == Variant::Misere,
                    "it is a misère strategy",
                ),
                (rules.height() == 1, "the board must have height 1"),
                (rules.k() >= 3, "k must be at least 3"),
            ],
        )?;
        Ok(Canonical)
    }
}

impl Strategy for Canonical {
    fn name(&self) -> &'static str {
        NAME.as_str()
    }

    fn choose(&mut self, game: Game<'_>) -> Result<Column, StrategyError> {
        let row = bottom_row(game.position);
        canonical_move(&row, game.position.to_move())
            .map(|c| Column::new(c as u32))
            .map_err(|reason| StrategyError::OutsideProof {
                strategy: NAME.as_str(),
                reason,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::outcome::Player::{P1, P2};

    /// `X` (the strategy player, P1), `O` and `-` as in the paper's diagrams.
    fn row(text: &str) -> Vec<Option<Player>> {
        text.chars()
            .map(|ch| match ch {
                'X' => Some(P1),
                'O' => Some(P2),
                _ => None,
            })
            .collect()
    }

    fn kinds(text: &str) -> Vec<String> {
        boards(&row(text), P1)
            .unwrap()
            .iter()
            .map(CanonicalBoard::to_string)
            .collect()
    }

    #[test]
    fn the_papers_boards() {
        // X-O---XO-- splits into X-, ---X and -- (Appendix A).
        assert_eq!(kinds("X-O---XO--"), ["B1", "B3", "A2"]);
        assert_eq!(kinds("OXX-XO"), ["E1"]);
        assert_eq!(kinds("X---X"), ["C3"]);
        assert_eq!(kinds("--XX"), ["D2"]);
        assert_eq!(kinds("OXXOXO"), Vec::<String>::new());
        assert!(boards(&row("-X-"), P1).is_err());
        assert!(boards(&row("XX-XX"), P1).is_err());
    }

    #[test]
    fn prescribed_plays() {
        // A -> B, B -> C away from the X, D -> E away from the Xs (odd totals: A or B odd).
        assert_eq!(canonical_move(&row("---"), P1), Ok(0));
        assert_eq!(canonical_move(&row("X---"), P1), Ok(3));
        assert_eq!(canonical_move(&row("---XO--"), P1), Ok(0));
        // Even total: D even first, then A, A odd or B odd, then B even or C even.
        assert_eq!(canonical_move(&row("XX--O--"), P1), Ok(3));
        assert_eq!(canonical_move(&row("X--O--"), P1), Ok(4));
        assert_eq!(canonical_move(&row("X--OX--X"), P1), Ok(2));
    }
}
