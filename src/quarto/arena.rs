//! Matches between Quarto players, played by the arena's match loop: seeded games in
//! parallel and their records.

use std::convert::Infallible;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::arena::{MatchCounts, play_seeded};
use crate::{GameResult, Player};

use super::notation;
use super::players::Kind;
use super::position::{Position, Reason};
use super::rules::Rules;

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRecord {
    /// The first player (hands over the first piece).
    pub p1: &'static str,
    /// The second player (places first).
    pub p2: &'static str,
    /// The game's seed.
    pub seed: u64,
    /// The game record.
    pub record: String,
    /// `P1`, `P2` or `Draw`.
    pub outcome: &'static str,
    /// `line`, `board full` or `pieces gone`, with the line's cells for a line.
    pub reason: String,
    /// Turns played, the opening handover included.
    pub length: u32,
}

/// Plays one game between `p1` and `p2` with random choices seeded by `seed` (P1's from
/// `seed`, P2's from `seed + 1`, as the arena seeds Connect-k's players).
pub(crate) fn play_game(rules: Rules, p1: Kind, p2: Kind, seed: u64) -> GameRecord {
    let mut players = [
        p1.bot(ChaCha8Rng::seed_from_u64(seed)),
        p2.bot(ChaCha8Rng::seed_from_u64(seed.wrapping_add(1))),
    ];
    let mut pos = Position::new(rules);
    let mut turns = Vec::new();
    while !pos.is_over() {
        let side = usize::from(pos.to_move() == Player::P2);
        let turn = players[side]
            .choose(&pos)
            .expect("a game that goes on has turns");
        pos = pos.play(turn).expect("players choose legal turns");
        turns.push(turn);
    }
    let outcome = pos.outcome().expect("the game is over");
    let reason = match &outcome.reason {
        Reason::Line { cells, .. } => {
            let names: Vec<String> = cells.iter().map(|c| c.name(&rules)).collect();
            format!("line {}", names.join(" "))
        }
        Reason::BoardFull => "board full".to_string(),
        Reason::PiecesGone => "pieces gone".to_string(),
    };
    GameRecord {
        p1: p1.name(),
        p2: p2.name(),
        seed,
        record: notation::format(&rules, &turns),
        outcome: outcome.result.label(),
        reason,
        length: pos.plies(),
    }
}

/// Plays `games` games in parallel with the arena's match loop: game `i` is seeded by
/// [`crate::arena::game_seed`]`(seed, i)`, so the games do not depend on the number of
/// threads. `progress` is called after each game.
pub fn play_match(
    rules: Rules,
    p1: Kind,
    p2: Kind,
    games: u64,
    seed: u64,
    progress: &(dyn Fn() + Sync),
) -> Vec<GameRecord> {
    let mut records = Vec::new();
    let played = play_seeded(
        games,
        seed,
        |s| Ok::<_, Infallible>(play_game(rules, p1, p2, s)),
        progress,
        |record| {
            records.push(record);
            Ok::<(), Infallible>(())
        },
    );
    match played {
        Ok(()) => records,
        Err(never) => match never {},
    }
}

/// The counts of `games`, from P1's side.
pub fn counts(games: &[GameRecord]) -> MatchCounts {
    let mut counts = MatchCounts::default();
    for game in games {
        let result = GameResult::from_label(game.outcome).unwrap_or(GameResult::Draw);
        counts.count(result, game.length);
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn games_are_seeded_and_perfect_play_gets_the_solved_value() {
        let rules = Rules::new(3, 3, None, Variant::Normal, false).unwrap();
        let a = play_match(rules, Kind::Random, Kind::Careful, 20, 7, &|| {});
        let b = play_match(rules, Kind::Random, Kind::Careful, 20, 7, &|| {});
        assert_eq!(a, b);
        // Normal 3x3 with three attributes: P2 wins in 6 turns with perfect play.
        let perfect = play_game(rules, Kind::Perfect, Kind::Perfect, 1);
        assert_eq!((perfect.outcome, perfect.length), ("P2", 6));
        assert_eq!(counts(&a).games(), 20);
    }
}
