//! A strategy's plan from a position, for a student to read on the board: the move it makes
//! now, or its answer to each move the opponent can make, each with the rule of the paper that
//! picks it, and what the strategy sees on the bottom row (its pairs, the tally, the canonical
//! boards).

use serde::Serialize;

use super::canonical::{CanonicalBoard, boards, canonical_choice};
use super::pairing::partner;
use super::table1::deciders;
use super::tally::{Play, Tally, classify};
use super::{Game, StrategyError, StrategyName, bottom_row};
use crate::engine::outcome::{GameResult, Player};
use crate::engine::position::{Column, Position};

/// One move of the strategy and the rule that picks it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The column, from 1.
    pub column: u32,
    /// The row the disc lands on, from 0 at the bottom.
    pub row: u32,
    /// The rule, by a short name: `on-top`, `take-other`, `rightmost`, `in-template`,
    /// `offensive`, `double-contradiction`, `self-immolation` or `canonical`.
    pub rule: &'static str,
    /// Why, in a sentence, in the paper's words.
    pub why: String,
}

/// The strategy's answer to one move the opponent can make.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reply {
    /// The opponent's column, from 1.
    pub column: u32,
    /// The row the opponent's disc lands on, from 0 at the bottom.
    pub row: u32,
    /// The strategy's answer; `None` when the move ends the game or leaves the proof.
    pub answer: Option<Step>,
    /// Why there is no answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A canonical board of Appendix A as the strategy's player sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardSpan {
    /// Its name in the paper: type and number of empty cells, `B3`.
    pub name: String,
    /// Its leftmost and rightmost empty columns, from 1.
    pub columns: [u32; 2],
}

/// What a strategy will do from a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Plan {
    /// The strategy.
    pub strategy: StrategyName,
    /// The side it plays.
    pub player: Player,
    /// Where the paper proves it for these rules (empty when Table I names another strategy
    /// for the board, or none).
    pub proof: &'static str,
    /// Its move when its player is to move.
    pub now: Option<Step>,
    /// When the opponent is to move: the answer to each of the opponent's legal moves.
    pub replies: Vec<Reply>,
    /// Why it has no move now, when its player is to move and the position is outside its
    /// proof.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside: Option<String>,
    /// The bottom row's pairs (pairing, and delayed take-even for k >= 3), columns from 1; a
    /// lone rightmost cell of an odd width is a pair of one.
    pub pairs: Vec<Vec<u32>>,
    /// The tally play's count of in-template moves left, `[P1, P2]` (k = 2 one-row play).
    pub tally: Option<[u32; 2]>,
    /// The canonical boards of the bottom row (canonical-board play).
    pub boards: Vec<BoardSpan>,
}

/// The plan of `strategy` playing `player` in the game of `position` reached by `moves`.
///
/// # Errors
/// [`StrategyError::NotApplicable`] when the strategy does not apply to the rules or player.
///
/// # Examples
/// ```
/// use connectk::strategy::{StrategyName, plan::plan};
/// use connectk::{Player, Position, Rules, Variant, notation};
/// let rules = Rules::standard().with_variant(Variant::Misere);
/// let (pos, moves) = notation::parse(rules, "4").unwrap();
/// let plan = plan(StrategyName::TakeEven, Player::P2, &pos, &moves).unwrap();
/// let now = plan.now.unwrap();
/// assert_eq!((now.column, now.row, now.rule), (4, 1, "on-top"));
/// ```
pub fn plan(
    strategy: StrategyName,
    player: Player,
    position: &Position,
    moves: &[Column],
) -> Result<Plan, StrategyError> {
    let rules = position.rules();
    // Building it checks that the strategy applies.
    strategy.build(rules, player)?;
    let proof = deciders(rules.k(), rules.width(), rules.height())
        .into_iter()
        .find(|d| d.strategy == strategy && d.player.is_none_or(|p| p == player))
        .map_or("", |d| d.proof);
    let mut plan = Plan {
        strategy,
        player,
        proof,
        now: None,
        replies: Vec::new(),
        outside: None,
        pairs: pairs(strategy, position),
        tally: tally(strategy, position),
        boards: canonical_boards(strategy, position, player),
    };
    if position.is_over() {
        return Ok(plan);
    }
    if position.to_move() == player {
        match step(strategy, player, position, moves) {
            Ok(now) => plan.now = Some(now),
            Err(reason) => plan.outside = Some(reason),
        }
    } else {
        plan.replies = position
            .legal_columns()
            .into_iter()
            .map(|column| reply(strategy, player, position, moves, column))
            .collect();
    }
    Ok(plan)
}

/// The strategy's answer to the opponent's `column`.
fn reply(
    strategy: StrategyName,
    player: Player,
    position: &Position,
    moves: &[Column],
    column: Column,
) -> Reply {
    let row = position.column_height(column);
    let child = position.played(column).expect("a legal column");
    let (answer, note) = match child.outcome() {
        Some(outcome) => (None, Some(ending(outcome.result, player))),
        None => {
            let moves: Vec<Column> = moves.iter().copied().chain([column]).collect();
            match step(strategy, player, &child, &moves) {
                Ok(step) => (Some(step), None),
                Err(reason) => (None, Some(reason)),
            }
        }
    };
    Reply {
        column: column.number(),
        row,
        answer,
        note,
    }
}

