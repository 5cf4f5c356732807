"""The DGT codec against the published vectors, the sample captures and its own encoders."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from eboard960 import commands, events
from eboard960.protocols import codec_for, dgt, dgt_clock
from eboard960.protocols.dgt import DgtCodec, DgtCommandDecoder, DgtError

ROOT = Path(__file__).resolve().parents[1]
VECTORS = json.loads((ROOT / "firmware_protocols" / "dgt" / "vectors.json").read_text())
SAMPLES = Path("/work/shared/samples")
NAMESPACES = (events, commands, dgt, dgt_clock)


def _class(name: str) -> type:
    for namespace in NAMESPACES:
        if hasattr(namespace, name):
            return getattr(namespace, name)
    raise KeyError(name)


def _value(key: str, value: object) -> object:
    if key == "square":
        return chess.parse_square(value)
    if key == "squares":
        return frozenset(chess.parse_square(name) for name in value)
    if key == "piece":
        return chess.Piece.from_symbol(value)
    if key == "mode":
        return dgt.UpdateMode[value]
    return value


def _build(spec: dict) -> object:
    fields = {k: _value(k, v) for k, v in spec.items() if k != "type"}
    if spec["type"] == "BoardSnapshot":
        return events.BoardSnapshot.from_text(fields["board"])
    if spec["type"] == "ClockSegments.from_text":
        return dgt_clock.ClockSegments.from_text(**fields)
    return _class(spec["type"])(**fields)


def _dump(board: chess.BaseBoard) -> bytes:
    codes = [0] * 64
    for square, piece in board.piece_map().items():
        codes[dgt.field_of(square)] = dgt.piece_code(piece)
    return dgt.encode_dump(codes)


@pytest.mark.parametrize("vector", VECTORS["board_to_host"], ids=lambda v: v["name"])
def test_board_vectors_decode(vector: dict) -> None:
    codec = DgtCodec()
    if vector.get("after") == "dump_with_knight_f3":
        codec.receive_data(_dump(chess.BaseBoard("8/8/8/8/8/5N2/8/8")))
    got = codec.receive_data(bytes.fromhex(vector["hex"]))
    assert [type(e).__name__ for e in got] == [spec["type"] for spec in vector["events"]]
    for event, spec in zip(got, vector["events"], strict=True):
        if spec["type"] == "Discarded":
            continue
        assert event == _build(spec)


@pytest.mark.parametrize("vector", VECTORS["host_to_board"], ids=lambda v: str(v["command"]))
def test_host_vectors_encode(vector: dict) -> None:
    if "error" in vector:
        with pytest.raises(DgtError, match=vector["error"]):
            DgtCodec().send(_build(vector["command"]))
        return
    assert DgtCodec().send(_build(vector["command"])).hex() == vector["hex"]


@pytest.mark.parametrize(
    "vector",
    [v for v in VECTORS["host_to_board"] if "hex" in v and v["command"]["type"] != "SetLeds"],
    ids=lambda v: str(v["command"]),
)
def test_firmware_side_decodes_host_vectors(vector: dict) -> None:
    """The emulator's decoder reads every command back (EnableUpdates means update-nice)."""
    (decoded,) = DgtCommandDecoder().receive_data(bytes.fromhex(vector["hex"]))
    expected = _build(vector["command"])
    if isinstance(expected, commands.EnableUpdates):
        expected = dgt.SetUpdateMode(mode=dgt.UpdateMode.NICE)
    assert decoded == expected


def test_host_decoder_waits_for_a_split_clock_message() -> None:
    decoder = DgtCommandDecoder()
    message = DgtCodec().send(dgt_clock.ClockText(text="518", beep=2))
    assert decoder.receive_data(message[:5]) == []
    assert decoder.receive_data(message[5:] + b"\x42") == [
        dgt_clock.ClockText(text="518", beep=2), commands.RequestBoard(),
    ]


def test_every_board_message_round_trips() -> None:
    messages = [
        dgt.SerialNumber(text="00960"), dgt.LongSerialNumber(text="0000000960"),
        dgt.BusAddress(address=960), dgt.Trademark(text="an emulator"),
        dgt.Version(major=1, minor=7), dgt.HardwareVersion(major=2, minor=0),
        dgt.Battery(percent=80, time_left=None, on_time=61, standby=3000, charging=True),
        dgt.EeMoves(data=bytes([0x7F, 0x6A, 0x41, 0x30, 0x6B])),
        dgt_clock.ClockTimes(left=3599, right=9 * 3600 + 59 * 60 + 59, running=True,
                             left_to_move=True, left_flag=True, battery_low=True),
        dgt_clock.ClockAck(a0=0x10, a1=0x88, a2=0x85, a3=0xB1),
    ]
    stream = b"".join(dgt.encode_message(m) for m in messages)
    assert DgtCodec().receive_data(stream) == messages


