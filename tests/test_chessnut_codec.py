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


@pytest.mark.parametrize("kept", range(1, cn.POSITION_FRAME_SIZE))
def test_a_cut_frame_then_a_whole_one_reads_as_the_whole_one_only(kept: int) -> None:
    """A notification lost (a frame's tail); 200 ms later, before `stale_after`, the next whole frame."""
    board = chess.Board()
    frame = cn.position_frame(board.piece_map(), uptime_s=1000)
    codec = cn.ChessnutCodec()
    codec.receive_data(frame, t=0.0)
    assert codec.receive_data(frame[:kept], t=0.2) == []
    assert codec.receive_data(frame, t=0.4) == []  # unchanged: no false lifts and places
    board.push_san("Nf3")
    frame = cn.position_frame(board.piece_map(), uptime_s=1001)
    codec.receive_data(frame[:kept], t=0.6)
    assert codec.receive_data(frame, t=0.8) == [
        PieceLifted(square=chess.G1, t=0.8),
        PiecePlaced(square=chess.F3, piece=chess.Piece.from_symbol("N"), t=0.8),
    ]
    assert codec.buffered == 0 and codec.discarded == 2 * kept


def test_a_cut_frame_is_dropped_when_the_rest_of_the_next_begins_like_a_frame() -> None:
    """Joined, a cut head and the next frame leave `01 24 ...` behind: a frame's head, by chance."""
    raw = bytearray(cn.encode_position(chess.Board().piece_map()))
    raw[20:22] = bytes.fromhex("0124")  # frame bytes 22-23: what a 16-byte head joined to the frame leaves
    pieces = cn.decode_position(bytes(raw))
    assert pieces is not None
    frame = cn.position_frame(pieces)
    codec = cn.ChessnutCodec()
    codec.receive_data(frame, t=0.0)
    for t in (0.2, 0.6):
        codec.receive_data(frame[:16], t=t)
        assert codec.receive_data(frame, t=t + 0.2) == []
        assert codec.buffered == 0


def test_at_a_23_byte_mtu_a_lost_notification_costs_only_its_frame() -> None:
    """Every frame comes as 20 + 18 bytes; an 18 is lost, and the next frame's 20 must not complete it."""
    board = chess.Board()
    frames = []
    for san in ("e4", "e5", "Nf3"):
        board.push_san(san)
        frames.append(cn.position_frame(board.piece_map()))
    codec, clean = cn.ChessnutCodec(), cn.ChessnutCodec()
    codec.receive_data(start_frame(chess.Board()), t=0.0)
    clean.receive_data(start_frame(chess.Board()), t=0.0)
    codec.receive_data(frames[0][:20], t=0.2)  # its 18 are lost
    for t, frame in ((0.4, frames[1]), (0.6, frames[2])):
        assert codec.receive_data(frame[:20], t=t) == []
        assert codec.receive_data(frame[20:], t=t + 0.01) == clean.receive_data(frame, t=t + 0.01)
    assert codec.buffered == 0 and codec.discarded == 20


def test_a_cut_frame_then_a_reply_then_a_whole_frame_reads_both() -> None:
    board = chess.Board()
    codec = cn.ChessnutCodec()
    codec.receive_data(start_frame(board), t=0.0)
    codec.receive_data(start_frame(board)[:20], t=0.2)
    assert codec.receive_data(bytes.fromhex("230100"), t=0.25) == []  # the cut frame might yet go on
    assert codec.receive_data(start_frame(board), t=0.4) == [cn.Ack(ok=True, t=0.4)]
    assert codec.buffered == 0


@pytest.mark.parametrize("tail", ["0124", "230100", "2a0250"])
@pytest.mark.parametrize("then", [b"", bytes.fromhex("230100")])
def test_a_frame_split_across_notifications_is_joined_when_its_tail_starts_like_a_frame(
    tail: str, then: bytes
) -> None:
    """A 38-byte frame at a 23-byte MTU: 20 bytes, then 18 that begin like a frame (and then another)."""
    raw = bytearray(cn.encode_position(chess.Board().piece_map()))
    raw[18 : 18 + len(tail) // 2] = bytes.fromhex(tail)  # frame bytes 20.. are the second notification
    pieces = cn.decode_position(bytes(raw))
    assert pieces is not None
    frame = cn.position_frame(pieces)
    assert frame[20:].startswith(bytes.fromhex(tail))
    codec = cn.ChessnutCodec()
    assert codec.receive_data(frame[:20], t=0.0) == []
    got = codec.receive_data(frame[20:] + then, t=0.01)
    assert got[0] == BoardSnapshot.from_pieces(pieces, 0.01)
    assert got[1:] == ([cn.Ack(ok=True, t=0.01)] if then else [])
    assert codec.buffered == 0 and codec.discarded == 0


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
