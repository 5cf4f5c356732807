"""The Chessnut codec against its vectors, and its resync, battery and error behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest
from import_probe import io_loaded_by

from eboard960 import commands, events
from eboard960.commands import RequestBoard, SetLeds
from eboard960.errors import ProtocolError
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import chessnut as cn
from eboard960.protocols import codec_for

VECTORS = json.loads((Path(__file__).parents[1] / "firmware_protocols/chessnut/vectors.json").read_text())


def build(spec: dict, t: float | None = None) -> object:
    """A command or event from its JSON form (square names, FEN letters, board text)."""
    fields = {k: v for k, v in spec.items() if k != "type"}
    if "board" in fields:
        return BoardSnapshot.from_text(fields["board"], t=t or 0.0)
    if "squares" in fields:
        fields["squares"] = frozenset(chess.parse_square(s) for s in fields["squares"])
    if "square" in fields:
        fields["square"] = chess.parse_square(fields["square"])
    if t is not None:
        fields["t"] = t
    for module in (cn, commands, events):
        if hasattr(module, spec["type"]):
            return getattr(module, spec["type"])(**fields)
    raise KeyError(spec["type"])


def start_frame(board: chess.BaseBoard) -> bytes:
    return cn.position_frame(board.piece_map())


@pytest.mark.parametrize("vector", VECTORS["commands"], ids=lambda v: v["command"]["type"])
def test_commands_encode_to_the_vector_bytes(vector: dict) -> None:
    assert cn.ChessnutCodec().send(build(vector["command"])).hex() == vector["wire"]


@pytest.mark.parametrize("vector", VECTORS["notifications"], ids=lambda v: v["wire"][:8])
def test_notifications_decode_to_the_vector_events(vector: dict) -> None:
    decoded = cn.ChessnutCodec().receive_data(bytes.fromhex(vector["wire"]), t=2.5)
    assert decoded == [build(e, t=2.5) for e in vector["events"]]


def test_the_registry_builds_this_codec() -> None:
    assert isinstance(codec_for("chessnut"), cn.ChessnutCodec)


def test_position_bytes_round_trip_for_every_chess960_start() -> None:
    for number in range(0, 960, 7):
        pieces = chess.Board.from_chess960_pos(number).piece_map()
        assert cn.decode_position(cn.encode_position(pieces)) == pieces


def test_led_bytes_round_trip() -> None:
    squares = frozenset({chess.A1, chess.H8, chess.D4, chess.E5, chess.B7})
    assert cn.leds_from_bytes(cn.led_bytes(squares)) == squares


def test_later_frames_become_lift_and_place_with_the_piece() -> None:
    codec = cn.ChessnutCodec()
    board = chess.Board.from_chess960_pos(518)
    assert codec.receive_data(start_frame(board), t=1.0) == [BoardSnapshot.from_board(board, 1.0)]
    assert codec.receive_data(start_frame(board), t=1.2) == []  # the 200 ms repeat
    board.push_san("Nf3")
    assert codec.receive_data(start_frame(board), t=1.4) == [
        PieceLifted(square=chess.G1, t=1.4),
        PiecePlaced(square=chess.F3, piece=chess.Piece.from_symbol("N"), t=1.4),
    ]


def test_request_board_makes_the_next_frame_a_whole_snapshot() -> None:
    codec = cn.ChessnutCodec()
    board = chess.Board()
    codec.receive_data(start_frame(board))
    assert codec.send(RequestBoard()) == cn.ENABLE_REPORTING
    assert codec.receive_data(start_frame(board), t=3.0) == [BoardSnapshot.from_board(board, 3.0)]


def test_a_frame_cut_across_notifications_is_joined() -> None:
    codec = cn.ChessnutCodec()
    frame = start_frame(chess.Board())
    assert codec.receive_data(frame[:20], t=0.0) == []
    assert codec.buffered == 20
    assert len(codec.receive_data(frame[20:], t=0.01)) == 1
    assert codec.buffered == 0


def test_a_one_letter_name_is_a_whole_reply() -> None:
    """A name has no chip byte before its text, so one letter is a whole `2C` reply; `27` needs two bytes."""
    codec = cn.ChessnutCodec()
    assert codec.receive_data(bytes.fromhex("2c0141")) == [cn.DeviceName(name="A")]
    assert codec.receive_data(bytes.fromhex("270100")) == []
    assert codec.discarded == 3


def test_a_stale_partial_frame_is_dropped_and_the_next_frame_read() -> None:
    codec = cn.ChessnutCodec(stale_after=0.5)
    frame = start_frame(chess.Board())
    codec.receive_data(frame[:30], t=0.0)
    assert codec.receive_data(frame, t=1.0) == [BoardSnapshot.from_board(chess.Board(), 1.0)]
    assert codec.discarded == 30


def test_garbage_between_frames_is_skipped() -> None:
    codec = cn.ChessnutCodec()
    data = b"\xff\x01\x99\x23\x07" + bytes.fromhex("230100") + b"\x00\x24"
    assert codec.receive_data(data) == [cn.Ack(ok=True)]
    assert codec.discarded >= 5


def test_a_frame_with_a_nibble_that_is_no_piece_is_garbage() -> None:
    frame = bytearray(start_frame(chess.Board()))
    frame[10] = 0xDD
    codec = cn.ChessnutCodec()
    assert codec.receive_data(bytes(frame)) == []
    assert codec.buffered < cn.POSITION_FRAME_SIZE


@pytest.mark.parametrize(
    ("wire", "percent", "charging"),
    [("2a025701", 87, True), ("2a025700", 87, False), ("2a026400", 100, False)],
)
def test_picochess_battery_layout(wire: str, percent: int, charging: bool) -> None:
    codec = cn.ChessnutCodec(battery="picochess")
    assert codec.receive_data(bytes.fromhex(wire)) == [cn.Battery(percent=percent, charging=charging)]


def test_battery_bytes_match_each_layout() -> None:
    for layout in ("official", "picochess"):
        codec = cn.ChessnutCodec(battery=layout)
        assert codec.receive_data(cn.battery_bytes(42, True, layout)) == [
            cn.Battery(percent=42, charging=True)
        ]


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (SetLeds(squares=frozenset({64})), "LED squares"),
        (cn.RequestFirmware(chip="wifi"), "firmware chip"),
        (cn.Beep(frequency_hz=0), "beep"),
        (object(), "no command object"),
    ],
)
def test_bad_commands_raise_a_protocol_error(command: object, message: str) -> None:
    with pytest.raises(cn.ChessnutError, match=message):
        cn.ChessnutCodec().send(command)


def test_an_unknown_battery_layout_is_refused() -> None:
    with pytest.raises(ProtocolError, match="battery layout"):
        cn.ChessnutCodec(battery="guess")  # type: ignore[arg-type]


def test_the_codec_is_a_pure_layer() -> None:
    """Importing the codec loads no event loop, serial port or Bluetooth stack."""
    assert io_loaded_by("eboard960.protocols.chessnut") == []
