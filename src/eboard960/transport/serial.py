"""Serial ports (USB, RS-232, Bluetooth SPP, ptys, pyserial URLs) as an asyncio `Transport`.

pyserial does the port work; this module only keeps it off the event loop.
Ports with a file descriptor (devices, ptys, `socket://`) are watched with
`loop.add_reader` and read without blocking; URL handlers without one
(`loop://`, `rfc2217://`) get a reader thread that hands chunks to the
loop. Writes run in the default executor. A read that finds the port gone
(a pulled cable, a closed pty, a dropped socket) raises `TransportError`,
which is how the Board joiner learns to reconnect.

`list_boards()` finds serial ports that look like chessboards by their USB
descriptors.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass
from typing import TypedDict

import serial
import serial.tools.list_ports

from eboard960.errors import TransportError

# What a board family's USB serial port says about itself, matched case-insensitively
# against the port's manufacturer, product and description strings.
USB_NAMES: dict[str, tuple[str, ...]] = {
    "dgt": ("dgt", "digital game technology"),
    "chesslink": ("millennium", "chesslink"),
}

class LineSettings(TypedDict):
    baudrate: int
    bytesize: int
    parity: str
    stopbits: int


# Line settings of each serial protocol.
LINE_SETTINGS: dict[str, LineSettings] = {
    "dgt": {"baudrate": 9600, "bytesize": 8, "parity": "N", "stopbits": 1},
    "chesslink": {"baudrate": 38400, "bytesize": 7, "parity": "O", "stopbits": 1},
}

@dataclass(frozen=True, slots=True, kw_only=True)
class FoundPort:
    """A serial port that looks like a board of `protocol`."""

    device: str
    protocol: str
    description: str
    vid: int | None = None
    pid: int | None = None


def list_boards() -> list[FoundPort]:
    """Serial ports whose USB strings name a known board maker, in device order."""
    found = []
    for port in sorted(serial.tools.list_ports.comports(), key=lambda p: p.device):
        text = " ".join(
            filter(None, (port.manufacturer, port.product, port.description))
        ).lower()
        for protocol, names in USB_NAMES.items():
            if any(name in text for name in names):
                found.append(FoundPort(device=port.device, protocol=protocol,
                                       description=port.description or "",
                                       vid=port.vid, pid=port.pid))
                break
    return found


class SerialTransport:
    """One serial port; `url` is a device path or any pyserial URL."""

    def __init__(self, url: str, *, protocol: str = "dgt", **settings: object) -> None:
        if protocol not in LINE_SETTINGS:
            known = ", ".join(LINE_SETTINGS)
            raise TransportError(f"no serial line settings for {protocol!r} (known: {known})")
        self.name = url
        self.url = url
        self.settings = {**LINE_SETTINGS[protocol], **settings}
        self._port: serial.SerialBase | None = None
        self._chunks: asyncio.Queue[bytes | BaseException] = asyncio.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._fd: int | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    @property
    def is_open(self) -> bool:
        return self._port is not None

    async def open(self) -> None:
        loop = self._loop = asyncio.get_running_loop()
        try:
            port = await loop.run_in_executor(None, self._open_port)
        except (serial.SerialException, OSError, ValueError, NotImplementedError) as error:
            raise TransportError(f"cannot open {self.url}: {_reason(error)}") from None
        self._port = port
        self._chunks = asyncio.Queue()
        self._stop.clear()
        try:
            self._fd = port.fileno()
            loop.add_reader(self._fd, self._on_readable)
        except (AttributeError, OSError, NotImplementedError, serial.SerialException):
            self._fd = None  # no descriptor, or a loop that cannot watch one (Windows)
            self._thread = threading.Thread(target=self._read_thread, name=f"read {self.url}",
                                            daemon=True)
            self._thread.start()

    def _open_port(self) -> serial.SerialBase:
        # A write that cannot finish in 2 s means the link is gone (rfc2217 has no such timeout).
        limits = {} if self.url.startswith("rfc2217://") else {"write_timeout": 2}
        return serial.serial_for_url(self.url, timeout=0, **limits, **self.settings)

    async def close(self) -> None:
        port, self._port = self._port, None
        if port is None:
            return
        self._stop.set()
        if self._fd is not None and self._loop is not None:
            self._loop.remove_reader(self._fd)
            self._fd = None
        if self._thread is not None:
            with contextlib.suppress(Exception):
                port.cancel_read()
            await asyncio.get_running_loop().run_in_executor(None, self._thread.join)
            self._thread = None
        with contextlib.suppress(Exception):
            port.close()
        self._chunks.put_nowait(TransportError(f"{self.url} is closed"))

    async def read(self) -> bytes:
        """The next chunk the board sent; raises TransportError once the link is gone."""
        if self._port is None and self._chunks.empty():
            raise TransportError(f"{self.url} is not open")
        chunk = await self._chunks.get()
        if isinstance(chunk, BaseException):
            self._chunks.put_nowait(chunk)  # every later read fails the same way
            raise TransportError(str(chunk)) from None
        return chunk

    async def write(self, data: bytes) -> None:
        port = self._port
        if port is None:
            raise TransportError(f"{self.url} is not open")
        try:
            await asyncio.get_running_loop().run_in_executor(None, port.write, data)
        except (serial.SerialException, OSError) as error:
            raise TransportError(f"writing to {self.url} failed: {_reason(error)}") from None

    # --- readers -----------------------------------------------------------------------------

    def _on_readable(self) -> None:
        """Called by the loop when the fd is readable; reads what is there without blocking."""
        port = self._port
        if port is None:
            return
        try:
            data = port.read(4096)  # timeout=0: whatever is there, at once
        except (serial.SerialException, OSError) as error:
            self._lost(error)
            return
        if data:
            self._chunks.put_nowait(data)

    def _lost(self, error: BaseException) -> None:
        if self._fd is not None and self._loop is not None:
            self._loop.remove_reader(self._fd)
            self._fd = None
        self._chunks.put_nowait(TransportError(f"{self.url} dropped: {_reason(error)}"))

    def _read_thread(self) -> None:
        port, loop = self._port, self._loop
        if port is None or loop is None:
            return
        port.timeout = 0.1
        while not self._stop.is_set():
            try:
                data = port.read(max(port.in_waiting, 1))
            except (serial.SerialException, OSError, TypeError, AttributeError) as error:
                if not self._stop.is_set():
                    loop.call_soon_threadsafe(self._lost, error)
                return
            if data:
                loop.call_soon_threadsafe(self._chunks.put_nowait, data)


def _reason(error: BaseException) -> str:
    """The system's words for what went wrong: pyserial wraps an OSError in words that repeat the port."""
    if isinstance(error.__context__, OSError) and error.__context__.strerror:
        return error.__context__.strerror
    text = str(error) or type(error).__name__
    return text.splitlines()[0]
