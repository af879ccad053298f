"""OpenSpiel bots that play Connect Four perfectly, or by the paper's strategies.

Needs the ``openspiel`` extra (``pip install './python[openspiel]'``). The bots play
OpenSpiel's ``connect_four`` (any ``rows``, ``columns`` and ``x_in_row``) and its misère
form ``misere(game=connect_four())``: each move translates the OpenSpiel state (its action
history, one 0-based column per move) to a connectk position and asks a connectk player.

    >>> import pyspiel
    >>> from connectk.openspiel import PerfectBot
    >>> game = pyspiel.load_game("misere(game=connect_four())")
    >>> bot = PerfectBot(game, player_id=1, book="books/misere-k4-7x6.ckbook")
"""

from __future__ import annotations

import os
from typing import Optional, Union

import pyspiel

from ._core import Player, Position, Rules

__all__ = ["PerfectBot", "StrategyBot", "position_of", "rules_of"]


def rules_of(game: pyspiel.Game) -> Rules:
    """The connectk rules of an OpenSpiel ``connect_four`` game, plain or wrapped in
    ``misere``. Raises ValueError for any other game."""
    params = game.get_parameters()
    variant = "normal"
    name = game.get_type().short_name
    if name == "misere":
        variant = "misere"
        params = params.get("game", {})
        name = params.get("name", "")
    if name != "connect_four":
        raise ValueError(
            f"unsupported game {str(game)!r}: expected connect_four or misere(game=connect_four())"
        )
    return Rules(
        k=params.get("x_in_row", 4),
        width=params.get("columns", 7),
        height=params.get("rows", 6),
        rules=variant,
    )


def position_of(state: pyspiel.State, rules: Rules) -> Position:
    """The connectk position of an OpenSpiel ``connect_four`` state (its actions are the
    0-based columns played)."""
    position = Position(rules)
    for column in state.history():
        position = position.play(column)
    return position


class _PlayerBot(pyspiel.Bot):
    """An OpenSpiel bot that asks a connectk player for each move."""

    def __init__(self, game: pyspiel.Game, player: Player, player_id: Optional[int]):
        pyspiel.Bot.__init__(self)
        self._rules = rules_of(game)
        self._player = player
        self._player_id = player_id

    def player_id(self) -> Optional[int]:
        """The seat (0 or 1) given at construction, if any."""
        return self._player_id

    def restart_at(self, state: pyspiel.State) -> None:
        """Nothing to do: every move starts from the state's whole history."""

    def provides_policy(self) -> bool:
        """These bots give moves, not policies."""
        return False

    def step(self, state: pyspiel.State) -> int:
        """The action (a 0-based column) for the player to move in ``state``."""
        return self._player.choose(position_of(state, self._rules))


class PerfectBot(_PlayerBot):
    """A perfect Connect Four player for OpenSpiel: every move keeps the game-theoretic
    value (proven by the solver before it is played), and among those it takes the fastest
    win or the slowest loss (ties broken at random from ``seed``). With a connectk opening
    ``book`` (``books/misere-k4-7x6.ckbook`` in the repository) the opening moves cost no
    search; ``table_mb`` sizes the solver's table and ``move_ms`` bounds the time spent on the
    fastest win once the value is proven (None: no bound).
    """

    def __init__(
        self,
        game: pyspiel.Game,
        player_id: Optional[int] = None,
        book: Optional[Union[str, "os.PathLike[str]"]] = None,
        table_mb: int = 256,
        seed: int = 0,
        move_ms: Optional[float] = None,
    ):
        player = Player("perfect", seed=seed, table_mb=table_mb, book=book, move_ms=move_ms)
        super().__init__(game, player, player_id)


class StrategyBot(_PlayerBot):
    """One of the paper's strategies as an OpenSpiel bot: ``strategy`` is "take-even",
    "delayed-take-even", "pairing", "tally" or "canonical". The bot raises ValueError on its
    first move where the strategy does not apply to the game and its side (take-even, for
    one, plays P2 (``player_id`` 1) on boards of even height)."""

    def __init__(self, game: pyspiel.Game, strategy: str, player_id: Optional[int] = None):
        super().__init__(game, Player(strategy), player_id)
