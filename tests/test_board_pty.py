"""The Board joiner over real ptys: back-off, resync after pulled links, captures, the recognizer.

The emulated DGT board keeps its pieces while its pty is closed and a new one
opened (a pulled cable that is plugged in again); the Board's `connect`
factory reads the current path, the way a real host re-resolves a port.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace

import chess
import pytest
from game_helpers import castling_game, view
from pty_socket import MISSING, Socket

from eboard960.board import Backoff, Board
from eboard960.capture import CaptureWriter, read_capture
from eboard960.commands import RequestBoard, SetLeds
from eboard960.emulators.dgt import ClockModel, DgtFirmware, Faults
from eboard960.emulators.pty import PtyRunner
from eboard960.events import (
    BoardSnapshot,
    ButtonPressed,
    LinkChanged,
    PieceLifted,
    PiecePlaced,
)
from eboard960.protocols.dgt import (
    DgtCodec,
    DgtError,
    LedRange,
    RequestClockTimes,
    RequestVersion,
    SetUpdateMode,
    UpdateMode,
    Version,
)
from eboard960.protocols.dgt_clock import ClockText, ClockTimes
from eboard960.transport.serial import SerialTransport

TIMEOUT = 5.0


class Listener:
    """Collects a Board's events in a task; `wait_for(predicate)` without sleeping."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.events: list[object] = []
        self._arrived = asyncio.Event()
        self._task = asyncio.create_task(self._collect())

    async def _collect(self) -> None:
        async for event in self.board:
            self.events.append(event)
            self._arrived.set()

    async def wait_for(self, predicate: Callable[[], bool]) -> None:
        async def watch() -> None:
            while not predicate():
                self._arrived.clear()
                await self._arrived.wait()

        await asyncio.wait_for(watch(), TIMEOUT)

    def count(self, kind: type, **fields: object) -> int:
        return sum(
            isinstance(e, kind) and all(getattr(e, k) == v for k, v in fields.items())
            for e in self.events
        )


def test_backoff_grows_and_caps() -> None:
    backoff = Backoff(initial=0.1, factor=3, maximum=2)
    assert [backoff.delay(n) for n in range(5)] == [0.1, 0.30000000000000004, 0.9, 2, 2]
    # a board off for hours: 1,024 failures overflowed a float and killed the connection loop
    assert backoff.delay(5000) == 2 and Backoff().delay(1024) == Backoff().maximum


def test_connects_after_failures_with_exponential_backoff() -> None:
    async def scenario() -> None:
        socket = Socket(DgtFirmware(start=300))
        delays: list[float] = []

        async def sleep(delay: float) -> None:
            delays.append(delay)
            if len(delays) == 4:
                await socket.plug()
            await asyncio.sleep(0)

        board = Board(DgtCodec, lambda: SerialTransport(socket.path()), sleep=sleep)
        async with board:
            listener = Listener(board)
            await listener.wait_for(lambda: listener.count(BoardSnapshot))
        await socket.pull()
        assert delays == [0.25, 0.5, 1.0, 2.0]
        assert board.failed_attempts == 4
        assert isinstance(listener.events[0], LinkChanged) and listener.events[0].up
        assert listener.events[1] == BoardSnapshot.from_board(
            chess.Board.from_chess960_pos(300), t=listener.events[1].t)

    asyncio.run(scenario())


def _short_sleep(delay: float) -> object:
    return asyncio.sleep(min(delay, 0.01))


@pytest.mark.parametrize("seed", [7])
def test_three_pulled_links_in_one_game_lose_no_move(seed: int) -> None:
    start, moves = 0, castling_game(0, 48, seed)
    pulls = {10, 23, 35}  # the move after each pull is made while the link is down
    replay, castlings = chess.Board.from_chess960_pos(start), []
    for index, move in enumerate(moves):
        if replay.is_castling(move):
            castlings.append(index)
        replay.push(move)
    assert castlings == [32, 35]  # O-O on the wire; O-O-O made while the cable is out

    async def scenario() -> list[object]:
        model = DgtFirmware(start=start)
        socket = Socket(model)
        await socket.plug()
        board = Board(DgtCodec, lambda: SerialTransport(socket.path()), sleep=_short_sleep)
        chessboard = chess.Board.from_chess960_pos(start)
        async with board:
            listener = Listener(board)
            await listener.wait_for(lambda: listener.count(BoardSnapshot) == 1)
            for index, move in enumerate(moves):
                if index in pulls:
                    await socket.pull()
                    pulled = len([p for p in pulls if p <= index])
                    await listener.wait_for(
                        lambda n=pulled: listener.count(LinkChanged, up=False) == n)
                socket.send(model.play_move(chessboard, move))
                chessboard.push(move)
                if index in pulls:
                    snapshots = listener.count(BoardSnapshot)
                    await socket.plug()
                    await listener.wait_for(lambda n=snapshots: listener.count(BoardSnapshot) > n)
                await listener.wait_for(lambda b=chessboard: view(listener.events) == b.piece_map())
        await socket.pull()
        assert listener.count(LinkChanged, up=True) == 4
        assert listener.count(BoardSnapshot) == 4
        return listener.events

    events = asyncio.run(scenario())
    recognizer = pytest.importorskip("eboard960.recognizer")
    rec = recognizer.Recognizer(start)
    for event in events:
        if isinstance(event, PieceLifted | PiecePlaced | BoardSnapshot | LinkChanged):
            rec.feed(event)
    rec.finish()
    assert rec.board.move_stack == moves


