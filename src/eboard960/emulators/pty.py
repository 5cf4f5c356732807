"""Serve any firmware model on a pseudo-terminal, so the real serial path reaches it.

`PtyRunner(model)` opens a pty (`os.openpty`), puts it in raw mode and hands
out the slave's path (`/dev/pts/N`): pyserial opens that path as it would a
USB board. The runner is protocol-agnostic; a firmware model is any object
with these three methods (`FirmwareModel`):

    feed(data: bytes) -> bytes   the host's bytes in, the board's immediate answers out
    tick(now: float) -> bytes    model time has reached `now` (seconds since the
                                 runner started); what the board sends on its own by then
    flush() -> bytes             bytes a fault (a split frame) held back; may be b""

Scenario calls of a model (`lift`, `place`, `press`, `play_move`, ...) return
the bytes the board sends about them; give those to `PtyRunner.send`. The
runner writes everything through one queue, so the board's output keeps its
order, and never blocks the event loop (non-blocking master, `add_reader`/
`add_writer`).

Pitfalls the runner deals with: pyserial flushes its input when it opens a
port, so models must keep quiet until spoken to (the runner's `heard` event
says when that happened); a pty ignores the baud rate, so the runner paces
writes by `byte_time` seconds per byte when asked (about 1/960 s at 9600
baud); the runner keeps its own handle on the slave so the master never
sees a hang-up between two clients. `stop()` closes both ends, which is what
a pulled cable looks like to the host: its reads fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import tty
from typing import Protocol

from eboard960.errors import TransportError

wire = logging.getLogger("eboard960.wire")


class FirmwareModel(Protocol):
    def feed(self, data: bytes) -> bytes: ...

    def tick(self, now: float) -> bytes: ...

    def flush(self) -> bytes: ...


class PtyRunner:
    """One firmware model behind one pseudo-terminal, driven by the running event loop."""

    def __init__(
        self, model: FirmwareModel, *, tick_interval: float | None = 0.05, byte_time: float = 0.0
    ) -> None:
        self.model = model
        self.tick_interval = tick_interval
        self.byte_time = byte_time
        self.heard = asyncio.Event()
        self._master = self._slave = -1
        self._path = ""
        self._queue: asyncio.Queue[bytes] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._started_at = 0.0

    @property
    def path(self) -> str:
        return self._path

    async def start(self) -> str:
        """Open the pty and start serving; returns the path to give to pyserial."""
        loop = asyncio.get_running_loop()
        try:
            self._master, self._slave = os.openpty()
        except OSError as error:
            raise TransportError(f"cannot open a pseudo-terminal: {error}") from None
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self._path = os.ttyname(self._slave)
        self._started_at = loop.time()
        loop.add_reader(self._master, self._on_host_bytes)
        self._tasks.append(asyncio.create_task(self._write_loop()))
        if self.tick_interval:
            self._tasks.append(asyncio.create_task(self._tick_loop(self.tick_interval)))
        return self._path

    async def stop(self) -> None:
        """Close both ends: the host's next read fails as if the cable were pulled."""
        if self._master < 0:
            return
        asyncio.get_running_loop().remove_reader(self._master)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        os.close(self._master)
        os.close(self._slave)
        self._master = self._slave = -1

    async def __aenter__(self) -> PtyRunner:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    def send(self, data: bytes) -> None:
        """Queue board bytes for the host (scenario output); order is kept."""
        if data:
            self._queue.put_nowait(data)

    async def drained(self) -> None:
        """Wait until everything queued so far has been written to the pty."""
        await self._queue.join()

    def _on_host_bytes(self) -> None:
        try:
            data = os.read(self._master, 4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            return  # no reader on the slave side right now; nothing arrived
        if not data:
            return
        wire.debug("host -> emulator %s", data.hex(" "))
        self.heard.set()
        self.send(self.model.feed(data) + self.model.flush())

    async def _tick_loop(self, interval: float) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(interval)
            self.send(self.model.tick(loop.time() - self._started_at) + self.model.flush())

    async def _write_loop(self) -> None:
        while True:
            data = await self._queue.get()
            try:
                await self._write(data)
            finally:
                self._queue.task_done()

    async def _write(self, data: bytes) -> None:
        wire.debug("emulator -> host %s", data.hex(" "))
        chunks = [data[i:i + 1] for i in range(len(data))] if self.byte_time else [data]
        for chunk in chunks:
            view = memoryview(chunk)
            while view:
                try:
                    view = view[os.write(self._master, view):]
                except BlockingIOError:
                    await self._writable()
            if self.byte_time:
                await asyncio.sleep(self.byte_time)

    async def _writable(self) -> None:
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        loop.add_writer(self._master, ready.set_result, None)
        try:
            await ready
        finally:
            loop.remove_writer(self._master)
