"""Which Bluetooth LE boards are in range: a bleak scan, advertisements matched to profiles.

A board is recognised by the start of its advertised name, or by a service
UUID only that board advertises (see `eboard960.ble.profiles.identify`).
Three boards share the Nordic UART service, so for them the name decides.
With no usable Bluetooth adapter (no BlueZ, adapter off, no permission) the
scan raises `TransportError` with one line saying so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bleak import BleakScanner
from bleak.backends.device import BLEDevice
from bleak.exc import BleakError

from eboard960.ble.profiles import identify, profile_for
from eboard960.ble.transport import BleStack, BleTransport
from eboard960.errors import TransportError


@dataclass(frozen=True, slots=True, kw_only=True)
class FoundBoard:
    """One board heard during a scan; `device` goes straight to `BleTransport`."""

    board: str
    title: str
    name: str | None
    address: str
    rssi: int
    device: BLEDevice = field(compare=False, repr=False)


async def scan(timeout: float = 5.0, *, stack: BleStack | None = None) -> list[FoundBoard]:
    """The boards heard within `timeout` seconds, strongest signal first."""
    stack = stack or BleStack()
    try:
        heard = await BleakScanner.discover(
            timeout=timeout, return_adv=True, **stack.scanner_kwargs()
        )
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise TransportError(f"no usable Bluetooth adapter: cannot reach BlueZ ({reason})") from None
    except BleakError as error:
        raise TransportError(f"no usable Bluetooth adapter: {error}") from None
    found = []
    for device, advertisement in heard.values():
        name = advertisement.local_name or device.name
        profile = identify(name, advertisement.service_uuids)
        if profile is not None:
            found.append(
                FoundBoard(
                    board=profile.board,
                    title=profile.title,
                    name=name,
                    address=device.address,
                    rssi=advertisement.rssi,
                    device=device,
                )
            )
    return sorted(found, key=lambda board: (-board.rssi, board.address))


async def find_board(
    board: str | None = None,
    *,
    address: str | None = None,
    timeout: float = 5.0,
    stack: BleStack | None = None,
) -> FoundBoard:
    """The strongest board in range of type `board` (any type if None), or at `address`."""
    if board is not None:
        profile_for(board)  # an unknown type is the user's mistake, not "not found"
    for found in await scan(timeout, stack=stack):
        if (board is None or found.board == board) and (
            address is None or found.address.casefold() == address.casefold()
        ):
            return found
    wanted = " ".join(filter(None, [board or "board", f"at {address}" if address else None]))
    raise TransportError(f"no {wanted} found within {timeout:g} s")


def transport_for(found: FoundBoard, *, stack: BleStack | None = None) -> BleTransport:
    """A transport to a board found by a scan (hand it to the `Board` joiner)."""
    return BleTransport(found.device, profile_for(found.board), stack=stack)
