"""The GoChess codec against its vectors, and its mixed-stream parsing and tracking."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest
from import_probe import io_loaded_by

from eboard960 import commands, events
from eboard960.commands import SetLeds
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import codec_for
from eboard960.protocols import gochess as gc

VECTORS = json.loads((Path(__file__).parents[1] / "firmware_protocols/gochess/vectors.json").read_text())


def squares(names: list[str]) -> frozenset[chess.Square]:
    return frozenset(chess.parse_square(s) for s in names)


def build(spec: dict, t: float | None = None) -> object:
    """A command or event from its JSON form (square names, board text, colour lists)."""
    fields = {k: v for k, v in spec.items() if k != "type"}
    if "board" in fields:
        return BoardSnapshot.from_text(fields["board"], t=t or 0.0)
    if "squares" in fields:
        fields["squares"] = squares(fields["squares"])
    if "square" in fields:
        fields["square"] = chess.parse_square(fields["square"])
    if "rgb" in fields:
        fields["rgb"] = tuple(fields["rgb"])
    if "groups" in fields:
        fields["groups"] = tuple((squares(s), tuple(rgb)) for s, rgb in fields["groups"])
    if t is not None:
        fields["t"] = t
    for module in (gc, commands, events):
        if hasattr(module, spec["type"]):
            return getattr(module, spec["type"])(**fields)
    raise KeyError(spec["type"])


@pytest.mark.parametrize("vector", VECTORS["commands"], ids=lambda v: v["command"]["type"])
def test_commands_encode_to_the_vector_bytes(vector: dict) -> None:
    assert gc.GoChessCodec().send(build(vector["command"])).hex() == vector["wire"]


@pytest.mark.parametrize("vector", VECTORS["notifications"], ids=lambda v: v["wire"])
def test_notifications_decode_to_the_vector_events(vector: dict) -> None:
    decoded = gc.GoChessCodec().receive_data(bytes.fromhex(vector["wire"]), t=0.5)
    assert decoded == [build(e, t=0.5) for e in vector["events"]]


def test_the_registry_builds_this_codec() -> None:
    assert isinstance(codec_for("gochess"), gc.GoChessCodec)


def test_ascii_events_in_one_notification_decode_in_order() -> None:
    ascii_vectors = [
        v for v in VECTORS["notifications"] if bytes.fromhex(v["wire"])[0] not in gc.BINARY_STARTS
    ]
    notification = b"".join(bytes.fromhex(v["wire"]) for v in ascii_vectors)
    expected = [build(e) for v in ascii_vectors for e in v["events"]]
    assert len(expected) == 4
    assert gc.GoChessCodec().receive_data(notification) == expected


def test_a_binary_message_must_fill_its_notification() -> None:
    """The first byte says what the notification is; noise cannot pass for the board."""
    codec = gc.GoChessCodec()
    state = gc.board_state_bytes(chess.BB_RANK_1)
    assert codec.receive_data(state + b"25u") == []
    assert codec.receive_data(state[:-1]) == []
    assert codec.receive_data(state) == [BoardSnapshot(occupied=chess.BB_RANK_1)]
    assert codec.discarded == (len(state) + 3) + (len(state) - 1)


def test_every_square_event_round_trips() -> None:
    codec = gc.GoChessCodec()
    for square in chess.SQUARES:
        assert codec.receive_data(gc.piece_event_bytes(square, down=False)) == [PieceLifted(square=square)]
        assert codec.receive_data(gc.piece_event_bytes(square, down=True)) == [PiecePlaced(square=square)]


def test_every_board_state_is_a_whole_snapshot_whatever_came_before() -> None:
    """The board sends its occupancy only when asked: each reply is a resync."""
    codec = gc.GoChessCodec()
    start = chess.BB_RANK_1 | chess.BB_RANK_2 | chess.BB_RANK_7 | chess.BB_RANK_8
    codec.receive_data(gc.board_state_bytes(start))
    codec.receive_data(gc.piece_event_bytes(chess.E2, down=False))
    # A lost notification: d7 left the board without an event; the snapshot shows it.
    now = start & ~chess.BB_E2 & ~chess.BB_D7
    assert codec.receive_data(gc.board_state_bytes(now), t=4.0) == [BoardSnapshot(occupied=now, t=4.0)]


def test_a_board_state_with_more_than_32_men_is_noise() -> None:
    codec = gc.GoChessCodec()
    assert codec.receive_data(gc.board_state_bytes(chess.BB_RANK_1 | chess.BB_RANK_2)) != []
    assert codec.receive_data(gc.board_state_bytes((1 << 33) - 1)) == []


def test_border_slot_one_and_slot_ten() -> None:
    codec = gc.GoChessCodec()
    assert codec.receive_data(b"l1dl10u") == [
        gc.BorderEvent(side="left", slot=1, down=True),
        gc.BorderEvent(side="left", slot=10, down=False),
    ]


def test_a_message_cut_off_at_the_end_of_a_notification_is_dropped() -> None:
    codec = gc.GoChessCodec()
    assert codec.receive_data(b"81d\x03\x01\x02") == [PiecePlaced(square=chess.A8)]
    assert (codec.buffered, codec.discarded) == (0, 3)
    assert codec.receive_data(b"25u") == [PieceLifted(square=chess.E2)]


def test_a_corrupted_notification_cannot_swallow_the_next_one() -> None:
    """`03` takes any 8 bytes: were notifications joined, it would eat the next event."""
    codec = gc.GoChessCodec()
    assert codec.receive_data(b"\x99\x03\x00") == []
    assert codec.receive_data(b"45d") == [PiecePlaced(square=chess.E4)]


def test_a_framed_reply_with_a_bad_checksum_is_dropped() -> None:
    codec = gc.GoChessCodec()
    assert codec.receive_data(bytes.fromhex("2a050157880d0a")) == []
    assert codec.discarded == 7
    assert codec.receive_data(bytes.fromhex("2a050157870d0a")) == [gc.BatteryPercent(percent=87)]


def test_set_leds_uses_the_configured_colour() -> None:
    codec = gc.GoChessCodec(led_rgb=(0, 0, 255))
    wire = codec.send(SetLeds(squares=frozenset({chess.A1})))
    assert wire.hex() == "32" + "0100000000000000" + "0000ff" + "01"


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (SetLeds(squares=frozenset({-1})), "LED squares"),
        (gc.LedsColour(squares=frozenset({1}), rgb=(256, 0, 0)), "colour"),
        (gc.LedMode(mode=3), "LED mode"),
        (gc.LedPattern(code=0x39), "LED patterns"),
        (gc.LedGroups(groups=((frozenset(), (1, 2, 3)),)), "1..64 squares"),
        (gc.InterruptMask(squares=1 << 64), "64-bit"),
        (object(), "no command object"),
    ],
)
def test_bad_commands_raise_a_protocol_error(command: object, message: str) -> None:
    with pytest.raises(gc.GoChessError, match=message):
        gc.GoChessCodec().send(command)


def test_the_codec_is_a_pure_layer() -> None:
    """Importing the codec loads no event loop, serial port or Bluetooth stack."""
    assert io_loaded_by("eboard960.protocols.gochess") == []
