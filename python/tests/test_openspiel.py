"""The OpenSpiel bots against OpenSpiel's MCTS bot, and the translation of its states."""

from __future__ import annotations


import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

import connectk  # noqa: E402
from connectk.openspiel import PerfectBot, StrategyBot, position_of, rules_of  # noqa: E402
from conftest import REPO  # noqa: E402

MISERE_BOOK = REPO / "books" / "misere-k4-7x6.ckbook"


def mcts_bot(game, seed):
    """OpenSpiel's MCTS with random rollouts, 200 simulations a move."""
    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(game, 2.0, 200, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)


def play(game, bots, on_move=None):
    """Plays one game between ``bots`` (by seat); returns the final state. ``on_move`` sees
    each state before a move and the move chosen."""
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        if on_move:
            on_move(state, action)
        state.apply_action(action)
    return state


def test_rules_of_openspiel_games():
    assert rules_of(pyspiel.load_game("connect_four")) == connectk.Rules()
    misere = rules_of(pyspiel.load_game("misere(game=connect_four())"))
    assert misere == connectk.Rules(rules="misere")
    small = rules_of(pyspiel.load_game("connect_four(rows=4,columns=5)"))
    assert (small.width, small.height, small.rules) == (5, 4, "normal")
    with pytest.raises(ValueError, match="unsupported game"):
        rules_of(pyspiel.load_game("tic_tac_toe"))


def test_states_translate_to_positions():
    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()
    for action in [3, 3, 4, 2]:
        state.apply_action(action)
    assert position_of(state, rules_of(game)).moves == "4453"


@pytest.mark.skipif(not MISERE_BOOK.exists(), reason="books/misere-k4-7x6.ckbook is absent")
@pytest.mark.parametrize("seed", range(3))
def test_perfect_bot_wins_misere_7x6_as_p2_against_mcts(seed):
    game = pyspiel.load_game("misere(game=connect_four())")
    # The value is proven for every move; move_ms bounds only the hunt for the fastest win
    # off the book's tree, where it could take minutes.
    perfect = PerfectBot(game, 1, book=MISERE_BOOK, seed=seed, move_ms=200)
    state = play(game, [mcts_bot(game, seed), perfect])
    assert state.returns() == [-1.0, 1.0], state.history()


@pytest.mark.parametrize("seed", range(2))
def test_take_even_bot_wins_misere_7x6_as_p2_against_mcts(seed):
    game = pyspiel.load_game("misere(game=connect_four())")
    state = play(game, [mcts_bot(game, seed), StrategyBot(game, "take-even", 1)])
    assert state.returns() == [-1.0, 1.0], state.history()


def value_keeper(game, seat):
    """An ``on_move`` hook asserting that ``seat``'s moves keep the solved value."""
    rules = rules_of(game)
    solver = connectk.Solver(table_mb=64)

    def check(state, action):
        if state.current_player() != seat:
            return
        before = solver.solve(position_of(state, rules), best_moves=False)
        after = solver.solve(position_of(state, rules).play(action), best_moves=False)
        assert after.outcome == before.outcome, (state.history(), action)
        check.moves += 1

    check.moves = 0
    return check


@pytest.mark.parametrize("seed", range(3))
def test_perfect_bot_holds_normal_5x4_as_p1_and_keeps_the_value(seed):
    """Normal Connect Four on 5 columns and 4 rows is a draw: P1 never loses."""
    game = pyspiel.load_game("connect_four(rows=4,columns=5)")
    assert connectk.solve(connectk.Position(rules_of(game))).outcome == "Draw"
    check = value_keeper(game, 0)
    state = play(game, [PerfectBot(game, 0, seed=seed, table_mb=64), mcts_bot(game, seed)], check)
    assert state.returns()[0] >= 0, state.history()
    assert check.moves >= 5


@pytest.mark.parametrize("seed", range(2))
def test_perfect_bot_wins_normal_6x4_as_p2_and_keeps_the_value(seed):
    """Normal Connect Four on 6 columns and 4 rows is a P2 win: the bot wins every game."""
    game = pyspiel.load_game("connect_four(rows=4,columns=6)")
    check = value_keeper(game, 1)
    state = play(game, [mcts_bot(game, seed), PerfectBot(game, 1, seed=seed, table_mb=64)], check)
    assert state.returns() == [-1.0, 1.0], state.history()
