//! Round robin tournaments: every ordered pair of distinct players, so each pair meets with
//! both colours, all from one seed.

mod plot;
mod report;

use crate::arena::{
    self as arena, GameRecord, MatchCounts, MatchError, PerfectSettings, PlayerName, Standing,
    check_pairing, play_games,
};
use crate::engine::rules::Rules;

pub use report::{PairingRow, publish, rows};

/// Why a tournament could not be set up or played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// Fewer than two players were listed.
    #[error("a tournament needs at least two players, got {0}: list them as a,b,...")]
    TooFewPlayers(usize),
    /// A player was listed more than once.
    #[error("player {0:?} is listed twice: list each player once")]
    Duplicate(String),
    /// Zero games per pairing were asked for.
    #[error("no games to play: give at least 1 game per pairing")]
    NoGames,
    /// A game could not be played to its end.
    #[error(transparent)]
    Match(#[from] MatchError),
}

/// One ordered pairing to play: `p1` moves first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// The player moving first.
    pub p1: PlayerName,
    /// The player moving second.
    pub p2: PlayerName,
    /// Why this pairing cannot be played (a strategy that does not apply to its side), or
    /// `None` when it can.
    pub not_applicable: Option<String>,
}

/// The fixtures of a round robin between `players` under `rules`: every ordered pair of
/// distinct players, in the order listed (row by row of the score matrix).
///
/// # Errors
/// [`TournamentError`] for fewer than two players or a name listed twice.
pub fn schedule(rules: Rules, players: &[PlayerName]) -> Result<Vec<Fixture>, TournamentError> {
    if players.len() < 2 {
        return Err(TournamentError::TooFewPlayers(players.len()));
    }
    for (i, name) in players.iter().enumerate() {
        if players[..i].contains(name) {
            return Err(TournamentError::Duplicate(name.to_string()));
        }
    }
    let mut fixtures = Vec::new();
    for &p1 in players {
        for &p2 in players.iter().filter(|&&p2| p2 != p1) {
            fixtures.push(Fixture {
                p1,
                p2,
                not_applicable: check_pairing(rules, p1, p2).err().map(|e| e.to_string()),
            });
        }
    }
    Ok(fixtures)
}

/// What came of one fixture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingResult {
    /// The games were played; the counts from P1's side.
    Played(MatchCounts),
    /// The pairing was skipped; the reason.
    NotApplicable(String),
}

/// A played (or skipped) fixture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meeting {
    /// The player moving first.
    pub p1: PlayerName,
    /// The player moving second.
    pub p2: PlayerName,
    /// The counts, or why the pairing was skipped.
    pub result: PairingResult,
}

/// A finished round robin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    /// The rules every game was played under.
    pub rules: Rules,
    /// The players, in the order listed.
    pub players: Vec<PlayerName>,
    /// Games per played pairing.
    pub games: u64,
    /// The tournament's seed.
    pub seed: u64,
    /// Every ordered pairing, in schedule order.
    pub pairings: Vec<Meeting>,
}

/// What a tournament plays: the board and rules, the players (in the order listed), the
/// fixtures of [`schedule`], the games per pairing, the seed, and the perfect player's
/// settings.
#[derive(Clone, Copy)]
pub struct Plan<'a> {
    /// The rules and board of every game.
    pub rules: Rules,
    /// The players, in the order listed.
    pub players: &'a [PlayerName],
    /// Every ordered pairing, with the ones that cannot be played marked.
    pub fixtures: &'a [Fixture],
    /// Games per played pairing.
    pub games: u64,
    /// The tournament's seed.
    pub seed: u64,
    /// The perfect player's settings (book, time per move, table).
    pub perfect: &'a PerfectSettings,
}

