"""The serial transport on real ptys (the emulated DGT board), pyserial URLs and port discovery."""

from __future__ import annotations

import asyncio
import functools

import pytest
import serial.rfc2217
import serial.tools.list_ports
from serial.tools.list_ports_common import ListPortInfo

from eboard960.emulators.dgt import ClockModel, DgtFirmware
from eboard960.emulators.pty import PtyRunner
from eboard960.errors import TransportError
from eboard960.protocols import dgt
from eboard960.protocols.dgt import DgtCodec
from eboard960.protocols.dgt_clock import ClockVersionRequest
from eboard960.transport.serial import SerialTransport, list_boards

TIMEOUT = 5.0


def synchronous(test):
    """Run an async test function to completion on a fresh event loop."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        return asyncio.run(test(*args, **kwargs))

    return run


async def _collect(transport: SerialTransport, codec: DgtCodec, kinds: set[type]) -> list:
    """Read until one message of each kind has arrived."""
    got: list = []
    while not kinds <= {type(e) for e in got}:
        got += codec.receive_data(await asyncio.wait_for(transport.read(), TIMEOUT))
    return got


@synchronous
async def test_identify_the_emulated_board_through_a_pty() -> None:
    model = DgtFirmware(clock=ClockModel("3000"))
    async with PtyRunner(model) as runner:
        transport = SerialTransport(runner.path)
        await transport.open()
        codec = DgtCodec()
        for command in (dgt.SetUpdateMode(mode=dgt.UpdateMode.NICE), dgt.RequestVersion(),
                        dgt.RequestSerialNumber(), dgt.RequestTrademark()):
            await transport.write(codec.send(command))
        await transport.write(codec.send(ClockVersionRequest()))
        got = await _collect(transport, codec, {dgt.Version, dgt.SerialNumber, dgt.Trademark,
                                                dgt.ClockAck})
        await transport.close()
    by_type = {type(e): e for e in got}
    assert by_type[dgt.Version] == dgt.Version(major=1, minor=7)
    assert by_type[dgt.SerialNumber].text == "00960"
    assert "emulator" in by_type[dgt.Trademark].text
    assert "DGT" not in by_type[dgt.Trademark].text
    assert by_type[dgt.ClockAck].version == (2, 0)


@synchronous
async def test_emulator_waits_to_be_spoken_to() -> None:
    """Nothing the board does before the host speaks reaches the host."""
    model = DgtFirmware(clock=ClockModel("3000"))
    async with PtyRunner(model) as runner:
        runner.send(model.lift(4))  # no update mode yet: the board stays quiet
        transport = SerialTransport(runner.path)
        await transport.open()
        codec = DgtCodec()
        await transport.write(codec.send(dgt.RequestVersion()))
        first = codec.receive_data(await asyncio.wait_for(transport.read(), TIMEOUT))
        await transport.close()
    assert first == [dgt.Version(major=1, minor=7)]


@synchronous
async def test_pulled_link_makes_read_raise() -> None:
    runner = PtyRunner(DgtFirmware())
    transport = SerialTransport(await runner.start())
    await transport.open()
    await runner.stop()
    with pytest.raises(TransportError, match="dropped"):
        await asyncio.wait_for(transport.read(), TIMEOUT)
    await transport.close()


@synchronous
async def test_missing_port_is_a_one_line_transport_error() -> None:
    with pytest.raises(TransportError, match="cannot open /dev/eboard960-missing") as error:
        await SerialTransport("/dev/eboard960-missing").open()
    assert "\n" not in str(error.value)


@synchronous
async def test_loop_url_goes_through_the_reader_thread() -> None:
    transport = SerialTransport("loop://")
    await transport.open()
    await transport.write(b"\x42")
    assert await asyncio.wait_for(transport.read(), TIMEOUT) == b"\x42"
    await transport.close()
    with pytest.raises(TransportError):
        await transport.read()


@synchronous
async def test_socket_url_reaches_a_board_served_on_tcp() -> None:
    model = DgtFirmware()
    closed = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(model.feed(await reader.read(1)))
        await writer.drain()
        writer.close()
        closed.set()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    transport = SerialTransport(f"socket://127.0.0.1:{port}")
    await transport.open()
    await transport.write(DgtCodec().send(dgt.RequestSerialNumber()))
    codec, got = DgtCodec(), []
    with pytest.raises(TransportError):
        while True:
            got += codec.receive_data(await asyncio.wait_for(transport.read(), TIMEOUT))
    assert got == [dgt.SerialNumber(text="00960")]
    await transport.close()
    server.close()
    await server.wait_closed()


@pytest.mark.filterwarnings("ignore:set(Daemon|Name).. is deprecated:DeprecationWarning")
@synchronous
async def test_rfc2217_url_reaches_a_board_behind_a_telnet_port_server() -> None:
    """pyserial's own RFC 2217 port manager serves the emulated board over TCP."""
    model = DgtFirmware()
    finished = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        manager = serial.rfc2217.PortManager(serial.serial_for_url("loop://"), writer)
        while data := await reader.read(4096):
            reply = model.feed(b"".join(manager.filter(data)))
            writer.write(b"".join(manager.escape(reply)))
        writer.close()
        finished.set()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    transport = SerialTransport(f"rfc2217://127.0.0.1:{port}")
    await transport.open()
    codec = DgtCodec()
    await transport.write(codec.send(dgt.RequestVersion()))
    got = await _collect(transport, codec, {dgt.Version})
    await transport.close()
    await asyncio.wait_for(finished.wait(), TIMEOUT)
    server.close()
    await server.wait_closed()
    assert got == [dgt.Version(major=1, minor=7)]


def test_unknown_protocol_has_no_line_settings() -> None:
    with pytest.raises(TransportError, match="pegasus"):
        SerialTransport("/dev/null", protocol="pegasus")


def _port(device: str, manufacturer: str | None, product: str | None) -> ListPortInfo:
    info = ListPortInfo(device)
    info.manufacturer, info.product, info.description = manufacturer, product, product or "n/a"
    info.vid, info.pid = 0x1234, 0x5678
    return info


def test_list_boards_by_usb_strings(monkeypatch: pytest.MonkeyPatch) -> None:
    ports = [
        _port("/dev/ttyUSB1", "Millennium 2000 GmbH", "ChessLink"),
        _port("/dev/ttyACM0", "DGT", "DGT USB e-Board"),
        _port("/dev/ttyUSB0", "FTDI", "FT232R USB UART"),
    ]
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: ports)
    found = list_boards()
    assert [(p.device, p.protocol) for p in found] == [
        ("/dev/ttyACM0", "dgt"), ("/dev/ttyUSB1", "chesslink"),
    ]
