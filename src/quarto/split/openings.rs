//! The positions a split solve starts from: those a few turns into the game, one per class of
//! symmetric positions, every class or a random sample.

use std::collections::HashMap;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::notation;
use super::super::position::{Position, Turn};
use super::super::rules::Rules;
use super::super::symmetry::Canonizer;

/// A position after the first turns of a game, standing for its class of symmetric
/// positions.
#[derive(Clone, Debug)]
pub struct Opening {
    /// Its place in the list (the order is fixed by the rules and the number of turns).
    pub index: usize,
    /// Its canonical key in hexadecimal: the same for every position of the class.
    pub key: String,
    /// A game record that reaches it.
    pub record: String,
    /// The position.
    pub position: Position,
}

/// The canonical key of a position, as text; `h` at the end when a piece is in hand (the
/// hand's attributes read as zeros in the key, so without the mark the empty board before
/// and after the opening handover would share it).
pub(super) fn key_text(canon: &Canonizer, pos: &Position) -> String {
    let key = canon.key(pos.board(), pos.hand());
    let hand = if pos.hand().is_some() { "h" } else { "" };
    format!("{:04x}{:017x}{hand}", key.mask, key.columns)
}

/// The positions after `turns` turns from the empty board whose game goes on, one per class
/// under the symmetries, in the order a breadth-first walk over legal turns meets them.
pub fn openings(rules: Rules, turns: u32) -> Vec<Opening> {
    let canon = Canonizer::new(&rules);
    let mut level: Vec<(Position, Vec<Turn>)> = vec![(Position::new(rules), Vec::new())];
    for _ in 0..turns {
        let mut seen = HashMap::new();
        let mut next = Vec::new();
        for (pos, record) in &level {
            for turn in pos.legal_turns() {
                let child = pos.play(turn).expect("legal turn");
                if child.is_over() {
                    continue;
                }
                if seen.insert(key_text(&canon, &child), ()).is_none() {
                    let mut record = record.clone();
                    record.push(turn);
                    next.push((child, record));
                }
            }
        }
        level = next;
    }
    level
        .into_iter()
        .enumerate()
        .map(|(index, (position, record))| Opening {
            index,
            key: key_text(&canon, &position),
            record: notation::format(&rules, &record),
            position,
        })
        .collect()
}

/// Which openings a split solve takes: every class after `turns` turns, or a random sample
/// of them (for games too large to solve every class).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// Turns played in each opening.
    pub turns: u32,
    /// `Some((count, seed))`: `count` distinct classes reached by random turns seeded with
    /// `seed` (games that end before are skipped) instead of every class.
    pub sample: Option<(usize, u64)>,
}

impl Selection {
    /// The openings selected, in a fixed order.
    pub fn list(&self, rules: Rules) -> Vec<Opening> {
        match self.sample {
            None => openings(rules, self.turns),
            Some((count, seed)) => sample(rules, self.turns, count, seed),
        }
    }
}

/// `count` distinct classes of positions after `turns` turns, each reached by uniformly
/// random turns among those that do not end the game (fewer if 100 tries per class find no
/// new one).
fn sample(rules: Rules, turns: u32, count: usize, seed: u64) -> Vec<Opening> {
    let canon = Canonizer::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashMap::new();
    let mut found = Vec::new();
    for _ in 0..count * 100 {
        if found.len() == count {
            break;
        }
        let mut pos = Position::new(rules);
        let mut record = Vec::new();
        while pos.plies() < turns {
            let going_on: Vec<(Turn, Position)> = pos
                .legal_turns()
                .into_iter()
                .map(|t| (t, pos.play(t).expect("legal")))
                .filter(|(_, p)| !p.is_over())
                .collect();
            if going_on.is_empty() {
                break;
            }
            let (turn, next) = going_on[rng.random_range(0..going_on.len())].clone();
            record.push(turn);
            pos = next;
        }
        let key = key_text(&canon, &pos);
        if pos.plies() == turns && seen.insert(key.clone(), ()).is_none() {
            found.push(Opening {
                index: found.len(),
                key,
                record: notation::format(&rules, &record),
                position: pos,
            });
        }
    }
    found
}
