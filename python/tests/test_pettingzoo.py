"""The PettingZoo environment: the API test, and its conventions against connect_four_v3."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import connectk  # noqa: E402
from connectk import pettingzoo as ck_zoo  # noqa: E402


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(rules="misere"),
        dict(rules="normal"),
        dict(rules="misere", width=5, height=4, k=3, topology="cylinder"),
        dict(rules="normal", width=12, height=3, k=5),
    ],
    ids=str,
)
def test_api_test_passes(kwargs):
    api_test(ck_zoo.env(**kwargs), num_cycles=200)


def play(environment, columns):
    """Plays ``columns`` in turn; returns the rewards seen at the end."""
    environment.reset()
    for column in columns:
        environment.step(column)
    return {a: environment._cumulative_rewards[a] for a in environment.possible_agents}


def test_observations_match_connect_four_v3_on_a_normal_game():
    # PettingZoo's own Connect Four imports pygame (its "classic" extra) to draw itself.
    connect_four_v3 = pytest.importorskip("pettingzoo.classic.connect_four_v3")
    ours = ck_zoo.env(rules="normal")
    theirs = connect_four_v3.env()
    ours.reset()
    theirs.reset()
    for column in [3, 3, 4, 2, 5, 6, 0, 1, 2]:
        for agent in ours.possible_agents:
            a, b = ours.observe(agent), theirs.observe(agent)
            assert np.array_equal(a["observation"], b["observation"])
            assert np.array_equal(a["action_mask"], b["action_mask"])
        ours.step(column)
        theirs.step(column)
    assert ours.agent_selection == theirs.agent_selection


def test_normal_rules_reward_the_maker_of_the_line():
    rewards = play(ck_zoo.env(rules="normal"), [0, 1, 0, 1, 0, 1, 0])
    assert rewards == {"player_0": 1, "player_1": -1}


def test_misere_rules_punish_the_maker_of_the_line():
    rewards = play(ck_zoo.env(rules="misere"), [0, 1, 0, 1, 0, 1, 0])
    assert rewards == {"player_0": -1, "player_1": 1}


def test_an_illegal_move_loses():
    environment = ck_zoo.env(rules="misere", width=3, height=2, k=3)
    rewards = play(environment, [0, 0, 0])
    assert rewards["player_0"] == -1


def test_perfect_play_through_the_environment_keeps_the_value():
    """Drive both seats with connectk players: the game ends as the solver says."""
    rules = connectk.Rules(k=4, width=5, height=4, rules="misere")
    environment = ck_zoo.env(rules="misere", width=5, height=4, k=4)
    environment.reset()
    players = {"player_0": connectk.Player("perfect", seed=1),
               "player_1": connectk.Player("perfect", seed=2)}
    position = connectk.Position(rules)
    final = {}
    for agent in environment.agent_iter():
        _, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            final[agent] = reward
            environment.step(None)
            continue
        column = players[agent].choose(position)
        assert environment.observe(agent)["action_mask"][column] == 1
        position = position.play(column)
        environment.step(column)
    # Misère 5x4 is a P2 win in 17 plies under perfect play.
    assert position.winner == "P2" and position.plies == 17
    assert final == {"player_0": -1, "player_1": 1}


def test_render_draws_the_board_as_text():
    environment = ck_zoo.raw_env(rules="misere", render_mode="ansi")
    environment.reset()
    environment.step(3)
    assert " X " in environment.render()
    with pytest.raises(ValueError, match="unknown render_mode"):
        ck_zoo.raw_env(render_mode="rgb_array")
