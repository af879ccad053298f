//! Invariants of the engine and the solver, checked on random positions, and the typed errors
//! of move strings.

use crate::support;

use std::collections::BTreeSet;

use connectk::notation::{self, NotationError};
use connectk::{
    Cell, Column, GameResult, MoveError, Outcome, Player, Position, Reason, Rules, Solver, Variant,
};
use connectk::{Depth, Mib, rank};
use proptest::prelude::*;

use support::brute::Grid;
use support::replay::replay;

/// Rules on a board of at most `max_cells` cells that fits the 128-bit board, with `k` up to
/// `max_k` (and never more than one past the longer side).
fn rules_up_to(max_width: u32, max_cells: u32, max_k: u32) -> impl Strategy<Value = Rules> {
    (1u32..=max_width)
        .prop_flat_map(move |width| {
            // width * (height + 1) <= 128, and width * height <= max_cells.
            let max_height = (128 / width - 1).min(max_cells / width).max(1);
            (Just(width), 1u32..=max_height)
        })
        .prop_flat_map(move |(width, height)| {
            let top_k = (width.max(height) + 1).min(max_k);
            (Just(width), Just(height), 1u32..=top_k, any::<bool>())
        })
        .prop_map(|(width, height, k, misere)| {
            let variant = if misere {
                Variant::Misere
            } else {
                Variant::Normal
            };
            Rules::new(k, width, height, variant).unwrap()
        })
}

/// Rules and a list of move choices, each later taken modulo the number of legal moves.
fn game(max_width: u32, max_cells: u32, max_k: u32) -> impl Strategy<Value = (Rules, Vec<usize>)> {
    rules_up_to(max_width, max_cells, max_k).prop_flat_map(|rules| {
        (
            Just(rules),
            prop::collection::vec(any::<usize>(), 0..=rules.cells() as usize),
        )
    })
}

/// The legal column picked by `choice` in `pos` (which must not be over).
fn pick(pos: &Position, choice: usize) -> Column {
    let legal = pos.legal_columns();
    legal[choice % legal.len()]
}

fn grid_symbol(player: Player) -> u8 {
    match player {
        Player::P1 => 1,
        Player::P2 => 2,
    }
}

