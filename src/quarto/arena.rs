//! Matches between Quarto players: seeded games in parallel, their records and a tally.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;

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

/// Plays one game between `p1` and `p2` with random choices seeded by `seed`.
pub fn play_game(rules: Rules, p1: Kind, p2: Kind, seed: u64) -> GameRecord {
    let mut players = [
        p1.player(ChaCha8Rng::seed_from_u64(seed)),
        p2.player(ChaCha8Rng::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15)),
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

/// Plays `games` games in parallel; game `i` is seeded from `seed` and `i`, so the games do
/// not depend on the number of threads. `progress` is called after each game.
pub fn play_match(
    rules: Rules,
    p1: Kind,
    p2: Kind,
    games: u64,
    seed: u64,
    progress: &(dyn Fn() + Sync),
) -> Vec<GameRecord> {
    (0..games)
        .into_par_iter()
        .map(|i| {
            let game = play_game(rules, p1, p2, seed.wrapping_mul(1_000_003).wrapping_add(i));
            progress();
            game
        })
        .collect()
}

/// Results of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won by P1, drawn, won by P2.
    pub counts: [u64; 3],
    /// Sum of the game lengths.
    pub turns: u64,
    /// Longest game.
    pub longest: u32,
}

impl Tally {
    /// Counts `games`.
    pub fn of(games: &[GameRecord]) -> Tally {
        games.iter().fold(Tally::default(), |mut t, g| {
            let slot = match GameResult::from_label(g.outcome) {
                Some(GameResult::Win(Player::P1)) => 0,
                Some(GameResult::Draw) => 1,
                _ => 2,
            };
            t.counts[slot] += 1;
            t.turns += u64::from(g.length);
            t.longest = t.longest.max(g.length);
            t
        })
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.counts.iter().sum()
    }
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
        let tally = Tally::of(&a);
        assert_eq!(tally.games(), 20);
    }
}
