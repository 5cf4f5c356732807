"""One contract, every BLE board: the same host stack finds, syncs, loses and regains each one.

For each profile, the board's firmware model is served by `BoardPeripheral`
and reached through bleak + the Bumble backend + `BleTransport` + `Board`:
the hello's dump is the start position, a move's square events arrive, a
drop is reported, the board is found again after it comes back, and the
resync dump shows what was moved while it was away.
"""

from __future__ import annotations

import asyncio

import chess
import pytest

from eboard960.ble.emulated import open_emulated
from eboard960.ble.profiles import PROFILES
from eboard960.board import Backoff, Board
from eboard960.choreography import move_events
from eboard960.events import BoardSnapshot, LinkChanged, PieceLifted, PiecePlaced
from eboard960.protocols import codec_for

START = 0  # BBQNNRKR


async def _next(stream: object, kinds: type | tuple[type, ...]) -> object:
    while True:
        event = await asyncio.wait_for(anext(stream), 5)
        if isinstance(event, kinds):
            return event


@pytest.mark.parametrize("board_name", sorted(PROFILES))
def test_sync_move_drop_and_resync(board_name: str) -> None:
    async def scenario() -> None:
        position = chess.Board.from_chess960_pos(START)
        emulated = await open_emulated(board_name, START)
        board = Board(
            lambda: codec_for(board_name),
            lambda: emulated.transport,
            backoff=Backoff(initial=0.01, maximum=0.05),
        )
        stream = aiter(board)
        board.start()
        assert (await _next(stream, LinkChanged)).up is True
        first = await _next(stream, BoardSnapshot)
        assert first.occupied == position.occupied

        move = position.parse_san("Nc3")
        await emulated.move(position, move)
        lifted = await _next(stream, PieceLifted)
        placed = await _next(stream, PiecePlaced)
        assert (lifted.square, placed.square) == (move.from_square, move.to_square)
        knight = chess.Piece(chess.KNIGHT, chess.WHITE)
        assert placed.piece == (knight if PROFILES[board_name].identifies_pieces else None)
        position.push(move)

        await emulated.peripheral.go_away()
        assert (await _next(stream, LinkChanged)).up is False
        reply = position.parse_san("Nc6")
        await emulated.act(*move_events(position, reply))  # nobody is listening
        position.push(reply)
        await emulated.peripheral.come_back()
        assert (await _next(stream, LinkChanged)).up is True
        resync = await _next(stream, BoardSnapshot)
        assert resync.occupied == position.occupied
        assert board.connections == 2

        await board.close()
        await emulated.close()

    asyncio.run(scenario())