def test_dump_then_field_updates_track_the_board() -> None:
    codec = DgtCodec()
    board = chess.Board.from_chess960_pos(0)
    (snapshot,) = codec.receive_data(_dump(board), t=1.0)
    assert snapshot == events.BoardSnapshot.from_board(board, t=1.0)
    king = board.king(chess.WHITE)
    assert codec.receive_data(dgt.encode_field_update(dgt.field_of(king), 0), t=2.0) == [
        events.PieceLifted(square=king, t=2.0)
    ]
    # The same report twice says nothing new.
    assert codec.receive_data(dgt.encode_field_update(dgt.field_of(king), 0)) == []


def test_rotated_board_maps_field_zero_to_h1() -> None:
    codec = DgtCodec(rotated=True)
    assert codec.receive_data(dgt.encode_field_update(0, 11)) == [
        events.PiecePlaced(square=chess.H1, piece=chess.Piece.from_symbol("k"))
    ]
    assert codec.send(commands.SetLeds(squares=frozenset({chess.H1}))).endswith(
        bytes.fromhex("600401000000")
    )


def _times(right_lever_up: bool) -> bytes:
    times = dgt_clock.ClockTimes(left=60, right=60, right_lever_up=right_lever_up)
    return dgt.encode_message(times)


@pytest.mark.parametrize(("white_side", "first_press"), [("left", "white"), ("right", "black")])
def test_lever_moves_become_player_buttons(white_side: str, first_press: str) -> None:
    codec = DgtCodec(white_side=white_side)
    first = codec.receive_data(_times(False))
    assert not any(isinstance(e, events.ButtonPressed) for e in first)
    pressed = [e for e in codec.receive_data(_times(True)) if isinstance(e, events.ButtonPressed)]
    assert pressed == [events.ButtonPressed(button=first_press)]
    back = [e for e in codec.receive_data(_times(False)) if isinstance(e, events.ButtonPressed)]
    assert back[0].button != first_press


def test_markers_never_reach_the_square_events() -> None:
    codec = DgtCodec()
    codec.receive_data(_dump(chess.BaseBoard(None)))
    got = codec.receive_data(dgt.encode_field_update(27, 14) + dgt.encode_field_update(27, 0))
    assert got == [
        dgt.Marker(square=chess.D5, result="white_wins", present=True),
        dgt.Marker(square=chess.D5, result="white_wins", present=False),
    ]


def test_bad_piece_code_is_discarded_not_raised() -> None:
    got = DgtCodec().receive_data(bytes.fromhex("8e0005247f") + dgt.encode_field_update(36, 1))
    assert isinstance(got[0], dgt.Discarded) and "piece code" in got[0].reason
    assert got[1:] == [events.PiecePlaced(square=chess.E4, piece=chess.Piece.from_symbol("P"))]


@pytest.mark.parametrize(
    "command",
    [dgt_clock.ClockText(text="é"), dgt_clock.ClockSetAndRun(left=36000, right=0),
     dgt_clock.ClockBeep(units=200), object()],
)
def test_commands_the_protocol_cannot_express_raise_dgt_error(command: object) -> None:
    with pytest.raises(DgtError):
        DgtCodec().send(command)


def test_xl_segments_refuse_unknown_characters() -> None:
    with pytest.raises(DgtError, match="'k'"):
        dgt_clock.ClockSegments.from_text("k")
    assert dgt_clock.ClockSegments.from_text("518-3").text() == "518-3 "


def test_registered_and_constructible_without_arguments() -> None:
    assert isinstance(codec_for("dgt"), DgtCodec)


