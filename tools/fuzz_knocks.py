"""Check of the recognizer against knocks: a neighbour brushed by the hand while a move is made.

Each trial takes three moves of a random Chess960 game, made as people make
them (`eboard960.choreography.human_game`), and knocks a piece next to a
square the first move touches: lifted while that move is under way and put
back 0.04-0.22 s later, with at least one report of the move between (a
knock with nothing between is a plain bounce). A third of the time the hand
brushes two neighbours, crossed: lift X, lift Y, X back, Y back. The spec counts it as nothing,
so the recognizer must return the three moves. Two kinds the README lists as
limits are not generated: a piece the moving piece could take, knocked before
that piece is lifted (the events are those of a capture made victim first),
and a knock lifted between a capture's victim and its landing after a slide.

Usage: python tools/fuzz_knocks.py [--trials 1000] [--seed 0]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time

import chess

from eboard960.choreography import human_game, random_game
from eboard960.events import PieceLifted, PiecePlaced, SquareEvent
from eboard960.recognizer import Recognizer


def trial(rng: random.Random) -> tuple[chess.Board, list[chess.Move], list[SquareEvent]]:
    """A position, three moves from it, and their events with a knock."""
    while (drawn := _draw(rng)) is None:
        pass
    return drawn


def _draw(rng: random.Random) -> tuple[chess.Board, list[chess.Move], list[SquareEvent]] | None:
    """One try at `trial`; None if the move drawn leaves no knock to make."""
    start = chess.Board.from_chess960_pos(rng.randrange(960))
    game = random_game(start, rng, max_plies=70)
    if len(game) < 4:
        return None
    at = rng.randrange(len(game) - 2)
    board = start.copy()
    for move in game[:at]:
        board.push(move)
    first, rest = game[at], game[at + 1:at + 3]
    during = human_game(board, [first], rng, noise_rate=0.0, clock_rate=0.5)
    after = board.copy()
    after.push(first)
    offset = during[-1].t
    events = during + [dataclasses.replace(e, t=e.t + offset) for e in human_game(after, rest, rng, 0.0, 0.5)]
    steps = [e for e in during if isinstance(e, PieceLifted | PiecePlaced)]
    touched = {e.square for e in events if isinstance(e, PieceLifted | PiecePlaced)}
    near = 0
    for step in steps:
        near |= chess.BB_KING_ATTACKS[step.square]
    standing = [s for s in chess.scan_forward(near & board.occupied & after.occupied) if s not in touched]
    if len(steps) < 2 or not standing:
        return None
    square = rng.choice(standing)
    lifted = rng.uniform(steps[0].t - 0.1, steps[-1].t - 0.01)
    placed = lifted + rng.uniform(0.04, 0.22)
    knocks = [(square, lifted, placed)]
    if len(standing) > 1 and rng.random() < 1 / 3:
        lifted_too = rng.uniform(lifted + 0.01, placed - 0.01)
        knocks.append((rng.choice([s for s in standing if s != square]), lifted_too,
                       rng.uniform(placed + 0.01, lifted_too + 0.22)))
    times = [e.t for e in events]
    apart = all(abs(t - at) > 0.005 for _, *pair in knocks for at in pair for t in times)
    if not apart or not (len(knocks) > 1 or any(lifted < t < placed for t in times)):
        return None
    if any(_looks_like_a_capture(board, first, steps, knock, at) for knock, at, _ in knocks):
        return None
    knocked = [e for knock, up, down in knocks
               for e in (PieceLifted(square=knock, t=up), PiecePlaced(square=knock, t=down))]
    return board, [first, *rest], sorted(events + knocked, key=lambda e: e.t)


def _looks_like_a_capture(board: chess.Board, move: chess.Move, steps: list, square: chess.Square,
                          lifted: float) -> bool:
    """The two kinds of knock the README lists as limits (see the module docstring)."""
    lifts = {e.square: e.t for e in steps if isinstance(e, PieceLifted)}
    takes = any(board.generate_legal_moves(chess.BB_SQUARES[move.from_square], chess.BB_SQUARES[square]))
    if takes and lifted < lifts.get(move.from_square, steps[0].t):
        return True
    slid = sum(isinstance(e, PiecePlaced) for e in steps) > 1
    return slid and move.to_square in lifts and lifts[move.to_square] < lifted < steps[-1].t


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    began = time.perf_counter()
    failures = 0
    for seed in range(args.seed, args.seed + args.trials):
        board, moves, events = trial(random.Random(seed))
        recognizer = Recognizer(board)
        for event in events:
            recognizer.feed(event)
        recognizer.finish()
        if recognizer.board.move_stack != moves:
            failures += 1
            print(f"seed {seed}: {board.fen()}: expected {[m.uci() for m in moves]}, "
                  f"got {[m.uci() for m in recognizer.board.move_stack]}")
    seconds = time.perf_counter() - began
    print(f"{args.trials - failures} of {args.trials} knocks read as nothing in {seconds:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
