"""Hypothesis: no byte stream makes the DGT codec raise, hoard bytes or lose a good frame."""

from __future__ import annotations

import itertools

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.emulators.dgt import ClockModel, DgtFirmware
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import dgt, dgt_clock
from eboard960.protocols.dgt import DgtCodec, DgtFramer, Frame

FAST = settings(max_examples=150, deadline=None)

field_updates = st.builds(
    dgt.encode_field_update, st.integers(0, 63), st.integers(0, 12)
)
clock_messages = st.builds(
    lambda left, right, lever: dgt.encode_message(
        dgt_clock.ClockTimes(left=left, right=right, right_lever_up=lever)
    ),
    st.integers(0, 35999), st.integers(0, 35999), st.booleans(),
)
dumps = st.lists(st.integers(0, 12), min_size=64, max_size=64).map(dgt.encode_dump)
identity = st.sampled_from([
    dgt.encode_message(dgt.SerialNumber(text="00960")),
    dgt.encode_message(dgt.Version(major=1, minor=7)),
    dgt.encode_message(dgt.Trademark(text="emulator")),
])
valid_frames = st.one_of(field_updates, clock_messages, dumps, identity)


def _chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


@FAST
@given(st.binary(max_size=600), st.lists(st.integers(0, 10_000), max_size=8))
def test_random_bytes_only_ever_give_events(data: bytes, cuts: list[int]) -> None:
    codec = DgtCodec()
    for chunk in _chunks(data, cuts):
        codec.receive_data(chunk)  # anything but a crash is fine
        assert codec.buffered <= dgt.MAX_FRAME


@FAST
@given(
    st.lists(valid_frames, min_size=1, max_size=12),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=10),
    st.lists(st.integers(0, 10_000), max_size=5),
)
def test_mutated_streams_never_raise(frames: list[bytes], flips: list, cuts: list[int]) -> None:
    data = bytearray(b"".join(frames))
    for position, value in flips:
        data[position % len(data)] = value
    codec = DgtCodec()
    for chunk in _chunks(bytes(data), cuts):
        codec.receive_data(chunk)
        assert codec.buffered <= dgt.MAX_FRAME


@FAST
@given(st.binary(max_size=200), st.lists(valid_frames, min_size=1, max_size=10),
       st.lists(st.integers(0, 10_000), max_size=6))
def test_every_good_frame_after_garbage_is_framed(
    garbage: bytes, frames: list[bytes], cuts: list[int]
) -> None:
    framer = DgtFramer()
    out = []
    for chunk in _chunks(garbage + b"".join(frames), cuts):
        out += [item for item in framer.receive_data(chunk) if isinstance(item, Frame)]
    expected = [Frame(f[0] & 0x7F, f[3:]) for f in frames]
    assert out[len(out) - len(expected):] == expected


@FAST
@given(st.binary(max_size=200), st.lists(field_updates, max_size=10))
def test_square_events_after_garbage_and_a_dump_are_exact(garbage: bytes, updates: list) -> None:
    """After the resync dump the codec's events are exactly the board's changes."""
    board = chess.Board.from_chess960_pos(518)
    codes = [0] * 64
    for square, piece in board.piece_map().items():
        codes[dgt.field_of(square)] = dgt.piece_code(piece)
    got = DgtCodec().receive_data(garbage + dgt.encode_dump(codes) + b"".join(updates))
    snapshots = [i for i, e in enumerate(got) if isinstance(e, BoardSnapshot)]
    tail = got[snapshots[-1]:]
    assert tail[0] == BoardSnapshot.from_board(board)
    expected: list[object] = []
    for update in updates:
        field, code = update[3], update[4]
        square = dgt.square_of(field)
        if codes[field] == code:
            continue
        if codes[field]:
            expected.append(PieceLifted(square=square))
        if code:
            expected.append(PiecePlaced(square=square, piece=dgt.PIECE_OF_CODE[code]))
        codes[field] = code
    assert tail[1:] == expected


@FAST
@given(st.binary(min_size=1, max_size=400))
def test_buffer_holds_at_most_one_unfinished_frame(data: bytes) -> None:
    framer = DgtFramer()
    framer.receive_data(data)
    if framer.buffered:
        held = data[len(data) - framer.buffered:]
        assert held[0] & 0x80 and not any(b & 0x80 for b in held[1:])


@FAST
@given(st.binary(max_size=300), st.lists(st.integers(0, 10_000), max_size=6))
def test_whatever_the_host_sends_the_emulator_answers_in_well_formed_messages(
    data: bytes, cuts: list[int]
) -> None:
    model = DgtFirmware(clock=ClockModel("3000"))
    codec = DgtCodec()
    for chunk in _chunks(data, cuts):
        answer = model.feed(chunk)
        assert not [e for e in codec.receive_data(answer) if isinstance(e, dgt.Discarded)]
