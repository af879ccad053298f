"""Quarto: positions, the solver and the players, in the style of the Connect-k API.

    >>> from connectk import quarto
    >>> rules = quarto.Rules(size=2, attributes=2)
    >>> quarto.solve(quarto.Position(rules))
    QuartoSolution(outcome='P2', remoteness=4, best_turns=[], nodes=...)

Turns are written as the command line writes them: ``a1:DTQH`` places the piece in hand on
a1 and hands over DTQH; the opening turn only hands over (``DTQH``), a last turn only places
(``a1``).
"""

from __future__ import annotations

from ._core import QuartoPlayer as Player
from ._core import QuartoPosition as Position
from ._core import QuartoRules as Rules
from ._core import QuartoSolution as Solution
from ._core import QuartoSolver as Solver

__all__ = ["Player", "Position", "Rules", "Solution", "Solver", "analyze", "solve"]


def solve(position: Position, depth: str = "strong", table_mb: int = 256) -> Solution:
    """The value of ``position`` under perfect play (``depth`` "strong": winner and
    remoteness; "weak": winner only), with a fresh solver of ``table_mb`` MiB. Standard
    Quarto from the empty board is far beyond reach; small boards and late positions solve
    at once. The GIL is released, and Ctrl-C interrupts the search."""
    return Solver(table_mb=table_mb).solve(position, depth=depth)


def analyze(position: Position, depth: str = "strong", table_mb: int = 256) -> Solution:
    """The value of ``position`` and of every legal turn (``turn_values``: (turn, outcome,
    remoteness counting the turn) triples; ``best_turns``: those that keep the value)."""
    return Solver(table_mb=table_mb).analyze(position, depth=depth)
