"""A bleak backend over Bumble's in-process virtual radio: real GATT, no BlueZ, no radio.

`VirtualRadio` is one simulated "air" (a `bumble.link.LocalLink`); every
`bumble.device.Device` made by `new_device` sits on it with its own emulated
controller and host. `BumbleClient` is a `bleak.backends.client.BaseBleakClient`
that drives a Bumble *central* device on that air, and `BumbleScanner` is the
matching `BaseBleakScanner`. So code written against bleak's public API runs
unchanged against emulated boards::

    radio = VirtualRadio()
    central = await radio.central()
    async with BleakClient(address, backend=BumbleClient, central=central) as client:
        await client.start_notify(TX_UUID, on_notify)
        await client.write_gatt_char(RX_UUID, b"B", response=False)

    async with BleakScanner(backend=BumbleScanner, central=central) as scanner: ...

bleak forwards unknown keyword arguments to the backend, which is how `central`
reaches it; a `BLEDevice` found by `BumbleScanner` carries its central in
`details`, so `BleakClient(ble_device, backend=BumbleClient)` needs nothing else.
Everything below the bleak API is Bumble's real stack: advertising, the LE
connection, ATT MTU exchange, GATT discovery, CCCD writes, notifications,
writes with and without response, and disconnection events.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from bleak.args import SizedBuffer
from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient, NotifyCallback
from bleak.backends.descriptor import BleakGATTDescriptor
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData, AdvertisementDataCallback, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import BleakError
from bumble import core, gatt
from bumble.controller import Controller
from bumble.device import Advertisement, Connection, Device, Peer
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport.common import AsyncPipeSink

from eboard960.ble.transport import BleStack

if TYPE_CHECKING:
    from bleak.assigned_numbers import CharacteristicPropertyName

ATT_MTU = 247
"""The MTU the central asks for by default, as a modern phone does (`mtu=` changes it)."""

_PROPERTY_NAMES: dict[gatt.Characteristic.Properties, CharacteristicPropertyName] = {
    gatt.Characteristic.Properties.BROADCAST: "broadcast",
    gatt.Characteristic.Properties.READ: "read",
    gatt.Characteristic.Properties.WRITE_WITHOUT_RESPONSE: "write-without-response",
    gatt.Characteristic.Properties.WRITE: "write",
    gatt.Characteristic.Properties.NOTIFY: "notify",
    gatt.Characteristic.Properties.INDICATE: "indicate",
    gatt.Characteristic.Properties.AUTHENTICATED_SIGNED_WRITES: "authenticated-signed-writes",
    gatt.Characteristic.Properties.EXTENDED_PROPERTIES: "extended-properties",
}


def bleak_uuid(value: core.UUID) -> str:
    """Bumble's UUID as bleak spells it: lower-case, always the full 128-bit form."""
    return str(uuid.UUID(bytes=value.uuid_128_bytes[::-1]))


class VirtualRadio:
    """One simulated air: every device made here can see and connect to the others."""

    def __init__(self) -> None:
        self.link = LocalLink()
        self._count = 0
        self._central: Device | None = None

    def new_device(self, name: str) -> Device:
        """A Bumble device (not yet powered on) with a fresh random static address."""
        self._count += 1
        address = f"C0:00:00:00:{self._count >> 8:02X}:{self._count & 0xFF:02X}"
        controller = Controller(name, link=self.link, public_address=address)
        host = Host(controller, AsyncPipeSink(controller))
        return Device(name=name, address=Address(address), host=host)

    async def central(self) -> Device:
        """The powered-on device that plays the host computer (made once per radio)."""
        if self._central is None:
            self._central = self.new_device("eboard960 host")
            await self._central.power_on()
        return self._central


def _central_from(address_or_ble_device: BLEDevice | str, central: Device | None) -> Device:
    if central is not None:
        return central
    if isinstance(address_or_ble_device, BLEDevice) and isinstance(
        address_or_ble_device.details, Device
    ):
        return address_or_ble_device.details
    raise BleakError("BumbleClient needs central=<bumble Device> or a BLEDevice from BumbleScanner")


