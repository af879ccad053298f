"""Quarto from Python: positions, the solver against the command line, and the players."""

from __future__ import annotations

import json

import pytest

from connectk import quarto


def test_the_two_by_two_game_is_a_p2_win_in_four():
    rules = quarto.Rules(size=2, attributes=2)
    solution = quarto.solve(quarto.Position(rules))
    assert (solution.outcome, solution.remoteness, solution.complete) == ("P2", 4, True)


def test_positions_play_turns_in_record_notation():
    position = quarto.Position.from_record("LSRF a1:DTQH")
    assert position.plies == 2 and position.hand == "DTQH" and position.to_move == "P1"
    after = position.play("b2:LTRF")
    assert after.record == "LSRF a1:DTQH b2:LTRF" and position.plies == 2
    assert "b3:LSQF" in after.legal_turns()


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: quarto.Rules(size=5), "size"),
        (lambda: quarto.Rules(criteria="colour,weight"), "weight"),
        (lambda: quarto.Position.from_record("LSRF a1:LSRF"), "turn 2"),
        (lambda: quarto.Player("genius"), "unknown Quarto player"),
    ],
)
def test_bad_quarto_input_raises(build, message):
    with pytest.raises(ValueError, match=message):
        build()


@pytest.mark.parametrize(
    "size, attributes, variant, record",
    [(2, 2, "normal", ""), (3, 2, "misere", ""), (3, 3, "normal", "LSR a1:DTQ b2:LTR")],
)
def test_analysis_agrees_with_the_cli(cli, size, attributes, variant, record):
    rules = quarto.Rules(size=size, attributes=attributes, rules=variant)
    ours = quarto.analyze(quarto.Position.from_record(record, rules))
    theirs = json.loads(cli.run(
        "quarto", "solve", "--size", str(size), "--attributes", str(attributes), "--rules",
        variant, "--moves", record, "--analyze", "--json",
    ))
    assert (ours.outcome, ours.remoteness) == (theirs["outcome"], theirs["remoteness"])
    assert sorted(ours.best_turns) == sorted(theirs["best_turns"])
    # connectk's move values count the move itself; the command line gives the value after it.
    assert sorted(ours.turn_values) == sorted(
        (t["turn"], t["outcome"], t["remoteness"] + 1) for t in theirs["turn_values"]
    )


def test_perfect_player_keeps_the_value():
    rules = quarto.Rules(size=3, attributes=2, rules="misere")
    position = quarto.Position(rules)
    solver = quarto.Solver(table_mb=16)
    before = solver.solve(position)
    player = quarto.Player("perfect", seed=4)
    while not position.is_over:
        position = position.play(player.choose(position))
    assert position.winner == before.outcome
    with pytest.raises(ValueError, match="over"):
        player.choose(position)
