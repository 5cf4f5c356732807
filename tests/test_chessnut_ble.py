"""A whole Chess960 game on an emulated Chessnut over BLE, through bleak, Bumble and `Board`.

The scenario here (`play`) is shared with the GoChess and Square Off BLE
tests: the person's hands come from the lead's choreography (castling the
e-board way), the host side is what a user runs (`Board`: codec +
`BleTransport`, reconnect with back-off, hello and resync), and the square
events go to the move recognizer. Switching the board off mid-game loses the
notifications of the move made meanwhile; the resync snapshot must bring it
back. Each firmware model sends through `BoardPeripheral.send` one
notification at a time, so Chessnut replies and positions travel on their own
characteristics.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import chess
import chess.pgn
from bleak import BleakClient
from game_helpers import two_snapshots

from eboard960.ble.bumble_backend import BumbleClient, VirtualRadio
from eboard960.ble.emulated import open_emulated
from eboard960.ble.peripheral import BoardPeripheral
from eboard960.ble.profiles import PROFILES
from eboard960.board import Backoff, Board
from eboard960.capture import read_capture
from eboard960.choreography import move_events
from eboard960.commands import RequestBoard, SetLeds
from eboard960.emulators.chessnut import ChessnutFirmware
from eboard960.emulators.notifying import NotificationFaults
from eboard960.events import BoardSnapshot, ButtonPressed, LinkChanged, PieceLifted, PiecePlaced
from eboard960.protocols import chessnut as cn
from eboard960.protocols import codec_for
from eboard960.recognizer import Recognizer

# Position 105: White castles h-side with the king staying on g1 (only the rook moves),
# Black castles a-side (king g8 to c8, rook a8 to d8); 25...cxd3 is en passant.
START = 105
MOVES = """
1. c3 f6 2. c4 e5 3. Rc3 h5 4. Re3 a5 5. b4 Rh7 6. a4 axb4 7. Nc3 Rh6 8. h3 Rh8 9. Ng3 d5
10. O-O dxc4 11. Nh1 Bb5 12. axb5 Rh7 13. Nd5 Qa4 14. f3 Qxb5 15. Nxb4 Qa6 16. Qxe5 fxe5
17. Rf2 Qa1 18. Ba4 Qxe1+ 19. Rf1 Qxe2 20. h4 Qxf1+ 21. Kxf1 Ng6 22. Rxe5 Nh8 23. Nf2 Ng6
24. Bc2 Nxe5 25. d4 cxd3 26. Nbxd3 Nxf3 27. Ne5 Bxh4 28. Nfd3 O-O-O 29. Nxf3 Rd6 30. Ba4 Rxd3
"""
WHITE_CASTLES, BLACK_CASTLES, EN_PASSANT, A_CAPTURE = 18, 55, 49, 30  # ply indexes
OFF_BEFORE = frozenset({WHITE_CASTLES, A_CAPTURE, BLACK_CASTLES})
"""Moves made while the board is switched off: both castlings and 16. Qxe5."""
OFF_BEFORE_PRESENCE = frozenset({4, WHITE_CASTLES, BLACK_CASTLES})
"""The same for presence-only boards, with 3. Rc3 for the capture: a capture made while
the link is down only empties the capturer's square, which any of its captures would."""
FAST_BACKOFF = Backoff(initial=0.01, factor=2.0, maximum=0.05)
SQUARE_EVENTS = (PieceLifted, PiecePlaced, BoardSnapshot, ButtonPressed, LinkChanged)


def game() -> tuple[chess.Board, list[chess.Move]]:
    pgn = f'[Variant "Chess960"]\n[FEN "{chess.Board.from_chess960_pos(START).fen()}"]\n\n{MOVES.strip()}'
    parsed = chess.pgn.read_game(io.StringIO(pgn))
    assert parsed is not None and not parsed.errors
    assert len(list(parsed.mainline_moves())) == 60
    return parsed.board(), list(parsed.mainline_moves())


