//! The bots: random, and the easy / medium / hard levels of the game service described in seed
//! 002 (adapted to misère rules).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::PlayerName;
use crate::engine::bits::BitIter;
use crate::engine::outcome::{Cell, GameResult};
use crate::engine::position::{Column, Position};
use crate::engine::rules::Variant;
use crate::strategy::{Game, Strategy, StrategyError};

/// Picks one element uniformly at random.
pub(super) fn pick<T: Copy>(rng: &mut ChaCha8Rng, items: &[T]) -> Option<T> {
    (!items.is_empty()).then(|| items[rng.random_range(0..items.len())])
}

/// The error of a bot asked to move in a finished game.
pub(super) fn no_moves() -> StrategyError {
    StrategyError::OutsideProof {
        strategy: "bot",
        reason: "the game is over".to_string(),
    }
}

/// Uniformly random legal moves.
pub struct Random {
    rng: ChaCha8Rng,
}

impl Random {
    /// A random player drawing from `rng`.
    pub(crate) fn new(rng: ChaCha8Rng) -> Random {
        Random { rng }
    }
}

impl Strategy for Random {
    fn name(&self) -> &'static str {
        PlayerName::Random.as_str()
    }

    fn choose(&mut self, game: Game<'_>) -> Result<Column, StrategyError> {
        pick(&mut self.rng, &game.position.legal_columns()).ok_or_else(no_moves)
    }
}

/// Moves that win at once. Normal rules: moves that complete the mover's line. Misère rules:
/// moves that do not complete the mover's line and leave the opponent only moves that
/// complete theirs.
pub fn winning_moves(pos: &Position) -> Vec<Column> {
    let me = pos.to_move();
    pos.legal_columns()
        .into_iter()
        .filter(|&c| {
            let child = pos.played(c).expect("legal column");
            match (pos.rules().variant(), child.outcome()) {
                (Variant::Normal, Some(o)) => o.result == GameResult::Win(me),
                (Variant::Normal, None) | (Variant::Misere, Some(_)) => false,
                (Variant::Misere, None) => child.legal_columns().into_iter().all(|r| {
                    let reply = child.played(r).expect("legal column");
                    reply.outcome().map(|o| o.result) == Some(GameResult::Win(me))
                }),
            }
        })
        .collect()
}

/// Moves that block an immediate loss. Normal rules: the cells where the opponent would
/// complete a line with its next disc (empty when there is no such threat). Misère rules:
/// moves that neither complete the mover's line nor leave the opponent a winning move (empty
/// when every move loses).
pub fn blocking_moves(pos: &Position) -> Vec<Column> {
    match pos.rules().variant() {
        Variant::Normal => {
            let threats = pos.completing_cells(pos.to_move().other()) & pos.playable();
            BitIter(threats)
                .map(|bit| Column::new(pos.layout().bit_cell(bit).column))
                .collect()
        }
        Variant::Misere => pos
            .legal_columns()
            .into_iter()
            .filter(|&c| {
                let child = pos.played(c).expect("legal column");
                match child.outcome() {
                    Some(o) => o.result != GameResult::Win(pos.to_move().other()),
                    None => winning_moves(&child).is_empty(),
                }
            })
            .collect(),
    }
}

/// The levels of the seed-002 game service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Random moves.
    Easy,
    /// Takes an immediate win 30% of the time and blocks 30% of the time, else random.
    Medium,
    /// Always takes a win or blocks; otherwise the best move by centre control and connected
    /// discs (under misère rules: by edges and fewest connected discs).
    Hard,
}

impl Level {
    /// The level's name on the command line and in reports.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }
}

/// A bot of one [`Level`].
pub struct RuleBot {
    level: Level,
    rng: ChaCha8Rng,
}

impl RuleBot {
    /// A bot of `level` drawing from `rng`.
    pub(crate) fn new(level: Level, rng: ChaCha8Rng) -> RuleBot {
        RuleBot { level, rng }
    }

    /// Static score of dropping a disc in `column`: central columns and neighbouring own discs
    /// score higher under normal rules; under misère rules both count against the move.
    fn evaluate(pos: &Position, column: Column) -> i32 {
        let w = pos.rules().width() as i32;
        let c = column.index() as i32;
        let centre = w - 1 - (2 * c - (w - 1)).abs();
        let row = pos.column_height(column) as i32;
        let mut neighbours = 0;
        for dc in -1..=1 {
            for dr in -1..=1 {
                let (nc, nr) = (c + dc, row + dr);
                if (dc, dr) != (0, 0) && nc >= 0 && nr >= 0 && nc < w {
                    let cell = Cell {
                        column: nc as u32,
                        row: nr as u32,
                    };
                    if nr < pos.rules().height() as i32 && pos.cell(cell) == Some(pos.to_move()) {
                        neighbours += 1;
                    }
                }
            }
        }
        let score = centre + 2 * neighbours;
        match pos.rules().variant() {
            Variant::Normal => score,
            Variant::Misere => -score,
        }
    }
}

impl Strategy for RuleBot {
    fn name(&self) -> &'static str {
        self.level.as_str()
    }

    fn choose(&mut self, game: Game<'_>) -> Result<Column, StrategyError> {
        let pos = game.position;
        let legal = pos.legal_columns();
        if legal.is_empty() {
            return Err(no_moves());
        }
        match self.level {
            Level::Easy => {}
            Level::Medium => {
                let wins = winning_moves(pos);
                if !wins.is_empty() && self.rng.random_bool(0.3) {
                    return Ok(pick(&mut self.rng, &wins).expect("non-empty"));
                }
                let blocks = blocking_moves(pos);
                if !blocks.is_empty() && self.rng.random_bool(0.3) {
                    return Ok(pick(&mut self.rng, &blocks).expect("non-empty"));
                }
            }
            Level::Hard => {
                let wins = winning_moves(pos);
                if let Some(win) = pick(&mut self.rng, &wins) {
                    return Ok(win);
                }
                let blocks = blocking_moves(pos);
                let candidates = if blocks.is_empty() { legal } else { blocks };
                let best = candidates
                    .iter()
                    .map(|&c| Self::evaluate(pos, c))
                    .max()
                    .expect("non-empty");
                let top: Vec<Column> = candidates
                    .into_iter()
                    .filter(|&c| Self::evaluate(pos, c) == best)
                    .collect();
                return Ok(pick(&mut self.rng, &top).expect("non-empty"));
            }
        }
        Ok(pick(&mut self.rng, &legal).expect("non-empty"))
    }
}
