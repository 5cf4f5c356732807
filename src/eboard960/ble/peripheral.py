"""An emulated Bluetooth LE board: any firmware model served as a Bumble GATT peripheral.

`BoardPeripheral(radio, profile, model)` puts a Bumble device on a
`VirtualRadio`, builds the GATT table that `profile` describes (see
`eboard960.ble.profiles`), advertises the profile's service and name, and then
plays the board's side of the link:

* every write from the app to the profile's `write` characteristic goes to
  `model.feed(data)`; the bytes it returns are the board's immediate reply;
* `send(data)` is how the board speaks on its own (a piece lifted or placed):
  the scenario code calls the model, then hands its output to `send`;
* board-to-app bytes go out as notifications on the characteristic
  `profile.route(data)` picks, cut into pieces of (ATT MTU - 3) bytes as real
  firmware does, strictly in order, and only to a subscribed central: a board
  whose link is down loses what it says, exactly like the hardware.

The model interface is deliberately the same as the serial emulators' (a
firmware model is fed the host's bytes and returns the board's): anything with
`feed(bytes) -> bytes` can be hosted. A model with a `notify` attribute gets
`send` assigned to it, so it can hand over each notification on its own
(keeping notification boundaries, e.g. for split-frame faults). Boards with
several notify characteristics (Chessnut) need nothing extra: the profile's
`notify_routes` sends each frame to the right one.

Link faults for tests and demos: `disconnect()` drops the connection and the
board advertises again at once (a glitch); `go_away()` drops it and stops
advertising (switched off or out of range) until `come_back()`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Protocol

from bumble import att, core, gatt, gatt_server
from bumble.device import Connection, Device

from eboard960.ble.bumble_backend import VirtualRadio
from eboard960.ble.profiles import BoardProfile, GattCharacteristic

log = logging.getLogger(__name__)
wire_log = logging.getLogger("eboard960.wire")

ADVERTISING_INTERVAL_MS = 20.0
"""Fast advertising, so a central that scans after a drop finds the board within ~20 ms."""


class FirmwareModel(Protocol):
    """What `BoardPeripheral` needs from a firmware model."""

    def feed(self, data: bytes) -> bytes:
        """Take bytes the app wrote; return the bytes the board answers with at once."""
        ...


class _WriteCheckingServer(gatt_server.Server):
    """Bumble's GATT server, refusing the kinds of write a characteristic does not offer.

    Bumble accepts any write; real firmware answers a write request on a
    characteristic without the WRITE property with "write not permitted" and
    ignores a write command without WRITE_WITHOUT_RESPONSE. Each write's kind
    is reported to `on_write_kind`, so tests can see which one a host used.
    """

    def __init__(self, device: Device, on_write_kind: Callable[[str], None]) -> None:
        super().__init__(device)
        self._on_write_kind = on_write_kind

    def on_gatt_pdu(self, bearer: att.Bearer, att_pdu: att.ATT_PDU) -> None:
        if isinstance(att_pdu, att.ATT_Write_Request | att.ATT_Write_Command):
            request = isinstance(att_pdu, att.ATT_Write_Request)
            needed = (
                gatt.Characteristic.Properties.WRITE
                if request
                else gatt.Characteristic.Properties.WRITE_WITHOUT_RESPONSE
            )
            target = self.get_attribute(att_pdu.attribute_handle)
            if isinstance(target, gatt.Characteristic) and not target.properties & needed:
                if request:
                    self.send_response(
                        bearer,
                        att.ATT_Error_Response(
                            request_opcode_in_error=att_pdu.op_code,
                            attribute_handle_in_error=att_pdu.attribute_handle,
                            error_code=att.ATT_WRITE_NOT_PERMITTED_ERROR,
                        ),
                    )
                return
            if isinstance(target, gatt.Characteristic):
                self._on_write_kind("request" if request else "command")
        super().on_gatt_pdu(bearer, att_pdu)


def _properties(spec: GattCharacteristic) -> gatt.Characteristic.Properties:
    properties = gatt.Characteristic.Properties(0)
    if spec.notify:
        properties |= gatt.Characteristic.Properties.NOTIFY
    if spec.write:
        properties |= gatt.Characteristic.Properties.WRITE
    if spec.write_without_response:
        properties |= gatt.Characteristic.Properties.WRITE_WITHOUT_RESPONSE
    return properties


class BoardPeripheral:
    """One emulated board on a virtual radio, serving `model` under `profile`."""

    def __init__(
        self,
        radio: VirtualRadio,
        profile: BoardProfile,
        model: FirmwareModel,
        *,
        name: str | None = None,
    ) -> None:
        self.profile = profile
        self.model = model
        self.name = name or profile.emulated_name
        self.writes: list[bytes] = []
        """Every write the app made, in order (for tests and the wire log)."""
        self.write_kinds: list[str] = []
        """For each write to a characteristic, "request" (with response) or "command"."""
        self.device = radio.new_device(self.name)
        self.device.gatt_server = _WriteCheckingServer(self.device, self.write_kinds.append)
        self.device.add_default_services()  # GAP and GATT services, as on the replaced server
        if hasattr(model, "notify"):
            model.notify = self.send
        self._characteristics: dict[str, gatt.Characteristic] = {}
        self._outbox: asyncio.Queue[bytes] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._present = False
        self._refusals = 0
        self.connections = 0
        """How many times a central has connected (refused ones included)."""
        self._advertising_lock = asyncio.Lock()
        self._readvertise: asyncio.Task[None] | None = None

    @property
    def address(self) -> str:
        """The address a central connects to (bleak's spelling)."""
        return self.device.random_address.to_string(with_type_qualifier=False)

    @property
    def connection(self) -> Connection | None:
        return next(iter(self.device.connections.values()), None)

    async def start(self) -> None:
        """Power on, publish the GATT table and start advertising."""
        for service in self.profile.services:
            members = [c for c in self.profile.characteristics if c.service == service]
            characteristics = [self._characteristic(spec) for spec in members]
            self.device.add_service(gatt.Service(service, characteristics))
        self.device.advertising_data = self._advertising_data()
        self.device.on(self.device.EVENT_CONNECTION, self._on_connection)
        await self.device.power_on()
        self._sender = asyncio.create_task(self._send_loop(), name=f"{self.name} notifier")
        await self.come_back()

    async def stop(self) -> None:
        """Drop the link and power off."""
        await self.go_away()
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
        await self.device.power_off()

    def _characteristic(self, spec: GattCharacteristic) -> gatt.Characteristic:
        value: gatt.CharacteristicValue | bytes = b""
        permissions = gatt.Characteristic.READABLE
        if spec.write or spec.write_without_response:
            value = gatt.CharacteristicValue(write=self._on_write)
            permissions = gatt.Characteristic.WRITEABLE
        characteristic = gatt.Characteristic(spec.uuid, _properties(spec), permissions, value)
        self._characteristics[spec.uuid] = characteristic
        return characteristic

    def _advertising_data(self) -> bytes:
        structures: list[tuple[int, bytes]] = [
            (core.AdvertisingData.FLAGS, bytes([0x06])),
            (core.AdvertisingData.COMPLETE_LOCAL_NAME, self.name.encode()),
            (
                core.AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
                core.UUID(self.profile.advertised_service).to_bytes(),
            ),
        ]
        if self.profile.manufacturer_data is not None:
            company, payload = self.profile.manufacturer_data
            manufacturer = company.to_bytes(2, "little") + payload
            structures.append((core.AdvertisingData.MANUFACTURER_SPECIFIC_DATA, manufacturer))
        return bytes(core.AdvertisingData(structures))

    # -- the link ---------------------------------------------------------------------------

    def _on_connection(self, connection: Connection) -> None:
        log.info("%s: connected to %s", self.name, connection.peer_address)
        self.connections += 1
        connection.on(connection.EVENT_DISCONNECTION, self._on_disconnection)
        if self._refusals:
            self._refusals -= 1
            asyncio.get_running_loop().create_task(connection.disconnect())

    def refuse_connections(self, count: int) -> None:
        """Drop the next `count` connections at once (a board busy or flaky when approached)."""
        self._refusals = count

    def _on_disconnection(self, reason: int) -> None:
        log.info("%s: link down (reason %d)", self.name, reason)
        if self._present:
            self._readvertise = asyncio.get_running_loop().create_task(self._advertise())

    async def _advertise(self) -> None:
        # One HCI command sequence at a time, never cancelled half-way (Bumble's host
        # cannot take the reply to a command whose waiter is gone).
        async with self._advertising_lock:
            if self._present and not self.device.connections and not self.device.is_advertising:
                await self.device.start_advertising(
                    advertising_interval_min=ADVERTISING_INTERVAL_MS,
                    advertising_interval_max=ADVERTISING_INTERVAL_MS,
                )

    async def disconnect(self) -> None:
        """A link glitch: drop the connection; the board advertises again at once."""
        connection = self.connection
        if connection is not None:
            await connection.disconnect()

    async def go_away(self) -> None:
        """The board is switched off or carried out of range: no link, no advertising."""
        self._present = False
        if self._readvertise is not None:
            await self._readvertise
            self._readvertise = None
        async with self._advertising_lock:
            if self.device.is_advertising:
                await self.device.stop_advertising()
        await self.disconnect()

    async def come_back(self) -> None:
        """The board is back in range and advertising."""
        self._present = True
        await self._advertise()

    # -- data -------------------------------------------------------------------------------

    def _on_write(self, connection: Connection, value: bytes) -> None:
        data = bytes(value)
        self.writes.append(data)
        wire_log.debug("%s <- app %s", self.name, data.hex(" "))
        reply = self.model.feed(data)
        if reply:
            self.send(reply)

    def send(self, data: bytes) -> None:
        """Queue board-to-app bytes; they go out in order as notifications (if anyone listens)."""
        if data:
            self._outbox.put_nowait(data)

    async def drain(self) -> None:
        """Return once everything queued by `send` has gone out (or been lost to a down link)."""
        await self._outbox.join()

    async def _send_loop(self) -> None:
        while True:
            data = await self._outbox.get()
            try:
                await self._notify(data)
            finally:
                self._outbox.task_done()

    async def _notify(self, data: bytes) -> None:
        connection = self.connection
        if connection is None:
            wire_log.debug("%s: link down, lost %s", self.name, data.hex(" "))
            return
        characteristic = self._characteristics[self.profile.route(data)]
        size = connection.att_mtu - 3
        wire_log.debug("%s -> app %s", self.name, data.hex(" "))
        for start in range(0, len(data), size):
            with contextlib.suppress(core.BaseBumbleError):
                await self.device.notify_subscriber(
                    connection, characteristic, data[start : start + size]
                )