class BumbleClient(BaseBleakClient):
    """bleak's client interface implemented on a Bumble central device."""

    def __init__(
        self,
        address_or_ble_device: BLEDevice | str,
        *,
        central: Device | None = None,
        mtu: int = ATT_MTU,
        disconnected_callback: Callable[[], None] | None = None,
        timeout: float = 10.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            address_or_ble_device, disconnected_callback=disconnected_callback, timeout=timeout
        )
        self._central = _central_from(address_or_ble_device, central)
        self._mtu = mtu
        self._name = (
            address_or_ble_device.name if isinstance(address_or_ble_device, BLEDevice) else None
        )
        self._connection: Connection | None = None
        self._peer: Peer | None = None
        self._closing = False
        self._subscribers: dict[int, Callable[[bytes], None]] = {}

    @property
    def name(self) -> str:
        return self._name or self.address.replace(":", "-")

    @property
    def mtu_size(self) -> int:
        return self._peer.gatt_client.mtu if self._peer else 23

    @property
    def is_connected(self) -> bool:
        return self._connection is not None

    async def connect(self, pair: bool, **kwargs: Any) -> None:
        timeout = kwargs.get("timeout", self._timeout)
        try:
            connection = await self._central.connect(Address(self.address), timeout=timeout)
        except core.TimeoutError:
            raise TimeoutError(f"{self.address} did not answer within {timeout} s") from None
        except core.BaseBumbleError as error:
            raise BleakError(f"could not connect to {self.address}: {error}") from error
        self._connection = connection
        self._closing = False
        connection.on(connection.EVENT_DISCONNECTION, self._on_disconnection)
        self._peer = Peer(connection)
        try:
            with _as_bleak_error("discovery"):
                await self._peer.request_mtu(self._mtu)
                self.services = await self._discover(self._peer)
                await self._read_name()
        except BaseException:
            await self.disconnect()
            raise

    async def _discover(self, peer: Peer) -> BleakGATTServiceCollection:
        collection = BleakGATTServiceCollection()
        for service in await peer.discover_services():
            bleak_service = BleakGATTService(service, service.handle, bleak_uuid(service.uuid))
            collection.add_service(bleak_service)
            for characteristic in await service.discover_characteristics():
                properties = [
                    name for flag, name in _PROPERTY_NAMES.items()
                    if characteristic.properties & flag
                ]
                bleak_characteristic = BleakGATTCharacteristic(
                    characteristic,
                    characteristic.handle,
                    bleak_uuid(characteristic.uuid),
                    properties,
                    lambda: self.mtu_size - 3,
                    bleak_service,
                )
                collection.add_characteristic(bleak_characteristic)
                for descriptor in await characteristic.discover_descriptors():
                    collection.add_descriptor(
                        BleakGATTDescriptor(
                            descriptor,
                            descriptor.handle,
                            bleak_uuid(descriptor.type),
                            bleak_characteristic,
                        )
                    )
        return collection

    async def _read_name(self) -> None:
        """Take the name from the GAP Device Name characteristic, as the OS stacks do."""
        if self._name or self.services is None or self._peer is None:
            return
        characteristic = self.services.get_characteristic("2a00")
        if characteristic is not None:
            value = await self._peer.read_value(characteristic.obj)
            self._name = bytes(value).decode("utf-8", "replace")

    def _on_disconnection(self, reason: int) -> None:
        solicited = self._closing
        self._connection = None
        self._peer = None
        self._subscribers.clear()
        if not solicited and self._disconnected_callback is not None:
            self._disconnected_callback()

    async def disconnect(self) -> None:
        connection = self._connection
        if connection is None:
            return
        self._closing = True
        done = asyncio.get_running_loop().create_future()
        connection.once(connection.EVENT_DISCONNECTION, lambda _reason: done.set_result(None))
        with contextlib.suppress(core.BaseBumbleError):
            await connection.disconnect()
            await asyncio.wait_for(done, self._timeout)

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        raise BleakError("pairing is not needed by any supported board and not emulated")

    async def unpair(self) -> None:
        raise BleakError("pairing is not needed by any supported board and not emulated")

    def _require_peer(self) -> Peer:
        if self._peer is None:
            raise BleakError("Not connected")
        return self._peer

    async def read_gatt_char(
        self, characteristic: BleakGATTCharacteristic, *, use_cached: bool = False, **kwargs: Any
    ) -> bytearray:
        with _as_bleak_error("read"):
            return bytearray(await self._require_peer().read_value(characteristic.obj))

    async def read_gatt_descriptor(
        self, descriptor: BleakGATTDescriptor, *, use_cached: bool = False, **kwargs: Any
    ) -> bytearray:
        with _as_bleak_error("read"):
            return bytearray(await self._require_peer().read_value(descriptor.obj))

    async def write_gatt_char(
        self, characteristic: BleakGATTCharacteristic, data: SizedBuffer, response: bool
    ) -> None:
        peer = self._require_peer()
        with _as_bleak_error("write"):
            await peer.write_value(characteristic.obj, bytes(data), with_response=response)

    async def write_gatt_descriptor(
        self, descriptor: BleakGATTDescriptor, data: SizedBuffer
    ) -> None:
        peer = self._require_peer()
        with _as_bleak_error("write"):
            await peer.write_value(descriptor.obj, bytes(data), with_response=True)

    async def start_notify(
        self, characteristic: BleakGATTCharacteristic, callback: NotifyCallback, **kwargs: Any
    ) -> None:
        def deliver(value: bytes) -> None:
            callback(bytearray(value))

        self._subscribers[characteristic.handle] = deliver
        with _as_bleak_error("subscribe"):
            await self._require_peer().subscribe(characteristic.obj, deliver)

    async def stop_notify(self, characteristic: BleakGATTCharacteristic) -> None:
        deliver = self._subscribers.pop(characteristic.handle, None)
        with _as_bleak_error("unsubscribe"):
            await self._require_peer().unsubscribe(characteristic.obj, deliver)


