//! The perfect player against every reply, on boards small enough for brute-force minimax: it
//! never plays a move that changes the game-theoretic value, whatever its time budget, and
//! without a budget every move is the fastest win or the slowest loss.

use crate::support;

use std::collections::HashMap;
use std::time::Duration;

use connectk::arena::{PerfectSettings, PlayerName};
use connectk::strategy::MoveProof;
use connectk::{Column, Mib, Player, Rules, Value, Variant};
use support::brute::Grid;
use support::tree::against_every_reply;

/// The exact value of the position after `moves`, by brute force (finished games included).
fn brute(rules: Rules, moves: &[Column], memo: &mut Option<HashMap<u128, i32>>) -> Value {
    let mut grid = Grid::new(rules);
    let plies = moves.len() as u32;
    let mover = Player::to_move_after(plies.saturating_sub(1));
    for (i, column) in moves.iter().enumerate() {
        grid.drop_disc(column.index() as usize);
        let who = if i % 2 == 0 { 1 } else { 2 };
        if i + 1 == moves.len() && grid.has_line(who) {
            // The last move made a line: the game is over, remoteness 0.
            let result = match rules.variant() {
                Variant::Normal => connectk::GameResult::Win(mover),
                Variant::Misere => connectk::GameResult::Win(mover.other()),
            };
            return Value {
                result,
                remoteness: Some(0),
            };
        }
    }
    if plies == rules.cells() {
        return Value {
            result: connectk::GameResult::Draw,
            remoteness: Some(0),
        };
    }
    let score = grid.minimax(memo);
    Value::from_score(score, rules.cells(), plies, Player::to_move_after(plies))
}

/// Plays the perfect player with `move_time` as `player` against every reply and checks each
/// of its moves against brute force; returns how many moves it proved best and how many only
/// value-keeping.
fn check(rules: Rules, player: Player, move_time: Option<Duration>) -> (u32, u32) {
    let settings = PerfectSettings::new(Mib(2), None, move_time);
    let mut perfect = PlayerName::Perfect
        .build(rules, player, 5, &settings)
        .unwrap();
    let mut memo = Some(HashMap::new());
    let (mut best, mut keeping) = (0, 0);
    against_every_reply(
        rules,
        player,
        rules.cells(),
        &mut *perfect,
        |_, moves, column, p| {
            let before = brute(rules, moves, &mut memo);
            let mut after_moves = moves.to_vec();
            after_moves.push(column);
            let after = brute(rules, &after_moves, &mut memo);
            let line = connectk::notation::format(rules, &after_moves);
            assert_eq!(
                after.result, before.result,
                "{rules}: {player} changed the value: {line}"
            );
            match p.last_proof() {
                Some(MoveProof::Best) => {
                    best += 1;
                    assert_eq!(
                        after.remoteness.map(|r| r + 1),
                        before.remoteness,
                        "{rules}: {line}"
                    );
                }
                Some(MoveProof::KeepsValue) => keeping += 1,
                None => panic!("the perfect player reports its proofs"),
            }
        },
    );
    (best, keeping)
}

#[test]
fn the_perfect_player_keeps_the_value_against_every_reply() {
    let boards = [(4, 4, 4), (4, 5, 3), (3, 4, 3)];
    for (k, width, height) in boards {
        for variant in [Variant::Normal, Variant::Misere] {
            let rules = Rules::new(k, width, height, variant).unwrap();
            for player in [Player::P1, Player::P2] {
                // Without a budget every move is proven best; with none at all, the moves the
                // book or a single value-keeping move do not settle keep the value only.
                let (_, keeping) = check(rules, player, None);
                assert_eq!(keeping, 0, "{rules} {player}: unlimited moves are all best");
                let (best, keeping) = check(rules, player, Some(Duration::ZERO));
                assert!(best + keeping > 0, "{rules} {player}");
            }
        }
    }
}

/// `Solver::keeping_moves` against brute force, in every position of random games on small
/// boards: without a deadline it settles every move and returns exactly the moves that keep
/// the value; with a deadline already passed it still returns at least one move, and only
/// moves that keep the value.
#[test]
fn keeping_moves_are_the_moves_that_keep_the_value() {
    use connectk::{Position, Solver};
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(19);
    for (k, width, height) in [(4, 4, 4), (4, 5, 3), (3, 4, 3), (3, 3, 4)] {
        for variant in [Variant::Normal, Variant::Misere] {
            let rules = Rules::new(k, width, height, variant).unwrap();
            let mut memo = Some(HashMap::new());
            let mut solver = Solver::new(Mib(2));
            for _ in 0..20 {
                let mut pos = Position::new(rules);
                let mut moves = Vec::new();
                while !pos.is_over() {
                    let before = brute(rules, &moves, &mut memo);
                    let keeps: Vec<Column> = pos
                        .legal_columns()
                        .into_iter()
                        .filter(|&c| {
                            let mut after = moves.clone();
                            after.push(c);
                            brute(rules, &after, &mut memo).result == before.result
                        })
                        .collect();
                    let line = connectk::notation::format(rules, &moves);
                    let all = solver.keeping_moves(&pos, None);
                    assert!(all.complete, "{rules} {line}");
                    assert_eq!(all.value.result, before.result, "{rules} {line}");
                    let mut settled = all.moves.clone();
                    settled.sort_unstable();
                    assert_eq!(settled, keeps, "{rules} {line}");
                    // A fresh solver, so that nothing is settled from the table already.
                    let hurried =
                        Solver::new(Mib(1)).keeping_moves(&pos, Some(std::time::Instant::now()));
                    assert!(!hurried.moves.is_empty(), "{rules} {line}");
                    assert!(
                        hurried.moves.iter().all(|c| keeps.contains(c)),
                        "{rules} {line}"
                    );
                    let legal = pos.legal_columns();
                    let column = legal[rng.random_range(0..legal.len())];
                    pos.play(column).unwrap();
                    moves.push(column);
                }
            }
        }
    }
}
