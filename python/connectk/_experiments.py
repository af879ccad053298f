"""The experiments of the command line, returning their rows as tables."""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional, Sequence, Tuple, Union

from . import _core
from ._frames import table


def table1(
    max_cells: int = 24,
    k_min: int = 2,
    k_max: int = 6,
    depth: str = "strong",
    table_mb: int = 256,
    node_limit: Optional[int] = None,
    frame: Optional[bool] = None,
) -> Any:
    """Table I of the paper: every misère board with ``k_min <= k <= k_max`` and
    ``width * height <= max_cells``, solved from the empty board and compared with the
    paper's prediction.

    One row per board, sorted by k, width, height, with the columns of
    ``results/table1/table1.csv``: rules, k, width, height, cells, paper (the predicted
    winner, None where the paper leaves the board open), solver (the solved winner: "P1",
    "P2" or "Draw"), agree, remoteness (None with ``depth="weak"``), nodes. The default grid
    (420 boards) takes about 40 s on 2 cores. Boards given up at ``node_limit`` nodes are left
    out. A DataFrame when pandas is installed, else a list of dicts (see ``frame``).
    """
    rows = _core.table1_rows(
        max_cells=max_cells, k_min=k_min, k_max=k_max, depth=depth, table_mb=table_mb,
        node_limit=node_limit,
    )
    return table(rows, frame)


def sizes(
    ks: Iterable[int] = (4,),
    rules: Sequence[str] = ("normal", "misere"),
    sums: Tuple[int, int] = (8, 10),
    min_side: int = 4,
    seconds: float = 60.0,
    table_mb: int = 1024,
    frame: Optional[bool] = None,
) -> Any:
    """The size table: for each k and rule set, every board with both sides at least
    ``min_side`` and ``sums[0] <= width + height <= sums[1]``, solved exactly within
    ``seconds`` each.

    Rows with the columns of ``results/sizes/sizes.csv`` (outcome, remoteness, the published
    value for normal k = 4, Table I's prediction, the deciding strategy and the longest game
    against it, a principal variation, nodes, seconds, ...) and ``open``: True for a board not
    settled in time, which then has the columns of ``results/sizes/open.csv`` (its outcome
    when a weak solve found it in the same time again).
    """
    low, high = sums
    rows = _core.size_rows(
        list(ks), list(rules), low, high, min_side=min_side, seconds=seconds, table_mb=table_mb
    )
    return table(rows, frame)


def paper_checks(
    claims: Union[str, "os.PathLike[str]"],
    ids: Optional[Iterable[str]] = None,
    frame: Optional[bool] = None,
) -> Any:
    """Check the paper's claims: every case of the claims file ``claims`` (the repository's
    ``paper-checks/claims.json``) whose id is in ``ids`` (all when None), on every board of
    its range. One row per case, board and player: case, k, width, height, topology, player,
    holds, detail, refutation.
    """
    rows = _core.paper_check_rows(claims, None if ids is None else list(ids))
    return table(rows, frame)
