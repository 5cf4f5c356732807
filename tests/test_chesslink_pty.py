"""ChessLink over a real pseudo-terminal: pyserial on the host side, the firmware model behind.

Nothing is mocked: the host opens the pty with the serial transport at 7O1,
the codec encodes and decodes, the firmware model answers through the pty
runner, and garbage and cut frames go down the same wire.
"""

from __future__ import annotations

import asyncio
import random

import chess
import chess.pgn
import pytest
from game_helpers import GAME_960, two_snapshots
from pty_socket import Socket

from eboard960.board import Board
from eboard960.capture import CaptureWriter, read_capture
from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.emulators.chesslink import ChessLinkFirmware, Faults
from eboard960.emulators.pty import PtyRunner
from eboard960.events import BoardSnapshot, LinkChanged, PieceLifted, PiecePlaced
from eboard960.protocols import chesslink as cl
from eboard960.protocols import codec_for
from eboard960.recognizer import MoveRecognized, Recognizer
from eboard960.transport.serial import SerialTransport

TIMEOUT = 5.0


class Host:
    """The host side: transport + codec, with a reader task collecting every event."""

    def __init__(self, path: str) -> None:
        self.transport = SerialTransport(path, protocol="chesslink")
        self.codec = cl.ChessLinkCodec()
        self.events: list[object] = []
        self.recognizer = Recognizer(0)
        self.moves: list[str] = []
        self.arrived = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Host:
        await self.transport.open()
        self._task = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        await self.transport.close()

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            data = await self.transport.read()
            for event in self.codec.receive_data(data, loop.time()):
                self.events.append(event)
                if isinstance(event, (BoardSnapshot, PieceLifted, PiecePlaced)):
                    reports = self.recognizer.feed(event)
                    self.moves += [r.san for r in reports if isinstance(r, MoveRecognized)]
            self.arrived.set()

    async def send(self, command: object) -> None:
        await self.transport.write(self.codec.send(command))

    async def wait_for(self, predicate) -> None:
        async def poll() -> None:
            while not predicate():
                self.arrived.clear()
                await self.arrived.wait()

        await asyncio.wait_for(poll(), TIMEOUT)

    def of_type(self, kind: type) -> list[object]:
        return [e for e in self.events if isinstance(e, kind)]


def test_connect_identify_and_light_leds_over_a_pty() -> None:
    async def scenario() -> None:
        model = ChessLinkFirmware(start=0, version=(3, 4))
        async with PtyRunner(model) as runner, Host(runner.path) as host:
            await host.send(cl.RequestVersion())
            await host.wait_for(lambda: host.of_type(cl.VersionReported))
            assert host.of_type(cl.VersionReported)[0].major == 3
            await host.send(RequestBoard())
            await host.wait_for(lambda: host.of_type(BoardSnapshot))
            snapshot = host.of_type(BoardSnapshot)[0]
            assert snapshot.pieces == chess.Board.from_chess960_pos(0).piece_map()
            await host.send(SetLeds(squares=frozenset({chess.B1, chess.G8})))
            await host.wait_for(lambda: host.of_type(cl.LedsSet))
            assert model.lit_squares() == {chess.B1, chess.G8}

    asyncio.run(scenario())


def movetext(game: chess.pgn.Game) -> str:
    return game.accept(chess.pgn.StringExporter(headers=False, comments=False))


def replay_view(events: list[object]) -> dict[chess.Square, chess.Piece]:
    pieces: dict[chess.Square, chess.Piece] = {}
    for event in events:
        if isinstance(event, BoardSnapshot):
            pieces = dict(event.pieces)
        elif isinstance(event, PieceLifted):
            pieces.pop(event.square)
        elif isinstance(event, PiecePlaced):
            pieces[event.square] = event.piece
    return pieces


@pytest.mark.parametrize("seed", [3])
def test_a_chess960_game_with_garbage_and_cut_frames_over_a_pty(seed: int) -> None:
    """Every move reaches the host and the recognizer intact although the wire is dirty."""
    rng = random.Random(seed)

    async def scenario() -> None:
        faults = Faults(garbage=0.2, split=0.3, seed=seed)
        model = ChessLinkFirmware(start=0, faults=faults)
        async with PtyRunner(model, tick_interval=0.02) as runner, Host(runner.path) as host:
            await host.send(RequestBoard())
            await host.wait_for(lambda: host.of_type(BoardSnapshot))
            await host.send(EnableUpdates())
            await host.wait_for(lambda: host.of_type(cl.RegisterWritten))
            board = chess.Board.from_chess960_pos(0)
            for uci in GAME_960:
                move = board.parse_uci(uci)
                if rng.random() < 0.3:  # junk, and a status cut short, between moves
                    cut = cl.encode_frame("s", model.status())[: rng.randrange(2, 60)]
                    runner.send(bytes(rng.randrange(256) for _ in range(5)) + cut)
                runner.send(model.play_move(board, move))
                board.push(move)
                await host.wait_for(lambda b=board: replay_view(host.events) == b.piece_map())
            assert model.pieces == board.piece_map()
            assert host.codec.discarded > 0
            host.recognizer.finish()
            exported = host.recognizer.pgn()
            expected = chess.pgn.Game.from_board(board)
            assert movetext(exported) == movetext(expected)
            assert exported.headers["FEN"] == chess.Board.from_chess960_pos(0).fen()
            assert "O-O-O" in host.moves

    asyncio.run(scenario())


