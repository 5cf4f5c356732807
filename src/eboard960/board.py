"""The one place where bytes meet the event loop: a codec joined to a transport.

`Board` opens the link, says hello (by default `EnableUpdates` then
`RequestBoard`, so the dump that answers reflects every change made before
it), reads chunks into a fresh codec and hands out what the codec decodes,
in order, as one async stream. When the link drops it emits
`LinkChanged(up=False)`, waits with exponential back-off and connects again
through the `connect` factory (so a port that comes back under another name
can be found again), emits `LinkChanged(up=True)` and says hello again: the
board's dump then arrives as a resync `BoardSnapshot`, and whatever was moved
while the link was down reaches the recognizer that way.

Commands go through one write queue. `send` checks each one with a codec of
its own, so a command the protocol cannot express fails at the caller; the
write loop encodes it with the connection's codec, the one decoding the
board's answers, so what that codec has learnt (a DGT board turned round) or
prepares for (ChessLink and Chessnut pass on whole the dump that answers a
`RequestBoard`) holds both ways. Commands sent while the link is down wait
for the next connection and are encoded by its codec. With a capture writer
every chunk in and out is recorded (`rx`/`tx`) with the link changes.

With `resync_after=S` the Board also asks for the whole board once the
board has been quiet for S seconds after reporting a square change, as DGT
hosts do (a quarter of a second on USB) to repair a lost or garbled update.

Time and sleeping are injected (`clock`, `sleep`) so tests need not wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from eboard960.commands import EnableUpdates, RequestBoard
from eboard960.errors import TransportError
from eboard960.events import LinkChanged, PieceLifted, PiecePlaced
from eboard960.protocols import Codec
from eboard960.transport import Transport

log = logging.getLogger("eboard960.board")
wire = logging.getLogger("eboard960.wire")

_END = object()


@dataclass(frozen=True, slots=True)
class _Failed:
    """The connection loop died of `error`: the events end with it."""

    error: BaseException


class CaptureSink(Protocol):
    """What `Board` needs of a capture writer (`eboard960.capture.CaptureWriter`)."""

    def rx(self, t: float, data: bytes) -> None: ...

    def tx(self, t: float, data: bytes) -> None: ...

    def event(self, event: Any) -> None: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Backoff:
    """Delays between connection attempts: initial, times factor each failure, capped."""

    initial: float = 0.25
    factor: float = 2.0
    maximum: float = 8.0

    def delay(self, failures: int) -> float:
        try:
            return min(self.maximum, self.initial * self.factor**failures)
        except OverflowError:  # hours of failures (1,024 at the defaults): far past the cap
            return self.maximum


class Board:
    """A board on a link that may come and go; iterate it for events, `send` it commands."""

    def __init__(
        self,
        codec: Callable[[], Codec],
        connect: Callable[[], Transport],
        *,
        capture: CaptureSink | None = None,
        backoff: Backoff = Backoff(),
        hello: Sequence[object] = (EnableUpdates(), RequestBoard()),
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Any] = asyncio.sleep,
        resync_after: float | None = None,
    ) -> None:
        self._new_codec = codec
        self._checker = codec()
        self._connect = connect
        self._capture = capture
        self._backoff = backoff
        self._hello = tuple(hello)
        self._clock = clock
        self._sleep = sleep
        self._resync_after = resync_after
        self._resync: asyncio.TimerHandle | None = None
        self._t0 = clock()
        self._events: asyncio.Queue[Any] = asyncio.Queue()
        self._outbox: asyncio.Queue[object] = asyncio.Queue()
        self._unsent: object | None = None
        self._task: asyncio.Task[None] | None = None
        self._transport: Transport | None = None
        self.connections = 0
        self.failed_attempts = 0

    @property
    def connected(self) -> bool:
        return self._transport is not None

    def now(self) -> float:
        """Seconds since the board object was made (the capture's and events' `t`)."""
        return self._clock() - self._t0

    # --- lifecycle ---------------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="eboard960 board")
            self._task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[None]) -> None:
        """A loop killed by an error no transport should raise ends the iteration with it, not in a hang."""
        if not task.cancelled() and (error := task.exception()) is not None:
            self._events.put_nowait(_Failed(error))

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():  # a loop that died gave its error to the events
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._events.put_nowait(_END)

    async def __aenter__(self) -> Board:
        self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def __aiter__(self) -> Board:
        return self

    async def __anext__(self) -> Any:
        event = await self._events.get()
        if event is _END:
            self._events.put_nowait(_END)
            raise StopAsyncIteration
        if isinstance(event, _Failed):
            self._events.put_nowait(event)
            raise event.error
        return event

    def send(self, command: object) -> None:
        """Queue `command` for the board (checked now: a bad command raises here)."""
        self._checker.send(command)
        self._outbox.put_nowait(command)

    # --- the connection loop -----------------------------------------------------------------

    async def _run(self) -> None:
        failures = 0
        while True:
            transport = self._connect()
            try:
                await transport.open()
            except TransportError as error:
                self.failed_attempts += 1
                delay = self._backoff.delay(failures)
                failures += 1
                log.info("connecting to %s failed (%s); next try in %.2f s",
                         transport.name, error, delay)
                await self._sleep(delay)
                continue
            failures = 0
            try:
                await self._serve(transport)
            except TransportError as error:
                log.info("link to %s lost: %s", transport.name, error)
            finally:
                self._transport = None
                with contextlib.suppress(TransportError):
                    await transport.close()
                self._emit(LinkChanged(up=False, t=self.now()))
            await self._sleep(self._backoff.delay(0))
            failures = 1  # the link was lost: a failing retry waits longer than this one

    async def _serve(self, transport: Transport) -> None:
        codec = self._new_codec()
        self._transport = transport
        self.connections += 1
        self._emit(LinkChanged(up=True, t=self.now()))
        for command in self._hello:
            await self._write(transport, codec.send(command))
        writer = asyncio.create_task(self._write_loop(transport, codec))
        reader = asyncio.create_task(self._read_loop(transport, codec))
        try:
            done, _ = await asyncio.wait({writer, reader}, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()
        finally:
            if self._resync is not None:
                self._resync.cancel()
            for task in (writer, reader):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, TransportError):
                    await task

    async def _read_loop(self, transport: Transport, codec: Codec) -> None:
        while True:
            data = await transport.read()
            t = self.now()
            wire.debug("rx %s", data.hex(" "))
            if self._capture is not None:
                self._capture.rx(t, data)
            changed = False
            for event in codec.receive_data(data, t):
                self._events.put_nowait(event)
                changed = changed or isinstance(event, PieceLifted | PiecePlaced)
            if changed and self._resync_after is not None:
                if self._resync is not None:
                    self._resync.cancel()
                self._resync = asyncio.get_running_loop().call_later(
                    self._resync_after, self.send, RequestBoard())

    async def _write_loop(self, transport: Transport, codec: Codec) -> None:
        while True:
            if self._unsent is None:
                self._unsent = await self._outbox.get()
            await self._write(transport, codec.send(self._unsent))
            self._unsent = None

    async def _write(self, transport: Transport, data: bytes) -> None:
        await transport.write(data)
        wire.debug("tx %s", data.hex(" "))
        if self._capture is not None:
            self._capture.tx(self.now(), data)

    def _emit(self, event: LinkChanged) -> None:
        if self._capture is not None:
            self._capture.event(event)
        self._events.put_nowait(event)