async def play(board_name: str, off_before: frozenset[int] = frozenset(), **options: Any) -> dict:
    """Play the game on an emulated board; returns the events, the PGN and the connection count."""
    start, moves = game()
    emulated = await open_emulated(board_name, start, **options)
    emulated.model.notify = emulated.peripheral.send
    board = Board(lambda: codec_for(board_name), lambda: emulated.transport, backoff=FAST_BACKOFF)
    events: list[object] = []
    stream = aiter(board)

    async def take(kinds: type | tuple[type, ...], count: int = 1) -> list[object]:
        matched: list[object] = []
        while len(matched) < count:
            event = await asyncio.wait_for(anext(stream), 5)
            events.append(event)
            if isinstance(event, kinds):
                matched.append(event)
        return matched

    board.start()
    await take(BoardSnapshot)
    position = start.copy()
    for index, move in enumerate(moves):
        steps = move_events(position, move)
        if index in off_before:
            await emulated.peripheral.go_away()
            await take(LinkChanged)
            await emulated.act(*steps)  # the board is off: nobody hears these
            await emulated.peripheral.come_back()
            up, snapshot = await take((LinkChanged, BoardSnapshot), 2)
            position.push(move)
            assert up == LinkChanged(up=True, t=up.t)
            assert snapshot.occupied == position.occupied, "the resync shows the missed move"
        else:
            await emulated.act(*steps)
            await take((PieceLifted, PiecePlaced), len(steps))
            position.push(move)
    await board.close()
    await emulated.close()
    return {"events": events, "pgn": recognized(start, events), "connections": board.connections}


def recognized(start: chess.Board, events: list[object]) -> chess.pgn.Game:
    """The recognizer's game from the square events (protocol replies are not its business)."""
    recognizer = Recognizer(start)
    t = 0.0
    for event in events:
        if isinstance(event, SQUARE_EVENTS):
            t = event.t
            recognizer.feed(event)
    recognizer.finish(t + 1.0)
    return recognizer.pgn()


def replayed(path: Path) -> tuple[list[str], list[str]]:
    """The moves a recorded BLE session gives, and those of its expected PGN.

    A fresh codec starts at every `link up` record, as `Board` makes one per
    connection: the board's answer to the hello after a reconnect is a resync.
    """
    capture = read_capture(path)
    assert not capture.problems
    recognizer = Recognizer(capture.header.start)
    codec = codec_for(capture.header.board)
    for record in capture.records:
        if record.event is not None:
            if record.event == LinkChanged(up=True, t=record.t):
                codec = codec_for(capture.header.board)
            recognizer.feed(record.event)
        elif record.kind == "rx" and record.data is not None:
            for event in codec.receive_data(record.data, record.t):
                if isinstance(event, SQUARE_EVENTS):
                    recognizer.feed(event)
    recognizer.finish()
    expected = chess.pgn.read_game(io.StringIO(path.with_suffix(".expected.pgn").read_text()))
    assert expected is not None
    return moves_of(recognizer.pgn()), [m.uci() for m in expected.mainline_moves()]


def captures(board_name: str) -> list[Path]:
    """The sessions recorded with this board's emulator (see the captures' README)."""
    folder = Path(__file__).parents[1] / "firmware_protocols" / board_name / "captures"
    return sorted(folder.glob("*.jsonl"))


def check_full_game(board_name: str, **options: Any) -> dict:
    """The game played without a break: one connection, the exact moves; returns `play`'s result."""
    result = asyncio.run(play(board_name, **options))
    assert result["connections"] == 1
    assert moves_of(result["pgn"]) == expected_moves()
    return result


def check_three_disconnects(board_name: str, off_before: frozenset[int], **options: Any) -> None:
    """The board switched off before three moves: four connections, three drops, no move lost."""
    result = asyncio.run(play(board_name, off_before, **options))
    assert result["connections"] == 4
    assert len([e for e in result["events"] if e == LinkChanged(up=False, t=e.t)]) == 3
    assert moves_of(result["pgn"]) == expected_moves()


def check_recorded_sessions(board_name: str) -> None:
    """There are recorded sessions of this board, and each replays to its expected PGN."""
    assert captures(board_name)
    for path in captures(board_name):
        got, expected = replayed(path)
        assert got == expected, path.name


def moves_of(pgn: chess.pgn.Game) -> list[str]:
    """The moves read back from the recognizer's PGN text, which must start from `START`."""
    exported = chess.pgn.read_game(io.StringIO(str(pgn)))
    assert exported is not None
    assert exported.board().fen() == chess.Board.from_chess960_pos(START).fen()
    return [move.uci() for move in exported.mainline_moves()]