def count_drops(events: list[object]) -> int:
    return sum(isinstance(e, LinkChanged) and not e.up for e in events)


def test_the_board_joiner_keeps_a_game_through_three_pulled_cables(tmp_path) -> None:
    """Moves made while the cable is out arrive with the resync status after it is back."""
    pulls = {8, 20, 33}

    async def scenario() -> tuple[list[object], chess.Board]:
        model = ChessLinkFirmware(start=0, faults=Faults(garbage=0.1, split=0.2, seed=2))
        socket = Socket(model, tick_interval=0.02)
        await socket.plug()

        async def short_sleep(delay: float) -> None:
            await asyncio.sleep(min(delay, 0.01))

        capture = CaptureWriter(tmp_path / "game.jsonl", board="chesslink", start=0)
        joined = Board(
            cl.ChessLinkCodec,
            lambda: SerialTransport(socket.path(), protocol="chesslink"),
            capture=capture,
            sleep=short_sleep,
        )
        events: list[object] = []
        arrived = asyncio.Event()

        async def collect() -> None:
            async for event in joined:
                events.append(event)
                arrived.set()

        async def until(predicate) -> None:
            async def watch() -> None:
                while not predicate():
                    arrived.clear()
                    await arrived.wait()

            await asyncio.wait_for(watch(), TIMEOUT)

        def count(kind: type) -> int:
            return sum(isinstance(e, kind) for e in events)

        board = chess.Board.from_chess960_pos(0)
        async with joined:
            collector = asyncio.create_task(collect())
            await until(lambda: count(BoardSnapshot) == 1)
            for index, uci in enumerate(GAME_960):
                move = board.parse_uci(uci)
                if index in pulls:
                    await socket.pull()
                    drops = len([p for p in pulls if p <= index])
                    await until(lambda n=drops: count_drops(events) == n)
                socket.send(model.play_move(board, move))
                board.push(move)
                if index in pulls:
                    snapshots = count(BoardSnapshot)
                    await socket.plug()
                    await until(lambda n=snapshots: count(BoardSnapshot) > n)
                await until(lambda b=board: replay_view(events) == b.piece_map())
        collector.cancel()
        capture.close()
        await socket.pull()
        assert count(BoardSnapshot) == 4
        return events, board

    events, board = asyncio.run(scenario())
    recognizer = Recognizer(0)
    for event in events:
        if isinstance(event, (BoardSnapshot, PieceLifted, PiecePlaced, LinkChanged)):
            recognizer.feed(event)
    recognizer.finish()
    assert recognizer.board.move_stack == board.move_stack
    # the capture the joiner wrote replays to the same game through the registered codec
    recorded = read_capture(tmp_path / "game.jsonl")
    codec = codec_for("chesslink")
    replayed = Recognizer(recorded.header.start)
    for record in recorded.records:
        decoded = codec.receive_data(record.data, record.t) if record.kind == "rx" else []
        if record.kind == "link":
            codec = codec_for("chesslink")  # a reconnect starts a fresh codec, as the joiner does
        for event in decoded:
            if isinstance(event, (BoardSnapshot, PieceLifted, PiecePlaced)):
                replayed.feed(event)
    replayed.finish()
    expected = movetext(chess.pgn.Game.from_board(board))
    assert movetext(replayed.pgn()) == movetext(recognizer.pgn()) == expected


def test_the_status_answering_a_request_through_the_board_joiner_is_a_resync() -> None:
    """The connection's codec encodes RequestBoard, so it passes the answer on whole."""

    async def scenario() -> list[BoardSnapshot]:
        model = ChessLinkFirmware(start=0)
        async with PtyRunner(model) as runner:
            joined = Board(cl.ChessLinkCodec, lambda: SerialTransport(runner.path, protocol="chesslink"))
            return await two_snapshots(joined)

    snapshots = asyncio.run(asyncio.wait_for(scenario(), TIMEOUT))
    assert [s.pieces for s in snapshots] == [chess.Board.from_chess960_pos(0).piece_map()] * 2
