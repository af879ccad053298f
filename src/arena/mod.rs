//! Opponents of every strength and matches between any two players.

mod bots;
pub mod human;
mod matches;
mod perfect;
mod stats;

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::engine::outcome::Player;
use crate::engine::rules::Rules;
use crate::strategy::{Strategy, StrategyError, StrategyName, UnknownName};

pub use bots::{Level, Random, RuleBot, blocking_moves, winning_moves};
pub use matches::{
    GameRecord, MatchCounts, MatchError, Matchup, Standing, check_pairing, game_seed, play_game,
    play_games, play_match, play_seeded,
};
pub use perfect::{PERFECT_TABLE, Perfect, PerfectSettings, safest_moves};
pub use stats::wilson;

/// Every player the arena knows: the bots, then the paper's strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerName {
    /// Uniformly random legal moves ([`Random`]).
    Random,
    /// One of the game service's bot levels ([`RuleBot`]).
    Bot(Level),
    /// The solver's best move ([`Perfect`]).
    Perfect,
    /// One of the paper's strategies, where it applies.
    Strategy(StrategyName),
}

/// Every player name, in the order `--help` lists them.
static ALL: LazyLock<Vec<PlayerName>> = LazyLock::new(|| {
    let bots = [
        PlayerName::Random,
        PlayerName::Bot(Level::Easy),
        PlayerName::Bot(Level::Medium),
        PlayerName::Bot(Level::Hard),
        PlayerName::Perfect,
    ];
    bots.into_iter()
        .chain(StrategyName::ALL.map(PlayerName::Strategy))
        .collect()
});

impl PlayerName {
    /// Every player name, bots first.
    pub fn all() -> &'static [PlayerName] {
        &ALL
    }

    /// The name on the command line and in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            PlayerName::Random => "random",
            PlayerName::Bot(level) => level.as_str(),
            PlayerName::Perfect => "perfect",
            PlayerName::Strategy(strategy) => strategy.as_str(),
        }
    }

    /// The player, playing `player` under `rules`, with its randomness seeded by `seed`; a
    /// perfect player takes a solver from `perfect` for as long as it lives.
    ///
    /// # Errors
    /// [`StrategyError::NotApplicable`] for a paper strategy that does not apply here.
    pub fn build(
        self,
        rules: Rules,
        player: Player,
        seed: u64,
        perfect: &PerfectSettings,
    ) -> Result<Box<dyn Strategy>, StrategyError> {
        let rng = ChaCha8Rng::seed_from_u64(seed);
        Ok(match self {
            PlayerName::Random => Box::new(Random::new(rng)),
            PlayerName::Bot(level) => Box::new(RuleBot::new(level, rng)),
            PlayerName::Perfect => Box::new(Perfect::new(rng, perfect)),
            PlayerName::Strategy(strategy) => strategy.build(rules, player)?,
        })
    }
}

impl fmt::Display for PlayerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for PlayerName {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<PlayerName, UnknownName> {
        PlayerName::all()
            .iter()
            .copied()
            .find(|p| p.as_str() == name)
            .ok_or_else(|| UnknownName {
                what: "player",
                name: name.to_string(),
                known: PlayerName::all()
                    .iter()
                    .map(|p| p.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

#[cfg(feature = "cli")]
impl clap::ValueEnum for PlayerName {
    fn value_variants<'a>() -> &'a [PlayerName] {
        PlayerName::all()
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}
