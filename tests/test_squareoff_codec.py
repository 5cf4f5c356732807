"""The Square Off codec against its vectors, and its parsing, tracking and errors."""

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
from eboard960.protocols import squareoff as so

VECTORS = json.loads((Path(__file__).parents[1] / "firmware_protocols/squareoff/vectors.json").read_text())


def build(spec: dict, t: float | None = None) -> object:
    """A command or event from its JSON form (square names, board text)."""
    fields = {k: v for k, v in spec.items() if k != "type"}
    if spec["type"] == "BoardSnapshot":
        return BoardSnapshot.from_text(fields["board"], t=t or 0.0)
    if "board" in fields:
        fields["occupied"] = BoardSnapshot.from_text(fields.pop("board")).occupied
    if "squares" in fields:
        fields["squares"] = frozenset(chess.parse_square(s) for s in fields["squares"])
    if "square" in fields:
        fields["square"] = chess.parse_square(fields["square"])
    if t is not None:
        fields["t"] = t
    for module in (so, commands, events):
        if hasattr(module, spec["type"]):
            return getattr(module, spec["type"])(**fields)
    raise KeyError(spec["type"])


@pytest.mark.parametrize("vector", VECTORS["commands"], ids=lambda v: v["text"])
def test_commands_encode_to_the_vector_text(vector: dict) -> None:
    assert so.SquareOffCodec().send(build(vector["command"])) == vector["text"].encode()


@pytest.mark.parametrize("vector", VECTORS["commands"], ids=lambda v: v["text"])
def test_commands_can_end_in_cr_lf(vector: dict) -> None:
    wire = so.SquareOffCodec(line_ending="\r\n").send(build(vector["command"]))
    assert wire == vector["text"].encode() + b"\r\n"


@pytest.mark.parametrize("vector", VECTORS["notifications"], ids=lambda v: v["text"][:12])
def test_notifications_decode_to_the_vector_events(vector: dict) -> None:
    decoded = so.SquareOffCodec().receive_data(vector["text"].encode(), t=7.0)
    assert decoded == [build(e, t=7.0) for e in vector["events"]]


def test_the_registry_builds_this_codec() -> None:
    assert isinstance(codec_for("squareoff"), so.SquareOffCodec)


def test_occupancy_text_round_trips_every_single_square() -> None:
    for square in chess.SQUARES:
        bit = chess.BB_SQUARES[square]
        assert so.parse_occupancy(so.occupancy_text(bit)) == bit


def test_a_stray_digit_before_a_message_does_not_hide_it() -> None:
    codec = so.SquareOffCodec()
    assert codec.receive_data(b"50#e2u*9") == [PieceLifted(square=chess.E2)]
    assert codec.receive_data(b"#x*0#e4d*") == [PiecePlaced(square=chess.E4)]


def test_a_known_code_with_a_foreign_body_is_noise() -> None:
    """`30#c3u*` is no occupancy: it is a stray `3` before `0#c3u*`."""
    codec = so.SquareOffCodec()
    assert codec.receive_data(b"30#c3u*") == [PieceLifted(square=chess.C3)]
    assert codec.receive_data(b"22#high*1#nomac*") == []
    assert codec.receive_data(b"27#xx*") == [so.OtherMessage(code="27", body="xx")]


def test_a_message_cut_across_notifications_is_joined() -> None:
    codec = so.SquareOffCodec()
    text = so.message("30", so.occupancy_text(chess.BB_RANK_1)).decode()
    assert codec.receive_data(text[:17].encode(), t=0.0) == []
    assert codec.receive_data(text[17:].encode(), t=0.1) == [BoardSnapshot(occupied=chess.BB_RANK_1, t=0.1)]


def test_every_occupancy_is_a_whole_snapshot_whatever_came_before() -> None:
    """The board sends its occupancy only when asked: each reply is a resync."""
    codec = so.SquareOffCodec()
    start = chess.Board().occupied
    codec.receive_data(so.message("30", so.occupancy_text(start)))
    codec.receive_data(b"0#e2u*0#e4d*")
    now = (start & ~chess.BB_E2 & ~chess.BB_G8) | chess.BB_E4 | chess.BB_F6
    assert codec.receive_data(so.message("30", so.occupancy_text(now)), t=2.0) == [
        BoardSnapshot(occupied=now, t=2.0)
    ]


def test_buffer_stays_bounded_on_an_endless_body() -> None:
    codec = so.SquareOffCodec()
    codec.receive_data(b"30#" + b"1" * 500)
    assert codec.buffered <= so.MAX_MESSAGE_SIZE


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (SetLeds(squares=frozenset({99})), "LED squares"),
        (so.StatusLed(colour="pink"), "status LED"),
        (so.Announce(what="resign"), "cannot announce"),
        (so.ExpectOccupancy(occupied=-1), "64-bit"),
        (object(), "no command object"),
    ],
)
def test_bad_commands_raise_a_protocol_error(command: object, message: str) -> None:
    with pytest.raises(so.SquareOffError, match=message):
        so.SquareOffCodec().send(command)


def test_an_unknown_line_ending_is_refused() -> None:
    with pytest.raises(so.SquareOffError, match="line ending"):
        so.SquareOffCodec(line_ending="\n")  # type: ignore[arg-type]


def test_the_codec_is_a_pure_layer() -> None:
    """Importing the codec loads no event loop, serial port or Bluetooth stack."""
    assert io_loaded_by("eboard960.protocols.squareoff") == []
