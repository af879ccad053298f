"""connectk: solve, play and check Connect-k games under normal and misère rules.

The exact solver, the strategies of Steele & Larremore's "Misère Connect Four is Solved"
and the arena of the Rust crate ``connectk``, from Python::

    >>> import connectk
    >>> rules = connectk.Rules(k=4, width=5, height=4, rules="misere")
    >>> connectk.solve(connectk.Position(rules))
    Solution(outcome='P2', remoteness=17, best_moves=[0, 1, 2, 3, 4], complete=True, nodes=...)

Columns are 0-based indices everywhere in Python (as numpy, PettingZoo and OpenSpiel count
them); move strings use the command line's notation, columns from 1 (``"4453"``). Bad input
raises ``ValueError`` with the library's one-line message.
"""

from __future__ import annotations

from ._arena import arena, tournament
from ._core import (
    MoveValue,
    Player,
    Position,
    Rules,
    Solution,
    Solver,
    Verdict,
    __version__,
    player_names,
    verify,
)
from ._experiments import paper_checks, sizes, table1
from ._solve import analyze, solve, solve_batch

__all__ = [
    "MoveValue",
    "Player",
    "Position",
    "Rules",
    "Solution",
    "Solver",
    "Verdict",
    "__version__",
    "analyze",
    "arena",
    "paper_checks",
    "player_names",
    "sizes",
    "solve",
    "solve_batch",
    "table1",
    "tournament",
    "verify",
]
