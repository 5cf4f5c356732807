"""The Bluetooth LE transport: one board profile over bleak, one notification per `read()`.

`BleTransport` implements `eboard960.transport.Transport`, so the `Board`
joiner drives it exactly like a serial port. On `open()` it finds the board
(by address, with a short scan, as every OS stack wants before a connect),
connects with `bleak_retry_connector.establish_connection` (retries with the
library's back-off for the errors BLE stacks are known to throw), subscribes
to every notify characteristic of the profile and checks that the command
characteristic exists. Notifications from all of them are merged, in arrival
order, into the byte stream `read()` returns: the codecs recognise their
frames by content.

`write()` cuts the command into pieces of (ATT MTU - 3) bytes, the most one
ATT packet carries, and writes them in order with or without response as the
profile says. When the link drops, `read()` raises `TransportError` once the
notifications that arrived before the drop are consumed; `open()` may then be
called again to reconnect (the joiner does so with its own back-off and
sends `RequestBoard` so the game resyncs).

`BleStack` chooses the bleak backends: the platform's by default, or
`eboard960.ble.bumble_backend.bumble_stack(central)` for emulated boards.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bleak import BleakClient, BleakScanner
from bleak.backends.client import BaseBleakClient
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import BaseBleakScanner
from bleak.exc import BleakError
from bleak_retry_connector import establish_connection

from eboard960.ble.profiles import BoardProfile
from eboard960.errors import TransportError

log = logging.getLogger(__name__)
wire_log = logging.getLogger("eboard960.wire")

_DROPPED = b""
"""Queue marker for a dropped link (a notification is never empty on the air)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BleStack:
    """Which bleak backends to use (None: the platform's) and keyword arguments for both."""

    client_backend: type[BaseBleakClient] | None = None
    scanner_backend: type[BaseBleakScanner] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def scanner_kwargs(self) -> dict[str, Any]:
        kwargs = dict(self.options)
        if self.scanner_backend is not None:
            kwargs["backend"] = self.scanner_backend
        return kwargs

    def client_kwargs(self) -> dict[str, Any]:
        kwargs = dict(self.options)
        if self.client_backend is not None:
            kwargs["backend"] = self.client_backend
        return kwargs


class BleTransport:
    """A link to one BLE board; `target` is a `BLEDevice` from a scan or an address."""

    def __init__(
        self,
        target: BLEDevice | str,
        profile: BoardProfile,
        *,
        stack: BleStack | None = None,
        find_timeout: float = 10.0,
        connect_attempts: int = 3,
    ) -> None:
        self.profile = profile
        self.stack = stack or BleStack()
        self.address = target.address if isinstance(target, BLEDevice) else target
        self.name = f"{profile.title} at {self.address}"
        self._device = target if isinstance(target, BLEDevice) else None
        self.find_timeout = find_timeout
        self._connect_attempts = connect_attempts
        self._client: BleakClient | None = None
        self._queue: asyncio.Queue[bytes] = asyncio.Queue()
        self._write_lock = asyncio.Lock()
        self.connections = 0
        """How many times `open()` has connected (1 after the first connect)."""

    @property
    def is_open(self) -> bool:
        return self._client is not None and self._client.is_connected

    async def open(self) -> None:
        """Find the board, connect, subscribe; raises `TransportError` if that fails."""
        if self.is_open:
            return
        device = await self._find()
        try:
            client = await establish_connection(
                BleakClient,
                device,
                self.name,
                disconnected_callback=self._on_disconnect,
                max_attempts=self._connect_attempts,
                **self.stack.client_kwargs(),
            )
        except (BleakError, TimeoutError) as error:
            raise TransportError(f"cannot connect to {self.name}: {error}") from None
        self._queue = asyncio.Queue()
        self._client = client
        try:
            await self._subscribe(client)
        except (BleakError, TransportError) as error:
            await self.close()
            if isinstance(error, TransportError):
                raise
            raise TransportError(f"{self.name} refused notifications: {error}") from None
        self.connections += 1
        log.info("connected to %s (MTU %d)", self.name, client.mtu_size)

    async def _find(self) -> BLEDevice:
        """A fresh `BLEDevice` for the board (a stale one cannot reconnect on every OS)."""
        if self._device is not None and self.connections == 0:
            return self._device
        try:
            device = await BleakScanner.find_device_by_address(
                self.address, timeout=self.find_timeout, **self.stack.scanner_kwargs()
            )
        except (BleakError, OSError) as error:
            raise TransportError(f"cannot scan for {self.name}: {error}") from None
        if device is None:
            raise TransportError(f"{self.name} is not in range (not seen for {self.find_timeout} s)")
        self._device = device
        return device

    async def _subscribe(self, client: BleakClient) -> None:
        services = client.services
        missing = [
            uuid
            for uuid in (self.profile.write, *self.profile.notify)
            if services.get_characteristic(uuid) is None
        ]
        if missing:
            raise TransportError(
                f"{self.address} is not a {self.profile.title}: no characteristic {missing[0]}"
            )
        for uuid in self.profile.notify:
            await client.start_notify(uuid, self._on_notify)

    def _on_notify(self, _characteristic: object, data: bytearray) -> None:
        if data:
            wire_log.debug("%s -> %s", self.name, bytes(data).hex(" "))
            self._queue.put_nowait(bytes(data))

    def _on_disconnect(self, client: BleakClient) -> None:
        if self._client is not None and client is not self._client:
            return  # a late report about an earlier connection
        log.info("link to %s dropped", self.name)
        self._queue.put_nowait(_DROPPED)

    async def read(self) -> bytes:
        """The next notification's payload; `TransportError` once the link is down."""
        if self._client is None and self._queue.empty():
            raise TransportError(f"{self.name} is not connected")
        data = await self._queue.get()
        if data == _DROPPED:
            self._client = None
            raise TransportError(f"the link to {self.name} dropped")
        return data

    async def write(self, data: bytes) -> None:
        """Send a command, in MTU-sized pieces, with or without response per the profile."""
        client = self._client
        if client is None or not client.is_connected:
            raise TransportError(f"{self.name} is not connected")
        characteristic = client.services.get_characteristic(self.profile.write)
        assert characteristic is not None  # open checked the services have it
        size = characteristic.max_write_without_response_size
        async with self._write_lock:
            wire_log.debug("%s <- %s", self.name, data.hex(" "))
            try:
                for start in range(0, len(data), size):
                    await client.write_gatt_char(
                        characteristic,
                        data[start : start + size],
                        response=self.profile.write_with_response,
                    )
            except BleakError as error:
                raise TransportError(f"writing to {self.name} failed: {error}") from None

    async def close(self) -> None:
        """Disconnect (a no-op when not connected); a pending `read()` raises `TransportError`."""
        client, self._client = self._client, None
        if client is not None:
            self._queue.put_nowait(_DROPPED)
            try:
                await client.disconnect()
            except (BleakError, TimeoutError, OSError) as error:  # the link is gone either way
                log.info("disconnecting from %s: %s", self.name, str(error) or type(error).__name__)
