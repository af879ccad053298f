"""A PettingZoo AEC environment for Connect-k under normal or misère rules.

Needs the ``pettingzoo`` extra (``pip install './python[pettingzoo]'``). The conventions are
those of PettingZoo's ``connect_four_v3``: agents ``player_0`` (moves first) and
``player_1``; actions are 0-based columns; each observation is a dict of ``observation``, a
``(height, width, 2)`` int8 array (plane 0 the observing agent's discs, plane 1 the
opponent's; row 0 at the top) and ``action_mask`` (a ``(width,)`` int8 array, 1 for legal
columns, all 0 when it is not the agent's turn); the winner gets reward +1 and the loser -1
when the game ends (under misère rules the agent that completes a line of k loses), a draw
0 each. ``env()`` wraps the raw environment as ``connect_four_v3.env()`` does: an illegal
move ends the game with reward -1 for its maker.

    >>> from connectk import pettingzoo
    >>> env = pettingzoo.env(rules="misere", width=7, height=6, k=4)
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from ._core import Position, Rules

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The environment with ``connect_four_v3``'s wrappers (illegal moves end the game with
    reward -1 for their maker; actions out of range raise; methods in the right order).
    Keyword arguments as :class:`raw_env`."""
    environment = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv):
    """Connect-k as an AEC environment: ``k`` in a row on a ``width`` x ``height`` board,
    ``rules`` "normal" or "misere", ``topology`` "flat" or "cylinder". ``render_mode``
    "human" prints the board, "ansi" returns it as text."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "connectk_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        rules: str = "misere",
        width: int = 7,
        height: int = 6,
        k: int = 4,
        topology: str = "flat",
        render_mode: Optional[str] = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"unknown render_mode {render_mode!r}: expected one of "
                f"{self.metadata['render_modes']} or None"
            )
        self.rules = Rules(k=k, width=width, height=height, rules=rules, topology=topology)
        self.render_mode = render_mode
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(width) for a in self.possible_agents}
        board = spaces.Box(low=0, high=1, shape=(height, width, 2), dtype=np.int8)
        mask = spaces.Box(low=0, high=1, shape=(width,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": board, "action_mask": mask})
            for a in self.possible_agents
        }
        self.position = Position(self.rules)

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (the same for both)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of ``agent``: the board's columns."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """``agent``'s view: its discs and the opponent's as two planes, and its legal moves."""
        board = self.position.to_numpy()
        own = self.possible_agents.index(agent) + 1
        planes = np.stack([board == own, board == 3 - own], axis=2).astype(np.int8)
        if agent == self.agent_selection and not self.position.is_over:
            mask = self.position.legal_mask()
        else:
            mask = np.zeros(self.rules.width, dtype=np.int8)
        return {"observation": planes, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """Starts a new game from the empty board (the game has no randomness: ``seed`` is
        accepted for the API's sake)."""
        self.position = Position(self.rules)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()

    def step(self, action: Optional[int]) -> None:
        """Plays column ``action`` for the agent to move (``None`` for an agent whose game
        is over, as the API requires)."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        mover = self.agent_selection
        self.position = self.position.play(int(action))
        following = self._agent_selector.next()
        self.rewards = dict.fromkeys(self.agents, 0)
        if self.position.is_over:
            winner = self.position.winner
            if winner != "Draw":
                won = self.possible_agents[0 if winner == "P1" else 1]
                lost = self.possible_agents[1 if winner == "P1" else 0]
                self.rewards[won], self.rewards[lost] = 1, -1
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[mover] = {"reason": self.position.reason}
        self.agent_selection = following
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        """The board as text (X for player_0, O for player_1): printed in "human" mode,
        returned in "ansi" mode."""
        text = str(self.position)
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""
