//! The k = 2 tally play (Lemmas 1 and 2, Theorem 4 of Steele & Larremore): P2's one-row
//! strategy, steered by the count of in-template moves each player has left.

use crate::engine::outcome::Player;
use crate::engine::position::Column;
use crate::engine::rules::{Rules, Variant};

use super::{Game, Strategy, StrategyError, StrategyName, bottom_row};

/// This strategy's name.
const NAME: StrategyName = StrategyName::Tally;

/// How many non-losing in-template moves each player has left on a one-row k = 2 board (the
/// paper's tally, written `(X, O)` there).
///
/// Every maximal stretch of empty cells is counted from its two ends. A stretch between a wall
/// and a disc follows that disc's template (alternate discs outward from it). A stretch between
/// two discs follows the template of either one; when the two templates disagree (a
/// contradiction) the cell where they meet can be filled by neither player, so one fewer cell
/// is counted. The count does not depend on which template is used to tabulate it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// In-template moves left for P1 (X).
    pub p1: u32,
    /// In-template moves left for P2 (O).
    pub p2: u32,
}

impl Tally {
    /// The tally of `row` (each cell empty or held by a player), or `None` for an empty row,
    /// which has no template yet.
    ///
    /// # Examples
    /// ```
    /// use connectk::Player::{P1, P2};
    /// use connectk::strategy::Tally;
    /// // The paper's examples: -XO-- counts (1, 2) and X---O counts (1, 1).
    /// assert_eq!(Tally::of(&[None, Some(P1), Some(P2), None, None]), Some(Tally { p1: 1, p2: 2 }));
    /// assert_eq!(Tally::of(&[Some(P1), None, None, None, Some(P2)]), Some(Tally { p1: 1, p2: 1 }));
    /// ```
    pub fn of(row: &[Option<Player>]) -> Option<Tally> {
        let mut tally = Tally { p1: 0, p2: 0 };
        for gap in gaps(row) {
            let (first, second) = gap.counts()?;
            tally.p1 += first;
            tally.p2 += second;
        }
        Some(tally)
    }

    /// The moves left for `player`.
    pub(crate) fn of_player(self, player: Player) -> u32 {
        match player {
            Player::P1 => self.p1,
            Player::P2 => self.p2,
        }
    }
}

/// The canonical plays of Table II, named by their effect on the tally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Play {
    /// Agrees with an existing template: the mover's tally drops by one.
    InTemplate,
    /// Contradicts a template walled in on both sides: the mover loses two, the opponent one.
    DoubleContradiction,
    /// Contradicts a wall-side template where the opponent owns the wall cell: both lose one.
    Offensive,
    /// Contradicts a wall-side template where the mover owns the wall cell: the mover loses two.
    SelfImmolation,
}

/// The play `player` makes by taking the empty `cell` of `row`, or `None` when the move
/// completes a line (k = 2: a neighbour is the mover's), the row is empty, or the change in
/// the tally is none of Table II's.
pub(crate) fn classify(row: &[Option<Player>], cell: usize, player: Player) -> Option<Play> {
    if !is_safe(row, cell, player) {
        return None;
    }
    let before = Tally::of(row)?;
    let mut after_row = row.to_vec();
    after_row[cell] = Some(player);
    let after = Tally::of(&after_row)?;
    let change = |p: Player| i64::from(after.of_player(p)) - i64::from(before.of_player(p));
    match (change(player), change(player.other())) {
        (-1, 0) => Some(Play::InTemplate),
        (-2, -1) => Some(Play::DoubleContradiction),
        (-1, -1) => Some(Play::Offensive),
        (-2, 0) => Some(Play::SelfImmolation),
        _ => None,
    }
}

/// Whether the templates of `row` contradict each other somewhere, so that the row can no
/// longer end in the alternating pattern of a draw and the game must have a loser.
pub(crate) fn has_contradiction(row: &[Option<Player>]) -> bool {
    gaps(row).any(|gap| gap.contradicts())
}

