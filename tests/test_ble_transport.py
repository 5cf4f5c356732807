"""BleTransport over bleak + the Bumble backend against emulated boards."""

from __future__ import annotations

import asyncio
import inspect

import chess
import pytest

from eboard960.ble.bumble_backend import BumbleClient, VirtualRadio, bumble_stack
from eboard960.ble.emulated import open_emulated, start_peripheral
from eboard960.ble.profiles import PROFILES
from eboard960.ble.transport import BleStack, BleTransport
from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.errors import TransportError
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import codec_for, pegasus
from eboard960.transport import Transport


async def _events(transport: BleTransport, codec: object, count: int) -> list[object]:
    events: list[object] = []
    while len(events) < count:
        events += codec.receive_data(await asyncio.wait_for(transport.read(), 2))
    return events


def test_it_is_a_transport_and_carries_a_pegasus_session() -> None:
    async def scenario() -> None:
        emulated = await open_emulated("pegasus", position=0)
        transport: Transport = emulated.transport
        codec = codec_for("pegasus")
        for method in ("open", "close", "read", "write"):
            assert inspect.iscoroutinefunction(getattr(transport, method))
        assert "Pegasus" in transport.name
        await transport.write(codec.send(RequestBoard()))
        [snapshot] = await _events(transport, codec, 1)
        assert snapshot == BoardSnapshot(occupied=chess.Board.from_chess960_pos(0).occupied)
        await transport.write(codec.send(EnableUpdates()))
        await transport.write(codec.send(SetLeds(squares=frozenset({chess.E2, chess.E4}))))
        # Writes go without response: a round trip shows the board has taken them.
        await transport.write(codec.send(pegasus.RequestVersion()))
        assert await _events(transport, codec, 1) == [pegasus.Version(major=1, minor=0)]
        await emulated.act(PieceLifted(square=chess.E2), PiecePlaced(square=chess.E4))
        assert await _events(transport, codec, 2) == [
            PieceLifted(square=chess.E2),
            PiecePlaced(square=chess.E4),
        ]
        assert emulated.model.lit == {chess.E2, chess.E4}
        assert set(emulated.peripheral.write_kinds) == {"command"}, "Pegasus: no response"
        await emulated.close()

    asyncio.run(scenario())


def test_long_commands_go_out_in_mtu_sized_pieces_with_the_profiles_write_mode() -> None:
    async def scenario() -> None:
        radio = VirtualRadio()
        peripheral = await start_peripheral(radio, "chesslink", 518)
        transport = BleTransport(
            peripheral.address,
            PROFILES["chesslink"],
            stack=bumble_stack(await radio.central(), mtu=23),
        )
        await transport.open()
        codec = codec_for("chesslink")
        command = codec.send(SetLeds(squares=frozenset({chess.E2, chess.E4})))
        assert len(command) == 167
        await transport.write(command)
        await peripheral.drain()
        assert [len(piece) for piece in peripheral.writes] == [20] * 8 + [7]
        assert b"".join(peripheral.writes) == command
        assert set(peripheral.write_kinds) == {"request"}, "ChessLink writes with response"
        led_reply = codec.receive_data(await asyncio.wait_for(transport.read(), 2))
        assert [type(event).__name__ for event in led_reply] == ["LedsSet"]
        await transport.close()

    asyncio.run(scenario())


def test_a_drop_surfaces_as_transport_error_after_earlier_notifications() -> None:
    async def scenario() -> None:
        emulated = await open_emulated("pegasus")
        transport, codec = emulated.transport, codec_for("pegasus")
        await transport.write(codec.send(EnableUpdates()))
        await transport.write(codec.send(pegasus.RequestVersion()))
        await _events(transport, codec, 1)
        await emulated.act(PieceLifted(square=chess.G1))
        await emulated.peripheral.disconnect()
        assert codec.receive_data(await transport.read()) == [PieceLifted(square=chess.G1)]
        with pytest.raises(TransportError, match="dropped"):
            await transport.read()
        with pytest.raises(TransportError, match="not connected"):
            await transport.write(b"B")
        await transport.open()
        assert transport.connections == 2
        await transport.write(codec.send(RequestBoard()))
        [snapshot] = await _events(transport, codec, 1)
        assert not snapshot.occupied & chess.BB_G1
        await emulated.close()

    asyncio.run(scenario())


