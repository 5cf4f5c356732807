"""Fuzzing the Square Off codec: garbage never breaks it, and it always finds its way back."""

from __future__ import annotations

import chess
from fuzz_helpers import cut_anywhere, feed_all, mutated
from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.protocols import squareoff as so

EXAMPLES = settings(max_examples=150, deadline=None)

frames = st.one_of(
    st.builds(
        lambda sq, down: so.message("0", chess.square_name(sq) + ("d" if down else "u")),
        st.sampled_from(chess.SQUARES),
        st.booleans(),
    ),
    st.builds(lambda occ: so.message("30", so.occupancy_text(occ)), st.integers(0, chess.BB_ALL)),
    st.just(so.message("14", "GO")),
    st.builds(lambda v: so.message("22", f"{v:.2f}"), st.floats(0, 20)),
    st.builds(lambda v: so.message("4", str(v)), st.integers(0, 100)),
    st.just(so.message("1", "AA:BB:CC:DD:EE:FF")),
    st.builds(lambda m, end: m + end, st.just(so.message("0", "e2u")), st.sampled_from([b"", b"\r\n"])),
)


@EXAMPLES
@given(st.lists(st.binary(max_size=80), max_size=20), st.floats(0, 0.3))
def test_random_bytes_never_raise_and_never_pile_up(chunks: list[bytes], step: float) -> None:
    feed_all(so.SquareOffCodec(), chunks, so.MAX_MESSAGE_SIZE, step)


@EXAMPLES
@given(st.lists(st.text("0123456789#*RGOudabcdefgh12345678\r\n", max_size=80), max_size=10))
def test_protocol_alphabet_soup_never_raises(chunks: list[str]) -> None:
    feed_all(so.SquareOffCodec(), [chunk.encode() for chunk in chunks], so.MAX_MESSAGE_SIZE)


@EXAMPLES
@given(st.lists(frames, min_size=1, max_size=8), st.data())
def test_mutated_streams_never_raise_and_never_pile_up(valid: list[bytes], data) -> None:
    feed_all(so.SquareOffCodec(), [mutated(valid, data)], so.MAX_MESSAGE_SIZE)


@EXAMPLES
@given(st.binary(max_size=120), st.lists(frames, min_size=1, max_size=8))
def test_every_message_after_garbage_is_decoded(garbage: bytes, valid: list[bytes]) -> None:
    """Garbage (a corrupted notification) then, a moment later, good notifications."""
    clean = so.SquareOffCodec()
    expected = [clean.receive_data(frame, 1.0) for frame in valid]
    codec = so.SquareOffCodec()
    codec.receive_data(garbage, 0.0)
    assert [codec.receive_data(frame, 1.0) for frame in valid] == expected


@EXAMPLES
@given(st.lists(frames, min_size=1, max_size=8), st.data())
def test_any_cut_of_a_valid_stream_decodes_the_same(valid: list[bytes], data) -> None:
    stream = b"".join(valid)
    got = feed_all(so.SquareOffCodec(), cut_anywhere(stream, data), so.MAX_MESSAGE_SIZE)
    assert got == so.SquareOffCodec().receive_data(stream)