def expected_moves() -> list[str]:
    return [move.uci() for move in game()[1]]


def test_the_game_has_both_castlings_and_en_passant() -> None:
    board, moves = game()
    kinds = []
    for move in moves:
        kinds.append("castle" if board.is_castling(move) else "ep" if board.is_en_passant(move) else "")
        board.push(move)
    assert [i for i, kind in enumerate(kinds) if kind] == [WHITE_CASTLES, EN_PASSANT, BLACK_CASTLES]
    board, moves = game()
    for move in moves[:A_CAPTURE]:
        board.push(move)
    assert board.is_capture(moves[A_CAPTURE])


def test_a_full_game_gives_the_exact_pgn() -> None:
    result = check_full_game("chessnut")
    placed = [e for e in result["events"] if isinstance(e, PiecePlaced)]
    assert all(e.piece is not None for e in placed), "the Chessnut identifies every piece"


def test_three_disconnects_lose_no_move() -> None:
    check_three_disconnects("chessnut", OFF_BEFORE)


def test_frames_split_across_notifications_still_give_the_exact_pgn() -> None:
    result = asyncio.run(play("chessnut", faults=NotificationFaults(split=0.5, seed=7)))
    assert moves_of(result["pgn"]) == expected_moves()


def test_recorded_sessions_replay_to_their_pgn() -> None:
    check_recorded_sessions("chessnut")


def test_positions_and_replies_arrive_on_their_own_characteristics() -> None:
    """bleak subscribed to each notify characteristic apart: frames on 8262, the rest on 8273."""
    profile = PROFILES["chessnut"]
    position_uuid, reply_uuid = profile.route(b"\x01\x24"), profile.route(b"\x23\x01\x00")
    assert (position_uuid[:8], reply_uuid[:8]) == ("1b7e8262", "1b7e8273")

    async def scenario() -> dict[str, list[bytes]]:
        radio = VirtualRadio()
        model = ChessnutFirmware(START)
        peripheral = BoardPeripheral(radio, profile, model)
        model.notify = peripheral.send
        await peripheral.start()
        got: dict[str, list[bytes]] = {position_uuid: [], reply_uuid: []}
        all_in = asyncio.Event()

        def collect(into: list[bytes], data: bytearray) -> None:
            into.append(bytes(data))
            if sum(map(len, got.values())) == 5:  # 2 positions, 3 replies
                all_in.set()

        central = await radio.central()
        async with BleakClient(peripheral.address, backend=BumbleClient, central=central) as client:
            for uuid, payloads in got.items():
                await client.start_notify(uuid, lambda _c, data, into=payloads: collect(into, data))
            codec = cn.ChessnutCodec()
            for command in (RequestBoard(), cn.RequestBattery(), SetLeds()):
                await client.write_gatt_char(profile.write, codec.send(command), response=True)
            peripheral.send(model.lift(chess.C2))
            await asyncio.wait_for(all_in.wait(), 2)
        await peripheral.stop()
        return got

    got = asyncio.run(scenario())
    start = chess.Board.from_chess960_pos(START)
    after = start.copy()
    after.remove_piece_at(chess.C2)
    assert [p[2:34] for p in got[position_uuid]] == [
        cn.encode_position(start.piece_map()),
        cn.encode_position(after.piece_map()),
    ]
    assert got[reply_uuid] == [
        b"\x23\x01\x00",
        cn.battery_bytes(87, False),
        b"\x23\x01\x00",
    ]


def test_the_position_answering_a_request_through_the_board_joiner_is_a_resync() -> None:
    """The connection's codec encodes RequestBoard, so it passes the answer on whole."""

    async def scenario() -> list[BoardSnapshot]:
        emulated = await open_emulated("chessnut", START)
        emulated.model.notify = emulated.peripheral.send
        board = Board(lambda: codec_for("chessnut"), lambda: emulated.transport, backoff=FAST_BACKOFF)
        snapshots = await two_snapshots(board)
        await emulated.close()
        return snapshots

    snapshots = asyncio.run(asyncio.wait_for(scenario(), 5))
    assert [s.pieces for s in snapshots] == [chess.Board.from_chess960_pos(START).piece_map()] * 2
