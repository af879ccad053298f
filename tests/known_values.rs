//! Published values of whole games.

use connectk::{Depth, GameResult, Mib, Player, Position, Rules, Solver, Variant};

#[test]
fn normal_4x4_connect_4_is_a_draw_to_the_last_cell() {
    let rules = Rules::new(4, 4, 4, Variant::Normal).unwrap();
    let value = Solver::new(Mib(64)).solve(&Position::new(rules)).value;
    assert_eq!(value.result, GameResult::Draw);
    assert_eq!(value.remoteness, Some(16));
}

#[test]
fn misere_3x3_connect_3_is_a_first_player_win() {
    let rules = Rules::new(3, 3, 3, Variant::Misere).unwrap();
    let mut solver = Solver::new(Mib(1));
    let strong = solver.solve(&Position::new(rules)).value;
    assert_eq!(strong.result, GameResult::Win(Player::P1));
    // P1 wins, so the game ends on a P2 move: an even number of plies.
    let remoteness = strong.remoteness.unwrap();
    assert!(
        remoteness.is_multiple_of(2) && remoteness <= 9,
        "remoteness {remoteness}"
    );
    let weak = solver.solve_weak(&Position::new(rules)).value;
    assert_eq!(weak.result, GameResult::Win(Player::P1));
}

/// Allis (1988) and Allen (1989): the first player wins standard Connect Four.
///
/// 79 to 111 s in release on this 2-core machine with a 512 MiB table (the UCI test is slower),
/// which keeps the whole suite well inside CI's budget.
#[test]
#[ignore = "slow: solves standard Connect Four (50 s); run by .ci/run with --ignored"]
fn standard_connect_4_is_a_first_player_win() {
    let value = Solver::new(Mib(512))
        .solve_weak(&Position::new(Rules::standard()))
        .value;
    assert_eq!(value.result, GameResult::Win(Player::P1));
}

/// A node limit gives up without an answer, and the solver is sound again afterwards.
#[test]
fn a_search_over_its_node_limit_gives_up_and_leaves_the_solver_usable() {
    let rules = Rules::new(4, 5, 4, Variant::Misere).unwrap();
    let empty = Position::new(rules);
    let mut solver = Solver::new(Mib(16));
    assert_eq!(solver.solve_within(&empty, Depth::Strong, 100), None);
    let limited = solver
        .solve_within(&empty, Depth::Strong, u64::MAX)
        .expect("no limit");
    let fresh = Solver::new(Mib(16)).solve(&empty);
    assert_eq!(limited.value, fresh.value);
}