def test_dirty_wire_game_through_the_board_gives_the_exact_pgn() -> None:
    start, moves = 518, castling_game(518, 40, 3)
    faults = Faults(garbage=0.25, split=0.3, seed=9)  # not `cut`: a cut update loses its move till a dump

    async def scenario() -> list[object]:
        model = DgtFirmware(start=start, faults=faults)
        async with PtyRunner(model) as runner:
            board = Board(DgtCodec, lambda: SerialTransport(runner.path))
            async with board:
                listener = Listener(board)
                await listener.wait_for(lambda: listener.count(BoardSnapshot) == 1)
                chessboard = chess.Board.from_chess960_pos(start)
                for move in moves:
                    runner.send(model.play_move(chessboard, move))
                    chessboard.push(move)
                await listener.wait_for(lambda: view(listener.events) == chessboard.piece_map())
        return listener.events

    events = asyncio.run(scenario())
    assert any(type(e).__name__ == "Discarded" for e in events)
    sans = chess.Board.from_chess960_pos(start).variation_san(moves)
    assert "O-O " in sans and "O-O-O" in sans
    recognizer = pytest.importorskip("eboard960.recognizer")
    rec = recognizer.Recognizer(start)
    for event in events:
        if isinstance(event, PieceLifted | PiecePlaced | BoardSnapshot):
            rec.feed(event)
    rec.finish()
    expected = chess.Board.from_chess960_pos(start)
    assert rec.board.move_stack == moves
    assert str(rec.pgn().mainline_moves()) == expected.variation_san(moves)


def test_capture_records_every_chunk_and_replays_to_the_same_events(tmp_path) -> None:
    path = tmp_path / "session.jsonl"

    async def scenario() -> list[object]:
        model = DgtFirmware(start=518, clock=ClockModel("3000"))
        capture = CaptureWriter(path, board="dgt", start=518)
        async with PtyRunner(model) as runner:
            board = Board(DgtCodec, lambda: SerialTransport(runner.path), capture=capture)
            async with board:
                listener = Listener(board)
                await listener.wait_for(lambda: listener.count(BoardSnapshot) == 1)
                board.send(RequestClockTimes())  # the lever's first position
                await listener.wait_for(lambda: listener.count(ClockTimes) >= 1)
                board.send(ClockText(text="518"))
                board.send(SetLeds(squares=frozenset({chess.E2})))
                board.send(RequestVersion())  # answered only after the commands before it
                await listener.wait_for(lambda: listener.count(Version) == 1)
                chessboard = chess.Board()
                runner.send(model.play_move(chessboard, chess.Move.from_uci("e2e4")))
                runner.send(model.press("white"))
                await listener.wait_for(lambda: listener.count(ButtonPressed) == 1)
                assert model.lit_squares() == {chess.E2}
                assert model.clock is not None and model.clock.display == "518"
        capture.close()
        return listener.events

    events = asyncio.run(scenario())
    capture = read_capture(path)
    assert not capture.problems and capture.header.board == "dgt"
    codec, replayed, sent = DgtCodec(), [], b""
    for record in capture.records:
        if record.kind == "rx":
            replayed += codec.receive_data(record.data, record.t)
        elif record.kind == "tx":
            sent += record.data
    live = [e for e in events if not isinstance(e, LinkChanged)]
    assert [replace(e, t=0.0) for e in replayed] == [replace(e, t=0.0) for e in live]
    assert [round(e.t, 3) for e in replayed] == [round(e.t, 3) for e in live]
    assert sent.startswith(bytes.fromhex("4b42"))  # hello: updates on, then the dump
    links = [r.event for r in capture.records if r.kind == "link"]
    assert [link.up for link in links] == [True, False]


def test_a_command_the_protocol_cannot_express_fails_at_send() -> None:
    async def scenario() -> None:
        board = Board(DgtCodec, lambda: SerialTransport(MISSING))
        with pytest.raises(DgtError, match="8 characters"):
            board.send(ClockText(text="far too long"))

    asyncio.run(scenario())


