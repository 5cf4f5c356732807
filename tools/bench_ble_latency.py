"""Notification-to-`move` latency over Bumble's virtual BLE link, against an in-process baseline.

For every sensor event of some seeded random Chess960 games, the emulated
board sends its notification and the clock starts; the host side is the real
stack (bleak with the Bumble backend, `BleTransport`, the `Board` joiner, the
codec, the recognizer) and the clock stops when the recognizer reports the
`move` that event completed. The baseline feeds the same notification bytes
to a fresh codec and recognizer in the same process, with no link. Prints
median and p99 of both and their ratio; also checks that every game came out
move for move.

    PYTHONPATH=src python tools/bench_ble_latency.py [--board pegasus] [--games 4] [--plies 80]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time

import chess

from eboard960.ble.emulated import make_model, open_emulated
from eboard960.board import Backoff, Board
from eboard960.choreography import move_events
from eboard960.commands import EnableUpdates, RequestBoard
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import codec_for
from eboard960.recognizer import MoveRecognized, Recognizer


def random_game(rng: random.Random, plies: int) -> tuple[chess.Board, list[chess.Move]]:
    """A Chess960 game of random legal moves (queen promotions: the boards cannot tell)."""
    start = chess.Board.from_chess960_pos(rng.randrange(960))
    board, moves = start.copy(), []
    while len(moves) < plies and not board.is_game_over():
        choices = [m for m in board.legal_moves if m.promotion in (None, chess.QUEEN)]
        move = rng.choice(choices)
        board.push(move)
        moves.append(move)
    return start, moves


async def over_the_link(
    board_name: str, start: chess.Board, moves: list[chess.Move]
) -> tuple[list[float], list[bytes], list[chess.Move]]:
    """Latencies (s) of the events that completed a move; the notifications; the moves seen."""
    emulated = await open_emulated(board_name, start)
    host = Board(
        lambda: codec_for(board_name), lambda: emulated.transport, backoff=Backoff(initial=0.01)
    )
    recognizer = Recognizer(start)
    reports: asyncio.Queue[tuple[float, list[object]]] = asyncio.Queue()
    synced = asyncio.Event()

    async def consume() -> None:
        async for event in host:
            if isinstance(event, PieceLifted | PiecePlaced):
                reports.put_nowait((time.perf_counter(), recognizer.feed(event)))
            elif isinstance(event, BoardSnapshot):
                recognizer.feed(event)
                synced.set()

    host.start()
    consumer = asyncio.create_task(consume())
    await asyncio.wait_for(synced.wait(), 5)  # the hello and the first dump
    latencies, wire, seen = [], [], []
    # Models that hand over each notification on their own do it here, so the clock
    # starts when the notification is handed to the radio, as for the others.
    notified: list[bytes] = []
    if hasattr(emulated.model, "notify"):
        emulated.model.notify = notified.append
    position = start.copy()
    for move in [*moves, None]:
        # After the last move, one more lift by the other side commits it.
        steps = move_events(position, move) if move else [_next_lift(position)]
        for step in steps:
            said = emulated.model.apply(step)
            chunks = [*notified, said] if said else list(notified)
            notified.clear()
            sent = time.perf_counter()
            for chunk in chunks:
                wire.append(chunk)
                emulated.peripheral.send(chunk)
            received, out = await asyncio.wait_for(reports.get(), 5)
            for report in out:
                if isinstance(report, MoveRecognized):
                    latencies.append(received - sent)
                    seen.append(report.move)
        if move:
            position.push(move)
    consumer.cancel()
    await host.close()
    await emulated.close()
    return latencies, wire, seen


def _next_lift(position: chess.Board) -> PieceLifted:
    square = next(iter(chess.SquareSet(position.occupied_co[position.turn])))
    return PieceLifted(square=square)


def in_process(board_name: str, start: chess.Board, wire: list[bytes]) -> list[float]:
    """The same notifications decoded and recognized with no link in between."""
    codec, recognizer = codec_for(board_name), Recognizer(start)
    model = make_model(board_name, start)
    for command in (EnableUpdates(), RequestBoard()):  # the joiner's hello, as on the link
        for event in codec.receive_data(model.feed(codec.send(command))):
            if isinstance(event, BoardSnapshot):
                recognizer.feed(event)
    latencies = []
    for data in wire:
        began = time.perf_counter()
        completed = any(
            isinstance(report, MoveRecognized)
            for event in codec.receive_data(data)
            if isinstance(event, PieceLifted | PiecePlaced)
            for report in recognizer.feed(event)
        )
        ended = time.perf_counter()
        if completed:
            latencies.append(ended - began)
    return latencies


def summary(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered), p99


async def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    link, baseline, games_ok = [], [], 0
    for _ in range(args.games):
        start, moves = random_game(rng, args.plies)
        latencies, wire, seen = await over_the_link(args.board, start, moves)
        link += latencies
        baseline += in_process(args.board, start, wire)
        games_ok += seen == moves
    link_median, link_p99 = summary(link)
    base_median, base_p99 = summary(baseline)
    print(
        f"board {args.board}: {args.games} games, {len(link)} moves, "
        f"{games_ok}/{args.games} games recognized move for move"
    )
    for label, (median, p99) in (
        ("over the Bumble link", (link_median, link_p99)),
        ("in-process baseline ", (base_median, base_p99)),
    ):
        print(f"{label} : median {median * 1e3:7.3f} ms   p99 {p99 * 1e3:7.3f} ms")
    print(
        f"ratio link/baseline  : median {link_median / base_median:7.1f}x    "
        f"p99 {link_p99 / base_p99:7.1f}x"
    )
    return 0 if games_ok == args.games else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="pegasus", choices=("pegasus", "chesslink"))
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--plies", type=int, default=80)
    parser.add_argument("--seed", type=int, default=960)
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
