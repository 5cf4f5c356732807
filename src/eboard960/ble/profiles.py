"""What each Bluetooth LE board looks like on the air: services, characteristics, names.

A `BoardProfile` is the whole extension point shared by the three BLE layers:

* the bleak transport (`eboard960.ble.transport`) subscribes to every
  characteristic in `notify`, merges their notifications into one byte stream
  for the board's codec (`board` names it in `eboard960.protocols.CODECS`),
  and writes commands to `write`, with or without response as
  `write_with_response` says, cut into MTU-sized pieces;
* `identifies_pieces` tells whether the board reports which piece stands
  where (else presence only, and the recognizer infers the pieces);
* the scanner (`eboard960.ble.scan`) recognises a board by the start of its
  advertised local name (`name_prefixes`) or, failing that, by an advertised
  service UUID that only this board uses;
* the emulated peripheral (`eboard960.ble.peripheral`) builds its GATT table
  from `characteristics`, advertises `advertised_service` and a name, and
  sends the firmware model's output on the notify characteristic chosen by
  `notify_routes` (first matching byte prefix; otherwise `notify[0]`).

To add a board: add one `BoardProfile` to `PROFILES` under its codec name.
UUIDs are written lower-case in the full 128-bit form, as bleak reports them.
The facts come from the protocol facts sheet (sections 2.1, 3.2, 4.1, 5.1, 5.3).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from eboard960.errors import TransportError

NUS_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
NUS_RX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
NUS_TX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
"""Nordic UART service: the app writes to RX and the board notifies on TX."""

MICROCHIP_SERVICE = "49535343-fe7d-4ae5-8fa9-9fafd205e455"
MICROCHIP_TX = "49535343-1e4d-4bd9-ba61-23c647249616"
MICROCHIP_RX = "49535343-8841-43f4-a8d4-ecbe34729bb3"
"""Microchip (ISSC) transparent UART service, used by the Millennium ChessLink module."""


def _chessnut(short: str) -> str:
    return f"1b7e{short}-2877-41c3-b46e-cf057c562023"


@dataclass(frozen=True, slots=True, kw_only=True)
class GattCharacteristic:
    """One characteristic of a board's GATT table and what it allows."""

    uuid: str
    service: str
    notify: bool = False
    write: bool = False
    write_without_response: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardProfile:
    """Everything the transport, the scanner and the emulator need to know about one board."""

    board: str
    title: str
    advertised_service: str
    characteristics: tuple[GattCharacteristic, ...]
    write: str
    notify: tuple[str, ...]
    write_with_response: bool
    name_prefixes: tuple[str, ...]
    emulated_name: str
    notify_routes: tuple[tuple[bytes, str], ...] = ()
    manufacturer_data: tuple[int, bytes] | None = None
    unique_service: bool = False
    identifies_pieces: bool = False

    @property
    def services(self) -> tuple[str, ...]:
        """The GATT services in table order (each listed once)."""
        return tuple(dict.fromkeys(c.service for c in self.characteristics))

    def route(self, data: bytes) -> str:
        """The notify characteristic that carries this board-to-app frame."""
        for prefix, uuid in self.notify_routes:
            if data.startswith(prefix):
                return uuid
        return self.notify[0]

    def matches_name(self, name: str | None) -> bool:
        """Whether an advertised local name is this board's (case-insensitive prefix)."""
        folded = (name or "").casefold()
        return any(folded.startswith(prefix.casefold()) for prefix in self.name_prefixes)


def _uart(
    service: str, rx: str, tx: str, *, rx_response: bool = True
) -> tuple[GattCharacteristic, ...]:
    return (
        GattCharacteristic(
            uuid=rx, service=service, write=rx_response, write_without_response=True
        ),
        GattCharacteristic(uuid=tx, service=service, notify=True),
    )


PROFILES: dict[str, BoardProfile] = {
    "pegasus": BoardProfile(
        board="pegasus",
        title="DGT Pegasus",
        advertised_service=NUS_SERVICE,
        characteristics=_uart(NUS_SERVICE, NUS_RX, NUS_TX),
        write=NUS_RX,
        notify=(NUS_TX,),
        write_with_response=False,
        name_prefixes=("DGT_PEGASUS",),
        emulated_name="DGT_PEGASUS_EMU",
    ),
    "chesslink": BoardProfile(
        board="chesslink",
        title="Millennium ChessLink",
        advertised_service=MICROCHIP_SERVICE,
        characteristics=_uart(MICROCHIP_SERVICE, MICROCHIP_RX, MICROCHIP_TX),
        write=MICROCHIP_RX,
        notify=(MICROCHIP_TX,),
        write_with_response=True,
        name_prefixes=("MILLENNIUM CHESS",),
        emulated_name="MILLENNIUM CHESS",
        unique_service=True,
        identifies_pieces=True,
    ),
    "chessnut": BoardProfile(
        board="chessnut",
        title="Chessnut Air/Pro/Go",
        advertised_service=_chessnut("8261"),
        characteristics=(
            GattCharacteristic(uuid=_chessnut("8262"), service=_chessnut("8261"), notify=True),
            GattCharacteristic(
                uuid=_chessnut("8272"), service=_chessnut("8271"),
                write=True, write_without_response=True,
            ),
            GattCharacteristic(uuid=_chessnut("8273"), service=_chessnut("8271"), notify=True),
        ),
        write=_chessnut("8272"),
        notify=(_chessnut("8273"), _chessnut("8262")),  # replies by default, positions routed
        write_with_response=True,
        name_prefixes=("Chessnut", "Smart Chess"),
        emulated_name="Chessnut Air",
        notify_routes=((b"\x01\x24", _chessnut("8262")),),
        manufacturer_data=(0x4450, b"CS\x5b\x54\x25\x64\x00\x00"),
        unique_service=True,
        identifies_pieces=True,
    ),
    "gochess": BoardProfile(
        board="gochess",
        title="GoChess XR/Mini/Lite",
        advertised_service=NUS_SERVICE,
        characteristics=_uart(NUS_SERVICE, NUS_RX, NUS_TX, rx_response=False),
        write=NUS_RX,
        notify=(NUS_TX,),
        write_with_response=False,
        name_prefixes=("GoChess",),
        emulated_name="GoChessM_EMU001",
    ),
    "squareoff": BoardProfile(
        board="squareoff",
        title="Square Off Pro/Neo",
        advertised_service=NUS_SERVICE,
        characteristics=_uart(NUS_SERVICE, NUS_RX, NUS_TX),
        write=NUS_RX,
        notify=(NUS_TX,),
        write_with_response=True,
        name_prefixes=("Squareoff", "Square Off"),
        emulated_name="Squareoff Pro",
    ),
}


def profile_for(board: str) -> BoardProfile:
    """The profile of the board whose codec is called `board`."""
    try:
        return PROFILES[board]
    except KeyError:
        known = ", ".join(sorted(PROFILES))
        raise TransportError(f"{board!r} is not a Bluetooth LE board (known: {known})") from None


def identify(name: str | None, service_uuids: Iterable[str] = ()) -> BoardProfile | None:
    """The board an advertisement belongs to: by name prefix, else by a board-only service."""
    for profile in PROFILES.values():
        if profile.matches_name(name):
            return profile
    advertised = {uuid.lower() for uuid in service_uuids}
    for profile in PROFILES.values():
        if profile.unique_service and profile.advertised_service in advertised:
            return profile
    return None
