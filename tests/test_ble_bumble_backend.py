"""bleak's own BleakClient and BleakScanner driving an emulated board over Bumble's link."""

from __future__ import annotations

import asyncio

import pytest
from bleak import BleakClient, BleakScanner
from bleak.exc import BleakError

from eboard960.ble.bumble_backend import BumbleClient, BumbleScanner, VirtualRadio
from eboard960.ble.peripheral import BoardPeripheral
from eboard960.ble.profiles import NUS_RX, NUS_SERVICE, NUS_TX, PROFILES


class Echo:
    """A trivial firmware: answers every write with the bytes reversed."""

    def __init__(self) -> None:
        self.fed: list[bytes] = []

    def feed(self, data: bytes) -> bytes:
        self.fed.append(data)
        return data[::-1]


async def _pegasus_echo() -> tuple[VirtualRadio, BoardPeripheral, Echo]:
    radio = VirtualRadio()
    model = Echo()
    peripheral = BoardPeripheral(radio, PROFILES["pegasus"], model)
    await peripheral.start()
    return radio, peripheral, model


def test_discovery_notify_and_both_write_kinds() -> None:
    async def scenario() -> None:
        radio, peripheral, model = await _pegasus_echo()
        central = await radio.central()
        received: asyncio.Queue[bytes] = asyncio.Queue()
        async with BleakClient(peripheral.address, backend=BumbleClient, central=central) as client:
            assert client.is_connected
            assert client.name == "DGT_PEGASUS_EMU"
            assert client.mtu_size == 247
            service = client.services.get_service(NUS_SERVICE)
            assert service is not None
            rx = client.services.get_characteristic(NUS_RX)
            tx = client.services.get_characteristic(NUS_TX)
            assert set(rx.properties) == {"write", "write-without-response"}
            assert tx.properties == ["notify"]
            assert rx.max_write_without_response_size == 244
            await client.start_notify(NUS_TX, lambda _c, data: received.put_nowait(bytes(data)))
            await client.write_gatt_char(NUS_RX, b"abc", response=True)
            assert await received.get() == b"cba"
            await client.write_gatt_char(NUS_RX, b"xyz", response=False)
            assert await received.get() == b"zyx"
            await client.stop_notify(NUS_TX)
            await client.write_gatt_char(NUS_RX, b"quiet", response=True)
            await peripheral.drain()
            assert received.empty()
        assert not client.is_connected
        assert model.fed == [b"abc", b"xyz", b"quiet"]

    asyncio.run(scenario())


def test_long_notification_is_split_at_the_mtu() -> None:
    async def scenario() -> None:
        radio, peripheral, _model = await _pegasus_echo()
        chunks: list[bytes] = []
        central = await radio.central()
        client = BleakClient(peripheral.address, backend=BumbleClient, central=central)
        await client.connect()
        await client.start_notify(NUS_TX, lambda _c, data: chunks.append(bytes(data)))
        payload = bytes(range(256)) * 2
        peripheral.send(payload)
        await peripheral.drain()
        await client.disconnect()
        assert [len(chunk) for chunk in chunks] == [244, 244, 24]
        assert b"".join(chunks) == payload

    asyncio.run(scenario())


def test_unsolicited_disconnect_calls_back_and_reconnect_works() -> None:
    async def scenario() -> None:
        radio, peripheral, _model = await _pegasus_echo()
        dropped = asyncio.Event()
        client = BleakClient(
            peripheral.address,
            disconnected_callback=lambda _client: dropped.set(),
            backend=BumbleClient,
            central=await radio.central(),
        )
        await client.connect()
        await peripheral.disconnect()
        await asyncio.wait_for(dropped.wait(), 1)
        assert not client.is_connected
        with pytest.raises(BleakError):
            await client.write_gatt_char(NUS_RX, b"x", response=True)
        await client.connect()
        assert client.is_connected
        dropped.clear()
        await client.disconnect()
        assert not dropped.is_set(), "a disconnect we asked for is not reported as a drop"

    asyncio.run(scenario())


def test_scanner_reports_name_service_and_hands_over_a_connectable_device() -> None:
    async def scenario() -> None:
        radio, peripheral, _model = await _pegasus_echo()
        central = await radio.central()
        found = await BleakScanner.find_device_by_name(
            "DGT_PEGASUS_EMU", timeout=2, backend=BumbleScanner, central=central
        )
        assert found is not None
        assert found.address == peripheral.address
        async with BleakScanner(
            service_uuids=["49535343-fe7d-4ae5-8fa9-9fafd205e455"],
            backend=BumbleScanner,
            central=central,
        ) as filtered:
            # While the filtered scan runs, an unfiltered one sees the board advertise again.
            again = await BleakScanner.find_device_by_address(
                peripheral.address, timeout=2, backend=BumbleScanner, central=central
            )
            assert again is not None
            assert filtered.discovered_devices == [], "a Nordic UART board is not a ChessLink"
        async with BleakClient(found, backend=BumbleClient) as client:
            assert client.services.get_service(NUS_SERVICE) is not None

    asyncio.run(scenario())


def test_a_write_kind_the_characteristic_does_not_offer_is_refused() -> None:
    async def scenario() -> None:
        radio = VirtualRadio()
        model = Echo()
        gochess = BoardPeripheral(radio, PROFILES["gochess"], model)
        await gochess.start()
        central = await radio.central()
        async with BleakClient(gochess.address, backend=BumbleClient, central=central) as client:
            assert client.services.get_characteristic(NUS_RX).properties == [
                "write-without-response"
            ]
            with pytest.raises(BleakError, match="GATT write failed"):
                await client.write_gatt_char(NUS_RX, b"with", response=True)
            await client.write_gatt_char(NUS_RX, b"without", response=False)
            await client.read_gatt_char("2a00")  # a round trip: the write command has arrived
        assert model.fed == [b"without"]
        assert gochess.write_kinds == ["command"]

    asyncio.run(scenario())
