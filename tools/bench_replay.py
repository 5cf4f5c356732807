"""Benchmark: replaying captures against python-chess replaying the same games from SAN.

Generates random Chess960 games made by hand (castling in every order,
captures both ways, touches, slides, clock presses), then times, in one run:

- baseline: python-chess `Board.push_san` for every move of every game (the issue's bar);
- floor: the python-chess calls no recognizer built on it can skip per move (`is_legal` when
  the board shows the move, `push` when it is final, the no-legal-move test for mate and
  stalemate), to show how far the glue around them is from the ceiling;
- PGN baseline: python-chess reading the same games from PGN text (`chess.pgn.read_game`);
- recognizer: the same games fed to `Recognizer` as decoded square events;
- replay: whole capture files read, decoded and recognised (`read_capture` + `replay_capture`);
- the time of each single `Recognizer.feed` call (median, p99, max).

Ratios above 1 mean faster than the baseline. Usage: python tools/bench_replay.py [--games 300]
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import chess
import chess.pgn

from eboard960.capture import CaptureWriter, read_capture
from eboard960.choreography import human_game, random_game
from eboard960.recognizer import Recognizer
from eboard960.replay import replay_capture


def make_games(count: int, seed: int) -> list[tuple[chess.Board, list[chess.Move], list[str], list]]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        start = chess.Board.from_chess960_pos(rng.randrange(960))
        moves = random_game(start, rng, max_plies=100)
        board = start.copy()
        sans = []
        for move in moves:
            sans.append(board.san(move))
            board.push(move)
        games.append((start, moves, sans, human_game(start, moves, rng)))
    return games


def _played(start: chess.Board, moves: list[chess.Move]) -> chess.Board:
    board = start.copy()
    for move in moves:
        board.push(move)
    return board


def best_of(runs: int, work) -> float:
    return min(_timed(work) for _ in range(runs))


def _timed(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3, help="best of this many runs")
    args = parser.parse_args()
    games = make_games(args.games, args.seed)
    plies = sum(len(moves) for _, moves, _, _ in games)
    events = sum(len(evs) for *_, evs in games)

    def baseline() -> None:
        for start, _, sans, _ in games:
            board = start.copy()
            for san in sans:
                board.push_san(san)

    def floor() -> None:
        for start, moves, _, _ in games:
            board = start.copy()
            for move in moves:
                board.is_legal(move)
                board.push(move)
                any(board.generate_legal_moves())

    pgn_texts = []
    for start, moves, _, _ in games:
        game = chess.pgn.Game.from_board(_played(start, moves))
        pgn_texts.append(str(game))

    def read_pgn() -> None:
        for text in pgn_texts:
            chess.pgn.read_game(io.StringIO(text))

    def recognize() -> None:
        for start, moves, _, evs in games:
            recognizer = Recognizer(start)
            for event in evs:
                recognizer.feed(event)
            recognizer.finish()
            if recognizer.board.move_stack != moves:
                sys.exit("recognizer disagrees with the game: benchmark invalid")

    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for number, (start, _, _, evs) in enumerate(games):
            path = Path(folder) / f"game_{number:04d}.jsonl"
            with CaptureWriter(path, board="events", start=start.chess960_pos()) as writer:
                for event in evs:
                    writer.event(event)
            paths.append(path)

        def replay() -> None:
            for path in paths:
                replay_capture(read_capture(path))

        base = best_of(args.runs, baseline)
        least = best_of(args.runs, floor)
        pgn = best_of(args.runs, read_pgn)
        rec = best_of(args.runs, recognize)
        full = best_of(args.runs, replay)

    latencies = []
    for start, _, _, evs in games:
        recognizer = Recognizer(start)
        for event in evs:
            began = time.perf_counter_ns()
            recognizer.feed(event)
            latencies.append(time.perf_counter_ns() - began)
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99)] / 1000
    print(f"{len(games)} games, {plies} plies, {events} sensor events (best of {args.runs})")
    print(f"python-chess push_san      {base / plies * 1e6:8.1f} us/ply   (baseline)")
    print(f"python-chess read_game     {pgn / plies * 1e6:8.1f} us/ply   (PGN baseline)")
    print(f"python-chess floor         {least / plies * 1e6:8.1f} us/ply   "
          f"speed vs baseline {base / least:.2f}x (is_legal + push + end test: the ceiling)")
    print(f"recognizer (events)        {rec / plies * 1e6:8.1f} us/ply   speed vs baseline {base / rec:.2f}x")
    print(f"replay (files, read+decode){full / plies * 1e6:8.1f} us/ply   "
          f"speed vs baseline {base / full:.2f}x, vs PGN baseline {pgn / full:.2f}x")
    print(f"per event: median {statistics.median(latencies) / 1000:.1f} us, p99 {p99:.1f} us, "
          f"max {latencies[-1] / 1000:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
