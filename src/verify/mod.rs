//! The checker: plays a strategy against every possible reply of an unrestricted opponent (an
//! AND-OR search with a memo) and proves or refutes a claim about the result.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::engine::outcome::{GameResult, Outcome, Player, Reason};
use crate::engine::position::{Column, Position};
use crate::strategy::{Game, Strategy};

/// What the strategy is claimed to achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Claim {
    /// The strategy's player wins every game.
    Win,
    /// The strategy's player never loses.
    DrawOrBetter,
}

impl Claim {
    fn holds(self, result: GameResult, player: Player) -> bool {
        match self {
            Claim::Win => result == GameResult::Win(player),
            Claim::DrawOrBetter => result != GameResult::Win(player.other()),
        }
    }
}

/// Which rules the game is checked under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rulebook {
    /// The game's own rules: any line of k ends the game.
    #[default]
    Standard,
    /// Appendix A's relaxed game: the opponent of the strategy's player cannot lose. Lines the
    /// opponent completes are ignored (they neither end nor decide the game); only a line of
    /// the strategy's player or a full board ends it. Under misère rules a claim of
    /// draw-or-better then says the strategy's player never completes a line of k.
    OpponentCannotLose,
}

/// The checker's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    /// The claim holds against every opponent.
    Holds {
        /// Distinct positions examined.
        positions: usize,
        /// The longest game (in plies from the start of the game) the opponent can force.
        longest_game: u32,
    },
    /// The claim fails.
    Refuted {
        /// Distinct positions examined.
        positions: usize,
        /// A shortest sequence of moves, from the start position, that ends in a game the
        /// claim does not allow or in a position where the strategy has no move.
        line: Vec<Column>,
        /// Why the line refutes the claim.
        reason: String,
    },
}

/// What the memo knows about a node: it holds (with the longest game from it), or it fails
/// after `length` more plies, starting with `next`.
#[derive(Clone, Debug)]
enum Node {
    Holds {
        longest: u32,
    },
    Fails {
        length: u32,
        next: Option<Column>,
        reason: String,
    },
}

/// Checks `claim` for `strategy` playing `player` from `start` (reached by `moves`) under the
/// game's own rules.
pub fn verify(
    strategy: &mut dyn Strategy,
    player: Player,
    claim: Claim,
    start: &Position,
    moves: &[Column],
) -> Verdict {
    verify_under(Rulebook::Standard, strategy, player, claim, start, moves)
}

/// Checks `claim` for `strategy` playing `player` from `start` (reached by `moves`) under
/// `rulebook`.
pub fn verify_under(
    rulebook: Rulebook,
    strategy: &mut dyn Strategy,
    player: Player,
    claim: Claim,
    start: &Position,
    moves: &[Column],
) -> Verdict {
    let mut checker = Checker {
        strategy,
        player,
        claim,
        rulebook,
        memo: HashMap::new(),
    };
    let mut history = moves.to_vec();
    let root = checker.node(start, &mut history);
    let positions = checker.memo.len();
    match root {
        Node::Holds { longest } => Verdict::Holds {
            positions,
            longest_game: longest,
        },
        Node::Fails { .. } => {
            let (line, reason) = checker.refutation(start, moves);
            Verdict::Refuted {
                positions,
                line,
                reason,
            }
        }
    }
}

struct Checker<'s> {
    strategy: &'s mut dyn Strategy,
    player: Player,
    claim: Claim,
    rulebook: Rulebook,
    /// Keyed by the position and the last move, the only history a strategy may use.
    memo: HashMap<(u128, Option<Column>), Node>,
}

impl Checker<'_> {
    fn node(&mut self, pos: &Position, history: &mut Vec<Column>) -> Node {
        let key = (pos.key(), history.last().copied());
        if let Some(known) = self.memo.get(&key) {
            return known.clone();
        }
        let node = self.evaluate(pos, history);
        self.memo.insert(key, node.clone());
        node
    }

    /// The position after `column` is played in `pos`. In the relaxed game the opponent's disc
    /// is dropped without looking for a line.
    fn step(&self, pos: &Position, column: Column) -> Position {
        if self.rulebook == Rulebook::OpponentCannotLose && pos.to_move() != self.player {
            let mut next = *pos;
            next.play_bit(pos.landing(column));
            next
        } else {
            pos.played(column).expect("legal column")
        }
    }

    /// How the game ended at `pos`, if it did. A full board is a draw even when the relaxed
    /// game's last disc was dropped without a status update.
    fn ending(pos: &Position) -> Option<Outcome> {
        pos.outcome().or_else(|| {
            (pos.empty_cells() == 0).then_some(Outcome {
                result: GameResult::Draw,
                reason: Reason::BoardFull,
            })
        })
    }

    fn evaluate(&mut self, pos: &Position, history: &mut Vec<Column>) -> Node {
        if let Some(outcome) = Self::ending(pos) {
            return if self.claim.holds(outcome.result, self.player) {
                Node::Holds {
                    longest: pos.plies(),
                }
            } else {
                Node::Fails {
                    length: 0,
                    next: None,
                    reason: format!("the game ends {outcome}"),
                }
            };
        }
        let choices = if pos.to_move() == self.player {
            let game = Game {
                position: pos,
                moves: history,
            };
            match self.strategy.choose(game) {
                Ok(column) if pos.has_room(column) => vec![column],
                Ok(column) => {
                    return Node::Fails {
                        length: 0,
                        next: None,
                        reason: format!(
                            "the strategy chose column {}, which is full",
                            column.number()
                        ),
                    };
                }
                Err(e) => {
                    return Node::Fails {
                        length: 0,
                        next: None,
                        reason: e.to_string(),
                    };
                }
            }
        } else {
            pos.legal_columns()
        };
        // The strategy's node has one child; the opponent's node holds only if every reply
        // holds, and fails by the reply with the shortest refutation.
        let mut longest = 0;
        let mut shortest: Option<(u32, Column, String)> = None;
        for column in choices {
            let child = self.step(pos, column);
            history.push(column);
            let result = self.node(&child, history);
            history.pop();
            match result {
                Node::Holds { longest: l } => longest = longest.max(l),
                Node::Fails { length, reason, .. } => {
                    if shortest
                        .as_ref()
                        .is_none_or(|(best, _, _)| length + 1 < *best)
                    {
                        shortest = Some((length + 1, column, reason));
                    }
                }
            }
        }
        match shortest {
            Some((length, column, reason)) => Node::Fails {
                length,
                next: Some(column),
                reason,
            },
            None => Node::Holds { longest },
        }
    }

    /// Follows the memo's `next` moves from the start to the failing end.
    fn refutation(&self, start: &Position, moves: &[Column]) -> (Vec<Column>, String) {
        let mut pos = *start;
        let mut history = moves.to_vec();
        let mut line = Vec::new();
        loop {
            match self.memo.get(&(pos.key(), history.last().copied())) {
                Some(Node::Fails {
                    next: Some(column), ..
                }) => {
                    pos = self.step(&pos, *column);
                    history.push(*column);
                    line.push(*column);
                }
                Some(Node::Fails { reason, .. }) => return (line, reason.clone()),
                _ => return (line, "the claim fails".to_string()),
            }
        }
    }
}