/// Every cell of every run of `k` or more of `player`'s discs through `last`, by walking the grid.
fn naive_line_cells(grid: &Grid, last: Cell, player: Player) -> BTreeSet<Cell> {
    let who = grid_symbol(player);
    let (w, h) = (grid.width as i64, grid.height as i64);
    let holds = |c: i64, r: i64| {
        c >= 0 && r >= 0 && c < w && r < h && grid.cells[c as usize][r as usize] == who
    };
    let mut all = BTreeSet::new();
    for (dc, dr) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
        let mut run = vec![last];
        for sign in [-1i64, 1] {
            let (mut c, mut r) = (last.column as i64 + sign * dc, last.row as i64 + sign * dr);
            while holds(c, r) {
                run.push(Cell {
                    column: c as u32,
                    row: r as u32,
                });
                c += sign * dc;
                r += sign * dr;
            }
        }
        if run.len() >= grid.k {
            all.extend(run);
        }
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Playing a move and taking it back gives the same position, key and canonical key.
    #[test]
    fn play_then_undo_restores_the_position((rules, choices) in game(40, 128, 8)) {
        let mut pos = Position::new(rules);
        for &choice in &choices {
            if pos.is_over() {
                break;
            }
            let before = pos;
            let column = pick(&pos, choice);
            pos.play(column).unwrap();
            prop_assert_eq!(pos.plies(), before.plies() + 1);
            prop_assert_ne!(pos.key(), before.key());
            let mut back = pos;
            back.undo(column).unwrap();
            prop_assert_eq!(back, before);
            prop_assert_eq!(back.key(), before.key());
            prop_assert_eq!(back.canonical_key(), before.canonical_key());
            prop_assert_eq!(back.mask(), before.mask());
            prop_assert_eq!(back.current(), before.current());
            // The side to move never owns the top disc of the column just played.
            let mut wrong = back;
            if wrong.column_height(column) > 0 && wrong.cell(Cell {
                column: column.index(),
                row: wrong.column_height(column) - 1,
            }) == Some(wrong.to_move())
            {
                prop_assert_eq!(
                    wrong.undo(column),
                    Err(MoveError::NotUndoable { column: column.number() })
                );
                prop_assert_eq!(wrong, before);
            }
        }
    }

    /// The engine's game-end detection agrees with a plain scan of a grid after every move,
    /// and the reported line is exactly the set of cells in runs of k through the last disc.
    #[test]
    fn line_detection_matches_a_naive_scan((rules, choices) in game(40, 128, 8)) {
        let mut pos = Position::new(rules);
        let mut grid = Grid::new(rules);
        let mut line = Vec::new();
        for &choice in &choices {
            if pos.is_over() {
                break;
            }
            let mover = pos.to_move();
            let column = pick(&pos, choice);
            pos.play(column).unwrap();
            line.push(column);
            let row = grid.drop_disc(column.index() as usize) as u32;
            let last = Cell { column: column.index(), row };
            prop_assert_eq!(pos.cell(last), Some(mover));
            let text = notation::format(rules, &line);
            // The opponent cannot have a line: the game would have ended a move earlier.
            prop_assert!(!grid.has_line(grid_symbol(mover.other())), "{} {}", rules, text);
            let naive = grid.has_line(grid_symbol(mover));
            match pos.outcome() {
                Some(Outcome { result, reason: Reason::Line { by, cells } }) => {
                    prop_assert!(naive, "engine saw a line the scan did not: {} {}", rules, text);
                    prop_assert_eq!(by, mover);
                    let winner = match rules.variant() {
                        Variant::Normal => mover,
                        Variant::Misere => mover.other(),
                    };
                    prop_assert_eq!(result, GameResult::Win(winner));
                    let reported: BTreeSet<Cell> = cells.iter().copied().collect();
                    prop_assert_eq!(reported.len(), cells.len(), "duplicate cells");
                    prop_assert_eq!(reported, naive_line_cells(&grid, last, mover), "{} {}", rules, text);
                }
                Some(Outcome { result, reason: Reason::BoardFull }) => {
                    prop_assert!(!naive, "engine missed a line: {} {}", rules, text);
                    prop_assert_eq!(result, GameResult::Draw);
                    prop_assert_eq!(pos.plies(), rules.cells());
                }
                None => {
                    prop_assert!(!naive, "engine missed a line: {} {}", rules, text);
                    prop_assert!(pos.plies() < rules.cells());
                    prop_assert!(!pos.legal_columns().is_empty());
                }
            }
        }
    }

    /// Format then parse gives back the moves and the position, on narrow and wide boards.
    #[test]
    fn notation_round_trips((rules, choices) in game(64, 128, 8)) {
        let (pos, moves) = replay(rules, &choices);
        let text = notation::format(rules, &moves);
        if rules.width() <= 9 {
            prop_assert_eq!(text.len(), moves.len());
            prop_assert!(text.bytes().all(|b| (b'1'..=b'9').contains(&b)), "{}", text);
        } else if moves.len() >= 2 {
            prop_assert_eq!(text.matches(',').count(), moves.len() - 1, "{}", text);
        }
        let (parsed, parsed_moves) = notation::parse(rules, &text)
            .map_err(|e| TestCaseError::fail(format!("{rules}: {text:?} does not parse: {e}")))?;
        prop_assert_eq!(&parsed_moves, &moves, "{} {:?}", rules, text);
        prop_assert_eq!(parsed, pos);
        prop_assert_eq!(parsed.outcome(), pos.outcome());
    }

    /// Wide-board move strings round-trip for every single move too, including columns >= 10.
    #[test]
    fn notation_round_trips_single_wide_moves(width in 10u32..=64, pick_column in any::<u32>()) {
        let rules = Rules::new(4, width, 1, Variant::Normal).unwrap();
        let moves = vec![Column::new(pick_column % width)];
        let text = notation::format(rules, &moves);
        let parsed = notation::parse(rules, &text)
            .map_err(|e| TestCaseError::fail(format!("{rules}: {text:?} does not parse: {e}")))?;
        prop_assert_eq!(parsed.1, moves, "{:?}", text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A position and its mirror image have the same value, and the mirror is the position
    /// reached by the mirrored moves.
    #[test]
    fn mirrored_positions_have_the_same_value((rules, choices) in game(20, 20, 6)) {
        let (pos, moves) = replay(rules, &choices);
        let mirror = pos.mirrored();
        let w = rules.width();
        let mirrored_moves: Vec<Column> =
            moves.iter().map(|c| Column::new(w - 1 - c.index())).collect();
        let mut by_moves = Position::new(rules);
        for &c in &mirrored_moves {
            by_moves.play(c).unwrap();
        }
        let text = notation::format(rules, &moves);
        prop_assert_eq!(mirror, by_moves, "{} {}", rules, text);
        prop_assert_eq!(mirror.mirrored(), pos);
        prop_assert_eq!(mirror.canonical_key().0, pos.canonical_key().0);
        let value = Solver::new(Mib(16)).solve(&pos).value;
        let mirror_value = Solver::new(Mib(16)).solve(&mirror).value;
        prop_assert_eq!(value, mirror_value, "{} {}", rules, text);
    }

    /// The value of a position that is not over is the best value among its moves, strongly
    /// and weakly, and the reported best moves are exactly the moves achieving it.
    #[test]
    fn value_is_the_best_over_the_children((rules, choices) in game(16, 16, 6)) {
        let (pos, moves) = replay(rules, &choices);
        prop_assume!(!pos.is_over());
        let text = notation::format(rules, &moves);
        let value = Solver::new(Mib(16)).solve(&pos).value;
        let mut children_solver = Solver::new(Mib(16));
        let children = children_solver.move_values(&pos, Depth::Strong);
        prop_assert_eq!(children.len(), pos.legal_columns().len());
        for child in &children {
            let after = pos.played(child.column).unwrap();
            if after.is_over() {
                prop_assert_eq!(child.value.remoteness, Some(1));
                prop_assert_eq!(child.value.result, after.outcome().unwrap().result);
            }
        }
        let best = children.iter().map(|m| m.value).max_by_key(|&v| rank(&pos, v)).unwrap();
        prop_assert_eq!(value, best, "{} {}", rules, text);
        prop_assert_eq!(value.remoteness.map(|r| r + pos.plies()).unwrap() <= rules.cells(), true);

        let analysis = Solver::new(Mib(16)).analyze(&pos, Depth::Strong);
        prop_assert_eq!(analysis.value, value);
        prop_assert_eq!(&analysis.moves, &children);
        let expected_best: Vec<Column> =
            children.iter().filter(|m| m.value == value).map(|m| m.column).collect();
        prop_assert!(!expected_best.is_empty());
        prop_assert_eq!(&analysis.best_moves, &expected_best);

        let weak = Solver::new(Mib(16)).solve_weak(&pos).value;
        prop_assert_eq!(weak.result, value.result, "{} {}", rules, text);
        let weak_children = children_solver.move_values(&pos, Depth::Weak);
        for (w, s) in weak_children.iter().zip(&children) {
            prop_assert_eq!(w.column, s.column);
            prop_assert_eq!(w.value.result, s.value.result, "{} {} then {}", rules, text, s.column);
        }
        let weak_best = weak_children.iter().map(|m| m.value).max_by_key(|&v| rank(&pos, v)).unwrap();
        prop_assert_eq!(weak_best.result, value.result);

        // The best moves found by narrow windows: exactly the best, and weakly, exactly the
        // moves that keep the outcome (a move that wins at once among them).
        let found = children_solver.solve_with_best_moves(&pos, Depth::Strong);
        prop_assert_eq!(&found.best_moves, &expected_best, "{} {}", rules, text);
        let keeping: Vec<Column> =
            children.iter().filter(|m| m.value.result == value.result).map(|m| m.column).collect();
        let found = children_solver.solve_with_best_moves(&pos, Depth::Weak);
        prop_assert_eq!(found.best_moves, keeping, "{} {}", rules, text);
    }
}

fn standard(moves: &str) -> Result<(Position, Vec<Column>), NotationError> {
    notation::parse(Rules::standard(), moves)
}

/// The error's message names the move by its 1-based position in the string.
fn assert_names_move(err: &NotationError, at: usize) {
    let message = err.to_string();
    assert!(message.starts_with(&format!("move {at}: ")), "{message}");
}

#[test]
fn a_full_column_is_refused_at_the_right_move() {
    let err = standard("4444444").unwrap_err();
    assert_eq!(
        err,
        NotationError::Illegal {
            at: 7,
            error: MoveError::ColumnFull { column: 4 }
        }
    );
    assert_names_move(&err, 7);
    assert!(err.to_string().contains("column 4 is full"), "{err}");
    // The same through the position directly: the position is left unchanged.
    let (mut pos, _) = standard("444444").unwrap();
    let before = pos;
    assert_eq!(
        pos.play(Column::new(3)),
        Err(MoveError::ColumnFull { column: 4 })
    );
    assert_eq!(pos, before);
}

#[test]
fn a_column_that_does_not_exist_is_refused_at_the_right_move() {
    let err = standard("448").unwrap_err();
    assert_eq!(
        err,
        NotationError::Illegal {
            at: 3,
            error: MoveError::NoSuchColumn {
                column: 8,
                width: 7
            }
        }
    );
    assert_names_move(&err, 3);
    assert!(err.to_string().contains("no column 8"), "{err}");

    let err = standard("40").unwrap_err();
    assert_eq!(
        err,
        NotationError::Illegal {
            at: 2,
            error: MoveError::NoSuchColumn {
                column: 0,
                width: 7
            }
        }
    );
    assert_names_move(&err, 2);

    let wide = Rules::new(4, 12, 4, Variant::Normal).unwrap();
    let err = notation::parse(wide, "10,3,13").unwrap_err();
    assert_eq!(
        err,
        NotationError::Illegal {
            at: 3,
            error: MoveError::NoSuchColumn {
                column: 13,
                width: 12
            }
        }
    );
    assert_names_move(&err, 3);
    assert!(err.to_string().contains("no column 13"), "{err}");

    let mut pos = Position::new(Rules::standard());
    assert_eq!(
        pos.play(Column::new(7)),
        Err(MoveError::NoSuchColumn {
            column: 8,
            width: 7
        })
    );
    assert_eq!(pos.plies(), 0);
}

#[test]
fn a_move_after_the_game_is_over_is_refused_at_the_right_move() {
    // X completes a vertical four in column 1 with the 7th disc.
    let err = standard("12121213").unwrap_err();
    let NotationError::Illegal {
        at: 8,
        error: MoveError::GameOver(ref why),
    } = err
    else {
        panic!("expected a game-over error at move 8, got {err:?}");
    };
    assert!(why.contains("P1 wins"), "{why}");
    assert_names_move(&err, 8);
    assert!(
        err.to_string().contains("the game is already over"),
        "{err}"
    );

    // Under misère rules the same line loses, and a move afterwards is still refused.
    let misere = Rules::standard().with_variant(Variant::Misere);
    let err = notation::parse(misere, "12121213").unwrap_err();
    assert!(matches!(
        err,
        NotationError::Illegal {
            at: 8,
            error: MoveError::GameOver(_)
        }
    ));
    assert!(err.to_string().contains("P2 wins"), "{err}");

    // A full board without a line is over too.
    let tiny = Rules::new(3, 2, 2, Variant::Normal).unwrap();
    let err = notation::parse(tiny, "12211").unwrap_err();
    assert!(matches!(
        err,
        NotationError::Illegal {
            at: 5,
            error: MoveError::GameOver(_)
        }
    ));
    assert_names_move(&err, 5);
}

#[test]
fn a_bad_character_is_refused_at_the_right_move() {
    let err = standard("44x5").unwrap_err();
    assert_eq!(
        err,
        NotationError::BadCharacter {
            at: 3,
            found: "x".into()
        }
    );
    assert_names_move(&err, 3);
    assert!(err.to_string().contains("\"x\""), "{err}");

    let err = standard("4-").unwrap_err();
    assert_eq!(
        err,
        NotationError::BadCharacter {
            at: 2,
            found: "-".into()
        }
    );
    assert_names_move(&err, 2);

    let wide = Rules::new(4, 12, 4, Variant::Normal).unwrap();
    let err = notation::parse(wide, "10,a,3").unwrap_err();
    assert_eq!(
        err,
        NotationError::BadCharacter {
            at: 2,
            found: "a".into()
        }
    );
    assert_names_move(&err, 2);

    let err = notation::parse(wide, "10,3,,4").unwrap_err();
    assert_eq!(
        err,
        NotationError::BadCharacter {
            at: 3,
            found: String::new()
        }
    );
    assert_names_move(&err, 3);
}

#[test]
fn a_single_wide_move_is_written_so_that_it_reads_back() {
    let wide = Rules::new(4, 12, 4, Variant::Normal).unwrap();
    for number in 1..=12 {
        let moves = vec![Column::from_number(number).unwrap()];
        let text = notation::format(wide, &moves);
        let (pos, parsed) = notation::parse(wide, &text).unwrap();
        assert_eq!(parsed, moves, "{text:?}");
        assert_eq!(pos.plies(), 1);
    }
    // Several digits without a comma are still separate moves.
    let (_, parsed) = notation::parse(wide, "12").unwrap();
    assert_eq!(parsed, vec![Column::new(0), Column::new(1)]);
}
