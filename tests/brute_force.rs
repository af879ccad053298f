//! The solver against an independent plain-grid minimax (`support::brute`) on every small board.

use crate::support;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use connectk::Value;
use connectk::{Column, GameResult, Mib, Player, Position, Rules, Solver, Variant};
use proptest::prelude::*;

use support::brute::Grid;
use support::replay::replay;

/// Boards of this many cells or more are searched with the memo; smaller ones without.
const MEMO_FROM_CELLS: u32 = 10;

/// The brute-force value of a position that is not over, replayed on a plain grid.
fn brute_value(rules: Rules, moves: &[Column]) -> Value {
    let mut grid = Grid::new(rules);
    for column in moves {
        grid.drop_disc(column.index() as usize);
    }
    let mut memo = (rules.cells() >= MEMO_FROM_CELLS).then(HashMap::new);
    let score = grid.minimax(&mut memo);
    let plies = moves.len() as u32;
    Value::from_score(score, rules.cells(), plies, Player::to_move_after(plies))
}

/// The value of a finished position read off the plain grid: who made a line, or a full board.
fn brute_terminal_value(rules: Rules, moves: &[Column]) -> Value {
    let mut grid = Grid::new(rules);
    for column in moves {
        grid.drop_disc(column.index() as usize);
    }
    let last_mover = Player::to_move_after(moves.len() as u32 - 1);
    let symbol = match last_mover {
        Player::P1 => 1,
        Player::P2 => 2,
    };
    let result = if grid.has_line(symbol) {
        match rules.variant() {
            Variant::Normal => GameResult::Win(last_mover),
            Variant::Misere => GameResult::Win(last_mover.other()),
        }
    } else {
        assert_eq!(
            moves.len() as u32,
            rules.cells(),
            "over without a line or a full board"
        );
        GameResult::Draw
    };
    Value {
        result,
        remoteness: Some(0),
    }
}

/// Every (width, height) with `width * height <= max_cells`.
fn small_boards(max_cells: u32) -> Vec<(u32, u32)> {
    let mut boards = Vec::new();
    for width in 1..=max_cells {
        for height in 1..=max_cells / width {
            boards.push((width, height));
        }
    }
    boards
}

/// Every rule set of the exhaustive check: each board up to 12 cells, k from 1 to one past the
/// longer side, both variants.
fn all_small_rules() -> Vec<Rules> {
    let mut all = Vec::new();
    for (width, height) in small_boards(12) {
        for k in 1..=width.max(height) + 1 {
            for variant in [Variant::Normal, Variant::Misere] {
                all.push(Rules::new(k, width, height, variant).unwrap());
            }
        }
    }
    all
}

/// Checks the empty board of `rules`; a description of the disagreement if there is one.
fn check_empty_board(rules: Rules) -> Result<(), String> {
    let expected = brute_value(rules, &[]);
    let mut solver = Solver::new(Mib(1));
    let strong = solver.solve(&Position::new(rules)).value;
    if strong != expected {
        return Err(format!(
            "{rules}: strong value {strong:?}, brute force {expected:?}"
        ));
    }
    let weak = solver.solve_weak(&Position::new(rules)).value;
    if weak.result != expected.result || weak.remoteness.is_some() {
        return Err(format!(
            "{rules}: weak value {weak:?}, brute force {expected:?}"
        ));
    }
    Ok(())
}

#[test]
#[ignore = "slow: brute force on every empty board up to 12 cells (23 s); run by .ci/run with --ignored"]
fn empty_board_values_match_brute_force_on_every_board_up_to_12_cells() {
    let all = all_small_rules();
    // 35 boards; the sum of (max(w,h) + 1) over them is 239, times two variants.
    assert_eq!(small_boards(12).len(), 35);
    assert_eq!(all.len(), 478);
    // The brute force dominates the time (12x1 boards most of all): share the rule sets out
    // between threads.
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(4);
    let next = AtomicUsize::new(0);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut failures = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&rules) = all.get(i) else { break };
                        if let Err(failure) = check_empty_board(rules) {
                            failures.push(failure);
                        }
                    }
                    failures
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!("checked {} rule sets against brute force", all.len());
}

