#!/usr/bin/env python3
"""Record a capture file (rx/tx bytes and link changes) from a board on a serial path.

Two uses:

* an emulated board (default): the firmware model is served on a pty, the
  real host stack (SerialTransport + Board joiner + codec) records what goes
  over the wire while the emulated hands play a game (`--moves` in UCI/SAN,
  or `--random PLIES`), with seeded link faults and pulled links if asked;
  the game is also written as `<capture>.expected.pgn`;
* a real board (`--port /dev/ttyUSB0`): records until Ctrl-C.

Ctrl-C also stops an emulator recording: the capture keeps what was sent and
the expected PGN holds the moves whose bytes were all sent. An existing
capture is never overwritten without `--force`; a mistake (a move that is not
legal, a port that cannot be opened) is one line on standard error, exit 2.

    PYTHONPATH=src python3 tools/record_capture.py out.jsonl --board dgt --position 0 \\
        --random 40 --seed 3 --garbage 0.1 --pulls 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
from pathlib import Path

import chess
import chess.pgn

from eboard960.board import Board
from eboard960.capture import CaptureWriter
from eboard960.emulators.pty import PtyRunner
from eboard960.errors import Eboard960Error, TransportError
from eboard960.events import BoardSnapshot, LinkChanged
from eboard960.protocols import codec_for
from eboard960.transport import check_opens
from eboard960.transport.serial import LINE_SETTINGS, SerialTransport


class RecordError(Eboard960Error):
    """A mistake in the command line: said in one line before anything is recorded."""


def game_moves(args: argparse.Namespace, start: chess.Board) -> list[chess.Move]:
    board, moves = start.copy(), []
    if args.moves:
        for text in args.moves.split():
            move = _parse_move(board, text)
            moves.append(move)
            board.push(move)
        return moves
    rng = random.Random(args.seed)
    while len(moves) < args.random and not board.is_game_over():
        legal = list(board.legal_moves)
        castles = [m for m in legal if board.is_castling(m)]
        move = castles[0] if castles else rng.choice(legal)
        moves.append(move)
        board.push(move)
    return moves


def _parse_move(board: chess.Board, text: str) -> chess.Move:
    try:
        return board.parse_uci(text)
    except ValueError:
        pass
    try:
        return board.parse_san(text)
    except ValueError:
        ply = len(board.move_stack) + 1
        raise RecordError(f"--moves: {text!r} is not a legal move as ply {ply} (UCI or SAN)") from None


def model_for(args: argparse.Namespace):
    if args.board == "chesslink":
        from eboard960.emulators.chesslink import ChessLinkFirmware, Faults

        return ChessLinkFirmware(start=args.position,
                                 faults=Faults(garbage=args.garbage, split=args.split,
                                               seed=args.seed))
    from eboard960.emulators.dgt import ClockModel, DgtFirmware, Faults

    return DgtFirmware(start=args.position, clock=ClockModel("3000"),
                       faults=Faults(garbage=args.garbage, split=args.split, cut=args.cut,
                                     seed=args.seed))


async def wait_for(arrived: asyncio.Event, predicate) -> None:
    async def watch() -> None:
        while not predicate():
            arrived.clear()
            await arrived.wait()

    await asyncio.wait_for(watch(), 10)


async def record_emulated(args: argparse.Namespace, capture: CaptureWriter, moves: list[chess.Move],
                          played: list[chess.Move]) -> None:
    """Play `moves` on the emulated board; each one goes into `played` once all its bytes are sent,
    so a Ctrl-C leaves there the game the capture holds."""
    start = chess.Board.from_chess960_pos(args.position)
    model = model_for(args)
    runner: PtyRunner | None = PtyRunner(model)
    await runner.start()
    current = {"path": runner.path}
    board = Board(lambda: codec_for(args.board),
                  lambda: SerialTransport(current["path"], protocol=args.board),
                  capture=capture, sleep=lambda d: asyncio.sleep(min(d, 0.05)))
    events: list[object] = []
    arrived = asyncio.Event()

    async def collect() -> None:
        async for event in board:
            events.append(event)
            arrived.set()

    def count(kind: type, **fields: object) -> int:
        return sum(isinstance(e, kind) and all(getattr(e, k) == v for k, v in fields.items())
                   for e in events)

    pull_at = set(random.Random(args.seed).sample(range(1, max(len(moves), 2)),
                                                  min(args.pulls, max(len(moves) - 1, 0))))
    async with board:
        collector = asyncio.create_task(collect())
        await wait_for(arrived, lambda: count(BoardSnapshot) >= 1)
        game = start.copy()
        for index, move in enumerate(moves):
            if index in pull_at and runner is not None:
                await runner.stop()
                await wait_for(arrived, lambda: count(LinkChanged, up=False) >= 1)
                model.play_move(game, move)  # made while the cable is out
                game.push(move)
                snapshots = count(BoardSnapshot)
                runner = PtyRunner(model)
                current["path"] = await runner.start()
                await wait_for(arrived, lambda n=snapshots: count(BoardSnapshot) > n)
                played.append(move)
                continue
            runner.send(model.play_move(game, move))
            game.push(move)
            await runner.drained()
            played.append(move)
            await asyncio.sleep(args.pause)
        await asyncio.sleep(0.3)
        collector.cancel()
    await runner.stop()


async def record_port(args: argparse.Namespace, capture: CaptureWriter) -> None:
    board = Board(lambda: codec_for(args.board),
                  lambda: SerialTransport(args.port, protocol=args.board), capture=capture)
    async with board:
        async for event in board:
            print(event)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("capture", type=Path)
    parser.add_argument("--board", choices=list(LINE_SETTINGS), default="dgt")
    parser.add_argument("--position", type=int, default=518)
    parser.add_argument("--port", help="record a real board on this port until Ctrl-C")
    parser.add_argument("--moves", help="the game, UCI or SAN, space separated")
    parser.add_argument("--random", type=int, default=30, help="plies of a random game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--garbage", type=float, default=0.0, help="chance of junk bytes before a message")
    parser.add_argument("--split", type=float, default=0.0,
                        help="chance of a message's tail held back until the next")
    parser.add_argument("--cut", type=float, default=0.0,
                        help="chance of a message losing its tail: the change it reported is lost, "
                             "so the expected PGN may not be what replay reads")
    parser.add_argument("--pulls", type=int, default=0, help="links pulled during the game")
    parser.add_argument("--pause", type=float, default=0.02, help="seconds between moves")
    parser.add_argument("--force", action="store_true",
                        help="replace an existing capture (and its expected PGN)")
    return parser.parse_args(argv)


def expected_pgn_path(capture: Path) -> Path:
    return capture.with_name(capture.name.split(".")[0] + ".expected.pgn")


def make_room(args: argparse.Namespace) -> None:
    """Refuse to touch an earlier recording unless `--force` says to replace it (the writer would
    otherwise append a second session to it)."""
    earlier = [args.capture] if args.port else [args.capture, expected_pgn_path(args.capture)]
    existing = [path for path in earlier if path.exists()]
    if existing and not args.force:
        raise RecordError(f"{existing[0]} exists; --force replaces it")
    for path in existing:
        path.unlink()


def main(argv: list[str] | None = None) -> int:
    """Record; 0 when done, 130 after a Ctrl-C (what was recorded is kept), 2 for a mistake."""
    args = parse_args(argv)
    try:
        return record(args)
    except RecordError as error:
        print(f"record_capture: {error}", file=sys.stderr)
        return 2


def record(args: argparse.Namespace) -> int:
    start = chess.Board.from_chess960_pos(args.position)
    moves = [] if args.port else game_moves(args, start)
    if args.port:
        try:
            asyncio.run(check_opens(SerialTransport(args.port, protocol=args.board)))
        except TransportError as error:
            raise RecordError(str(error)) from None
    make_room(args)
    what = f"a {args.board} board on {args.port}" if args.port else f"an emulated {args.board} board"
    capture = CaptureWriter(args.capture, board=args.board, start=args.position,
                            event=f"eboard960 recording of {what}")
    played: list[chess.Move] = []
    status = 0
    with capture:
        if args.port:
            with contextlib.suppress(KeyboardInterrupt):
                asyncio.run(record_port(args, capture))
            return 0
        try:
            asyncio.run(record_emulated(args, capture, moves, played))
        except KeyboardInterrupt:
            status = 130
    game = chess.pgn.Game.from_board(_played(args.position, played))
    game.headers["Event"] = "eboard960 emulator recording"
    pgn = expected_pgn_path(args.capture)
    pgn.write_text(str(game) + "\n")
    stopped = " (interrupted)" if status else ""
    print(f"{args.capture}: {len(played)} plies{stopped}; expected game in {pgn}")
    return status


def _played(position: int, moves: list[chess.Move]) -> chess.Board:
    board = chess.Board.from_chess960_pos(position)
    for move in moves:
        board.push(move)
    return board


if __name__ == "__main__":
    raise SystemExit(main())
