"""What a solve costs through Python against the same solve through the library's binary.

Usage: python benches/overhead.py PATH/TO/connectk [--runs N] [--batch FILE]

Solves the empty misère and normal 7x6 boards exactly (value only, no book, one thread,
512 MiB), alternating the binary (`connectk solve --value-only`) and `connectk.Solver.solve`,
and one batch of positions (the first 1,000 lines of FILE, Pons's Begin-Medium set
`Test_L1_R2` when given; else 1,000 seeded random normal 7x6 positions of 12 plies as a
stand-in) through `connectk solve --batch` and one `Solver.solve_batch` call. Each is timed
in CPU seconds (the binary's process, start-up included; the Python call, every thread of
it), which a machine shared with other work disturbs far less than wall time. Prints the
medians and the ratios Python / library; a ratio of 1.05 is the target.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import time

import connectk

TABLE_MB = 512


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_binary(args: list, stdin: str | None = None) -> tuple:
    """The binary's output and the CPU seconds its process took."""
    before = children_cpu()
    out = subprocess.run(args, input=stdin, capture_output=True, text=True, check=True).stdout
    return out, children_cpu() - before


def library_seconds(binary: str, rules: connectk.Rules) -> float:
    args = [binary, "solve", "--rules", rules.rules, "--value-only", "--json", "--no-book",
            "--table-mb", str(TABLE_MB)]
    out, cpu = run_binary(args)
    json.loads(out)
    return cpu


def python_seconds(rules: connectk.Rules) -> float:
    solver = connectk.Solver(table_mb=TABLE_MB)
    start = time.process_time()
    solver.solve(connectk.Position(rules), best_moves=False)
    return time.process_time() - start


def batch_moves(path: str | None, count: int = 1000) -> list[str]:
    if path:
        with open(path) as f:
            return [line.split()[0] for line in f if line.strip()][:count]
    rng = random.Random(42)
    moves = []
    while len(moves) < count:
        position = connectk.Position()
        for _ in range(12):
            legal = [c for c in position.legal_moves() if not position.play(c).is_over]
            if not legal:
                break
            position = position.play(rng.choice(legal))
        if position.plies == 12:
            moves.append(position.moves)
    return moves


def library_batch(binary: str, moves: list[str]) -> float:
    args = [binary, "solve", "--batch", "-", "--no-book", "--table-mb", "64"]
    _, cpu = run_binary(args, "\n".join(moves) + "\n")
    return cpu


def python_batch(moves: list[str]) -> float:
    positions = [connectk.Position.from_moves(m) for m in moves]
    solver = connectk.Solver(table_mb=64)
    start = time.process_time()
    solver.solve_batch(positions)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--batch", help="Pons's Test_L1_R2 (Begin-Medium), when at hand")
    args = parser.parse_args()
    for variant in ("misere", "normal"):
        rules = connectk.Rules(rules=variant)
        lib, py = [], []
        for _ in range(args.runs):
            lib.append(library_seconds(args.binary, rules))
            py.append(python_seconds(rules))
        lib_m, py_m = statistics.median(lib), statistics.median(py)
        print(f"empty {variant} 7x6, CPU: library {lib_m:.2f} s, Python {py_m:.2f} s, "
              f"ratio {py_m / lib_m:.3f} (runs: {lib} / {py})", flush=True)
    moves = batch_moves(args.batch)
    lib = statistics.median(library_batch(args.binary, moves) for _ in range(args.runs))
    py = statistics.median(python_batch(moves) for _ in range(args.runs))
    name = "Begin-Medium" if args.batch else "stand-in (random 12-ply)"
    print(f"batch of {len(moves)} {name}, CPU: library {lib:.2f} s, Python {py:.2f} s, "
          f"ratio {py / lib:.3f}")


if __name__ == "__main__":
    main()
