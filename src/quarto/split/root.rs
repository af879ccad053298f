//! The value of the empty board from the values of the openings: minimax over the first turns.

use std::collections::HashMap;

use crate::{GameResult, Player, Value};

use super::super::position::Position;
use super::super::rules::Rules;
use super::super::symmetry::Canonizer;
use super::openings::key_text;

/// The value of the empty board under `rules`, from the `values` of the openings after
/// `turns` turns (by their keys): exact when `exact` (every value has its remoteness or is a
/// draw), the winner only otherwise.
///
/// # Panics
/// When an opening reached has no value: give the values of every class.
pub(crate) fn root_value(
    rules: &Rules,
    turns: u32,
    values: &[(String, Value)],
    exact: bool,
) -> Value {
    let canon = Canonizer::new(rules);
    let scores: HashMap<String, i32> = values
        .iter()
        .map(|(key, value)| (key.clone(), p1_score(rules, *value, turns, exact)))
        .collect();
    let mut walk = Walk {
        rules,
        canon: &canon,
        turns,
        scores,
        exact,
    };
    let score = walk.score(&Position::new(*rules));
    let result = match score.signum() {
        1 => GameResult::Win(Player::P1),
        -1 => GameResult::Win(Player::P2),
        _ => GameResult::Draw,
    };
    // A draw lasts the whole game, so its remoteness is known even from weak rows.
    let remoteness = match (score, exact) {
        (0, _) => Some(rules.last_ply()),
        (_, true) => Some(rules.last_ply() + 1 - score.unsigned_abs()),
        (_, false) => None,
    };
    Value { result, remoteness }
}

/// A value at a position after `plies` turns as a score for P1 (positive when P1 wins,
/// larger the sooner; a game ending at turn q scores `last_ply + 1 - q`), or its sign only.
fn p1_score(rules: &Rules, value: Value, plies: u32, exact: bool) -> i32 {
    let magnitude = match (exact, value.remoteness) {
        (true, Some(r)) => rules.last_ply() as i32 + 1 - (plies + r) as i32,
        _ => 1,
    };
    match value.result {
        GameResult::Win(Player::P1) => magnitude,
        GameResult::Win(Player::P2) => -magnitude,
        GameResult::Draw => 0,
    }
}

/// A minimax walk over the first turns of the game down to the openings.
struct Walk<'a> {
    rules: &'a Rules,
    canon: &'a Canonizer,
    turns: u32,
    /// P1 scores by canonical key: the openings' to start with, then every position walked
    /// (symmetric positions have the same value, so each class is walked once).
    scores: HashMap<String, i32>,
    exact: bool,
}

impl Walk<'_> {
    /// The P1 score of `pos`, by minimax over the turns left until the openings.
    fn score(&mut self, pos: &Position) -> i32 {
        if let Some(outcome) = pos.outcome() {
            let value = Value {
                result: outcome.result,
                remoteness: Some(0),
            };
            return p1_score(self.rules, value, pos.plies(), self.exact);
        }
        let key = key_text(self.canon, pos);
        if let Some(&score) = self.scores.get(&key) {
            return score;
        }
        assert!(pos.plies() < self.turns, "every opening has a score");
        let children = pos
            .legal_turns()
            .into_iter()
            .map(|t| self.score(&pos.play(t).expect("legal")));
        let score = match pos.to_move() {
            Player::P1 => children.max(),
            Player::P2 => children.min(),
        }
        .expect("a game that goes on has turns");
        self.scores.insert(key, score);
        score
    }
}
