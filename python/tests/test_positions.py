"""Positions and rules: construction, play, the numpy layout and bad input."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import connectk


def test_from_moves_plays_the_notation():
    position = connectk.Position.from_moves("4453")
    assert position.plies == 4
    assert position.moves == "4453"
    assert position.history == [3, 3, 4, 2]
    assert position.to_move == "P1"
    assert position.legal_moves() == list(range(7))


def test_play_is_zero_based_and_returns_a_new_position():
    empty = connectk.Position()
    after = empty.play(3)
    assert empty.plies == 0
    assert after.moves == "4"
    assert after.to_numpy()[5, 3] == 1


def test_wide_boards_use_commas():
    rules = connectk.Rules(k=4, width=12, height=4)
    position = connectk.Position.from_moves("10,3,3", rules)
    assert position.history == [9, 2, 2]
    assert position.moves == "10,3,3"


def test_a_finished_game_reports_its_line():
    position = connectk.Position.from_moves("1212121")
    assert position.is_over and position.winner == "P1" and position.reason == "line"
    assert position.completed_by == "P1"
    assert position.to_move is None
    assert sorted(position.winning_cells) == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert position.legal_moves() == []
    assert position.legal_mask().tolist() == [0] * 7


def test_misere_line_loses():
    rules = connectk.Rules(k=3, width=3, height=3, rules="misere")
    position = connectk.Position.from_moves("12121", rules)
    assert position.completed_by == "P1" and position.winner == "P2"


def test_numpy_layout_is_row_0_at_the_top_and_matches_winning_indices():
    position = connectk.Position.from_moves("1234567" "1234567" "1")
    board = position.to_numpy()
    assert board.dtype == np.int8 and board.shape == (6, 7)
    assert board[5].tolist() == [1, 2, 1, 2, 1, 2, 1]
    assert board[4, 0] == 2 and board[3, 0] == 1
    finished = connectk.Position.from_moves("2233445")
    flat = finished.to_numpy().ravel()
    assert sorted(finished.winning_indices) == [36, 37, 38, 39]
    assert all(flat[i] == 1 for i in finished.winning_indices)


def test_numpy_layout_matches_the_cli_show_json(cli):
    for moves, rules in [
        ("2233445", connectk.Rules()),
        ("12121", connectk.Rules(k=3, width=3, height=3, rules="misere")),
        ("77112", connectk.Rules(k=3, width=7, height=3, topology="cylinder")),
    ]:
        position = connectk.Position.from_moves(moves, rules)
        shown = cli.solve_json(position, "--value-only")
        assert shown["winning_indices"] == position.winning_indices
        assert shown["winner"] == position.winner
        flat = position.to_numpy().ravel()
        code = 1 if shown["completed_by"] == "P1" else 2
        assert all(flat[i] == code for i in shown["winning_indices"])


def test_legal_mask_marks_columns_with_room():
    rules = connectk.Rules(k=3, width=3, height=2)
    position = connectk.Position.from_moves("22", rules)
    assert position.legal_mask().tolist() == [1, 0, 1]


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: connectk.Rules(width=20), "too large"),
        (lambda: connectk.Rules(k=0), "k = 0 is out of range"),
        (lambda: connectk.Rules(rules="suicide"), "unknown rules"),
        (lambda: connectk.Rules(topology="torus"), "unknown topology"),
        (lambda: connectk.Position.from_moves("48"), "no column 8"),
        (lambda: connectk.Position.from_moves("4x"), "move 2"),
        (lambda: connectk.Position.from_moves("1111111"), "column 1 is full"),
        (lambda: connectk.Position().play(7), "column index 7 is out of range"),
        (lambda: connectk.Position().play(-1), "column index -1 is out of range"),
        (lambda: connectk.solve(connectk.Position(), depth="deep"), "unknown depth"),
        (lambda: connectk.solve(connectk.Position(), table_mb=10**9), "not a memory size"),
        (lambda: connectk.solve(connectk.Position(), threads=0), "threads = 0"),
        (lambda: connectk.solve(connectk.Position(), book="/nonexistent.ckbook"), "nonexistent"),
    ],
)
def test_bad_input_raises_value_error_with_one_line(build, message):
    with pytest.raises(ValueError) as error:
        build()
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_positions_pickle_hash_and_compare():
    rules = connectk.Rules(k=4, width=5, height=4, rules="misere", topology="cylinder")
    position = connectk.Position.from_moves("1234", rules)
    again = pickle.loads(pickle.dumps(position))
    assert again == position and hash(again) == hash(position)
    assert again.rules == rules
    # Two move orders reaching one position are the same position.
    assert connectk.Position.from_moves("3214", rules) == position
    assert "Position.from_moves('1234'" in repr(position)
    assert "rules='misere'" in repr(rules)
