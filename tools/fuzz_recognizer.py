"""Long-running check of the recognizer: random Chess960 games made by random human event orders.

Each game is random legal moves from a random start position, made on a
simulated presence board the ways people make them (every castling order,
captures both ways, en passant in any order, promotions by button or by the
reported piece, touches, bounces, slides, place-before-lift, clock presses).
The recognizer must return exactly the moves played. Prints the pass count
and, for each failure, the seed and the first divergent ply.

With `--misread`, the board names one kind of piece wrongly every time it
lands (a worn piece): as its side's king, a name no piece landing there
can have, and only off the back ranks, so that no wrong name chooses a
promotion.

Usage: python tools/fuzz_recognizer.py [--games 1000] [--seed 0] [--misread]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time

import chess

from eboard960.choreography import human_game, random_game
from eboard960.events import PiecePlaced, SquareEvent
from eboard960.recognizer import Recognizer


def misread(events: list[SquareEvent], worn: chess.Piece) -> list[SquareEvent]:
    """The events with every place of `worn` off the back ranks named as its side's king."""
    king = chess.Piece(chess.KING, worn.color)
    return [dataclasses.replace(event, piece=king) if isinstance(event, PiecePlaced) and event.piece == worn
            and not chess.BB_SQUARES[event.square] & chess.BB_BACKRANKS else event for event in events]


def check(seed: int, misreads: bool = False) -> tuple[int, str | None]:
    """Plies played and, if the recognizer disagreed, what went wrong."""
    rng = random.Random(seed)
    start = chess.Board.from_chess960_pos(rng.randrange(960))
    moves = random_game(start, rng, max_plies=120)
    events = human_game(start, moves, rng, noise_rate=rng.choice((0.0, 0.1, 0.3)))
    if misreads:
        events = misread(events, chess.Piece(rng.randrange(chess.PAWN, chess.KING), rng.choice(chess.COLORS)))
    recognizer = Recognizer(start)
    for event in events:
        recognizer.feed(event)
    recognizer.finish()
    got = recognizer.board.move_stack  # the game as recorded: a move reread later counts as reread
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
    parser.add_argument("--misread", action="store_true", help="one kind of piece named wrongly")
    args = parser.parse_args()
    began = time.perf_counter()
    plies = failures = 0
    for seed in range(args.seed, args.seed + args.games):
        played, problem = check(seed, args.misread)
        plies += played
        if problem:
            failures += 1
            print(f"seed {seed}: {problem}")
    seconds = time.perf_counter() - began
    print(f"{args.games - failures} of {args.games} games exact ({plies} plies) in {seconds:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
