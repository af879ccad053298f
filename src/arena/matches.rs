//! Playing games between two named players, one or many, reproducibly from a seed.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::engine::outcome::{GameResult, Player, Reason};
use crate::engine::position::{Column, Position};
use crate::engine::rules::Rules;
use crate::strategy::{Game, MoveProof, StrategyError};

use super::{PerfectSettings, PlayerName};

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRecord {
    /// The first player's name.
    pub p1: &'static str,
    /// The second player's name.
    pub p2: &'static str,
    /// The game's seed (both players' randomness derives from it).
    pub seed: u64,
    /// The moves, in move notation.
    pub moves: String,
    /// `P1`, `P2` or `Draw`.
    pub outcome: &'static str,
    /// `line` or `board-full`.
    pub reason: &'static str,
    /// Plies played.
    pub length: u32,
    /// For a game with a player that proves its moves (`perfect`): `best` when each of its
    /// moves was proven the fastest win or slowest loss, `value` when some were proven only
    /// to keep the game-theoretic value (its time budget ran out first); empty otherwise.
    pub proof: &'static str,
    /// Moves of the proving player(s) proven only to keep the value.
    pub value_only_moves: u32,
    /// The slowest move of the proving player(s), in milliseconds (0 without one).
    pub slowest_ms: f64,
    /// The time of each move of the proving player(s), in milliseconds, in game order (not
    /// in the CSV).
    #[serde(skip)]
    pub move_ms: Vec<f64>,
}

impl GameRecord {
    /// Whether game records `a` and `b` are the same game (times aside, which vary from run
    /// to run).
    pub fn same_game(a: &GameRecord, b: &GameRecord) -> bool {
        (a.p1, a.p2, a.seed, &a.moves, a.outcome, a.reason, a.length)
            == (b.p1, b.p2, b.seed, &b.moves, b.outcome, b.reason, b.length)
    }
}

/// Why a game could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// A player's strategy does not apply to its side.
    #[error(transparent)]
    NotApplicable(#[from] StrategyError),
    /// A player had no move for a position it reached.
    #[error("game with seed {seed}, after moves \"{moves}\": {cause}")]
    NoMove {
        /// The game's seed.
        seed: u64,
        /// The moves played so far.
        moves: String,
        /// The player's error.
        #[source]
        cause: StrategyError,
    },
}

/// The seed of game `index` of a match seeded by `seed` (a fixed mix, so every game has its
/// own stream whatever the number of threads).
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut x = seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Checks that `p1` and `p2` can meet under `rules` by setting up both players once.
///
/// # Errors
/// [`StrategyError`] when a strategy does not apply to its side.
pub fn check_pairing(rules: Rules, p1: PlayerName, p2: PlayerName) -> Result<(), StrategyError> {
    let perfect = PerfectSettings::default();
    p1.build(rules, Player::P1, 0, &perfect)?;
    p2.build(rules, Player::P2, 0, &perfect)?;
    Ok(())
}

