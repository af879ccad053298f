"""Module-level solving: one call, one fresh solver."""

from __future__ import annotations

import os
from typing import Iterable, List, Optional, Union

from ._core import Position, Solution, Solver

PathLike = Union[str, "os.PathLike[str]"]


def solve(
    position: Position,
    depth: str = "strong",
    book: Optional[PathLike] = None,
    table_mb: int = 256,
    threads: int = 1,
    budget_ms: Optional[float] = None,
    best_moves: bool = True,
) -> Solution:
    """Solve ``position`` exactly with a fresh solver.

    Args:
        position: the position to solve (any rules).
        depth: ``"strong"`` (outcome and remoteness) or ``"weak"`` (outcome only, faster).
        book: an opening book file (``.ckbook``) to consult for positions of its rules.
        table_mb: transposition table size in MiB.
        threads: threads searching together, sharing the table (values do not depend on it).
        budget_ms: give up after this many milliseconds; the solution is then incomplete
            (``complete`` False, ``outcome`` None).
        best_moves: also find every move that keeps the value (one narrow search per move).

    Returns:
        A :class:`Solution`: ``outcome`` ("P1", "P2" or "Draw"), ``remoteness``,
        ``best_moves``, ``complete``, ``nodes``, ``seconds``.

    The GIL is released while the solver works, and Ctrl-C interrupts it. To solve many
    positions, keep a :class:`Solver` (its table serves the next solve) or call
    :func:`solve_batch`.
    """
    solver = Solver(table_mb=table_mb, threads=threads, book=book)
    return solver.solve(position, depth=depth, budget_ms=budget_ms, best_moves=best_moves)


def analyze(
    position: Position,
    depth: str = "strong",
    book: Optional[PathLike] = None,
    table_mb: int = 256,
    threads: int = 1,
    budget_ms: Optional[float] = None,
) -> Solution:
    """Solve every legal move of ``position`` with a fresh solver.

    Arguments as :func:`solve`. The solution's ``move_values`` holds one :class:`MoveValue`
    per legal move (column, outcome, remoteness counted from ``position``, the move
    included); ``best_moves`` are those whose value is best for the side to move.
    """
    solver = Solver(table_mb=table_mb, threads=threads, book=book)
    return solver.analyze(position, depth=depth, budget_ms=budget_ms)


def solve_batch(
    positions: Iterable[Position],
    depth: str = "strong",
    book: Optional[PathLike] = None,
    table_mb: int = 256,
    threads: int = 1,
    budget_ms: Optional[float] = None,
) -> List[Solution]:
    """Solve many positions in one call with one solver (values only, no best moves).

    Arguments as :func:`solve`; ``budget_ms`` applies to each position. The solver's table
    carries over from one position to the next, which is what makes a batch faster than
    separate calls.
    """
    solver = Solver(table_mb=table_mb, threads=threads, book=book)
    return solver.solve_batch(list(positions), depth=depth, budget_ms=budget_ms)
