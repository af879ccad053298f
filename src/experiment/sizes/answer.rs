//! What the answer to a question about a board's game length (see
//! [`crate::experiment::question`]) adds to the board's attempts in an `open.csv`: a narrower
//! range of lengths, which the next `sizes` run goes on from.

use std::path::Path;

use super::row::Attempt;
use crate::engine::outcome::{GameResult, Player};
use crate::engine::rules::Rules;
use crate::experiment::export::ExportError;
use crate::experiment::store::Store;
use crate::experiment::sweep::Board;

/// Why an answer could not be added.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// The attempts file could not be read or written.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// The file holds no attempt at the board.
    #[error("{path} holds no attempt at {board}: give the open file of a sizes run that tried it")]
    NoAttempt {
        /// The file.
        path: String,
        /// The board, as `misere k=4 7x7`.
        board: String,
    },
    /// The answer contradicts what the attempt already settled.
    #[error("the answer contradicts {path}: {reason}")]
    Contradiction {
        /// The file.
        path: String,
        /// What disagrees.
        reason: String,
    },
}

/// Appends to the attempts file `path` the furthest attempt at the board of `rules` narrowed by
/// the answer `answer` to "does `player` win by ply `by_ply`?", which cost `nodes` and
/// `seconds`; returns that attempt, or `None` when the answer adds nothing it can keep (a "no"
/// while the outcome is unknown, or a range that already says as much).
///
/// # Errors
/// [`AnswerError`] when the file cannot be read or written, holds no attempt at the board, or
/// the answer contradicts it.
pub fn add_answer(
    path: &Path,
    rules: Rules,
    (player, by_ply, answer): (Player, u32, bool),
    (nodes, seconds): (u64, f64),
) -> Result<Option<Attempt>, AnswerError> {
    let store = Store::<Attempt>::open(path)?;
    let no_attempt = || AnswerError::NoAttempt {
        path: path.display().to_string(),
        board: rules.to_string(),
    };
    // The size tables hold flat boards only.
    if rules.is_cylinder() {
        return Err(no_attempt());
    }
    let board = Board::flat(rules.variant(), rules.k(), rules.width(), rules.height());
    let earlier = store
        .rows()?
        .into_iter()
        .filter(|a| a.board() == board)
        .max_by_key(Attempt::reach)
        .ok_or_else(no_attempt)?;
    let narrowed =
        narrow(&earlier, player, by_ply, answer).map_err(|reason| AnswerError::Contradiction {
            path: path.display().to_string(),
            reason,
        })?;
    let Some(mut attempt) = narrowed else {
        return Ok(None);
    };
    attempt.nodes += nodes;
    attempt.seconds = Some(earlier.seconds_spent() + seconds);
    store.append(&attempt)?;
    Ok(Some(attempt))
}

/// `attempt` narrowed by the answer to "does `player` win by ply `by_ply`?"; `None` when the
/// answer adds nothing; the disagreement when it contradicts the attempt.
fn narrow(
    attempt: &Attempt,
    player: Player,
    by_ply: u32,
    answer: bool,
) -> Result<Option<Attempt>, String> {
    let win = GameResult::Win(player);
    // A range not written down is every length the board allows.
    let cells = attempt.board().rules().cells();
    let known = (
        attempt.remoteness_min.unwrap_or(1),
        attempt.remoteness_max.unwrap_or(cells),
    );
    let (min, max) = match (answer, attempt.outcome) {
        (true, Some(outcome)) if outcome != win => {
            return Err(format!(
                "{player} wins by ply {by_ply}, but the outcome is {outcome}"
            ));
        }
        (true, _) => (known.0, known.1.min(by_ply)),
        (false, Some(outcome)) if outcome == win => (known.0.max(by_ply + 1), known.1),
        (false, _) => return Ok(None),
    };
    if min > max {
        return Err(format!(
            "{player} wins {} ply {by_ply}, but the game lasts {} to {} plies",
            if answer { "by" } else { "after" },
            known.0,
            known.1
        ));
    }
    if attempt.outcome == Some(win) && (min, max) == known {
        return Ok(None);
    }
    Ok(Some(Attempt {
        outcome: Some(win),
        remoteness_min: Some(min),
        remoteness_max: Some(max),
        line: String::new(),
        ..attempt.clone()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;

    fn attempt(outcome: Option<GameResult>, range: Option<(u32, u32)>) -> Attempt {
        Attempt {
            rules: Variant::Misere,
            k: 4,
            width: 7,
            height: 7,
            seconds_each: 100.0,
            outcome,
            remoteness_min: range.map(|r| r.0),
            remoteness_max: range.map(|r| r.1),
            nodes: 5,
            seconds: Some(10.0),
            line: String::new(),
        }
    }

    const P1: GameResult = GameResult::Win(Player::P1);

    /// A "no" raises the shortest length, a "yes" lowers the longest and may give the
    /// outcome; what adds nothing is not kept, and what contradicts the attempt is refused.
    #[test]
    fn answers_narrow_the_range_or_are_refused() {
        let open = attempt(Some(P1), Some((18, 44)));
        let range = |a: Option<Attempt>| a.map(|a| (a.outcome, a.remoteness_min, a.remoteness_max));
        let no = narrow(&open, Player::P1, 42, false).unwrap();
        assert_eq!(range(no), Some((Some(P1), Some(43), Some(44))));
        let yes = narrow(&open, Player::P1, 30, true).unwrap();
        assert_eq!(range(yes), Some((Some(P1), Some(18), Some(30))));
        assert_eq!(narrow(&open, Player::P1, 10, false).unwrap(), None);
        assert_eq!(narrow(&open, Player::P1, 46, true).unwrap(), None);
        assert!(narrow(&open, Player::P2, 30, true).is_err());
        assert!(narrow(&open, Player::P1, 16, true).is_err());
        assert!(narrow(&open, Player::P1, 44, false).is_err());
        // With the outcome unknown, a "yes" settles it and a "no" says nothing kept.
        let unknown = attempt(None, None);
        let yes = narrow(&unknown, Player::P2, 40, true).unwrap();
        let p2 = GameResult::Win(Player::P2);
        assert_eq!(range(yes), Some((Some(p2), Some(1), Some(40))));
        assert_eq!(narrow(&unknown, Player::P2, 40, false).unwrap(), None);
    }
}
