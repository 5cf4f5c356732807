"""Throughput of the position toolkit against python-chess, measured in one run.

Baseline: `chess.Board.from_chess960_pos(n)` for n in 0..959. Each of ours is
printed as operations per second and as a ratio to that baseline (above 1:
faster than building a python-chess board). Usage:

    PYTHONPATH=src python tools/bench_positions.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import chess

from eboard960 import numbering
from eboard960.draw import draw
from eboard960.position import StartPosition

NUMBERS = range(numbering.COUNT)


def rate(work: Callable[[], None], rounds: int) -> float:
    """Best of `rounds` passes over all 960 positions, in operations per second."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return numbering.COUNT / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    rounds = parser.parse_args().rounds

    ranks = [numbering.scharnagl_rank(n) for n in NUMBERS]
    boards = [chess.Board.from_chess960_pos(n) for n in NUMBERS]
    positions = [StartPosition.from_number(n) for n in NUMBERS]
    rng = random.Random(1)

    cases: dict[str, Callable[[], None]] = {
        "python-chess Board.from_chess960_pos (baseline)":
            lambda: [chess.Board.from_chess960_pos(n) for n in NUMBERS],
        "python-chess board.chess960_pos()": lambda: [b.chess960_pos() for b in boards],
        "numbering.scharnagl_rank(n)": lambda: [numbering.scharnagl_rank(n) for n in NUMBERS],
        "numbering.scharnagl_number(rank)": lambda: [numbering.scharnagl_number(r) for r in ranks],
        "numbering.fritz_number(rank)": lambda: [numbering.fritz_number(r) for r in ranks],
        "StartPosition.from_number(n) (validated)":
            lambda: [StartPosition.from_number(n) for n in NUMBERS],
        "StartPosition.number": lambda: [p.number for p in positions],
        "StartPosition.from_number(n).board()":
            lambda: [StartPosition.from_number(n).board() for n in NUMBERS],
        "draw(rng=Random) (seeded source)": lambda: [draw(rng=rng) for _ in NUMBERS],
        "draw() (OS CSPRNG)": lambda: [draw() for _ in NUMBERS],
    }
    baseline = None
    print(f"{'operation':50} {'ops/s':>12} {'vs baseline':>12}")
    for label, work in cases.items():
        ops = rate(work, rounds)
        baseline = baseline or ops
        print(f"{label:50} {ops:12,.0f} {ops / baseline:11.2f}x")


if __name__ == "__main__":
    main()