/// What a move that ends the game means for the strategy's `player`.
fn ending(result: GameResult, player: Player) -> String {
    match result {
        GameResult::Win(p) if p == player => format!("this move ends the game: {player} wins"),
        GameResult::Win(p) => format!("this move ends the game: {p} wins"),
        GameResult::Draw => "this move ends the game in a draw".to_string(),
    }
}

/// The strategy's move in `position` (its player to move) and the rule behind it; the move is
/// the one the strategy plays, so the plan shown is the move made.
fn step(
    strategy: StrategyName,
    player: Player,
    position: &Position,
    moves: &[Column],
) -> Result<Step, String> {
    let mut chooser = strategy
        .build(position.rules(), player)
        .map_err(|e| e.to_string())?;
    let game = Game { position, moves };
    let column = chooser.choose(game).map_err(|e| e.to_string())?;
    let row = position.column_height(column);
    let (rule, why) = reason(strategy, player, position, game.last_move(), column);
    Ok(Step {
        column: column.number(),
        row,
        rule,
        why,
    })
}

/// The rule of `strategy` that picks `column` after the opponent's `last` move.
fn reason(
    strategy: StrategyName,
    player: Player,
    position: &Position,
    last: Option<Column>,
    column: Column,
) -> (&'static str, String) {
    let row = position.column_height(column);
    let opponent = player.other();
    match strategy {
        StrategyName::TakeEven => (
            "on-top",
            format!(
                "on top of {opponent}'s disc: row {} from the bottom is even, and take-even \
                 claims every even row, so {opponent} only ever finds odd rows (Theorem 1)",
                row + 1
            ),
        ),
        StrategyName::DelayedTakeEven if row > 0 => (
            "on-top",
            format!(
                "on top of {opponent}'s disc in the even board space above row 0: row {row} \
                 is even, so take-even there leaves {opponent} the odd rows (Theorem 2)"
            ),
        ),
        // Delayed take-even pairs row 0 for k >= 3 and plays the tally there for k = 2.
        StrategyName::Pairing => row_pairing(position, last, column),
        StrategyName::DelayedTakeEven if position.rules().k() >= 3 => {
            row_pairing(position, last, column)
        }
        StrategyName::DelayedTakeEven | StrategyName::Tally => row_tally(position, column),
        StrategyName::Canonical => row_canonical(position, player, column),
    }
}

/// Theorem 3's two rules in row 0: take-other, else rightmost.
fn row_pairing(
    position: &Position,
    last: Option<Column>,
    column: Column,
) -> (&'static str, String) {
    let width = position.rules().width();
    let answered = last.filter(|&l| {
        position.column_height(l) == 1 && partner(l.index(), width) == Some(column.index())
    });
    match answered {
        Some(last) => (
            "take-other",
            format!(
                "take-other: columns {} and {} are a pair of row 0, and the opponent just took \
                 one half, so the strategy takes the other; a row of pairs each shared by both \
                 players holds no three in a row (Theorem 3)",
                last.number().min(column.number()),
                last.number().max(column.number())
            ),
        ),
        None => (
            "rightmost",
            format!(
                "rightmost: no pair of row 0 is half taken by the opponent's last move, so the \
                 strategy takes the rightmost empty cell of row 0, column {} (Theorem 3)",
                column.number()
            ),
        ),
    }
}

/// The k = 2 tally play in row 0 (Lemmas 1 and 2).
fn row_tally(position: &Position, column: Column) -> (&'static str, String) {
    let row = bottom_row(position);
    let me = position.to_move();
    let cell = column.index() as usize;
    let count = |r: &[Option<Player>]| Tally::of(r).map(|t| (t.p1, t.p2));
    let mut after = row.clone();
    after[cell] = Some(me);
    let (rule, what) = match classify(&row, cell, me) {
        Some(Play::InTemplate) => ("in-template", "an in-template play"),
        Some(Play::Offensive) => (
            "offensive",
            "an offensive play: it contradicts the opponent's template at a wall",
        ),
        Some(Play::DoubleContradiction) => (
            "double-contradiction",
            "a double contradiction between two discs",
        ),
        Some(Play::SelfImmolation) => ("self-immolation", "a self-immolation"),
        None => ("in-template", "the tally play's move"),
    };
    let tally = match (count(&row), count(&after)) {
        (Some((a, b)), Some((c, d))) => {
            format!(" The tally (X, O) goes from ({a}, {b}) to ({c}, {d}).")
        }
        _ => String::new(),
    };
    (
        rule,
        format!(
            "{what} in row 0, column {}: whoever runs out of in-template moves first must \
             make two in a row (Lemmas 1 and 2).{tally}",
            column.number()
        ),
    )
}

