//! Solved values: the search's integer score and the value reported to people.

use serde::Serialize;

use crate::engine::outcome::{GameResult, Player};
use crate::engine::rules::Variant;

/// A search score, from the point of view of the side to move.
///
/// Positive: the side to move wins; negative: it loses; zero: draw. For a game that ends at
/// absolute ply `q` (the `q`-th disc ends it), the magnitude is `cells + 1 - q`, so a quicker
/// win scores higher and a later loss scores higher (closer to zero). Because `q` counts from
/// the start of the game, a score means the same wherever a position is reached.
pub(crate) type Score = i32;

/// Score of a game that the side to move wins when ply `q` is played.
///
/// For `q` past the last cell the result is zero or negative, which callers use as "no such win".
#[inline]
pub(crate) fn win_at(cells: u32, q: u32) -> Score {
    cells as Score + 1 - q as Score
}

/// Score of a game that the side to move loses when ply `q` is played.
#[inline]
pub(crate) fn loss_at(cells: u32, q: u32) -> Score {
    -win_at(cells, q)
}

/// The scores a position with `empty` empty cells can have under `variant`, for snapping
/// bounds to them.
///
/// A game ends on a ply of a known parity for each outcome: under normal rules the side to
/// move wins with one of its own discs (plies 1, 3, 5, ... from now) and loses with one of
/// the opponent's (plies 2, 4, ...); under misère rules the other way round. So the positive
/// scores `win_at(cells, q)` all have one parity and the negative ones the other, and a null
/// window between two scores of a parity asks the same question as one at either end.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Achievable {
    /// `empty` for normal rules, `empty - 1` for misère: positive scores have its parity.
    win_parity: Score,
}

impl Achievable {
    /// The achievable scores of a position with `empty` empty cells under `variant`.
    pub(crate) fn new(empty: u32, variant: Variant) -> Achievable {
        let empty = empty as Score;
        Achievable {
            win_parity: match variant {
                Variant::Normal => empty,
                Variant::Misere => empty - 1,
            },
        }
    }

    /// Whether the position can have this score, if it lies within the empty cells' span.
    pub(crate) fn contains(self, score: Score) -> bool {
        match score.signum() {
            0 => true,
            1 => (score - self.win_parity) % 2 == 0,
            _ => (score - self.win_parity) % 2 != 0,
        }
    }

    /// The smallest achievable score at least `score`.
    pub(crate) fn at_least(self, score: Score) -> Score {
        if self.contains(score) {
            score
        } else {
            score + 1
        }
    }

    /// The probe nearest zero that asks the same question as `probe` ("is the score above
    /// `probe`?" has one answer for every probe up to the next achievable score above it),
    /// as the search settles windows at or next to zero far more cheaply than windows further
    /// out: only there can it use the opponent's strategy bounds (see `Search::node`). Below
    /// zero that is the last probe before the next achievable score; from zero up, `probe`.
    ///
    /// Normal 7x6, 1 thread, 64 MiB, exact, after "731334226141141" (a draw) the question "is
    /// it a loss?" cost 194,289 nodes asked at -2 and 59,657 at -1; after "731443643127377" (a
    /// loss on the last ply) 177,183 and 23,654.
    pub(crate) fn toward_zero(self, probe: Score) -> Score {
        if probe < 0 {
            self.at_least(probe + 1) - 1
        } else {
            probe
        }
    }

    /// The largest achievable score at most `score`.
    pub(crate) fn at_most(self, score: Score) -> Score {
        if self.contains(score) {
            score
        } else {
            score - 1
        }
    }
}

/// The game-theoretic value of a position under perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Value {
    /// Who wins the game with perfect play (P1 moved first in the game), or draw.
    pub result: GameResult,
    /// Plies until the game ends when the winner ends it as fast as possible and the loser
    /// delays as long as possible; for a draw, the empty cells left. `None` after a weak solve.
    pub remoteness: Option<u32>,
}

/// Where [`Value::rank_for`] puts a value whose remoteness is unknown (a weak solve's, or a
/// bound's) among the known values of its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnknownRemoteness {
    /// As the quickest game: an unknown win above every known win, an unknown loss below every
    /// known loss. The Connect-k solver's choice, whose weak values are all unknown alike.
    Quickest,
    /// As a game longer than any board allows: an unknown win below every known win, an
    /// unknown loss above every known loss. Quarto's choice, where a player facing a mix of
    /// proved and unproved values prefers the proved win and fears the proved loss.
    Slowest,
}

impl UnknownRemoteness {
    /// The remoteness an unknown one counts as: longer than any game of up to 128 cells.
    fn plies(self) -> u32 {
        match self {
            UnknownRemoteness::Quickest => 0,
            UnknownRemoteness::Slowest => 1000,
        }
    }
}

impl Value {
    /// Orders values from `player`'s point of view: higher is better. Wins rank above draws
    /// above losses; a quicker win and a slower loss rank higher; a value without remoteness
    /// ranks as `unknown` says.
    pub fn rank_for(self, player: Player, unknown: UnknownRemoteness) -> i64 {
        let far = i64::from(self.remoteness.unwrap_or(unknown.plies()));
        match self.result {
            GameResult::Win(p) if p == player => 1_000_000 - far,
            GameResult::Win(_) => -1_000_000 + far,
            GameResult::Draw => 0,
        }
    }

    /// The value of a position with `plies` discs, side to move `to_move`, from its exact score.
    pub fn from_score(score: Score, cells: u32, plies: u32, to_move: Player) -> Value {
        let result = match score.signum() {
            1 => GameResult::Win(to_move),
            -1 => GameResult::Win(to_move.other()),
            _ => GameResult::Draw,
        };
        let end_ply = if score == 0 {
            cells
        } else {
            cells + 1 - score.unsigned_abs()
        };
        Value {
            result,
            remoteness: Some(end_ply - plies),
        }
    }

