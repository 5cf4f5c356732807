"""Whole Chess960 games on emulated BLE boards, through bleak, Bumble and the Board joiner.

The person's hands come from the lead's choreography (castling the e-board
way); the host side is the real stack a user runs: `Board` (codec +
`BleTransport`, reconnect with back-off, resync dump) feeding the move
recognizer. Disconnects switch the board off mid-game; the move made while it
is off must come back through the resync dump.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from pathlib import Path

import chess
import chess.pgn
import pytest

from eboard960.ble.emulated import EmulatedBoard, open_emulated
from eboard960.board import Backoff, Board
from eboard960.capture import CaptureWriter
from eboard960.choreography import game_events, move_events
from eboard960.cli import main
from eboard960.emulators.notifying import NotificationFaults
from eboard960.events import BoardSnapshot, LinkChanged, PieceLifted, PiecePlaced, SquareEvent
from eboard960.protocols import codec_for, pegasus
from eboard960.recognizer import Recognizer

# Sample game 4 of the shared captures: position 'nbqnbrkr', both sides castle a-side.
GAME = """
[Variant "Chess960"]
[FEN "nbqnbrkr/pppppppp/8/8/8/8/PPPPPPPP/NBQNBRKR w KQkq - 0 1"]
[SetUp "1"]

1. h4 h5 2. Ne3 Ne6 3. g4 a5 4. b4 axb4 5. c4 bxc3 6. Bg6 d5 7. Qb2 b6 8. Qb3 f5
9. Bf7+ Bxf7 10. gxh5 Rxh5 11. dxc3 Rxh4 12. Nac2 Rb4 13. Qxd5 Qd7 14. Nxf5 O-O-O
15. Qg2 Qd4 16. Nxe7+ Kd7 17. cxd4 Nc5 18. Nd5 Bxd5 19. Nxb4 Bg8 20. Bd2 Bxa2
21. O-O-O Ne6 22. Qg3 Nxd4 23. Qg1 Be6 24. Bh6 c5 25. Qg4 cxb4 26. Rh3 gxh6 27. Qg5 b3
28. Qa5 Bc4 29. Rh5 Be6 30. f3 Bf5 31. Qxa8 Ke6 32. Rh3 Bxh3 33. Qa5 Bc7 34. Qc5 Bg2
35. Qxb6+ *
"""
FAST_BACKOFF = Backoff(initial=0.01, factor=2.0, maximum=0.05)


def _game() -> tuple[chess.Board, list[chess.Move]]:
    game = chess.pgn.read_game(io.StringIO(GAME))
    assert game is not None
    return game.board(), list(game.mainline_moves())


class Session:
    """The host side of a game: the Board joiner's events, counted as they arrive."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.events: list[object] = []
        self._stream: AsyncIterator[object] = aiter(board)

    async def take(self, predicate: type | tuple[type, ...], count: int = 1) -> list[object]:
        """Read events until `count` of the given kinds have arrived; return those."""
        matched: list[object] = []
        while len(matched) < count:
            event = await asyncio.wait_for(anext(self._stream), 5)
            self.events.append(event)
            if isinstance(event, predicate):
                matched.append(event)
        return matched


async def _play(
    emulated: EmulatedBoard, off_before: frozenset[int], capture: CaptureWriter | None = None
) -> tuple[Session, chess.pgn.Game]:
    start, moves = _game()
    board = Board(
        lambda: codec_for(emulated.peripheral.profile.board),
        lambda: emulated.transport,
        backoff=FAST_BACKOFF,
        capture=capture,
    )
    session = Session(board)
    board.start()
    await session.take(BoardSnapshot)
    position = start.copy()
    for index, move in enumerate(moves):
        steps = move_events(position, move)
        if index in off_before:
            await emulated.peripheral.go_away()
            await session.take(LinkChanged)
            await emulated.act(*steps)  # the board is off: nobody hears these
            await emulated.peripheral.come_back()
            up, snapshot = await session.take((LinkChanged, BoardSnapshot), 2)
            assert up == LinkChanged(up=True, t=up.t)
            position.push(move)
            assert snapshot.occupied == position.occupied, "the resync dump shows the missed move"
        else:
            await emulated.act(*steps)
            await session.take((PieceLifted, PiecePlaced), len(steps))
            position.push(move)
    await board.close()
    await emulated.close()
    return session, _recognized(start, session.events)


