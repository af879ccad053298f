//! Replaying one strategy from the proved position against every reply, whatever the format
//! its turns are looked up in.

use std::collections::HashSet;

use crate::{GameResult, Player};

use super::super::notation;
use super::super::position::{Position, Turn};
use super::dead::no_line_can_be_completed;

/// Why a well-formed certificate does not prove its claim: the file line at fault (0 when
/// the fault is a missing part), the game record where it shows, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("refuted{}: {reason}{}", at_line(*.line), after(.record))]
pub struct Refuted {
    /// The certificate line at fault, or 0.
    pub line: usize,
    /// The game record, from the proved position, where the fault shows.
    pub record: String,
    /// What is wrong.
    pub reason: String,
}

/// ` at line N` for a line, nothing for 0.
fn at_line(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(" at line {line}")
    }
}

/// ` after RECORD` for a record, nothing for the position proved itself.
fn after(record: &str) -> String {
    if record.is_empty() {
        String::new()
    } else {
        format!(" (after {record})")
    }
}

/// Why a strategy has no usable turn in a position: the file line at fault (0 for a missing
/// entry) and what is wrong, said after the player's name (`strategy has no turn ...`).
pub struct Fault {
    /// The certificate line at fault, or 0.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// How a format finds a strategy's turns.
pub trait Lookup {
    /// The key under which a position shown good is remembered: equal keys must mean
    /// positions the strategy plays alike (the same position, or symmetric ones).
    fn key(&self, pos: &Position) -> u128;

    /// The strategy's turn in `pos` and the position it leads to.
    ///
    /// # Errors
    /// [`Fault`] when the strategy has no entry for `pos` or its entry cannot be played.
    fn turn(&self, pos: &Position) -> Result<(Turn, Position), Fault>;
}

/// Replays one strategy from the proved position.
pub struct Replay<'a, L: Lookup> {
    /// Where the strategy's turns are found.
    pub lookup: &'a L,
    /// The strategy's player.
    pub player: Player,
    /// Whether the strategy claims a win (else at least a draw).
    pub wins: bool,
    /// Whether a draw strategy's replay ends at a position where no line can be completed
    /// any more (version 3), every game from there being a draw.
    pub dead_ends: bool,
    /// Keys of the positions already shown good for the strategy.
    pub good: HashSet<u128>,
    /// Told the number of positions shown good each time it reaches a multiple of the first
    /// number.
    pub on_good: Option<(usize, &'a dyn Fn(usize))>,
    /// The turns from the proved position to the one being looked at.
    path: Vec<Turn>,
}

impl<'a, L: Lookup> Replay<'a, L> {
    /// A replay of `player`'s strategy, which claims a win or (`wins` false) a draw, ending
    /// at dead positions when `dead_ends` (and it claims a draw).
    pub fn new(lookup: &'a L, player: Player, wins: bool, dead_ends: bool) -> Self {
        Replay {
            lookup,
            player,
            wins,
            dead_ends,
            good: HashSet::new(),
            on_good: None,
            path: Vec::new(),
        }
    }

    /// A refutation at `line` where the replay stands.
    fn refuted(&self, pos: &Position, line: usize, reason: String) -> Refuted {
        Refuted {
            line,
            record: notation::format(pos.rules(), &self.path),
            reason,
        }
    }

    /// Whether a finished game's result is what the strategy claims for its player.
    fn meets_goal(&self, result: GameResult) -> bool {
        if self.wins {
            result == GameResult::Win(self.player)
        } else {
            result != GameResult::Win(self.player.other())
        }
    }

    /// Shows that every game from `pos` in which the player follows the strategy ends as it
    /// claims. A position whose key is already good is not replayed again; at the
    /// opponent's turn, replies whose results share a key are thereby followed once.
    ///
    /// # Errors
    /// [`Refuted`] at the first game that ends otherwise or the first turn missing or illegal.
    pub fn visit(&mut self, pos: &Position) -> Result<(), Refuted> {
        let player = self.player;
        if let Some(outcome) = pos.outcome() {
            if self.meets_goal(outcome.result) {
                return Ok(());
            }
            let reason = format!(
                "{player}'s strategy reaches {}",
                outcome.describe(pos.rules())
            );
            return Err(self.refuted(pos, 0, reason));
        }
        if self.dead_ends && !self.wins && no_line_can_be_completed(pos) {
            return Ok(());
        }
        let key = self.lookup.key(pos);
        if self.good.contains(&key) {
            return Ok(());
        }
        let children = if pos.to_move() == player {
            let child = self.lookup.turn(pos).map_err(|fault| {
                self.refuted(pos, fault.line, format!("{player}'s {}", fault.reason))
            })?;
            vec![child]
        } else {
            self.replies(pos)?
        };
        for (turn, next) in children {
            self.path.push(turn);
            self.visit(&next)?;
            self.path.pop();
        }
        self.good.insert(key);
        if let Some((every, tell)) = self.on_good
            && self.good.len().is_multiple_of(every)
        {
            tell(self.good.len());
        }
        Ok(())
    }

    /// Every legal reply in `pos` with the position it leads to.
    fn replies(&self, pos: &Position) -> Result<Vec<(Turn, Position)>, Refuted> {
        pos.legal_turns()
            .into_iter()
            .map(|turn| match pos.play(turn) {
                Ok(next) => Ok((turn, next)),
                Err(e) => Err(self.refuted(pos, 0, format!("a legal reply does not play: {e}"))),
            })
            .collect()
    }
}
