"""One contract, every kind of serial link: a pty (fd reader) and socket:// / loop:// URLs.

Each link is a real one: a pseudo-terminal whose master end the test holds,
a TCP socket served by asyncio, pyserial's loopback. The contract: bytes go
both ways in order whatever the chunking, a link the other side drops makes
`read` raise TransportError, and a closed transport refuses to read or write.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tty
from collections.abc import AsyncIterator

import pytest

from eboard960.errors import TransportError
from eboard960.transport.serial import SerialTransport

TIMEOUT = 5.0


class PtyPeer:
    """The board's end of a pseudo-terminal."""

    can_drop = True

    async def start(self) -> str:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        return os.ttyname(self.slave)

    async def send(self, data: bytes) -> None:
        os.write(self.master, data)

    async def receive(self, count: int) -> bytes:
        loop, got = asyncio.get_running_loop(), b""
        while len(got) < count:
            ready = loop.create_future()
            loop.add_reader(self.master, ready.set_result, None)
            try:
                await asyncio.wait_for(ready, TIMEOUT)
            finally:
                loop.remove_reader(self.master)
            got += os.read(self.master, count - len(got))
        return got

    async def drop(self) -> None:
        os.close(self.master)
        os.close(self.slave)
        self.master = self.slave = -1

    async def stop(self) -> None:
        if self.master >= 0:
            await self.drop()


class SocketPeer:
    """A TCP server standing in for a serial-over-network bridge."""

    can_drop = True

    async def start(self) -> str:
        self.connected: asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = (
            asyncio.get_running_loop().create_future())
        self.server = await asyncio.start_server(
            lambda r, w: self.connected.set_result((r, w)), "127.0.0.1", 0)
        return f"socket://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def send(self, data: bytes) -> None:
        _, writer = await self.connected
        writer.write(data)
        await writer.drain()

    async def receive(self, count: int) -> bytes:
        reader, _ = await self.connected
        return await asyncio.wait_for(reader.readexactly(count), TIMEOUT)

    async def drop(self) -> None:
        _, writer = await self.connected
        writer.close()

    async def stop(self) -> None:
        if self.connected.done():
            self.connected.result()[1].close()
        self.server.close()
        await self.server.wait_closed()


class LoopPeer:
    """pyserial's loopback: what is written comes back; nothing can be pulled."""

    can_drop = False

    async def start(self) -> str:
        return "loop://"


PEERS = {"pty": PtyPeer, "socket": SocketPeer, "loop": LoopPeer}


@contextlib.asynccontextmanager
async def link(kind: str) -> AsyncIterator[tuple[SerialTransport, object]]:
    peer = PEERS[kind]()
    transport = SerialTransport(await peer.start())
    await transport.open()
    try:
        yield transport, peer
    finally:
        await transport.close()
        if hasattr(peer, "stop"):
            await peer.stop()


async def read_exactly(transport: SerialTransport, count: int) -> bytes:
    got = b""
    while len(got) < count:
        got += await asyncio.wait_for(transport.read(), TIMEOUT)
    return got


@pytest.mark.parametrize("kind", sorted(PEERS))
def test_bytes_arrive_in_order_whatever_the_chunks(kind: str) -> None:
    payload = bytes(range(256)) * 4

    async def scenario() -> None:
        async with link(kind) as (transport, peer):
            for start in range(0, len(payload), 100):
                await transport.write(payload[start:start + 100])
            if isinstance(peer, LoopPeer):
                assert await read_exactly(transport, len(payload)) == payload
                return
            assert await peer.receive(len(payload)) == payload
            for start in range(0, len(payload), 7):
                await peer.send(payload[start:start + 7])
            assert await read_exactly(transport, len(payload)) == payload

    asyncio.run(scenario())


@pytest.mark.parametrize("kind", [k for k, peer in sorted(PEERS.items()) if peer.can_drop])
def test_a_dropped_link_makes_read_raise_and_keep_raising(kind: str) -> None:
    async def scenario() -> None:
        async with link(kind) as (transport, peer):
            await peer.send(b"\x01\x02")
            assert await read_exactly(transport, 2) == b"\x01\x02"
            await peer.drop()
            for _ in range(2):
                with pytest.raises(TransportError):
                    await asyncio.wait_for(transport.read(), TIMEOUT)

    asyncio.run(scenario())


@pytest.mark.parametrize("kind", sorted(PEERS))
def test_a_closed_transport_refuses_reads_and_writes(kind: str) -> None:
    async def scenario() -> None:
        async with link(kind) as (transport, _):
            await transport.close()
            assert not transport.is_open
            with pytest.raises(TransportError):
                await transport.read()
            with pytest.raises(TransportError, match="not open"):
                await transport.write(b"\x42")

    asyncio.run(scenario())


@pytest.mark.parametrize("kind", sorted(PEERS))
def test_a_pending_read_ends_when_the_transport_closes(kind: str) -> None:
    async def scenario() -> None:
        async with link(kind) as (transport, _):
            pending = asyncio.create_task(transport.read())
            await asyncio.sleep(0)
            await transport.close()
            with pytest.raises(TransportError):
                await asyncio.wait_for(pending, TIMEOUT)

    asyncio.run(scenario())
