"""Fuzzing the GoChess codec: garbage never breaks it, and it always finds its way back."""

from __future__ import annotations

import chess
from fuzz_helpers import feed_all, mutated
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


@EXAMPLES
@given(st.lists(st.binary(max_size=80), max_size=20), st.floats(0, 0.3))
def test_random_bytes_never_raise_and_never_pile_up(chunks: list[bytes], step: float) -> None:
    feed_all(gc.GoChessCodec(), chunks, gc.MAX_MESSAGE_SIZE, step)


@EXAMPLES
@given(st.lists(frames, min_size=1, max_size=8), st.data())
def test_mutated_streams_never_raise_and_never_pile_up(valid: list[bytes], data) -> None:
    feed_all(gc.GoChessCodec(), [mutated(valid, data)], gc.MAX_MESSAGE_SIZE)


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
    assert feed_all(gc.GoChessCodec(), groups, gc.MAX_MESSAGE_SIZE) == one_by_one