/// The tally play's move for `player` on the one-row k = 2 board `row` (which must hold at
/// least one disc), or `None` when none of its plays is available.
///
/// In order of preference, following the prescriptions of Lemmas 1 and 2 and of the w = 4, 6
/// discussion before Theorem 4:
/// 1. an offensive play, against a wall when possible (the "exclusive offensive play": after
///    the opening it is O's reply to an opening that leaves a wall templated for X);
/// 2. a double contradiction, when in-template play alone cannot win by tally (the row has
///    no contradiction yet and the player's tally is at most one above the opponent's), the
///    opponent is then not ahead by tally and has no offensive reply (Lemma 2's second move
///    after a wall opening, and the w = 6 line before Theorem 4);
/// 3. an in-template play, preferring one that leaves the opponent no offensive play, then a
///    wall cell (Lemma 1: taking the wall removes the offensive play on that side), then the
///    leftmost.
pub fn tally_move(row: &[Option<Player>], player: Player) -> Option<usize> {
    let opponent = player.other();
    let plays: Vec<(usize, Play)> = (0..row.len())
        .filter(|&c| row[c].is_none())
        .filter_map(|c| classify(row, c, player).map(|play| (c, play)))
        .collect();
    let is_wall = |c: usize| c == 0 || c + 1 == row.len();
    let with = |c: usize| {
        let mut next = row.to_vec();
        next[c] = Some(player);
        next
    };
    let opponent_can_attack = |next: &[Option<Player>]| {
        (0..next.len())
            .any(|c| next[c].is_none() && classify(next, c, opponent) == Some(Play::Offensive))
    };
    let of_kind = |kind: Play| plays.iter().filter(move |p| p.1 == kind).map(|p| p.0);

    if let Some(c) = of_kind(Play::Offensive).min_by_key(|&c| (!is_wall(c), c)) {
        return Some(c);
    }
    let before = Tally::of(row)?;
    // After an in-template move the opponent moves at (a, b - 1); with no contradiction on the
    // row the opponent runs out of in-template moves first only when a < b - 1.
    let template_wins = before.of_player(player) >= before.of_player(opponent) + 2;
    if !has_contradiction(row) && !template_wins {
        let winning = of_kind(Play::DoubleContradiction).find(|&c| {
            let next = with(c);
            Tally::of(&next).is_some_and(|t| t.of_player(opponent) <= t.of_player(player))
                && !opponent_can_attack(&next)
        });
        if winning.is_some() {
            return winning;
        }
    }
    of_kind(Play::InTemplate).min_by_key(|&c| (opponent_can_attack(&with(c)), !is_wall(c), c))
}

/// Whether `player` can take `cell` without completing a line of two in the row.
fn is_safe(row: &[Option<Player>], cell: usize, player: Player) -> bool {
    let left = cell.checked_sub(1).and_then(|c| row[c]);
    let right = row.get(cell + 1).copied().flatten();
    left != Some(player) && right != Some(player)
}

/// A maximal stretch of `len` empty cells with what bounds it on each side (`None`: a wall).
#[derive(Clone, Copy, Debug)]
struct Gap {
    left: Option<Player>,
    right: Option<Player>,
    len: u32,
}

impl Gap {
    /// Whether the templates of the two bounding discs disagree.
    fn contradicts(self) -> bool {
        match (self.left, self.right) {
            (Some(p), Some(q)) => (self.len % 2 == 1) != (p == q),
            _ => false,
        }
    }

    /// In-template moves left in the gap for (P1, P2), or `None` between two walls.
    fn counts(self) -> Option<(u32, u32)> {
        let n = self.len;
        // The disc whose template is followed; the cell next to it belongs to its opponent.
        let anchor = self.left.or(self.right)?;
        let (near, far) = match (self.left, self.right, self.contradicts()) {
            // Two like discs an even distance apart: the meeting cell is lost to the anchor.
            (Some(p), Some(q), true) if p == q => (n / 2, n / 2 - 1),
            // Two unlike discs an odd distance apart: each keeps (n - 1) / 2.
            (_, _, true) => ((n - 1) / 2, (n - 1) / 2),
            _ => (n.div_ceil(2), n / 2),
        };
        Some(match anchor {
            Player::P1 => (far, near),
            Player::P2 => (near, far),
        })
    }
}

/// The maximal stretches of empty cells of `row`, left to right.
fn gaps(row: &[Option<Player>]) -> impl Iterator<Item = Gap> + '_ {
    let mut c = 0;
    std::iter::from_fn(move || {
        while c < row.len() && row[c].is_some() {
            c += 1;
        }
        if c == row.len() {
            return None;
        }
        let start = c;
        while c < row.len() && row[c].is_none() {
            c += 1;
        }
        Some(Gap {
            left: start.checked_sub(1).and_then(|i| row[i]),
            right: row.get(c).copied().flatten(),
            len: (c - start) as u32,
        })
    })
}

/// P2's tally play on one-row boards with k = 2 (Theorem 4).
///
/// A P2 win on odd widths >= 3 (Lemma 1) and even widths >= 8 (Lemma 2), a draw on widths
/// 1, 2, 4 and 6, where no player can force more. See [`tally_move`] for the plays and their
/// order.
#[derive(Clone, Copy, Debug)]
pub struct TallyPlay;

