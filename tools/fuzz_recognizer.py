"""Long-running check of the recognizer: random Chess960 games made by random human event orders.

Each game is random legal moves from a random start position, made on a
simulated presence board the ways people make them (every castling order,
captures both ways, en passant in any order, promotions by button or by the
reported piece, touches, bounces, slides, place-before-lift, clock presses).
The recognizer must return exactly the moves played. Prints the pass count
and, for each failure, the seed and the first divergent ply.

Usage: python tools/fuzz_recognizer.py [--games 1000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import chess

from eboard960.choreography import human_game, random_game
from eboard960.recognizer import Recognizer


def check(seed: int) -> tuple[int, str | None]:
    """Plies played and, if the recognizer disagreed, what went wrong."""
    rng = random.Random(seed)
    start = chess.Board.from_chess960_pos(rng.randrange(960))
    moves = random_game(start, rng, max_plies=120)
    events = human_game(start, moves, rng, noise_rate=rng.choice((0.0, 0.1, 0.3)))
    recognizer = Recognizer(start)
    reports = [report for event in events for report in recognizer.feed(event)]
    reports += recognizer.finish()
    got = [report.move for report in reports if report.kind == "move"]
    if got == moves:
        return len(moves), None
    agreeing = (i for i, (a, b) in enumerate(zip(got, moves, strict=False)) if a != b)
    ply = next(agreeing, min(len(got), len(moves)))
    board = start.copy()
    for move in moves[:ply]:
        board.push(move)
    expected = board.san(moves[ply]) if ply < len(moves) else "(end)"
    found = got[ply].uci() if ply < len(got) else "(nothing)"
    return len(moves), f"position {start.chess960_pos()}, ply {ply}: expected {expected}, got {found}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    began = time.perf_counter()
    plies = failures = 0
    for seed in range(args.seed, args.seed + args.games):
        played, problem = check(seed)
        plies += played
        if problem:
            failures += 1
            print(f"seed {seed}: {problem}")
    seconds = time.perf_counter() - began
    print(f"{args.games - failures} of {args.games} games exact ({plies} plies) in {seconds:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
