"""The Pegasus firmware model talking to the Pegasus codec in memory."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.emulators.pegasus import PegasusFirmware
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import pegasus as pg


def _ask(board: PegasusFirmware, codec: pg.PegasusCodec, command: object) -> list[object]:
    return codec.receive_data(board.feed(codec.send(command)))


def test_identity_replies_decode() -> None:
    board = PegasusFirmware(serial="01025", long_serial="P123456789", battery=44)
    codec = pg.PegasusCodec()
    assert _ask(board, codec, pg.RequestSerialNumber()) == [pg.SerialNumber(text="01025")]
    assert _ask(board, codec, pg.RequestLongSerialNumber()) == [
        pg.LongSerialNumber(text="P123456789")
    ]
    assert _ask(board, codec, pg.RequestVersion()) == [pg.Version(major=1, minor=0)]
    assert _ask(board, codec, pg.RequestHardwareVersion()) == [
        pg.HardwareVersion(major=1, minor=0)
    ]
    assert _ask(board, codec, pg.RequestBattery()) == [
        pg.Battery(raw=44, percent=50, charging=False)
    ]
    assert _ask(board, codec, pg.RequestLockState()) == [pg.LockState(locked=False)]
    assert _ask(board, codec, pg.RequestKeyState()) == [pg.KeyState(accepted=True)]


def test_trademark_keeps_the_four_line_shape_but_claims_no_trade_mark() -> None:
    board = PegasusFirmware(long_serial="P000000042")
    [trademark] = _ask(board, pg.PegasusCodec(), pg.RequestTrademark())
    assert len(trademark.lines) == 4
    assert trademark.lines[2].startswith("software version: ")
    assert trademark.lines[3] == "hardware version: 1.00, serial no: P000000042"
    assert "Digital Game Technology" not in trademark.text


def test_field_updates_only_after_they_are_enabled_and_until_reset() -> None:
    board = PegasusFirmware(518)
    codec = pg.PegasusCodec()
    assert board.lift(chess.E2) == b""
    assert board.place(chess.E4) == b""
    assert _ask(board, codec, EnableUpdates()) == []
    assert codec.receive_data(board.lift(chess.E7) + board.place(chess.E5)) == [
        PieceLifted(square=chess.E7),
        PiecePlaced(square=chess.E5),
    ]
    assert _ask(board, codec, pg.ResetBoard()) == []
    assert board.lift(chess.G1) == b""


def test_dump_reports_the_physical_occupancy() -> None:
    start = chess.Board.from_chess960_pos(0)
    board = PegasusFirmware(start)
    codec = pg.PegasusCodec()
    board.lift(chess.B1)
    board.place(chess.C3)
    [snapshot] = _ask(board, codec, RequestBoard())
    expected = start.occupied & ~chess.BB_B1 | chess.BB_C3
    assert snapshot == BoardSnapshot(occupied=expected)


def test_commands_arriving_in_pieces_are_reassembled() -> None:
    board = PegasusFirmware()
    codec = pg.PegasusCodec()
    wire = codec.send(SetLeds(squares=frozenset({chess.E2, chess.E4}))) + codec.send(RequestBoard())
    replies = b"".join(board.feed(wire[i : i + 1]) for i in range(len(wire)))
    assert board.lit == {chess.E2, chess.E4}
    assert codec.receive_data(replies)[0].occupied == chess.Board().occupied


def test_leds_follow_the_app_and_go_dark() -> None:
    board = PegasusFirmware()
    codec = pg.PegasusCodec()
    board.feed(codec.send(pg.LedPattern(squares=frozenset({chess.C8}), once=True, speed=3)))
    assert board.leds == pg.LedPattern(squares=frozenset({chess.C8}), once=True, speed=3)
    board.feed(codec.send(SetLeds(squares=frozenset())))
    assert board.lit == frozenset()


def test_a_locked_board_withholds_dumps_and_leds_until_a_key_arrives() -> None:
    board = PegasusFirmware(key_required=True)
    codec = pg.PegasusCodec()
    assert _ask(board, codec, RequestBoard()) == [pg.DumpWithheld()]
    assert _ask(board, codec, pg.RequestKeyState()) == [pg.KeyState(accepted=False)]
    board.feed(codec.send(SetLeds(squares=frozenset({chess.A1}))))
    assert board.lit == frozenset()
    board.feed(codec.send(pg.RegisterDeveloperKey(key=b"\x01\x02\x03\x04\x05\x06")))
    assert _ask(board, codec, pg.RequestKeyState()) == [pg.KeyState(accepted=True)]
    assert isinstance(_ask(board, codec, RequestBoard())[0], BoardSnapshot)


def test_renaming_changes_the_name() -> None:
    board = PegasusFirmware()
    board.feed(pg.PegasusCodec().send(pg.SetBoardName(name="KITCHEN")))
    assert board.name == "KITCHEN"


def test_physically_impossible_scenarios_are_refused() -> None:
    board = PegasusFirmware(518)
    with pytest.raises(pg.PegasusError, match="no piece on e4"):
        board.lift(chess.E4)
    with pytest.raises(pg.PegasusError, match="e2 is occupied"):
        board.place(chess.E2)
    with pytest.raises(pg.PegasusError, match="5 digits"):
        PegasusFirmware(serial="12")


def test_unknown_command_bytes_are_ignored() -> None:
    board = PegasusFirmware()
    assert board.feed(b"\x01\x7f") == b""
    assert pg.PegasusCodec().receive_data(board.feed(b"M")) == [pg.Version(major=1, minor=0)]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=64), max_size=10))
def test_any_app_bytes_leave_the_board_answering(chunks: list[bytes]) -> None:
    board = PegasusFirmware()
    codec = pg.PegasusCodec()
    for chunk in chunks:
        codec.receive_data(board.feed(chunk))
        assert (codec.discarded, codec.buffered) == (0, 0), "every reply is a whole message"
    # A long command still pending needs at most 2 + 255 bytes; after that (and zeros are
    # no command), the board answers the next command.
    board.feed(bytes(257))
    assert pg.PegasusCodec().receive_data(board.feed(b"M")) == [pg.Version(major=1, minor=0)]