def test_a_board_out_of_range_gives_a_one_line_error() -> None:
    async def scenario() -> None:
        emulated = await open_emulated("pegasus")
        emulated.transport.find_timeout = 0.1  # the board is away; do not wait long
        await emulated.peripheral.go_away()
        with pytest.raises(TransportError, match="dropped"):
            await emulated.transport.read()
        with pytest.raises(TransportError, match="not in range") as caught:
            await emulated.transport.open()
        assert "\n" not in str(caught.value)
        await emulated.peripheral.come_back()
        await emulated.transport.open()
        assert emulated.transport.is_open
        await emulated.close()

    asyncio.run(scenario())


def test_the_wrong_profile_is_refused() -> None:
    async def scenario() -> None:
        radio = VirtualRadio()
        peripheral = await start_peripheral(radio, "pegasus")
        transport = BleTransport(
            peripheral.address, PROFILES["chessnut"], stack=bumble_stack(await radio.central())
        )
        with pytest.raises(TransportError, match="is not a Chessnut"):
            await transport.open()
        assert not transport.is_open

    asyncio.run(scenario())


def test_close_wakes_a_pending_read() -> None:
    async def scenario() -> None:
        emulated = await open_emulated("pegasus")
        reader = asyncio.create_task(emulated.transport.read())
        await asyncio.sleep(0)
        await emulated.transport.close()
        with pytest.raises(TransportError):
            await reader
        await emulated.peripheral.stop()

    asyncio.run(scenario())


class _UnansweredDisconnect(BumbleClient):
    """The Bumble client, with a board that never confirms the disconnection (gone out of range)."""

    async def disconnect(self) -> None:
        await super().disconnect()
        raise TimeoutError


def test_a_disconnection_the_board_never_confirms_still_closes() -> None:
    """A close that times out is logged, not raised: the Board's loop only expects TransportError."""

    async def scenario() -> None:
        radio = VirtualRadio()
        peripheral = await start_peripheral(radio, "pegasus", 518)
        stack = bumble_stack(await radio.central())
        stack = BleStack(client_backend=_UnansweredDisconnect, scanner_backend=stack.scanner_backend,
                         options=stack.options)
        transport = BleTransport(peripheral.address, PROFILES["pegasus"], stack=stack)
        await transport.open()
        reader = asyncio.create_task(transport.read())
        await transport.close()
        assert not transport.is_open
        with pytest.raises(TransportError):
            await reader

    asyncio.run(scenario())


def test_a_dump_cut_into_default_mtu_notifications_is_reassembled() -> None:
    async def scenario() -> None:
        radio = VirtualRadio()
        peripheral = await start_peripheral(radio, "pegasus", 518)
        transport = BleTransport(
            peripheral.address, PROFILES["pegasus"], stack=bumble_stack(await radio.central(), 23)
        )
        await transport.open()
        codec = codec_for("pegasus")
        await transport.write(codec.send(RequestBoard()))
        pieces = [await asyncio.wait_for(transport.read(), 2) for _ in range(4)]
        assert [len(piece) for piece in pieces] == [20, 20, 20, 7]
        events = [event for piece in pieces for event in codec.receive_data(piece)]
        assert events == [BoardSnapshot(occupied=chess.Board().occupied)]
        await transport.close()

    asyncio.run(scenario())


def test_connection_attempts_are_retried_with_bleak_retry_connector() -> None:
    async def scenario() -> None:
        radio = VirtualRadio()
        peripheral = await start_peripheral(radio, "pegasus")
        peripheral.refuse_connections(2)
        transport = BleTransport(
            peripheral.address,
            PROFILES["pegasus"],
            stack=bumble_stack(await radio.central()),
            connect_attempts=3,
        )
        await transport.open()
        assert transport.is_open
        assert peripheral.connections == 3
        await transport.close()

        peripheral.refuse_connections(5)
        with pytest.raises(TransportError, match="cannot connect"):
            await transport.open()

    asyncio.run(scenario())
