//! Opponents of every strength and matches between any two players.

pub mod bots;
pub mod human;
pub mod matches;
pub mod plot;
pub mod report;
pub mod stats;
pub mod tournament;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::engine::outcome::Player;
use crate::engine::rules::Rules;
use crate::strategy::{self, LookupError, Strategy};

pub use bots::{Level, Perfect, Random, RuleBot};

/// Every player name the arena knows: the bots, then the paper's strategies.
pub const PLAYER_NAMES: &[&str] = &[
    "random",
    "easy",
    "medium",
    "hard",
    "perfect",
    "take-even",
    "delayed-take-even",
    "pairing",
    "tally",
    "canonical",
];

/// The player called `name`, playing `player` under `rules`, with its randomness seeded by
/// `seed`.
///
/// # Errors
/// [`LookupError`] for an unknown name or a paper strategy that does not apply here.
pub fn player(
    name: &str,
    rules: Rules,
    player: Player,
    seed: u64,
) -> Result<Box<dyn Strategy>, LookupError> {
    let rng = ChaCha8Rng::seed_from_u64(seed);
    Ok(match name {
        "random" => Box::new(Random::new(rng)),
        "easy" => Box::new(RuleBot::new(Level::Easy, rng)),
        "medium" => Box::new(RuleBot::new(Level::Medium, rng)),
        "hard" => Box::new(RuleBot::new(Level::Hard, rng)),
        "perfect" => Box::new(Perfect::new(rng)),
        other => strategy::by_name(other, rules, player).map_err(|e| match e {
            LookupError::Unknown { name, .. } => LookupError::Unknown {
                name,
                known: PLAYER_NAMES.join(", "),
            },
            e => e,
        })?,
    })
}