/// Appendix A's canonical-board play (Lemmas 3 and 4).
fn row_canonical(position: &Position, player: Player, column: Column) -> (&'static str, String) {
    let why = match canonical_choice(&bottom_row(position), player) {
        Ok((board, _)) => format!(
            "board {board} (columns {} to {}) comes first in the order of priority, and Table \
             III's play there is column {}: {player} never makes three in a row (Lemmas 3 and 4, \
             Theorem 5)",
            board.first() + 1,
            board.last() + 1,
            column.number()
        ),
        Err(reason) => reason,
    };
    ("canonical", why)
}

/// The bottom row's pairs, for the strategies that pair it.
fn pairs(strategy: StrategyName, position: &Position) -> Vec<Vec<u32>> {
    let rules = position.rules();
    let paired = match strategy {
        StrategyName::Pairing => true,
        StrategyName::DelayedTakeEven => rules.k() >= 3,
        _ => false,
    };
    if !paired {
        return Vec::new();
    }
    (0..rules.width())
        .step_by(2)
        .map(|c| {
            std::iter::once(c)
                .chain(partner(c, rules.width()))
                .map(|c| c + 1)
                .collect()
        })
        .collect()
}

/// The tally of the bottom row, for the k = 2 tally play.
fn tally(strategy: StrategyName, position: &Position) -> Option<[u32; 2]> {
    let tallied = match strategy {
        StrategyName::Tally => true,
        StrategyName::DelayedTakeEven => position.rules().k() == 2,
        _ => false,
    };
    tallied
        .then(|| Tally::of(&bottom_row(position)))
        .flatten()
        .map(|t| [t.p1, t.p2])
}

/// The canonical boards of the bottom row as `player` sees them.
fn canonical_boards(strategy: StrategyName, position: &Position, player: Player) -> Vec<BoardSpan> {
    if strategy != StrategyName::Canonical {
        return Vec::new();
    }
    boards(&bottom_row(position), player)
        .unwrap_or_default()
        .iter()
        .map(|b: &CanonicalBoard| BoardSpan {
            name: b.to_string(),
            columns: [b.first() as u32 + 1, b.last() as u32 + 1],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation;
    use crate::engine::rules::{Rules, Variant};

    fn misere(k: u32, width: u32, height: u32) -> Rules {
        Rules::new(k, width, height, Variant::Misere).unwrap()
    }

    fn plan_of(rules: Rules, moves: &str, strategy: StrategyName, player: Player) -> Plan {
        let (pos, moves) = notation::parse(rules, moves).unwrap();
        plan(strategy, player, &pos, &moves).unwrap()
    }

    #[test]
    fn take_even_answers_every_move_on_top() {
        let plan = plan_of(misere(4, 7, 6), "44", StrategyName::TakeEven, Player::P2);
        assert_eq!(plan.proof, "Theorem 1, Corollary 1");
        assert!(plan.now.is_none());
        assert_eq!(plan.replies.len(), 7);
        for reply in &plan.replies {
            let answer = reply.answer.as_ref().unwrap();
            assert_eq!((answer.column, answer.row), (reply.column, reply.row + 1));
            assert_eq!(
                answer.row % 2,
                1,
                "row {} from the bottom is even",
                answer.row + 1
            );
        }
    }

    #[test]
    fn the_plan_is_the_move_the_strategy_makes() {
        // Delayed take-even for P2 on an even width: row 0 by pairing, on top above it.
        let rules = misere(3, 6, 5);
        let plan = plan_of(rules, "2", StrategyName::DelayedTakeEven, Player::P2);
        let now = plan.now.unwrap();
        assert_eq!((now.column, now.rule), (1, "take-other"));
        assert_eq!(plan.pairs, vec![vec![1, 2], vec![3, 4], vec![5, 6]]);
        let plan = plan_of(rules, "21", StrategyName::DelayedTakeEven, Player::P2);
        let on_top = plan.replies.iter().find(|r| r.column == 2).unwrap();
        assert_eq!(on_top.answer.as_ref().unwrap().rule, "on-top");
        let row0 = plan.replies.iter().find(|r| r.column == 4).unwrap();
        let answer = row0.answer.as_ref().unwrap();
        assert_eq!((answer.column, answer.rule), (3, "take-other"));
    }

    #[test]
    fn one_row_plans_show_what_the_strategy_sees() {
        let rules = misere(3, 7, 1);
        let plan = plan_of(rules, "4", StrategyName::Canonical, Player::P2);
        assert_eq!(plan.boards.len(), 2);
        assert_eq!(plan.now.unwrap().rule, "canonical");
        let plan = plan_of(misere(2, 7, 1), "3", StrategyName::Tally, Player::P2);
        assert!(plan.tally.is_some());
        let now = plan.now.unwrap();
        assert!(now.why.contains("Lemmas 1 and 2"), "{}", now.why);
    }

    #[test]
    fn a_strategy_that_does_not_apply_says_why() {
        let (pos, moves) = notation::parse(Rules::standard(), "").unwrap();
        let error = plan(StrategyName::TakeEven, Player::P2, &pos, &moves).unwrap_err();
        assert!(error.to_string().contains("misère"), "{error}");
    }
}