def test_commands_sent_while_the_link_is_down_arrive_after_reconnect() -> None:
    async def scenario() -> None:
        model = DgtFirmware()
        socket = Socket(model)
        await socket.plug()
        board = Board(DgtCodec, lambda: SerialTransport(socket.path()), sleep=_short_sleep)
        async with board:
            listener = Listener(board)
            await listener.wait_for(lambda: listener.count(BoardSnapshot) == 1)
            await socket.pull()
            await listener.wait_for(lambda: listener.count(LinkChanged, up=False) == 1)
            board.send(SetLeds(squares=frozenset({chess.D4, chess.H8})))
            board.send(RequestVersion())
            assert not board.connected
            await socket.plug()
            await listener.wait_for(lambda: listener.count(Version) == 1)
            assert board.connected and board.connections == 2
        await socket.pull()
        assert model.lit_squares() == {chess.D4, chess.H8}
        hello = [SetUpdateMode(mode=UpdateMode.NICE), RequestBoard()]
        assert model.commands_seen == [
            *hello, *hello,  # the second hello first, then what waited, in order
            LedRange(pattern=0, start=64, end=64), LedRange(pattern=1, start=7, end=7),
            LedRange(pattern=1, start=35, end=35), RequestVersion(),
        ]

    asyncio.run(scenario())


def test_resync_after_a_quiet_spell_repairs_dropped_updates() -> None:
    start, moves = 200, castling_game(200, 20, 5)

    async def scenario() -> tuple[list[object], DgtFirmware, chess.Board]:
        model = DgtFirmware(start=start, faults=Faults(drop=0.4, seed=1))
        async with PtyRunner(model) as runner:
            board = Board(DgtCodec, lambda: SerialTransport(runner.path), resync_after=0.02)
            async with board:
                listener = Listener(board)
                await listener.wait_for(lambda: listener.count(BoardSnapshot) == 1)
                chessboard = chess.Board.from_chess960_pos(start)
                for move in moves:  # some moves lose every update; a later one's resync repairs
                    runner.send(model.play_move(chessboard, move))
                    chessboard.push(move)
                await listener.wait_for(lambda: view(listener.events) == chessboard.piece_map())
        return listener.events, model, chessboard

    events, model, chessboard = asyncio.run(scenario())
    assert model.board() == chess.BaseBoard(chessboard.board_fen())
    requests = model.commands_seen.count(RequestBoard())
    assert 1 < requests <= len(moves) + 1
    assert sum(isinstance(e, BoardSnapshot) for e in events) == requests


def test_after_a_drop_the_retries_back_off_from_the_initial_delay() -> None:
    async def scenario() -> list[float]:
        socket = Socket(DgtFirmware())
        await socket.plug()
        delays: list[float] = []

        async def sleep(delay: float) -> None:
            delays.append(delay)
            if len(delays) == 3:
                await socket.plug()
            await asyncio.sleep(0)

        board = Board(DgtCodec, lambda: SerialTransport(socket.path()), sleep=sleep)
        async with board:
            listener = Listener(board)
            await listener.wait_for(lambda: listener.count(BoardSnapshot) == 1)
            await socket.pull()
            await listener.wait_for(lambda: listener.count(BoardSnapshot) == 2)
        await socket.pull()
        assert [e.up for e in listener.events if isinstance(e, LinkChanged)] == [
            True, False, True, False]
        return delays

    assert asyncio.run(scenario()) == [0.25, 0.5, 1.0]


def test_leds_on_a_board_turned_round_light_the_squares_asked_for() -> None:
    """The connection's codec, which found the board turned round, also encodes the LEDs."""
    turned = chess.BaseBoard().transform(lambda bb: chess.flip_vertical(chess.flip_horizontal(bb)))

    async def scenario() -> tuple[list[object], DgtFirmware]:
        model = DgtFirmware(turned)
        async with PtyRunner(model) as runner:
            board = Board(lambda: DgtCodec(detect_rotation=True), lambda: SerialTransport(runner.path))
            async with board:
                listener = Listener(board)
                await listener.wait_for(lambda: listener.count(BoardSnapshot) == 1)
                board.send(SetLeds(squares=frozenset({chess.E2})))
                board.send(RequestVersion())
                await listener.wait_for(lambda: listener.count(Version) == 1)
        return listener.events, model

    events, model = asyncio.run(scenario())
    assert view(events) == chess.BaseBoard().piece_map()  # the player's view: white at the bottom
    assert model.lit_squares() == {chess.D7}  # the firmware's d7 is the player's e2


class _BuggyTransport(SerialTransport):
    """A serial transport with a bug: opening raises what no transport may (not a TransportError)."""

    async def open(self) -> None:
        raise RuntimeError("a bug in the transport")


def test_a_connection_loop_killed_by_a_bug_ends_the_events_with_it_instead_of_hanging() -> None:
    async def scenario() -> None:
        board = Board(DgtCodec, lambda: _BuggyTransport("/dev/ttyACM-missing"))
        async with board:
            with pytest.raises(RuntimeError, match="a bug in the transport"):
                await asyncio.wait_for(anext(aiter(board)), TIMEOUT)
            with pytest.raises(RuntimeError):  # and again: the error stays
                await asyncio.wait_for(anext(aiter(board)), TIMEOUT)

    asyncio.run(scenario())