    /// The value from a weak (sign-only) score: the result without remoteness.
    pub(crate) fn from_sign(score: Score, to_move: Player) -> Value {
        Value {
            remoteness: None,
            ..Value::from_score(score.signum(), 1, 0, to_move)
        }
    }
}

/// How far an unfinished exact solve got: the outcome once it is known, and the range the
/// remoteness lies in, so that a later solve can go on from there (see
/// [`crate::Solver::solve_from`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Partial {
    /// The outcome, once known.
    pub result: Option<GameResult>,
    /// The least and the greatest remoteness the value can still have, when the outcome is
    /// known (`None`: any its outcome allows).
    pub remoteness: Option<(u32, u32)>,
}

impl Partial {
    /// Nothing known yet.
    pub const UNKNOWN: Partial = Partial {
        result: None,
        remoteness: None,
    };

    /// What bounds `lower ..= upper` on the score of a position with `plies` discs of
    /// `cells`, `to_move` to move, say: the outcome once both have one sign, and the range of
    /// remoteness then.
    pub(crate) fn from_scores(
        (lower, upper): (Score, Score),
        cells: u32,
        plies: u32,
        to_move: Player,
    ) -> Partial {
        if lower.signum() != upper.signum() {
            return Partial::UNKNOWN;
        }
        let [a, b] = [lower, upper].map(|score| {
            Value::from_score(score, cells, plies, to_move)
                .remoteness
                .expect("from a score")
        });
        Partial {
            result: Some(Value::from_score(lower, cells, plies, to_move).result),
            remoteness: Some((a.min(b), a.max(b))),
        }
    }

    /// The bounds on the score of a position with `plies` discs of `cells`, `to_move` to
    /// move, that this says: the widest, `-cells ..= cells`, when nothing is known.
    pub(crate) fn scores(self, cells: u32, plies: u32, to_move: Player) -> (Score, Score) {
        let span = cells as Score;
        let Some(result) = self.result else {
            return (-span, span);
        };
        // The game ends at absolute ply `plies + remoteness`.
        let score_at = |remoteness: u32| win_at(cells, plies + remoteness);
        let (near, far) = self.remoteness.unwrap_or((1, cells - plies));
        match result {
            GameResult::Draw => (0, 0),
            GameResult::Win(p) if p == to_move => (score_at(far).max(1), score_at(near)),
            GameResult::Win(_) => (-score_at(near), (-score_at(far)).min(-1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An unknown remoteness ranks beside the known ones as its name says, and never crosses
    /// into another result.
    #[test]
    fn unknown_remoteness_ranks_quickest_or_slowest_of_its_kind() {
        let me = Player::P1;
        let value = |result, remoteness| Value { result, remoteness };
        let (win, loss) = (GameResult::Win(me), GameResult::Win(me.other()));
        let draw = value(GameResult::Draw, None).rank_for(me, UnknownRemoteness::Slowest);
        for (unknown, win_above_known) in [
            (UnknownRemoteness::Quickest, true),
            (UnknownRemoteness::Slowest, false),
        ] {
            let rank = |v: Value| v.rank_for(me, unknown);
            for far in [1, 5, 128] {
                let known_win = rank(value(win, Some(far)));
                let known_loss = rank(value(loss, Some(far)));
                assert_eq!(rank(value(win, None)) > known_win, win_above_known);
                assert_eq!(rank(value(loss, None)) < known_loss, win_above_known);
                assert!(known_loss < draw && draw < known_win);
            }
            assert!(rank(value(loss, None)) < draw && draw < rank(value(win, None)));
        }
    }

    /// Every score a game can end with, from a position with `empty` cells left, is achievable,
    /// and snapping never skips one.
    #[test]
    fn achievable_scores_are_the_ends_of_games() {
        for variant in [Variant::Normal, Variant::Misere] {
            for empty in 1..12u32 {
                let cells = 42;
                let plies = cells - empty;
                let achievable = Achievable::new(empty, variant);
                let mut ends = vec![0];
                for q in plies + 1..=cells {
                    // Normal: the mover's own discs win (q - plies odd); misère: they lose.
                    let mover_disc = (q - plies) % 2 == 1;
                    let mover_wins = mover_disc == (variant == Variant::Normal);
                    let score = win_at(cells, q);
                    ends.push(if mover_wins { score } else { -score });
                }
                for score in -(empty as Score)..=empty as Score {
                    assert_eq!(
                        achievable.contains(score),
                        ends.contains(&score),
                        "{variant:?} {empty} {score}"
                    );
                    let up = achievable.at_least(score);
                    let down = achievable.at_most(score);
                    assert!(achievable.contains(up) && achievable.contains(down));
                    assert!(!ends.iter().any(|&e| (score..up).contains(&e)));
                    assert!(!ends.iter().any(|&e| (down + 1..=score).contains(&e)));
                }
            }
        }
    }

    #[test]
    fn scores_round_trip_to_remoteness() {
        // 42 cells, 10 plies played, side to move wins with the 15th disc: 5 plies away.
        let v = Value::from_score(win_at(42, 15), 42, 10, Player::P1);
        assert_eq!(v.result, GameResult::Win(Player::P1));
        assert_eq!(v.remoteness, Some(5));
        let v = Value::from_score(loss_at(42, 42), 42, 10, Player::P1);
        assert_eq!(v.result, GameResult::Win(Player::P2));
        assert_eq!(v.remoteness, Some(32));
        assert_eq!(
            Value::from_score(0, 42, 10, Player::P2).remoteness,
            Some(32)
        );
    }
}
