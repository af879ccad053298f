//! How long a hint takes: the value of every move of each position met in random games, asked
//! one position after another of a solver kept from move to move, as `play`'s hint and the
//! web page's analysis ask it. This is the figure behind "each column's value within 2 s at
//! every ply": the time until every move's value is known, or, with a budget, how many were
//! known when it ran out.

use std::time::Instant;

use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::analysis::{column_values, perfect_values};
use crate::engine::notation;
use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::solver::{Budget, Depth, Solver};

/// A position met in a random game.
#[derive(Clone, Debug, PartialEq)]
pub struct GamePosition {
    /// The game, counted from 0.
    pub game: u32,
    /// The position.
    pub position: Position,
    /// The moves that led to it, in the notation of `solve --moves`.
    pub moves: String,
}

/// The unfinished positions of `games` random games (each move drawn uniformly from the legal
/// ones by a ChaCha8 generator seeded with `seed`), from the empty board to `max_ply` discs or
/// the end of the game, game after game. The same arguments give the same positions.
pub fn random_positions(rules: Rules, games: u32, seed: u64, max_ply: u32) -> Vec<GamePosition> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut positions = Vec::new();
    for game in 0..games {
        let mut position = Position::new(rules);
        let mut moves = Vec::new();
        while !position.is_over() && position.plies() <= max_ply {
            positions.push(GamePosition {
                game,
                position,
                moves: notation::format(rules, &moves),
            });
            let legal = position.legal_columns();
            let column = legal[rng.random_range(0..legal.len())];
            position.play(column).expect("a legal column");
            moves.push(column);
        }
    }
    positions
}

/// What one hint took.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HintTiming {
    /// The game the position comes from.
    pub game: u32,
    /// Discs on the board.
    pub ply: u32,
    /// The moves that led to the position.
    pub moves: String,
    /// Wall-clock seconds until the hint returned.
    pub seconds: f64,
    /// Nodes searched.
    pub nodes: u64,
    /// Moves whose value the hint found at the depth asked (the outcome, or the exact value).
    pub settled: usize,
    /// Legal moves.
    pub legal: usize,
}

/// The hint of the position `at` within `budget`, timed: at [`Depth::Weak`] every move's
/// outcome, at [`Depth::Strong`] what `play`'s hint gives (every move's outcome, then its exact
/// value with the time left; see [`perfect_values`]).
pub fn time_hint(
    solver: &mut Solver,
    at: &GamePosition,
    depth: Depth,
    budget: Budget,
) -> HintTiming {
    let start = Instant::now();
    let values = match depth {
        Depth::Weak => column_values(solver, &at.position, Depth::Weak, budget),
        Depth::Strong => perfect_values(solver, &at.position, budget),
    };
    let seconds = start.elapsed().as_secs_f64();
    HintTiming {
        game: at.game,
        ply: at.position.plies(),
        moves: at.moves.clone(),
        seconds,
        nodes: values.nodes,
        settled: values
            .moves
            .iter()
            .filter(|(_, v)| v.is_some_and(|v| depth == Depth::Weak || v.remoteness.is_some()))
            .count(),
        legal: values.moves.len(),
    }
}

/// The hints of one ply, summed up.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyLatency {
    /// Discs on the board.
    pub ply: u32,
    /// Positions timed.
    pub positions: usize,
    /// Mean seconds per hint.
    pub mean_seconds: f64,
    /// The slowest hint's seconds.
    pub max_seconds: f64,
    /// The slowest hint's moves.
    pub slowest: String,
    /// Hints that took longer than the limit.
    pub over_limit: usize,
    /// Hints that left some move's value unsettled.
    pub incomplete: usize,
}

/// `timings` summed up by ply, in order of ply; `limit` in seconds.
pub fn by_ply(timings: &[HintTiming], limit: f64) -> Vec<PlyLatency> {
    let last = timings.iter().map(|t| t.ply).max();
    let mut plies = Vec::new();
    for ply in 0..=last.unwrap_or(0) {
        let of_ply: Vec<&HintTiming> = timings.iter().filter(|t| t.ply == ply).collect();
        let Some(slowest) = of_ply.iter().max_by(|a, b| a.seconds.total_cmp(&b.seconds)) else {
            continue;
        };
        plies.push(PlyLatency {
            ply,
            positions: of_ply.len(),
            mean_seconds: of_ply.iter().map(|t| t.seconds).sum::<f64>() / of_ply.len() as f64,
            max_seconds: slowest.seconds,
            slowest: slowest.moves.clone(),
            over_limit: of_ply.iter().filter(|t| t.seconds > limit).count(),
            incomplete: of_ply.iter().filter(|t| t.settled < t.legal).count(),
        });
    }
    plies
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;
    use crate::solver::Mib;

    fn rules() -> Rules {
        Rules::new(4, 5, 4, Variant::Misere).unwrap()
    }

    #[test]
    fn random_games_are_reproducible_and_legal() {
        let positions = random_positions(rules(), 3, 7, 6);
        assert_eq!(positions, random_positions(rules(), 3, 7, 6));
        assert_ne!(
            positions.iter().map(|p| &p.moves).collect::<Vec<_>>(),
            random_positions(rules(), 3, 8, 6)
                .iter()
                .map(|p| &p.moves)
                .collect::<Vec<_>>()
        );
        // Each game starts from the empty board and goes one disc at a time to ply 6.
        for game in 0..3 {
            let plies: Vec<u32> = positions
                .iter()
                .filter(|p| p.game == game)
                .map(|p| p.position.plies())
                .collect();
            assert_eq!(plies, (0..=6).collect::<Vec<_>>());
        }
        for p in &positions {
            let (replayed, _) = notation::parse(rules(), &p.moves).unwrap();
            assert_eq!(replayed, p.position);
        }
    }

    #[test]
    fn a_hint_settles_every_move_without_limit_and_not_with_one_node() {
        let mut solver = Solver::new(Mib(4));
        for at in random_positions(rules(), 2, 1, 8) {
            for depth in [Depth::Weak, Depth::Strong] {
                let timing = time_hint(&mut solver, &at, depth, Budget::UNLIMITED);
                assert_eq!(timing.legal, at.position.legal_columns().len());
                assert_eq!(timing.settled, timing.legal, "{}", at.moves);
            }
        }
        let timing = time_hint(
            &mut Solver::new(Mib(4)),
            &random_positions(rules(), 1, 1, 0)[0],
            Depth::Strong,
            Budget::nodes(1),
        );
        assert!(timing.settled < timing.legal);
    }

    #[test]
    fn plies_sum_up_their_hints() {
        let timing = |ply, moves: &str, seconds, settled| HintTiming {
            game: 0,
            ply,
            moves: moves.to_string(),
            seconds,
            nodes: 1,
            settled,
            legal: 2,
        };
        let timings = [
            timing(0, "", 0.5, 2),
            timing(2, "11", 3.0, 1),
            timing(2, "12", 1.0, 2),
        ];
        let plies = by_ply(&timings, 2.0);
        assert_eq!(plies.len(), 2);
        assert_eq!(
            (plies[0].ply, plies[0].positions, plies[0].over_limit),
            (0, 1, 0)
        );
        assert_eq!(plies[1].ply, 2);
        assert_eq!(plies[1].mean_seconds, 2.0);
        assert_eq!(
            (plies[1].max_seconds, plies[1].slowest.as_str()),
            (3.0, "11")
        );
        assert_eq!((plies[1].over_limit, plies[1].incomplete), (1, 1));
    }
}
