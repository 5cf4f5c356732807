"""The receive buffer of the BLE codecs whose cut messages may turn out to be noise.

A notification may be cut in two (small MTU), so a cut message waits for the
rest. If it is still waiting `stale_after` seconds later when new bytes
arrive, it never completed: it was noise, and messages it seemed to swallow
are still in the buffer, so the codec resyncs inside the bytes it held.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class StaleBuffer(ABC):
    """Holds bytes between notifications; `_parse` is the protocol's own decoding of them."""

    def __init__(self, *, stale_after: float) -> None:
        self.stale_after = stale_after
        self.discarded = 0
        self._buffer = bytearray()
        self._since = 0.0

    @property
    def buffered(self) -> int:
        """Bytes held back waiting for the rest of a message (never a full message's worth)."""
        return len(self._buffer)

    def receive_data(self, data: bytes, t: float = 0.0) -> list[Any]:
        events: list[Any] = []
        if self._buffer and t - self._since > self.stale_after:
            self._parse(t, events, stale=True)
        if not self._buffer:
            self._since = t
        self._buffer += data
        self._parse(t, events, stale=False)
        return events

    @abstractmethod
    def _parse(self, t: float, events: list[Any], *, stale: bool) -> None:
        """Decode whole messages from the buffer into `events`; a cut one waits, unless `stale`.

        Each message taken or byte dropped counts as progress: set `_since` to `t`.
        """
