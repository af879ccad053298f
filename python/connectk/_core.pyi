"""Type stubs of the Rust extension ``connectk._core``."""

import os
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

_Path = Union[str, "os.PathLike[str]"]

__version__: str

class Rules:
    """The rules of a Connect-k game (k, board, normal or misère, flat or cylinder)."""

    def __init__(
        self,
        k: int = 4,
        width: int = 7,
        height: int = 6,
        rules: str = "normal",
        topology: str = "flat",
    ) -> None: ...
    @property
    def k(self) -> int: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def rules(self) -> str: ...
    @property
    def topology(self) -> str: ...
    @property
    def cells(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Position:
    """A position and the moves that reached it (immutable; columns 0-based)."""

    def __init__(self, rules: Optional[Rules] = None) -> None: ...
    @staticmethod
    def from_moves(moves: str, rules: Optional[Rules] = None) -> Position: ...
    def play(self, column: int) -> Position: ...
    def legal_moves(self) -> List[int]: ...
    def legal_mask(self) -> npt.NDArray[np.int8]: ...
    def to_numpy(self) -> npt.NDArray[np.int8]: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def moves(self) -> str: ...
    @property
    def history(self) -> List[int]: ...
    @property
    def plies(self) -> int: ...
    @property
    def to_move(self) -> Optional[str]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winner(self) -> Optional[str]: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def completed_by(self) -> Optional[str]: ...
    @property
    def winning_cells(self) -> List[Tuple[int, int]]: ...
    @property
    def winning_indices(self) -> List[int]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class MoveValue:
    """One move's value (column 0-based; remoteness counts the move)."""

    column: int
    outcome: str
    remoteness: Optional[int]

class Solution:
    """What a solve found."""

    outcome: Optional[str]
    remoteness: Optional[int]
    best_moves: List[int]
    move_values: List[MoveValue]
    complete: bool
    nodes: int
    seconds: float
    @property
    def winner(self) -> Optional[str]: ...

class Solver:
    """An exact solver keeping its table across calls."""

    def __init__(
        self, table_mb: int = 256, threads: int = 1, book: Optional[_Path] = None
    ) -> None: ...
    def solve(
        self,
        position: Position,
        depth: str = "strong",
        budget_ms: Optional[float] = None,
        best_moves: bool = True,
    ) -> Solution: ...
    def analyze(
        self, position: Position, depth: str = "strong", budget_ms: Optional[float] = None
    ) -> Solution: ...
    def solve_batch(
        self, positions: List[Position], depth: str = "strong", budget_ms: Optional[float] = None
    ) -> List[Solution]: ...

class Player:
    """A named player: a bot, ``perfect`` or one of the paper's strategies."""

    def __init__(
        self,
        name: str,
        seed: int = 0,
        table_mb: int = 64,
        book: Optional[_Path] = None,
        move_ms: Optional[float] = None,
    ) -> None: ...
    @property
    def name(self) -> str: ...
    def choose(self, position: Position) -> int: ...
    def __call__(self, position: Position) -> int: ...

class Verdict:
    """The strategy checker's answer."""

    holds: bool
    positions: int
    longest_game: Optional[int]
    line: Optional[str]
    reason: Optional[str]
    def __bool__(self) -> bool: ...

def player_names() -> List[str]: ...
def play_games(
    p1: Union[str, Player, Callable[[Position], int]],
    p2: Union[str, Player, Callable[[Position], int]],
    games: int = 1,
    seed: int = 1,
    rules: Optional[Rules] = None,
    table_mb: int = 64,
    book: Optional[_Path] = None,
    move_ms: Optional[float] = None,
) -> List[Dict[str, Any]]: ...
def can_meet(p1: str, p2: str, rules: Optional[Rules] = None) -> bool: ...
def verify(
    strategy: str,
    player: str,
    rules: Optional[Rules] = None,
    claim: str = "win",
    moves: str = "",
    opponent_cannot_lose: bool = False,
) -> Verdict: ...
def table1_rows(
    max_cells: int = 24,
    k_min: int = 2,
    k_max: int = 6,
    depth: str = "strong",
    table_mb: int = 256,
    one_row_mb: int = 2048,
    node_limit: Optional[int] = None,
) -> List[Dict[str, Any]]: ...
def size_rows(
    ks: List[int],
    rules: List[str],
    sum_min: int,
    sum_max: int,
    min_side: int = 4,
    seconds: float = 60.0,
    table_mb: int = 1024,
) -> List[Dict[str, Any]]: ...
def paper_check_rows(claims: _Path, ids: Optional[List[str]] = None) -> List[Dict[str, Any]]: ...

class QuartoRules:
    """The rules of a Quarto game."""

    def __init__(
        self,
        size: int = 4,
        attributes: int = 4,
        criteria: Optional[str] = None,
        rules: str = "normal",
        squares: bool = False,
    ) -> None: ...
    @property
    def size(self) -> int: ...
    @property
    def attributes(self) -> int: ...
    @property
    def rules(self) -> str: ...

class QuartoPosition:
    """A Quarto position and the turns that reached it (immutable)."""

    def __init__(self, rules: Optional[QuartoRules] = None) -> None: ...
    @staticmethod
    def from_record(record: str, rules: Optional[QuartoRules] = None) -> QuartoPosition: ...
    def play(self, turn: str) -> QuartoPosition: ...
    def legal_turns(self) -> List[str]: ...
    @property
    def rules(self) -> QuartoRules: ...
    @property
    def record(self) -> str: ...
    @property
    def plies(self) -> int: ...
    @property
    def to_move(self) -> Optional[str]: ...
    @property
    def hand(self) -> Optional[str]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winner(self) -> Optional[str]: ...
    @property
    def reason(self) -> Optional[str]: ...

class QuartoSolution:
    """What a Quarto solve found."""

    outcome: Optional[str]
    remoteness: Optional[int]
    best_turns: List[str]
    turn_values: List[Tuple[str, str, Optional[int]]]
    complete: bool
    nodes: int
    seconds: float

class QuartoSolver:
    """A Quarto solver keeping its table across calls."""

    def __init__(self, table_mb: int = 256) -> None: ...
    def solve(self, position: QuartoPosition, depth: str = "strong") -> QuartoSolution: ...
    def analyze(self, position: QuartoPosition, depth: str = "strong") -> QuartoSolution: ...

class QuartoPlayer:
    """A Quarto player: "random", "careful" or "perfect"."""

    def __init__(self, kind: str, seed: int = 0) -> None: ...
    def choose(self, position: QuartoPosition) -> str: ...