/// Plays one game of `p1` against `p2` from the empty board, a perfect player with solvers
/// from `perfect`.
///
/// # Errors
/// [`MatchError`] when a strategy does not apply or a player has no move.
pub fn play_game(
    rules: Rules,
    p1: PlayerName,
    p2: PlayerName,
    seed: u64,
    perfect: &PerfectSettings,
) -> Result<GameRecord, MatchError> {
    let mut first = p1.build(rules, Player::P1, seed, perfect)?;
    let mut second = p2.build(rules, Player::P2, seed.wrapping_add(1), perfect)?;
    let mut pos = Position::new(rules);
    let mut moves: Vec<Column> = Vec::new();
    let mut proofs: Vec<MoveProof> = Vec::new();
    let mut move_ms: Vec<f64> = Vec::new();
    while !pos.is_over() {
        let mover = if pos.to_move() == Player::P1 {
            &mut first
        } else {
            &mut second
        };
        let game = Game {
            position: &pos,
            moves: &moves,
        };
        let start = Instant::now();
        let chosen = mover.choose(game);
        if let Some(proof) = mover.last_proof() {
            proofs.push(proof);
            move_ms.push(start.elapsed().as_secs_f64() * 1e3);
        }
        let column = chosen
            .and_then(|c| {
                pos.check_move(c).map_err(|e| StrategyError::OutsideProof {
                    strategy: "arena",
                    reason: e.to_string(),
                })?;
                Ok(c)
            })
            .map_err(|cause| MatchError::NoMove {
                seed,
                moves: crate::engine::notation::format(rules, &moves),
                cause,
            })?;
        pos.play(column).expect("checked move");
        moves.push(column);
    }
    let outcome = pos.outcome().expect("game over");
    Ok(GameRecord {
        p1: p1.as_str(),
        p2: p2.as_str(),
        seed,
        moves: crate::engine::notation::format(rules, &moves),
        outcome: outcome.result.label(),
        reason: match outcome.reason {
            Reason::Line { .. } => "line",
            Reason::BoardFull => "board-full",
        },
        length: pos.plies(),
        proof: if proofs.is_empty() {
            ""
        } else if proofs.iter().all(|&p| p == MoveProof::Best) {
            "best"
        } else {
            "value"
        },
        value_only_moves: proofs
            .iter()
            .filter(|&&p| p == MoveProof::KeepsValue)
            .count() as u32,
        slowest_ms: move_ms.iter().copied().fold(0.0, f64::max),
        move_ms,
    })
}

/// Plays `games` games in parallel; game `i` uses [`game_seed`]`(seed, i)`. The records come
/// back in game order, the same games whatever the number of threads (unless a perfect
/// player's time budget runs out: its choice then depends on how far its search got).
///
/// # Errors
/// The first [`MatchError`] in game order.
pub fn play_match(
    rules: Rules,
    p1: PlayerName,
    p2: PlayerName,
    games: u64,
    seed: u64,
    perfect: &PerfectSettings,
    done: impl Fn() + Sync,
) -> Result<Vec<GameRecord>, MatchError> {
    (0..games)
        .into_par_iter()
        .map(|i| {
            let record = play_game(rules, p1, p2, game_seed(seed, i), perfect);
            done();
            record
        })
        .collect()
}

/// Counts of a match from P1's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won by P1.
    pub p1_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games won by P2.
    pub p2_wins: u64,
    /// Total plies.
    pub plies: u64,
    /// Longest game.
    pub longest: u32,
}

impl Tally {
    /// Counts the records.
    pub fn of(records: &[GameRecord]) -> Tally {
        let mut t = Tally::default();
        for r in records {
            match GameResult::from_label(r.outcome) {
                Some(GameResult::Win(Player::P1)) => t.p1_wins += 1,
                Some(GameResult::Win(Player::P2)) => t.p2_wins += 1,
                _ => t.draws += 1,
            }
            t.plies += r.length as u64;
            t.longest = t.longest.max(r.length);
        }
        t
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.p1_wins + self.draws + self.p2_wins
    }

    /// Mean game length in plies (0 before any game).
    pub fn mean_length(&self) -> f64 {
        self.plies as f64 / self.games().max(1) as f64
    }
}

/// One player's results over a set of games, whichever colour it played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Games the player won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the player lost.
    pub losses: u64,
}

impl Standing {
    /// The results of P1 in a match counted by `tally`.
    pub fn as_p1(tally: &Tally) -> Standing {
        Standing {
            wins: tally.p1_wins,
            draws: tally.draws,
            losses: tally.p2_wins,
        }
    }

    /// The results of P2 in a match counted by `tally`.
    pub fn as_p2(tally: &Tally) -> Standing {
        Standing {
            wins: tally.p2_wins,
            draws: tally.draws,
            losses: tally.p1_wins,
        }
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, a win counting 1 and a draw 1/2 (0 before any game).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }
}

impl std::ops::Add for Standing {
    type Output = Standing;

    fn add(self, other: Standing) -> Standing {
        Standing {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
        }
    }
}