def test_codec_is_pure() -> None:
    code = ("import sys, eboard960.protocols.dgt; "
            "print([m for m in ('asyncio', 'serial', 'bleak', 'bumble') if m in sys.modules])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert result.stdout.strip() == "[]"


def _sample_square_events(name: str) -> tuple[chess.Board, list[object]]:
    lines = [json.loads(line) for line in (SAMPLES / name).read_text().splitlines()]
    header, records = lines[0], lines[1:]
    board = chess.Board.from_chess960_pos(header["start"])
    codec = codec_for(header["board"])
    got: list[object] = []
    for record in records:
        if "rx" in record:
            got += codec.receive_data(bytes.fromhex(record["rx"]), record["t"])
    return board, got


@pytest.mark.skipif(not SAMPLES.exists(), reason="shared samples not present")
@pytest.mark.parametrize("name", ["dgt_0000.jsonl", "dgt_0003.jsonl"])
def test_samples_decode_to_square_events_that_replay_the_game(name: str) -> None:
    """Applying the decoded lifts/places to the start ends on the expected game's occupancy."""
    board, got = _sample_square_events(name)
    occupied = board.occupied
    with open(SAMPLES / name.replace(".jsonl", ".expected.pgn")) as pgn:
        for move in chess.pgn.read_game(pgn).mainline_moves():
            board.push(move)
    square_events = [e for e in got if isinstance(e, events.PieceLifted | events.PiecePlaced
                                                   | events.BoardSnapshot)]
    assert square_events and not [e for e in got if isinstance(e, dgt.Discarded)]
    for event in square_events:
        if isinstance(event, events.BoardSnapshot):
            occupied = event.occupied
        elif isinstance(event, events.PieceLifted):
            occupied &= ~chess.BB_SQUARES[event.square]
        else:
            occupied |= chess.BB_SQUARES[event.square]
    assert occupied == board.occupied



@pytest.mark.parametrize("turned", [False, True])
def test_detect_rotation_from_the_first_dump_with_both_armies_home(turned: bool) -> None:
    board = chess.Board.from_chess960_pos(700)
    codes = [0] * 64
    for square, piece in board.piece_map().items():
        codes[dgt.field_of(square, rotated=turned)] = dgt.piece_code(piece)
    codec = DgtCodec(detect_rotation=True)
    (snapshot,) = codec.receive_data(dgt.encode_dump(codes))
    assert codec.rotated is turned
    assert snapshot == events.BoardSnapshot.from_board(board)
    moved = dgt.field_of(chess.E2, rotated=turned)
    assert codec.receive_data(dgt.encode_field_update(moved, 0)) == [
        events.PieceLifted(square=chess.E2)
    ]


def test_detection_waits_for_a_dump_that_settles_it() -> None:
    codec = DgtCodec(detect_rotation=True)
    codec.receive_data(_dump(chess.BaseBoard("8/8/8/4k3/8/8/8/4K3")))
    assert not codec.rotated
    flipped = [0] * 64
    for square, piece in chess.Board().piece_map().items():
        flipped[dgt.field_of(square, rotated=True)] = dgt.piece_code(piece)
    codec.receive_data(dgt.encode_dump(flipped))
    assert codec.rotated


seconds = st.integers(0, 10 * 3600 - 1)


@settings(max_examples=100, deadline=None)
@given(st.builds(dgt_clock.ClockTimes, left=seconds, right=seconds, running=st.booleans(),
                 right_lever_up=st.booleans(), left_to_move=st.booleans(),
                 right_to_move=st.booleans(), left_flag=st.booleans(),
                 right_flag=st.booleans(), battery_low=st.booleans(),
                 connected=st.booleans()))
def test_clock_times_round_trip(times: dgt_clock.ClockTimes) -> None:
    data = dgt_clock.encode_times(times)
    assert all(byte < 0x80 for byte in data)
    assume(any(data))  # both clocks stopped at 0:00:00 without flags is the all-zero filler on the wire
    assert dgt_clock.decode_bwtime(data) == times


def test_the_all_zero_clock_message_is_the_filler() -> None:
    assert dgt_clock.decode_bwtime(bytes(7)) is None


@settings(max_examples=100, deadline=None)
@given(st.builds(dgt_clock.ClockAck, a0=st.integers(0, 255), a1=st.integers(0, 255),
                 a2=st.integers(0, 255), a3=st.integers(0, 255)))
def test_clock_acks_round_trip_with_their_top_bits(ack: dgt_clock.ClockAck) -> None:
    data = dgt_clock.encode_ack(ack)
    assert all(byte < 0x80 for byte in data)
    assert dgt_clock.decode_bwtime(data) == ack


@settings(max_examples=100, deadline=None)
@given(st.builds(dgt_clock.ClockSetAndRun, left=seconds, right=seconds,
                 left_running=st.booleans(), right_running=st.booleans(),
                 paused=st.booleans(), switch_on_lever=st.booleans()))
def test_set_and_run_round_trips_through_the_firmware_decoder(
    command: dgt_clock.ClockSetAndRun,
) -> None:
    assert DgtCommandDecoder().receive_data(DgtCodec().send(command)) == [command]


@pytest.mark.skipif(not SAMPLES.exists(), reason="shared samples not present")
@pytest.mark.parametrize("name", ["dgt_0000", "dgt_0003"])
def test_samples_decode_into_the_expected_game(name: str) -> None:
    """The codec's events (with the capture's button records) give the recognizer the game."""
    recognizer = pytest.importorskip("eboard960.recognizer")
    lines = [json.loads(line) for line in (SAMPLES / f"{name}.jsonl").read_text().splitlines()]
    rec, codec = recognizer.Recognizer(lines[0]["start"]), DgtCodec()
    for record in lines[1:]:
        if "rx" in record:
            for event in codec.receive_data(bytes.fromhex(record["rx"]), record["t"]):
                rec.feed(event)
        elif "button" in record:
            rec.feed(events.ButtonPressed(button=record["button"], t=record["t"]))
    rec.finish()
    with open(SAMPLES / f"{name}.expected.pgn") as pgn:
        assert rec.board.move_stack == list(chess.pgn.read_game(pgn).mainline_moves())