/// Plays every applicable fixture of `plan` for `plan.games` games. Every pairing uses the
/// match seed `plan.seed`, so game `i` of `a` against `b` and game `i` of `b` against `a`
/// share their game seed (the same opening seed with the colours swapped). Games run in
/// parallel on the current rayon pool; the results do not depend on its number of threads.
/// `done` is called after each game, and `sink` gets every game's record, pairing by pairing
/// in game order.
///
/// # Errors
/// [`TournamentError::NoGames`] when there are no games; [`TournamentError::Match`] when a
/// player has no move in a game it reached (the first such game in schedule order); the first
/// error of `sink`.
pub fn play<E: From<TournamentError> + From<MatchError>>(
    plan: &Plan,
    done: impl Fn() + Sync,
    mut sink: impl FnMut(&GameRecord) -> Result<(), E>,
) -> Result<Tournament, E> {
    let Plan {
        rules,
        players,
        fixtures,
        games,
        seed,
        perfect,
    } = *plan;
    if games == 0 {
        return Err(TournamentError::NoGames.into());
    }
    let mut pairings = Vec::with_capacity(fixtures.len());
    for fixture in fixtures {
        let result = match &fixture.not_applicable {
            Some(reason) => PairingResult::NotApplicable(reason.clone()),
            None => {
                let mut tally = MatchCounts::default();
                let matchup = arena::Matchup {
                    rules,
                    p1: fixture.p1,
                    p2: fixture.p2,
                    perfect,
                };
                play_games(matchup, games, seed, &done, |record| {
                    tally.add(&record);
                    sink(&record)
                })?;
                PairingResult::Played(tally)
            }
        };
        pairings.push(Meeting {
            p1: fixture.p1,
            p2: fixture.p2,
            result,
        });
    }
    Ok(Tournament {
        rules,
        players: players.to_vec(),
        games,
        seed,
        pairings,
    })
}

impl Tournament {
    /// The counts of `p1` (moving first) against `p2`, or `None` when that pairing was skipped
    /// or does not exist.
    pub(crate) fn tally(&self, p1: PlayerName, p2: PlayerName) -> Option<&MatchCounts> {
        self.pairings
            .iter()
            .find(|p| p.p1 == p1 && p.p2 == p2)
            .and_then(|p| match &p.result {
                PairingResult::Played(t) => Some(t),
                PairingResult::NotApplicable(_) => None,
            })
    }

    /// Each player's results over every game it played, with either colour, best score first
    /// (ties in listed order).
    pub fn standings(&self) -> Vec<(PlayerName, Standing)> {
        let mut standings: Vec<(PlayerName, Standing)> = self
            .players
            .iter()
            .map(|&name| {
                let standing = self
                    .pairings
                    .iter()
                    .filter_map(|p| match &p.result {
                        PairingResult::Played(t) if p.p1 == name => Some(Standing::as_p1(t)),
                        PairingResult::Played(t) if p.p2 == name => Some(Standing::as_p2(t)),
                        _ => None,
                    })
                    .fold(Standing::default(), |a, b| a + b);
                (name, standing)
            })
            .collect();
        standings.sort_by(|a, b| b.1.score().total_cmp(&a.1.score()));
        standings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;

    fn names(list: &[&str]) -> Vec<PlayerName> {
        list.iter().map(|s| s.parse().unwrap()).collect()
    }

    #[test]
    fn schedule_lists_ordered_pairs_and_marks_what_cannot_be_played() {
        let rules = Rules::new(4, 5, 4, Variant::Misere).unwrap();
        let fixtures = schedule(rules, &names(&["random", "take-even", "hard"])).unwrap();
        assert_eq!(fixtures.len(), 6);
        let skipped: Vec<(&str, &str)> = fixtures
            .iter()
            .filter(|f| f.not_applicable.is_some())
            .map(|f| (f.p1.as_str(), f.p2.as_str()))
            .collect();
        assert_eq!(skipped, [("take-even", "random"), ("take-even", "hard")]);
    }

    #[test]
    fn schedule_refuses_bad_player_lists() {
        let rules = Rules::standard();
        assert_eq!(
            schedule(rules, &names(&["hard"])),
            Err(TournamentError::TooFewPlayers(1))
        );
        assert_eq!(
            schedule(rules, &names(&["hard", "easy", "hard"])),
            Err(TournamentError::Duplicate("hard".into()))
        );
    }
}
