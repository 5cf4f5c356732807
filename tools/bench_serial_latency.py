#!/usr/bin/env python3
"""Latency of the serial path: last byte of a DGT field update into a pty -> the recognizer's move.

The bench plays the board itself on the pty's master side (answering the
host's hello with a dump, then writing field updates one message at a time)
while the host side is the real stack: SerialTransport on the slave, the
Board joiner, the DGT codec and the move recognizer. The recognizer reports a
move when the next square event shows it is finished (the next move's lift),
so a measured frame is usually the lift that completes the previous move.

Baseline, measured in the same run: the same frames decoded by a DgtCodec and
fed to a Recognizer in-process, with no pty, transport or event loop. The
ratio says what the I/O shell costs. For scale the bench prints how long a
5-byte field update takes on the wire at 9600 baud (10 bits per byte): a
real board cannot deliver it faster than that.

    PYTHONPATH=src python3 tools/bench_serial_latency.py [--games 6] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
import tty

import chess

from eboard960.board import Board
from eboard960.choreography import move_events
from eboard960.events import PieceLifted
from eboard960.protocols.dgt import DgtCodec, encode_dump, encode_field_update, field_of, piece_code
from eboard960.recognizer import MoveRecognized, Recognizer
from eboard960.transport.serial import SerialTransport

WIRE_SECONDS = 5 * 10 / 9600


def random_game(start: int, rng: random.Random, plies: int = 60) -> list[chess.Move]:
    board, moves = chess.Board.from_chess960_pos(start), []
    while len(moves) < plies and not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        moves.append(move)
        board.push(move)
    return moves


def frames_of(start: int, moves: list[chess.Move]) -> list[bytes]:
    """The game's field updates, one message per square change, castling the e-board way."""
    board, frames = chess.Board.from_chess960_pos(start), []
    for move in moves:
        after = board.copy(stack=False)
        after.push(move)
        for event in move_events(board, move, order="eboard"):
            code = 0 if isinstance(event, PieceLifted) else piece_code(after.piece_at(event.square))
            frames.append(encode_field_update(field_of(event.square), code))
        board.push(move)
    return frames


def dump(start: int) -> bytes:
    codes = [0] * 64
    for square, piece in chess.Board.from_chess960_pos(start).piece_map().items():
        codes[field_of(square)] = piece_code(piece)
    return encode_dump(codes)


def baseline(start: int, frames: list[bytes]) -> list[float]:
    codec, recognizer, samples = DgtCodec(), Recognizer(start), []
    for event in codec.receive_data(dump(start)):
        recognizer.feed(event)
    for data in frames:
        began = time.perf_counter()
        reports = [r for e in codec.receive_data(data) for r in recognizer.feed(e)]
        if any(isinstance(r, MoveRecognized) for r in reports):
            samples.append(time.perf_counter() - began)
    return samples


async def through_pty(start: int, frames: list[bytes]) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    path = os.ttyname(slave)
    loop = asyncio.get_running_loop()
    recognizer, samples = Recognizer(start), []
    written = 0.0
    progressed = asyncio.Event()
    board = Board(DgtCodec, lambda: SerialTransport(path))

    async def consume() -> None:
        async for event in board:
            for report in recognizer.feed(event):
                if isinstance(report, MoveRecognized):
                    samples.append(time.perf_counter() - written)
            progressed.set()

    async with board:
        consumer = asyncio.create_task(consume())
        asked = loop.create_future()
        hello = bytearray()

        def on_hello() -> None:
            hello.extend(os.read(master, 64))
            if b"\x42" in hello and not asked.done():
                asked.set_result(None)

        loop.add_reader(master, on_hello)
        await asyncio.wait_for(asked, 5)  # the host's hello; the board answers with its dump
        loop.remove_reader(master)
        os.write(master, dump(start))
        for data in frames:
            progressed.clear()
            os.write(master, data)
            written = time.perf_counter()
            await asyncio.wait_for(progressed.wait(), 5)
        consumer.cancel()
    os.close(master)
    os.close(slave)
    return samples


def describe(name: str, samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"{name:<34} n={len(ordered):4d}  median {median * 1e3:7.3f} ms  "
          f"p99 {p99 * 1e3:7.3f} ms")
    return median, p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pty_samples: list[float] = []
    base_samples: list[float] = []
    for _ in range(args.games):
        start = rng.randrange(960)
        frames = frames_of(start, random_game(start, rng))
        base_samples += baseline(start, frames)
        pty_samples += asyncio.run(through_pty(start, frames))
    print(f"field update on the wire at 9600 baud: {WIRE_SECONDS * 1e3:.3f} ms (5 bytes)")
    base_median, base_p99 = describe("baseline: codec + recognizer", base_samples)
    median, p99 = describe("pty -> transport -> Board -> recog.", pty_samples)
    print(f"ratio pty/baseline: median {median / base_median:.1f}x  p99 {p99 / base_p99:.1f}x")
    print(f"pty path median is {median / WIRE_SECONDS:.2f} of one frame's wire time")


if __name__ == "__main__":
    main()