@contextlib.contextmanager
def _as_bleak_error(what: str) -> Iterator[None]:
    """Bumble's errors as bleak's, so callers catch one family whatever the backend.

    Bumble cancels a GATT request's future when the link drops under it; that
    is a failed request, not a cancelled task (unless the task is being cancelled).
    """
    try:
        yield
    except core.BaseBumbleError as error:
        raise BleakError(f"GATT {what} failed: {error}") from error
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise
        raise BleakError(f"GATT {what} failed: the link dropped") from None


def advertisement_data(advertisement: Advertisement) -> AdvertisementData:
    """Bumble's parsed advertising report in bleak's shape."""
    data = advertisement.data
    names = data.get_all(core.AdvertisingData.COMPLETE_LOCAL_NAME) or data.get_all(
        core.AdvertisingData.SHORTENED_LOCAL_NAME
    )
    service_uuids = [
        bleak_uuid(service)
        for ad_type in (
            core.AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS,
            core.AdvertisingData.INCOMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS,
            core.AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
            core.AdvertisingData.INCOMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
        )
        for uuids in data.get_all(ad_type)
        for service in uuids
    ]
    manufacturer = dict(data.get_all(core.AdvertisingData.MANUFACTURER_SPECIFIC_DATA))
    tx_power = data.get(core.AdvertisingData.TX_POWER_LEVEL)
    rssi = advertisement.rssi if advertisement.rssi != Advertisement.RSSI_NOT_AVAILABLE else -60
    return AdvertisementData(
        local_name=names[0] if names else None,
        manufacturer_data=manufacturer,
        service_data={},
        service_uuids=service_uuids,
        tx_power=tx_power,
        rssi=rssi,
        platform_data=(advertisement,),
    )


class BumbleScanner(BaseBleakScanner):
    """bleak's scanner interface on a Bumble central: reports the virtual air's advertisers.

    Like a real adapter, a central scans or not: stopping one scanner stops the
    scan for any other scanner sharing that central.
    """

    def __init__(
        self,
        detection_callback: AdvertisementDataCallback | None,
        service_uuids: list[str] | None,
        scanning_mode: str = "active",
        *,
        central: Device,
        **kwargs: Any,
    ) -> None:
        super().__init__(detection_callback, service_uuids)
        self._central = central

    async def start(self) -> None:
        self.seen_devices = {}
        self._central.on(self._central.EVENT_ADVERTISEMENT, self._on_advertisement)
        await self._central.start_scanning()

    async def stop(self) -> None:
        self._central.remove_listener(self._central.EVENT_ADVERTISEMENT, self._on_advertisement)
        await self._central.stop_scanning()

    def _on_advertisement(self, advertisement: Advertisement) -> None:
        data = advertisement_data(advertisement)
        if not self.is_allowed_uuid(data.service_uuids):
            return
        address = advertisement.address.to_string(with_type_qualifier=False)
        device = self.create_or_update_device(
            address, address, data.local_name, self._central, data
        )
        self.call_detection_callbacks(device, data)


def bumble_stack(central: Device, mtu: int = ATT_MTU) -> BleStack:
    """The bleak backends that reach the virtual radio through `central`."""
    return BleStack(
        client_backend=BumbleClient,
        scanner_backend=BumbleScanner,
        options={"central": central, "mtu": mtu},
    )