impl TallyPlay {
    /// The tally play for `player` under `rules`.
    ///
    /// # Errors
    /// [`StrategyError::NotApplicable`] unless the rules are misère with k = 2 and height 1
    /// and `player` is P2.
    pub fn new(rules: Rules, player: Player) -> Result<TallyPlay, StrategyError> {
        StrategyError::require(
            NAME.as_str(),
            rules,
            player,
            &[
                (
                    rules.variant() == Variant::Misere,
                    "it is a misère strategy",
                ),
                (rules.k() == 2, "k must be 2"),
                (rules.height() == 1, "the board must have height 1"),
                (player == Player::P2, "it is played by P2"),
            ],
        )?;
        Ok(TallyPlay)
    }
}

impl Strategy for TallyPlay {
    fn name(&self) -> &'static str {
        NAME.as_str()
    }

    fn choose(&mut self, game: Game<'_>) -> Result<Column, StrategyError> {
        let row = bottom_row(game.position);
        tally_move(&row, game.position.to_move())
            .map(|c| Column::new(c as u32))
            .ok_or_else(|| StrategyError::OutsideProof {
                strategy: NAME.as_str(),
                reason: "no in-template, offensive or double-contradiction move is left".into(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::outcome::Player::{P1, P2};

    /// `X`, `O` and `-` as in the paper's diagrams.
    fn row(text: &str) -> Vec<Option<Player>> {
        text.chars()
            .map(|ch| match ch {
                'X' => Some(P1),
                'O' => Some(P2),
                _ => None,
            })
            .collect()
    }

    fn tally(text: &str) -> (u32, u32) {
        let t = Tally::of(&row(text)).unwrap();
        (t.p1, t.p2)
    }

    #[test]
    fn the_papers_tallies() {
        assert_eq!(tally("-XO--"), (1, 2));
        assert_eq!(tally("X---O"), (1, 1));
        assert_eq!(tally("X--XO"), (0, 1));
        assert_eq!(Tally::of(&row("----")), None);
    }

    #[test]
    fn the_papers_canonical_plays() {
        // Offensive: XO------ -> XO---X-- is (3, 3) -> (2, 2).
        assert_eq!(tally("XO------"), (3, 3));
        assert_eq!(classify(&row("XO------"), 5, P1), Some(Play::Offensive));
        assert_eq!(tally("XO---X--"), (2, 2));
        // Self-immolation: XO----- -> XO---X- is (3, 2) -> (1, 2).
        assert_eq!(classify(&row("XO-----"), 5, P1), Some(Play::SelfImmolation));
        assert_eq!(tally("XO---X-"), (1, 2));
        // Double contradiction: (3, 3) -> (1, 2).
        assert_eq!(tally("X------O"), (3, 3));
        assert_eq!(
            classify(&row("X------O"), 3, P1),
            Some(Play::DoubleContradiction)
        );
        assert_eq!(tally("X--X---O"), (1, 2));
        // In-template, and a move next to one's own disc is no play at all.
        assert_eq!(classify(&row("X---O"), 2, P1), Some(Play::InTemplate));
        assert_eq!(classify(&row("X---O"), 3, P1), Some(Play::InTemplate));
        assert_eq!(classify(&row("X---O"), 1, P1), None);
    }

    #[test]
    fn contradictions() {
        assert!(!has_contradiction(&row("X-XO-O")));
        assert!(has_contradiction(&row("X---O")));
        assert!(has_contradiction(&row("X--X")));
        assert!(!has_contradiction(&row("--X--")));
    }

    #[test]
    fn replies_to_the_opening_follow_lemmas_1_and_2() {
        // Lemma 1, odd width, X on an even cell: O takes a wall in template.
        assert_eq!(tally_move(&row("---X---"), P2), Some(0));
        // Lemma 1, X on an odd cell: an exclusive offensive play at a wall.
        assert_eq!(tally_move(&row("--X--"), P2), Some(0));
        // Lemma 2, X at a wall: O takes the opposite wall, then a double contradiction.
        assert_eq!(tally_move(&row("X-------"), P2), Some(7));
        let second = tally_move(&row("X-X----O"), P2).unwrap();
        assert_eq!(
            classify(&row("X-X----O"), second, P2),
            Some(Play::DoubleContradiction)
        );
        // Lemma 2, X elsewhere: the offensive play at the wall X's template owns.
        assert_eq!(tally_move(&row("-X------"), P2), Some(7));
    }
}
