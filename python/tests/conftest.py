"""Shared fixtures: the connectk command-line binary the cross-checks compare with."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import List, Optional

import pytest

import connectk

REPO = Path(__file__).resolve().parents[2]


class Cli:
    """The ``connectk`` binary built from the root crate, called as the cross-checks need."""

    def __init__(self, path: Path):
        self.path = path

    @staticmethod
    def board_args(rules: connectk.Rules) -> List[str]:
        """The command line's board options for ``rules``."""
        return [
            "--rules", rules.rules, "-k", str(rules.k), "--width", str(rules.width),
            "--height", str(rules.height), "--topology", rules.topology,
        ]

    def run(self, *args: str, stdin: Optional[str] = None) -> str:
        """Runs the binary with ``args`` and returns its standard output."""
        done = subprocess.run(
            [str(self.path), *args], input=stdin, capture_output=True, text=True, check=True
        )
        return done.stdout

    def solve_json(self, position: connectk.Position, *extra: str) -> dict:
        """``connectk solve --json`` of ``position`` (no book)."""
        args = ["solve", *self.board_args(position.rules), "--moves", position.moves]
        return json.loads(self.run(*args, "--json", "--no-book", *extra))

    def solve_batch(self, rules: connectk.Rules, moves: List[str], weak: bool = False) -> List[dict]:
        """``connectk solve --batch -`` rows (moves, outcome, remoteness) of ``moves``."""
        args = ["solve", *self.board_args(rules), "--batch", "-", "--no-book"]
        if weak:
            args.append("--weak")
        lines = self.run(*args, stdin="".join(f"{m or '#empty'}\n" for m in moves)).splitlines()
        header = lines[0].split(",")
        return [dict(zip(header, line.split(","))) for line in lines[1:]]


def _find_cli() -> Optional[Path]:
    named = os.environ.get("CONNECTK_BIN")
    if named:
        return Path(named)
    for target in [os.environ.get("CARGO_TARGET_DIR"), str(REPO / "target")]:
        if target and (Path(target) / "release" / "connectk").exists():
            return Path(target) / "release" / "connectk"
    return None


@pytest.fixture(scope="session")
def cli() -> Cli:
    """The command-line binary; the cross-checks skip (with a note) when it is not built,
    unless ``CONNECTK_REQUIRE_CLI`` is set, as CI sets it."""
    path = _find_cli()
    if path is None or not path.exists():
        message = (
            "the connectk binary is not built (cargo build --release at the repository root, "
            "or set CONNECTK_BIN): cross-checks with the Rust CLI skipped"
        )
        if os.environ.get("CONNECTK_REQUIRE_CLI"):
            pytest.fail(message)
        print(message)
        pytest.skip(message)
    return Cli(path)
