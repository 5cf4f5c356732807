"""Fuzzing the GoChess codec: garbage never breaks it, and it always finds its way back."""

from __future__ import annotations

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.protocols import gochess as gc

EXAMPLES = settings(max_examples=150, deadline=None)

ascii_events = st.one_of(
    st.builds(gc.piece_event_bytes, st.sampled_from(chess.SQUARES), st.booleans()),
    st.builds(
        gc.border_event_bytes,
        st.sampled_from(["top", "bottom", "left", "right"]),
        st.integers(1, 10),
        st.booleans(),
    ),
)
frames = st.one_of(
    ascii_events,
    st.builds(gc.board_state_bytes, st.integers(0, (1 << 32) - 1)),
    st.builds(
        gc.border_state_bytes,
        st.integers(0, 255),
        st.integers(0, 255),
        st.integers(0, 1023),
        st.integers(0, 1023),
    ),
    st.builds(lambda v: b"Ver" + bytes([v]), st.integers(0, 255)),
    st.builds(lambda p: gc.framed(0x01, bytes([p])), st.integers(0, 100)),
    st.builds(lambda mv: gc.framed(0x02, mv.to_bytes(2, "big")), st.integers(0, 0xFFFF)),
    st.builds(lambda ua: gc.framed(0x04, ua.to_bytes(2, "big")), st.integers(0, 0xFFFF)),
    st.builds(lambda on: gc.framed(0x07, bytes([on])), st.integers(0, 1)),
    st.builds(lambda on: gc.framed(0x0B, bytes([on])), st.integers(0, 1)),
)


def feed_all(codec: gc.GoChessCodec, chunks: list[bytes], t: float = 0.0) -> list:
    events = []
    for chunk in chunks:
        events += codec.receive_data(chunk, t)
        assert codec.buffered < gc.MAX_MESSAGE_SIZE
    return events


@EXAMPLES
@given(st.lists(st.binary(max_size=80), max_size=20), st.floats(0, 0.3))
def test_random_bytes_never_raise_and_never_pile_up(chunks: list[bytes], step: float) -> None:
    codec = gc.GoChessCodec()
    for index, chunk in enumerate(chunks):
        codec.receive_data(chunk, index * step)
        assert codec.buffered < gc.MAX_MESSAGE_SIZE


@EXAMPLES
@given(st.lists(frames, min_size=1, max_size=8), st.data())
def test_mutated_streams_never_raise_and_never_pile_up(valid: list[bytes], data) -> None:
    stream = bytearray(b"".join(valid))
    for _ in range(data.draw(st.integers(1, 8))):
        where = data.draw(st.integers(0, len(stream) - 1))
        action = data.draw(st.sampled_from(["flip", "insert", "delete"]))
        if action == "flip":
            stream[where] ^= data.draw(st.integers(1, 255))
        elif action == "insert":
            stream.insert(where, data.draw(st.integers(0, 255)))
        elif len(stream) > 1:
            del stream[where]
    feed_all(gc.GoChessCodec(), [bytes(stream)])


@EXAMPLES
@given(st.binary(max_size=120), st.lists(frames, min_size=1, max_size=8))
def test_every_message_after_garbage_is_decoded(garbage: bytes, valid: list[bytes]) -> None:
    """A corrupted notification, then good ones at once: nothing good is lost."""
    expected = [gc.GoChessCodec().receive_data(frame) for frame in valid]
    codec = gc.GoChessCodec()
    codec.receive_data(garbage)
    assert [codec.receive_data(frame) for frame in valid] == expected


@EXAMPLES
@given(st.lists(ascii_events, min_size=1, max_size=12), st.data())
def test_any_grouping_of_events_into_notifications_decodes_the_same(valid: list[bytes], data) -> None:
    cuts = sorted(data.draw(st.sets(st.integers(1, len(valid)), max_size=6)))
    groups = [b"".join(valid[a:b]) for a, b in zip([0, *cuts], [*cuts, len(valid)], strict=True)]
    one_by_one = [e for frame in valid for e in gc.GoChessCodec().receive_data(frame)]
    assert feed_all(gc.GoChessCodec(), groups) == one_by_one