def _recognized(start: chess.Board, events: list[object]) -> chess.pgn.Game:
    recognizer = Recognizer(start)
    t = 0.0
    for event in events:
        if isinstance(event, SquareEvent):  # replies such as ChessLink's register echo are not
            t = event.t
            recognizer.feed(event)
    recognizer.finish(t + 1.0)
    return recognizer.pgn()


def _moves_of(game: chess.pgn.Game) -> list[str]:
    """The moves of the recognizer's game, read back from its PGN text."""
    exported = chess.pgn.read_game(io.StringIO(str(game)))
    assert exported is not None
    assert exported.board().fen() == game.board().fen()
    return [move.uci() for move in exported.mainline_moves()]


@pytest.mark.parametrize("board_name", ["pegasus", "chesslink"])
def test_a_full_chess960_game_gives_the_exact_pgn(board_name: str) -> None:
    async def scenario() -> None:
        start, moves = _game()
        emulated = await open_emulated(board_name, start)
        session, pgn = await _play(emulated, frozenset())
        assert session.board.connections == 1
        assert _moves_of(pgn) == [move.uci() for move in moves]

    asyncio.run(scenario())


@pytest.mark.parametrize("board_name", ["pegasus", "chesslink"])
def test_three_disconnects_lose_no_move(
    board_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start, moves = _game()
    path = tmp_path / f"{board_name}.jsonl"

    async def scenario() -> None:
        emulated = await open_emulated(board_name, start)
        # Off for an ordinary move, for Black's castling (move 14...O-O-O) and for a capture.
        castling, capture = 2 * 13 + 1, 2 * 21 + 1
        position = start.copy()
        for move in moves[:castling]:
            position.push(move)
        assert position.is_castling(moves[castling])
        for move in moves[castling:capture]:
            position.push(move)
        assert position.is_capture(moves[capture])
        with CaptureWriter(path, board=board_name, start=start.fen()) as writer:
            session, pgn = await _play(emulated, frozenset({4, castling, capture}), writer)
        assert session.board.connections == 4
        downs = [e for e in session.events if isinstance(e, LinkChanged) and not e.up]
        assert len(downs) == 3
        assert _moves_of(pgn) == [move.uci() for move in moves]

    asyncio.run(scenario())
    # The session's recording replays to the same game with the `replay` command.
    assert main(["replay", str(path)]) == 0
    replayed = chess.pgn.read_game(io.StringIO(capsys.readouterr().out))
    assert replayed is not None
    assert [move.uci() for move in replayed.mainline_moves()] == [move.uci() for move in moves]


def test_a_game_survives_a_noisy_link() -> None:
    """Garbage between notifications, notifications cut in two, bouncing sensors (seeded)."""

    async def scenario() -> None:
        start, moves = _game()
        faults = NotificationFaults(garbage=0.05, split=0.3, bounce=0.1, seed=11)
        emulated = await open_emulated("pegasus", start, faults=faults)
        board = Board(lambda: codec_for("pegasus"), lambda: emulated.transport)
        session = Session(board)
        board.start()
        await session.take(BoardSnapshot)
        steps = game_events(start, moves)
        await emulated.act(*steps)
        board.send(pegasus.RequestVersion())  # answered after every notification before it
        await session.take(pegasus.Version)
        await board.close()
        await emulated.close()
        square_events = [e for e in session.events if isinstance(e, PieceLifted | PiecePlaced)]
        assert len(square_events) > len(steps), "some sensors bounced"
        assert _moves_of(_recognized(start, session.events)) == [move.uci() for move in moves]

    asyncio.run(scenario())
