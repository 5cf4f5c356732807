"""The Pegasus codec against the published vectors, and fuzzed with hypothesis."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.errors import ProtocolError
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import codec_for
from eboard960.protocols import pegasus as pg
from eboard960.protocols.dgt import field_of, frame

VECTORS = json.loads(
    (Path(__file__).parent.parent / "firmware_protocols/pegasus/vectors.json").read_text()
)
START_OCCUPANCY = chess.BB_RANK_1 | chess.BB_RANK_2 | chess.BB_RANK_7 | chess.BB_RANK_8


def _expected_event(decoded: dict[str, Any]) -> Any:
    kind = decoded["type"]
    fields = {key: value for key, value in decoded.items() if key != "type"}
    if kind == "BoardSnapshot":
        return BoardSnapshot(occupied=START_OCCUPANCY)
    if kind in ("PieceLifted", "PiecePlaced"):
        event_class = PieceLifted if kind == "PieceLifted" else PiecePlaced
        return event_class(square=chess.parse_square(fields["square"]))
    if kind == "OtherMessage":
        fields["data"] = bytes.fromhex(fields["data"])
    return getattr(pg, kind)(**fields)


def _command(spec: dict[str, Any]) -> Any:
    kind = spec["type"]
    fields = {key: value for key, value in spec.items() if key != "type"}
    if "squares" in fields:
        fields["squares"] = frozenset(chess.parse_square(name) for name in fields["squares"])
    if "key" in fields:
        fields["key"] = bytes.fromhex(fields["key"])
    neutral = {"RequestBoard": RequestBoard, "EnableUpdates": EnableUpdates, "SetLeds": SetLeds}
    return (neutral.get(kind) or getattr(pg, kind))(**fields)


@pytest.mark.parametrize("vector", VECTORS["board_to_app"], ids=lambda v: v["decoded"]["type"])
def test_board_messages_decode_as_documented(vector: dict[str, Any]) -> None:
    codec = pg.PegasusCodec()
    assert codec.receive_data(bytes.fromhex(vector["hex"])) == [_expected_event(vector["decoded"])]
    assert codec.buffered == 0
    assert codec.discarded == 0


@pytest.mark.parametrize("vector", VECTORS["app_to_board"], ids=lambda v: v["command"]["type"])
def test_commands_encode_as_documented(vector: dict[str, Any]) -> None:
    assert pg.PegasusCodec().send(_command(vector["command"])) == bytes.fromhex(vector["hex"])


def test_registered_under_its_name_and_constructible_without_arguments() -> None:
    assert isinstance(codec_for("pegasus"), pg.PegasusCodec)


def test_dump_becomes_a_presence_only_snapshot_with_timestamp() -> None:
    fields = bytearray(64)
    fields[field_of(chess.E4)] = 1
    fields[field_of(chess.A8)] = 1
    [snapshot] = pg.PegasusCodec().receive_data(frame(pg.BOARD_DUMP, bytes(fields)), t=2.5)
    assert snapshot == BoardSnapshot(occupied=chess.BB_E4 | chess.BB_A8, t=2.5)
    assert snapshot.pieces == {}


def test_rotated_board_maps_fields_the_other_way_round() -> None:
    codec = pg.PegasusCodec(rotated=True)
    assert codec.receive_data(bytes.fromhex("8e 00 05 00 01")) == [PiecePlaced(square=chess.H1)]
    assert codec.send(SetLeds(squares=frozenset({chess.H1}))) == bytes.fromhex(
        "60 06 05 07 00 01 00 00"
    )


def test_messages_split_anywhere_still_decode() -> None:
    stream = bytes.fromhex("8e 00 05 34 00 8e 00 05 24 01 93 00 05 01 02")
    for cut in range(1, len(stream)):
        codec = pg.PegasusCodec()
        events = codec.receive_data(stream[:cut]) + codec.receive_data(stream[cut:])
        assert events == [
            PieceLifted(square=chess.E2),
            PiecePlaced(square=chess.E4),
            pg.Version(major=1, minor=2),
        ]


def test_impossible_contents_are_skipped_as_garbage() -> None:
    codec = pg.PegasusCodec()
    bad_field = bytes.fromhex("8e 00 05 40 01")
    bad_state = bytes.fromhex("8e 00 05 10 02")
    wrong_size = bytes.fromhex("93 00 06 01 02 03")
    good = bytes.fromhex("8e 00 05 24 01")
    assert codec.receive_data(bad_field + bad_state + wrong_size + good) == [
        PiecePlaced(square=chess.E4)
    ]
    assert codec.discarded == len(bad_field + bad_state + wrong_size)


@pytest.mark.parametrize(
    "make",
    [
        lambda: pg.LedPattern(squares=frozenset({1}), speed=0),
        lambda: pg.LedPattern(squares=frozenset({1}), intensity=5),
        lambda: pg.LedPattern(squares=frozenset({64})),
        lambda: pg.RegisterDeveloperKey(key=b"short"),
        lambda: pg.SetBoardName(name="caf\u00e9"),
        lambda: pg.PegasusCodec(battery_full=0),
        lambda: pg.PegasusCodec().send("hello"),
    ],
)
def test_bad_commands_and_settings_raise_the_codec_error(make: Any) -> None:
    with pytest.raises(pg.PegasusError) as caught:
        make()
    assert isinstance(caught.value, ProtocolError)
    assert "\n" not in str(caught.value)


# -- fuzzing ---------------------------------------------------------------------------------

VALID_FRAMES = [bytes.fromhex(vector["hex"]) for vector in VECTORS["board_to_app"]]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=80), max_size=12))
def test_random_bytes_never_raise_and_never_grow_the_buffer(chunks: list[bytes]) -> None:
    codec = pg.PegasusCodec()
    for chunk in chunks:
        codec.receive_data(chunk)
        assert codec.buffered <= pg.MAX_MESSAGE


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.binary(max_size=40), st.sampled_from(VALID_FRAMES)), min_size=1, max_size=6
    ),
    st.integers(min_value=1, max_value=30),
)
def test_every_valid_frame_after_garbage_is_decoded(
    pairs: list[tuple[bytes, bytes]], chunk: int
) -> None:
    stream = b"".join(garbage + valid for garbage, valid in pairs)
    codec = pg.PegasusCodec()
    events = []
    for start in range(0, len(stream), chunk):
        events += codec.receive_data(stream[start : start + chunk])
    reference = pg.PegasusCodec()
    expected = [reference.receive_data(valid)[0] for _garbage, valid in pairs]
    # Garbage may itself hold valid messages; the valid frames must appear in order among them.
    remaining = iter(events)
    assert all(any(event == want for event in remaining) for want in expected)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(VALID_FRAMES), st.data())
def test_mutated_frames_never_raise_anything_but_the_codec_error(
    frame: bytes, data: st.DataObject
) -> None:
    mutated = bytearray(frame)
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        index = data.draw(st.integers(min_value=0, max_value=len(mutated) - 1))
        mutated[index] = data.draw(st.integers(min_value=0, max_value=255))
    codec = pg.PegasusCodec()
    with contextlib.suppress(ProtocolError):
        codec.receive_data(bytes(mutated))
    assert codec.buffered <= pg.MAX_MESSAGE
    # Whatever the mutation left behind, the next good message still comes through.
    assert codec.receive_data(bytes.fromhex("8e 00 05 24 01"))[-1] == PiecePlaced(square=chess.E4)


def test_pure_layers_import_no_io_library() -> None:
    code = (
        "import sys\n"
        "import eboard960.protocols.pegasus, eboard960.emulators.pegasus\n"
        "import eboard960.leds, eboard960.ble.profiles\n"
        "print(sorted(m for m in ('asyncio', 'serial', 'bleak', 'bumble') if m in sys.modules))\n"
    )
    src = str(Path(__file__).parent.parent / "src")
    result = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": src},
        capture_output=True, text=True, timeout=30, check=True,
    )
    assert result.stdout.strip() == "[]"
