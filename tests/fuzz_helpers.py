"""What the BLE codec fuzz tests share: feeding chunks, and spoiling or cutting a valid stream."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from hypothesis import strategies as st


class BufferingCodec(Protocol):
    buffered: int

    def receive_data(self, data: bytes, t: float = 0.0) -> list[Any]: ...


def feed_all(codec: BufferingCodec, chunks: Sequence[bytes], limit: int, step: float = 0.0) -> list[Any]:
    """Chunk i arrives at `i * step` seconds; the codec never holds `limit` bytes or more."""
    events: list[Any] = []
    for index, chunk in enumerate(chunks):
        events += codec.receive_data(chunk, index * step)
        assert codec.buffered < limit, f"{codec.buffered} bytes held back (limit {limit})"
    return events


def mutated(valid: Sequence[bytes], data: st.DataObject) -> bytes:
    """The frames joined, then one to eight bytes flipped, inserted or deleted."""
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
    return bytes(stream)


def cut_anywhere(stream: bytes, data: st.DataObject) -> list[bytes]:
    """`stream` cut at up to ten places, each piece non-empty."""
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(stream) - 1)), max_size=10)))
    return [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True)]
