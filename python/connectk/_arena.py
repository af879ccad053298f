"""Matches and tournaments between players: names, ``connectk.Player``s or callables."""

from __future__ import annotations

import itertools
import os
from typing import Any, Callable, Iterable, Optional, Union

from . import _core
from ._core import Player, Position, Rules
from ._frames import table

#: A player in a match: a name ("perfect", "take-even", ...), a Player, or any callable
#: taking a Position and returning a 0-based column.
Contestant = Union[str, Player, Callable[[Position], int]]


def arena(
    p1: Contestant,
    p2: Contestant,
    games: int = 1,
    seed: int = 1,
    rules: Optional[Rules] = None,
    table_mb: int = 64,
    book: Optional[Union[str, "os.PathLike[str]"]] = None,
    move_ms: Optional[float] = None,
    frame: Optional[bool] = None,
) -> Any:
    """Play ``games`` games of ``p1`` (first to move) against ``p2`` under ``rules``.

    Each player is a name (see :func:`player_names`), a :class:`Player` (its name is used),
    or any callable taking a :class:`Position` and returning a 0-based column. Game ``i``
    draws its players' randomness from a seed derived from ``seed`` and ``i``, so the records
    are reproducible, and identical to ``connectk arena``'s for named players (which play in
    parallel, with the GIL released). ``table_mb``, ``book`` and ``move_ms`` set up a
    ``perfect`` player.

    Returns one record per game (rules, k, width, height, topology, p1, p2, seed, moves,
    outcome, reason, length, winning_cells, winning_indices, proof, value_only_moves,
    slowest_ms): a pandas DataFrame when pandas is installed (or ``frame=True``), a list of
    dicts otherwise (or ``frame=False``).

    Raises ValueError when a strategy does not apply to its side, or a player has no legal
    move for a position (the message names the game's seed and moves).
    """
    records = _core.play_games(
        p1, p2, games=games, seed=seed, rules=rules, table_mb=table_mb, book=book,
        move_ms=move_ms,
    )
    return table(records, frame)


def tournament(
    players: Iterable[Contestant],
    games: int = 1,
    seed: int = 1,
    rules: Optional[Rules] = None,
    table_mb: int = 64,
    move_ms: Optional[float] = None,
    frame: Optional[bool] = None,
) -> Any:
    """Play every ordered pair of ``players`` (each as P1 and as P2) for ``games`` games.

    Pairs of named players where a paper strategy does not apply to its side are left out
    (the strategies are proven for one side of some boards only). Arguments and records as
    :func:`arena`, all pairs' records in one table.
    """
    players = list(players)
    records = []
    for a, b in itertools.permutations(players, 2):
        if _is_named(a) and _is_named(b) and not _core.can_meet(_name(a), _name(b), rules):
            continue
        records.extend(
            arena(a, b, games=games, seed=seed, rules=rules, table_mb=table_mb,
                  move_ms=move_ms, frame=False)
        )
    return table(records, frame)


def _is_named(player: Contestant) -> bool:
    return isinstance(player, (str, Player))


def _name(player: Union[str, Player]) -> str:
    return player if isinstance(player, str) else player.name
