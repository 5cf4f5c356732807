"""Fuzzing the Chessnut codec: garbage never breaks it, and it always finds its way back."""

from __future__ import annotations

import chess
from fuzz_helpers import cut_anywhere, feed_all, mutated
from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.protocols import chessnut as cn

EXAMPLES = settings(max_examples=150, deadline=None)

pieces = st.dictionaries(
    st.sampled_from(chess.SQUARES), st.sampled_from(list(cn.NIBBLE_PIECES.values())), max_size=32
)
text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=20)
frames = st.one_of(
    st.builds(cn.position_frame, pieces, st.integers(0, 0xFFFF)),
    st.sampled_from([b"\x23\x01\x00", b"\x23\x01\x01", b"\x37\x01\xbe", b"\x37\x01\xed"]),
    st.builds(lambda p, c: cn.battery_bytes(p, c), st.integers(0, 100), st.booleans()),
    st.builds(lambda n: bytes([0x0F, 0x01, n]), st.integers(0, 255)),
    st.builds(lambda n: bytes([0x32, 0x01, n]), st.integers(0, 255)),
    st.builds(lambda s: bytes([0x2C, len(s)]) + s.encode(), text),
    st.builds(lambda c, s: bytes([0x27, 1 + len(s), c]) + s.encode(), st.integers(0, 1), text),
)


@EXAMPLES
@given(st.lists(st.binary(max_size=80), max_size=20), st.floats(0, 0.3))
def test_random_bytes_never_raise_and_never_pile_up(chunks: list[bytes], step: float) -> None:
    feed_all(cn.ChessnutCodec(), chunks, cn.MAX_FRAME_SIZE, step)


@EXAMPLES
@given(st.lists(frames, min_size=1, max_size=8), st.data())
def test_mutated_streams_never_raise_and_never_pile_up(valid: list[bytes], data) -> None:
    feed_all(cn.ChessnutCodec(), [mutated(valid, data)], cn.MAX_FRAME_SIZE)


@EXAMPLES
@given(st.binary(max_size=120), st.lists(frames, min_size=1, max_size=8))
def test_every_frame_after_garbage_is_decoded(garbage: bytes, valid: list[bytes]) -> None:
    """Garbage (a corrupted notification) then, a moment later, good notifications."""
    clean = cn.ChessnutCodec()
    expected = [clean.receive_data(frame, 1.0) for frame in valid]
    codec = cn.ChessnutCodec()
    codec.receive_data(garbage, 0.0)
    codec.resync()  # a snapshot inside the garbage must not be the diff baseline
    assert [codec.receive_data(frame, 1.0) for frame in valid] == expected


@EXAMPLES
@given(st.lists(frames, min_size=1, max_size=8), st.data())
def test_any_cut_of_a_valid_stream_decodes_the_same(valid: list[bytes], data) -> None:
    stream = b"".join(valid)
    got = feed_all(cn.ChessnutCodec(), cut_anywhere(stream, data), cn.MAX_FRAME_SIZE)
    assert got == cn.ChessnutCodec().receive_data(stream)
