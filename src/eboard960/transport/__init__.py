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


async def check_opens(transport: Transport) -> None:
    """Open and close the link once (raises `TransportError` naming it and the reason).

    A link that does not open at the start is a mistake to name (a wrong path,
    a board switched off), not one to wait for as the Board waits for a link
    lost mid-game.
    """
    await transport.open()
    await transport.close()
