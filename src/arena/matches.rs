//! Playing games between two named players, one or many, reproducibly from a seed.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::analysis::GameState;
use crate::engine::outcome::{GameResult, Player};
use crate::engine::position::{Column, Position};
use crate::engine::rules::Rules;
use crate::strategy::{Game, MoveProof, StrategyError};

use super::{PerfectSettings, PlayerName};

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRecord {
    /// `normal` or `misere`.
    pub rules: &'static str,
    /// Line length.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
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
    /// The cells of the completed line, as `column:row` from 0 at the bottom left,
    /// space-separated (empty for a full board).
    pub winning_cells: String,
    /// The same cells as flat indices `row * width + column` with row 0 at the top, as web
    /// game services number a board, space-separated.
    pub winning_indices: String,
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
    /// The record of a finished game between `p1` and `p2` played with `seed`, which reached
    /// `pos` by `moves`, with the proofs and times of the moves of its proving player(s).
    ///
    /// # Panics
    /// If the game is not over.
    fn of(
        p1: PlayerName,
        p2: PlayerName,
        seed: u64,
        pos: &Position,
        moves: &[Column],
        proofs: &[MoveProof],
        move_ms: Vec<f64>,
    ) -> GameRecord {
        let rules = pos.rules();
        let state = GameState::of(pos, &crate::engine::notation::format(rules, moves));
        let joined = |items: Vec<String>| items.join(" ");
        GameRecord {
            rules: state.rules,
            k: state.k,
            width: state.width,
            height: state.height,
            p1: p1.as_str(),
            p2: p2.as_str(),
            seed,
            outcome: state.winner.expect("the game is over"),
            reason: state.reason.expect("the game is over"),
            length: state.plies,
            winning_cells: joined(
                state
                    .winning_cells
                    .iter()
                    .map(|[c, r]| format!("{c}:{r}"))
                    .collect(),
            ),
            winning_indices: joined(state.winning_indices.iter().map(u32::to_string).collect()),
            moves: state.moves,
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
        }
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
        /// The player's error (part of the message, so not given as its source too).
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

/// Who meets whom in a match: the rules, both players, and the settings of any perfect player
/// among them (its time budget, book and table).
#[derive(Clone, Copy)]
pub struct Matchup<'a> {
    /// The rules of every game.
    pub rules: Rules,
    /// The first player.
    pub p1: PlayerName,
    /// The second player.
    pub p2: PlayerName,
    /// How a perfect player among them plays.
    pub perfect: &'a PerfectSettings,
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

/// Plays one game of `matchup` from the empty board, the players' randomness from `seed`.
///
/// # Errors
/// [`MatchError`] when a strategy does not apply or a player has no move.
pub fn play_game(matchup: Matchup, seed: u64) -> Result<GameRecord, MatchError> {
    let Matchup {
        rules,
        p1,
        p2,
        perfect,
    } = matchup;
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
    Ok(GameRecord::of(p1, p2, seed, &pos, &moves, &proofs, move_ms))
}

/// Games played in parallel between two deliveries to the sink of [`play_seeded`]: enough
/// to keep every core busy, few enough that memory stays small however many games are asked
/// for.
const BATCH: u64 = 1024;

/// Plays `games` games in parallel, game `i` by `play` with [`game_seed`]`(seed, i)`, and hands
/// each result to `sink` in game order, a batch at a time, so that any number of games runs in
/// bounded memory. `done` is called after each game. The match loop of every game the arena
/// plays, Connect-k's and Quarto's.
///
/// # Errors
/// The first error of `play` in game order, or the first error of `sink`; the games after it
/// are not played.
pub fn play_seeded<R: Send, M: Send, E: From<M>>(
    games: u64,
    seed: u64,
    play: impl Fn(u64) -> Result<R, M> + Sync,
    done: impl Fn() + Sync,
    mut sink: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E> {
    let mut start = 0;
    while start < games {
        let end = games.min(start.saturating_add(BATCH));
        let batch: Vec<R> = (start..end)
            .into_par_iter()
            .map(|i| {
                let result = play(game_seed(seed, i));
                done();
                result
            })
            .collect::<Result<_, M>>()?;
        for result in batch {
            sink(result)?;
        }
        start = end;
    }
    Ok(())
}

/// Plays `games` games of `matchup` with [`play_seeded`] (identical whatever the number of
/// threads, unless a perfect player's time budget runs out: its choice then depends on how
/// far its search got).
///
/// # Errors
/// The first [`MatchError`] in game order, or the first error of `sink`; the games after it
/// are not played.
pub fn play_games<E: From<MatchError>>(
    matchup: Matchup,
    games: u64,
    seed: u64,
    done: impl Fn() + Sync,
    sink: impl FnMut(GameRecord) -> Result<(), E>,
) -> Result<(), E> {
    play_seeded(games, seed, |s| play_game(matchup, s), done, sink)
}

/// Every record of [`play_games`], in game order.
///
/// # Errors
/// The first [`MatchError`] in game order.
pub fn play_match(
    matchup: Matchup,
    games: u64,
    seed: u64,
    done: impl Fn() + Sync,
) -> Result<Vec<GameRecord>, MatchError> {
    let mut records = Vec::new();
    play_games(matchup, games, seed, done, |record| {
        records.push(record);
        Ok::<(), MatchError>(())
    })?;
    Ok(records)
}

/// Counts of a match from P1's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchCounts {
    /// Games won by P1.
    pub p1_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games won by P2.
    pub p2_wins: u64,
    /// Total length of the games (plies; turns in Quarto).
    pub plies: u64,
    /// Longest game.
    pub longest: u32,
}

impl MatchCounts {
    /// Counts the records.
    pub fn of(records: &[GameRecord]) -> MatchCounts {
        let mut t = MatchCounts::default();
        for r in records {
            t.add(r);
        }
        t
    }

    /// Counts one more game.
    pub fn add(&mut self, record: &GameRecord) {
        let result = GameResult::from_label(record.outcome).unwrap_or(GameResult::Draw);
        self.count(result, record.length);
    }

    /// Counts one more game, of any game the arena plays: its result and its length.
    pub(crate) fn count(&mut self, result: GameResult, length: u32) {
        match result {
            GameResult::Win(Player::P1) => self.p1_wins += 1,
            GameResult::Win(Player::P2) => self.p2_wins += 1,
            GameResult::Draw => self.draws += 1,
        }
        self.plies += u64::from(length);
        self.longest = self.longest.max(length);
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
    pub fn as_p1(tally: &MatchCounts) -> Standing {
        Standing {
            wins: tally.p1_wins,
            draws: tally.draws,
            losses: tally.p2_wins,
        }
    }

    /// The results of P2 in a match counted by `tally`.
    pub fn as_p2(tally: &MatchCounts) -> Standing {
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