/// A board of `min_cells..=max_cells` cells, k, variant and a list of move choices (each taken
/// modulo the legal moves).
fn small_game(min_cells: u32, max_cells: u32) -> impl Strategy<Value = (Rules, Vec<usize>)> {
    (1u32..=max_cells)
        .prop_flat_map(move |width| {
            let lowest = min_cells.div_ceil(width).max(1);
            (Just(width), lowest..=(max_cells / width).max(lowest))
        })
        .prop_filter("board size out of range", move |&(w, h)| {
            (min_cells..=max_cells).contains(&(w * h))
        })
        .prop_flat_map(|(width, height)| {
            (
                Just(width),
                Just(height),
                1u32..=width.max(height) + 1,
                any::<bool>(),
                prop::collection::vec(any::<usize>(), 0..=(width * height) as usize),
            )
        })
        .prop_map(|(width, height, k, misere, choices)| {
            let variant = if misere {
                Variant::Misere
            } else {
                Variant::Normal
            };
            (Rules::new(k, width, height, variant).unwrap(), choices)
        })
}

/// Checks the solver's strong and weak values of a replayed position against brute force.
fn check_position(rules: Rules, choices: &[usize]) -> Result<(), TestCaseError> {
    let (pos, moves) = replay(rules, choices);
    let expected = if pos.is_over() {
        brute_terminal_value(rules, &moves)
    } else {
        brute_value(rules, &moves)
    };
    let line = connectk::notation::format(rules, &moves);
    let mut solver = Solver::new(Mib(1));
    let strong = solver.solve(&pos).value;
    prop_assert_eq!(strong, expected, "strong value, {} after {:?}", rules, line);
    let weak = Solver::new(Mib(1)).solve_weak(&pos).value;
    prop_assert_eq!(
        weak.result,
        expected.result,
        "weak value, {} after {:?}",
        rules,
        line
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_positions_match_brute_force((rules, choices) in small_game(1, 12)) {
        check_position(rules, &choices)?;
    }
}

/// Checks a principal variation of a replayed position against brute force: each move of the
/// line keeps the position's value (the brute-force value after it is the same result, one ply
/// nearer the end), and the line ends the game. The line from the value a solve found
/// (`principal_variation_of`, in a fresh solver, so that no earlier search helps it) is the
/// same as the one the solver finds from nothing, and so is the line of a solver whose larger
/// table holds other searches first (the line's order of moves never depends on the table).
fn check_principal_variation(rules: Rules, choices: &[usize]) -> Result<(), TestCaseError> {
    let (pos, moves) = replay(rules, choices);
    if pos.is_over() {
        return Ok(());
    }
    let value = brute_value(rules, &moves);
    let shown = connectk::notation::format(rules, &moves);
    let line = Solver::new(Mib(1)).principal_variation(&pos);
    let from_value = Solver::new(Mib(1)).principal_variation_of(&pos, value);
    prop_assert_eq!(&from_value, &line, "{} after {:?}", rules, shown);
    let mut warmed = Solver::new(Mib(4));
    warmed.solve(&Position::new(rules));
    let after_others = warmed.principal_variation(&pos);
    prop_assert_eq!(&after_others, &line, "{} after {:?}", rules, shown);
    let remoteness = value.remoteness.expect("an exact value");
    prop_assert_eq!(line.len() as u32, remoteness, "{} after {:?}", rules, shown);
    let mut played = moves.clone();
    for (step, column) in line.iter().enumerate() {
        played.push(*column);
        let left = remoteness - step as u32 - 1;
        let after = if left == 0 {
            brute_terminal_value(rules, &played)
        } else {
            brute_value(rules, &played)
        };
        let expected = Value {
            result: value.result,
            remoteness: Some(left),
        };
        prop_assert_eq!(
            after,
            expected,
            "{} after {:?}, step {}",
            rules,
            shown,
            step
        );
    }
    check_line_of_another_value(rules, &pos, &moves, value, &line)
}

/// `principal_variation_of` given values that are not the position's (another outcome, or a
/// win two plies sooner or later): the line is the principal variation `line`, or legal moves
/// to the end of a game that ends with the value given.
fn check_line_of_another_value(
    rules: Rules,
    pos: &Position,
    moves: &[Column],
    value: Value,
    line: &[Column],
) -> Result<(), TestCaseError> {
    let remoteness = value.remoteness.expect("an exact value");
    // A draw always lasts to the last cell; a win may come two plies sooner or later.
    let empty = rules.cells() - moves.len() as u32;
    let draw = Value {
        result: GameResult::Draw,
        remoteness: Some(empty),
    };
    let lengths = [remoteness.saturating_sub(2), remoteness, remoteness + 2];
    let wins = [Player::P1, Player::P2].into_iter().flat_map(|p| {
        lengths.map(|r| Value {
            result: GameResult::Win(p),
            remoteness: Some(r),
        })
    });
    let others = wins.chain([draw]).filter(|other| *other != value);
    for other in others {
        let found = Solver::new(Mib(1)).principal_variation_of(pos, other);
        if found == line {
            continue;
        }
        let mut end = *pos;
        for column in &found {
            prop_assert!(
                !end.is_over() && end.play(*column).is_ok(),
                "{rules}: {found:?}"
            );
        }
        prop_assert!(end.is_over(), "{rules}: {found:?} stops short");
        let played = [moves, &found].concat();
        let ended = Value {
            remoteness: Some(found.len() as u32),
            ..brute_terminal_value(rules, &played)
        };
        prop_assert_eq!(ended, other, "{} from {:?}: {:?}", rules, moves, found);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn principal_variations_keep_the_brute_force_value((rules, choices) in small_game(1, 10)) {
        check_principal_variation(rules, &choices)?;
    }
}

proptest! {
    // Brute force on 16 cells takes up to a second from an early position: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Boards of 13 to 16 cells, where the solver's parity rules (the follow-up bound) have room
    /// to act: 4x4, 5x3, 8x2 and the like.
    #[test]
    #[ignore = "slow: brute force on boards of 13 to 16 cells (53 s); run by .ci/run with --ignored"]
    fn random_positions_on_boards_of_13_to_16_cells_match_brute_force(
        (rules, choices) in small_game(13, 16)
    ) {
        check_position(rules, &choices)?;
    }
}

/// One solver kept across many outcome-only solves of misère positions, as a hint or a book
/// build keeps it: after a run of positions whose side to move loses, it asks "is it a
/// loss?" first at that parity (`OutcomeOrder`), and every outcome must stay right in either
/// order. Every position of every game of choices `0..n` (taken modulo the legal moves) on a
/// few misère boards, against brute force.
#[test]
fn one_solver_kept_across_misere_positions_finds_every_outcome() {
    let mut checked = 0;
    for (k, width, height) in [(3, 4, 3), (3, 3, 4), (4, 4, 3), (3, 5, 2)] {
        let rules = Rules::new(k, width, height, Variant::Misere).unwrap();
        let mut solver = Solver::new(Mib(1));
        for game in 0..12usize {
            let choices: Vec<usize> = (0..rules.cells() as usize)
                .map(|i| (game * 7 + i * (game + 3)) % 11)
                .collect();
            for plies in 0..choices.len() {
                let (pos, moves) = replay(rules, &choices[..plies]);
                if pos.is_over() {
                    break;
                }
                let weak = solver.solve_weak(&pos).value;
                let expected = brute_value(rules, &moves);
                assert_eq!(
                    weak.result,
                    expected.result,
                    "{rules} after {:?}",
                    connectk::notation::format(rules, &moves)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} positions");
}

/// Every position of the first plies of a few normal boards, solved exactly (one solver kept
/// across them, as `play` and the book builder keep theirs), against brute force. Many are won
/// on the last ply or the one before, where the root refutes its other moves in an outcome's
/// window before asking whether they win sooner (`root_refutes_as_outcome` in the search): a
/// move that wins too must still be searched in the question's own window.
#[test]
#[ignore = "slow: every position of the first plies of four boards, brute-forced (71 s); run by .ci/run with --ignored"]
fn exact_scores_of_late_wins_match_brute_force() {
    let mut checked = 0;
    let mut late_wins = 0;
    // Every position of the first six plies.
    const PLIES: usize = 6;
    for (k, width, height) in [(3, 4, 4), (3, 5, 3), (4, 5, 3), (3, 6, 2)] {
        let rules = Rules::new(k, width, height, Variant::Normal).unwrap();
        let mut solver = Solver::new(Mib(1));
        let mut games = vec![Vec::new()];
        for _ in 0..PLIES {
            let mut next = Vec::new();
            for choices in &games {
                let (pos, moves) = replay(rules, choices);
                if pos.is_over() {
                    continue;
                }
                let value = solver.solve(&pos).value;
                let line = connectk::notation::format(rules, &moves);
                assert_eq!(value, brute_value(rules, &moves), "{rules} after {line:?}");
                checked += 1;
                let plies = moves.len() as u32;
                let mover_wins = value.result == GameResult::Win(Player::to_move_after(plies));
                if mover_wins && plies + value.remoteness.unwrap() + 1 >= rules.cells() {
                    late_wins += 1;
                }
                for choice in 0..pos.legal_columns().len() {
                    next.push([choices.as_slice(), &[choice]].concat());
                }
            }
            games = next;
        }
    }
    println!("{checked} positions, {late_wins} won on the last two plies");
    assert!(late_wins > 100, "only {late_wins} late wins");
}
