"""Transports move bytes and never parse them: serial ports and Bluetooth LE links."""

from __future__ import annotations

from typing import Protocol


class Transport(Protocol):
    """One link to one board. `read` raises `TransportError` when the link drops."""

    name: str

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def read(self) -> bytes:
        """The next chunk (a serial read, or one BLE notification's payload)."""
        ...

    async def write(self, data: bytes) -> None: ...
