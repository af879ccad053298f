"""Seeded random positions of several boards, the cross-checks' sample."""

from __future__ import annotations

import random
from typing import List

import connectk

#: Boards of the sample: (k, width, height, topology), each under both rules.
BOARDS = [
    (4, 5, 4, "flat"),
    (3, 4, 4, "flat"),
    (4, 6, 4, "flat"),
    (3, 5, 3, "flat"),
    (4, 5, 4, "cylinder"),
    (3, 4, 3, "cylinder"),
]


def random_position(rules: connectk.Rules, rng: random.Random, plies: int) -> connectk.Position:
    """A position of ``rules`` after up to ``plies`` random moves, never a finished one
    unless the game cannot avoid it."""
    position = connectk.Position(rules)
    for _ in range(plies):
        moves = position.legal_moves()
        rng.shuffle(moves)
        for column in moves:
            after = position.play(column)
            if not after.is_over:
                position = after
                break
        else:
            break
    return position


def sample(rules: connectk.Rules, count: int, seed: int) -> List[connectk.Position]:
    """``count`` seeded random positions of ``rules``, from early to late in the game."""
    rng = random.Random(seed)
    low = max(0, rules.cells // 4)
    return [random_position(rules, rng, rng.randint(low, rules.cells - 1)) for _ in range(count)]
