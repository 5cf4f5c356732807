"""DGT Pegasus: a sans-IO codec for the presence-only board on the Nordic UART service.

The board speaks the DGT message format (section 1.2 of the facts sheet): an
ID byte with bit 7 set, two 7-bit length bytes counting the whole message,
then data bytes with bit 7 clear. It reports occupancy only (0 or 1 per
square), so a dump becomes a `BoardSnapshot` without pieces (the recognizer's
resync) and a field update becomes `PieceLifted` or `PiecePlaced(piece=None)`.
The app sends one-byte DGT commands, or long commands `<cmd> <n> <payload>
00` where n counts the bytes after itself (LEDs, developer key, board name).

Squares use the DGT field numbering (a8 = 0 .. h1 = 63); `rotated=True` maps a
board standing the other way round. Where the sources disagree (battery
scale, see the notes in `firmware_protocols/pegasus/README.md`) the setting
is explicit with the Pegasus-specific reading as default.

Framing, field numbering and the message builder are the DGT codec's
(`eboard960.protocols.dgt`), given the Pegasus's own table of message sizes.
Garbage is skipped a byte at a time (counted in `discarded`): a byte with bit
7 set always starts a new message, so a valid message after garbage is never
lost, and unparsed bytes never exceed one message (`MAX_MESSAGE`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

import chess

from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.errors import ProtocolError
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols.dgt import (  # the same identity messages as a DGT board's
    DgtFramer,
    Frame,
    HardwareVersion,
    LongSerialNumber,
    Msg,
    SerialNumber,
    Version,
    field_of,
    square_of,
)

MAX_MESSAGE = 512
"""Longest message accepted; the longest the Pegasus sends (its trademark text) is ~160."""

BOARD_DUMP = Msg.BOARD_DUMP
FIELD_UPDATE = Msg.FIELD_UPDATE
EE_MOVES = Msg.EE_MOVES
BUS_ADDRESS = Msg.BUS_ADDRESS
SERIAL_NUMBER = Msg.SERIAL_NUMBER
TRADEMARK = Msg.TRADEMARK
VERSION = Msg.VERSION
HARDWARE_VERSION = Msg.HARDWARE_VERSION
BATTERY = Msg.BATTERY
LONG_SERIAL_NUMBER = Msg.LONG_SERIAL_NUMBER
UNKNOWN_V = 0x23
LOCK_STATE = 0x24
KEY_STATE = 0x25
"""Message ids (7 bits; the byte on the wire is 0x80 | id). The last three are Pegasus-only."""

SIZES: dict[int, tuple[int, int]] = {
    BOARD_DUMP: (67, 67),
    FIELD_UPDATE: (5, 5),
    EE_MOVES: (3, MAX_MESSAGE),
    BUS_ADDRESS: (5, 5),
    SERIAL_NUMBER: (8, 8),
    TRADEMARK: (3, MAX_MESSAGE),
    VERSION: (5, 5),
    HARDWARE_VERSION: (5, 5),
    BATTERY: (12, 12),
    LONG_SERIAL_NUMBER: (13, 13),
    UNKNOWN_V: (3, MAX_MESSAGE),
    LOCK_STATE: (4, 4),
    KEY_STATE: (4, 4),
}
"""Total sizes (header included) the Pegasus's messages may have; anything else is garbage."""

LOCKED_DUMP = 0x7F
"""Every dump byte reads 0x7F until a developer key has been registered."""


class PegasusError(ProtocolError):
    """A Pegasus command that cannot be encoded (a bad square, speed or name)."""


def long_command(command: int, payload: bytes) -> bytes:
    """An app-to-board long command: command, n, payload, 00 (n counts payload and the 00)."""
    if len(payload) + 1 > 0x7F:
        raise PegasusError(f"a Pegasus command carries at most 126 bytes, not {len(payload)}")
    return bytes([command, len(payload) + 1]) + payload + b"\x00"


# --- Commands (app -> board) ----------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ResetBoard:
    """`@`: back to the idle, new-game state; stops field updates. No reply."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestSerialNumber:
    """`E`: the short serial number (`SerialNumber`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestLongSerialNumber:
    """`U`: the long serial number, as printed on the board (`LongSerialNumber`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestTrademark:
    """`G`: the identification text apps check (`Trademark`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestVersion:
    """`M`: the firmware version (`Version`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestHardwareVersion:
    """`H`: the hardware version (`HardwareVersion`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestBattery:
    """`L`: the battery status (`Battery`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestLockState:
    """`Y`: whether the board is locked (`LockState`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestKeyState:
    """`Z`: whether a developer key has been accepted (`KeyState`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterDeveloperKey:
    """`63`: the 6-byte key that unlocks dumps and LEDs on a real board (emulators take any)."""

    key: bytes

    def __post_init__(self) -> None:
        if len(self.key) != 6 or any(byte > 0x7F for byte in self.key):
            raise PegasusError("a Pegasus developer key is 6 bytes of 0..127")


@dataclass(frozen=True, slots=True, kw_only=True)
class SetBoardName:
    """`65`: rename the board (the name it advertises)."""

    name: str

    def __post_init__(self) -> None:
        if not self.name or not self.name.isascii() or not self.name.isprintable():
            raise PegasusError(f"a Pegasus board name is printable ASCII, not {self.name!r}")
        if len(self.name) > 30:
            raise PegasusError(f"a Pegasus board name has at most 30 characters: {self.name!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class LedPattern:
    """`60`: light `squares` with the board's own animation.

    `speed` 1..25 (faster when larger), `once` flashes once instead of
    pulsing, `intensity` 1..4 (1 is already bright). An empty set turns every
    LED off.
    """

    squares: frozenset[chess.Square]
    speed: int = 7
    once: bool = False
    intensity: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.speed <= 25:
            raise PegasusError(f"Pegasus LED speed is 1..25, not {self.speed}")
        if not 1 <= self.intensity <= 4:
            raise PegasusError(f"Pegasus LED intensity is 1..4, not {self.intensity}")
        bad = [square for square in self.squares if square not in chess.SQUARES]
        if bad:
            raise PegasusError(f"{bad[0]!r} is not a square number 0..63")


PegasusCommand = (
    ResetBoard
    | RequestSerialNumber
    | RequestLongSerialNumber
    | RequestTrademark
    | RequestVersion
    | RequestHardwareVersion
    | RequestBattery
    | RequestLockState
    | RequestKeyState
    | RegisterDeveloperKey
    | SetBoardName
    | LedPattern
)

SIMPLE_COMMANDS: dict[type, bytes] = {
    RequestBoard: b"B",
    EnableUpdates: b"D",
    ResetBoard: b"@",
    RequestSerialNumber: b"E",
    RequestTrademark: b"G",
    RequestHardwareVersion: b"H",
    RequestBattery: b"L",
    RequestVersion: b"M",
    RequestLongSerialNumber: b"U",
    RequestLockState: b"Y",
    RequestKeyState: b"Z",
}

LEDS_OFF = b"\x60\x02\x00\x00"
LED_COMMAND = 0x60
LED_ON = 0x05
KEY_COMMAND = 0x63
NAME_COMMAND = 0x65


# --- Messages (board -> app) that are not square events -------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class DumpWithheld:
    """The board answered a dump request with 0x7F everywhere: no developer key yet."""

    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Trademark:
    """The identification text: four lines (company, copyright, software, hardware)."""

    text: str
    t: float = 0.0

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()


@dataclass(frozen=True, slots=True, kw_only=True)
class Battery:
    """Battery status: the raw charge byte, its percentage under the codec's scale, charging."""

    raw: int
    percent: int
    charging: bool
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class BusAddress:
    """The reply to `F` (the DGT bus-address message; its meaning on the Pegasus is unknown)."""

    value: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class LockState:
    locked: bool
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class KeyState:
    accepted: bool
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class OtherMessage:
    """A well-framed message this codec has no meaning for (e.g. the replies to `I` and `V`)."""

    message_id: int
    data: bytes
    t: float = 0.0


PegasusMessage = (
    DumpWithheld
    | SerialNumber
    | LongSerialNumber
    | Trademark
    | Version
    | HardwareVersion
    | Battery
    | BusAddress
    | LockState
    | KeyState
    | OtherMessage
)


# --- The codec ------------------------------------------------------------------------------


class PegasusCodec:
    """Bytes from a Pegasus in, events out; commands in, bytes out.

    Settings: `rotated` for a board standing the other way round;
    `battery_full` is the raw charge byte that means 100 % (88 per the Pegasus
    reverse-engineering notes; 100 if the byte is already a percentage, as the
    DGT e-board spec has it); LED animation defaults for `SetLeds`.
    """

    def __init__(
        self,
        *,
        rotated: bool = False,
        battery_full: int = 88,
        led_speed: int = 7,
        led_intensity: int = 1,
    ) -> None:
        if not 1 <= battery_full <= 127:
            raise PegasusError(f"battery_full is a raw charge byte 1..127, not {battery_full}")
        self.rotated = rotated
        self.battery_full = battery_full
        self._led_defaults = LedPattern(
            squares=frozenset(), speed=led_speed, intensity=led_intensity
        )
        self._framer = DgtFramer(SIZES, accept_unknown=False)
        self._discarded = 0

    @property
    def buffered(self) -> int:
        """Bytes held back waiting for the rest of a message (at most one message's worth)."""
        return self._framer.buffered

    @property
    def discarded(self) -> int:
        """Bytes skipped as garbage so far."""
        return self._discarded

    def receive_data(self, data: bytes, t: float = 0.0) -> list[Any]:
        """Events carried by the bytes the board sent at time `t`, in the board's order."""
        events: list[Any] = []
        for item in self._framer.receive_data(data):
            if isinstance(item, tuple):
                self._discarded += len(item[0])
            elif (event := self._decode(item, t)) is not None:
                events.append(event)
            else:
                self._discarded += len(item.payload) + 3
        return events

    def _decode(self, item: Frame, t: float) -> Any:
        """The event for one message, or None if its contents are impossible."""
        decoder = self._DECODERS.get(item.message_id)
        if decoder is None:
            return OtherMessage(message_id=item.message_id, data=item.payload, t=t)
        return decoder(self, item.payload, t)

    def _field_update(self, body: bytes, t: float) -> PieceLifted | PiecePlaced | None:
        field, state = body
        if field > 63 or state > 1:
            return None
        square = square_of(field, self.rotated)
        return PiecePlaced(square=square, t=t) if state else PieceLifted(square=square, t=t)

    def _battery(self, body: bytes, t: float) -> Battery:
        percent = min(100, round(body[0] * 100 / self.battery_full))
        return Battery(raw=body[0], percent=percent, charging=bool(body[8] & 1), t=t)

    def _dump(self, body: bytes, t: float) -> BoardSnapshot | DumpWithheld | None:
        if all(byte == LOCKED_DUMP for byte in body):
            return DumpWithheld(t=t)
        if any(byte > 1 for byte in body):
            return None
        occupied = 0
        for field, byte in enumerate(body):
            if byte:
                occupied |= chess.BB_SQUARES[square_of(field, self.rotated)]
        return BoardSnapshot(occupied=occupied, t=t)

    _DECODERS: ClassVar[dict[int, Callable[[PegasusCodec, bytes, float], Any]]] = {
        FIELD_UPDATE: _field_update,
        BOARD_DUMP: _dump,
        BATTERY: _battery,
        SERIAL_NUMBER: lambda _self, body, t: SerialNumber(text=body.decode("ascii"), t=t),
        LONG_SERIAL_NUMBER: lambda _self, body, t: LongSerialNumber(text=body.decode("ascii"), t=t),
        TRADEMARK: lambda _self, body, t: Trademark(text=body.decode("ascii"), t=t),
        VERSION: lambda _self, body, t: Version(major=body[0], minor=body[1], t=t),
        HARDWARE_VERSION: lambda _self, body, t: HardwareVersion(major=body[0], minor=body[1], t=t),
        BUS_ADDRESS: lambda _self, body, t: BusAddress(value=(body[0] << 7) | body[1], t=t),
        LOCK_STATE: lambda _self, body, t: LockState(locked=bool(body[0]), t=t),
        KEY_STATE: lambda _self, body, t: KeyState(accepted=not body[0], t=t),
    }

    def send(self, command: Any) -> bytes:
        """The bytes for one command (board-neutral or Pegasus-specific)."""
        simple = SIMPLE_COMMANDS.get(type(command))
        if simple is not None:
            return simple
        match command:
            case SetLeds(squares=squares):
                defaults = self._led_defaults
                pattern = LedPattern(
                    squares=squares, speed=defaults.speed, intensity=defaults.intensity
                )
                return self.send(pattern)
            case LedPattern(squares=squares) if not squares:
                return LEDS_OFF
            case LedPattern():
                return self._leds(command)
            case RegisterDeveloperKey(key=key):
                return long_command(KEY_COMMAND, key)
            case SetBoardName(name=name):
                return long_command(NAME_COMMAND, name.encode("ascii"))
        raise PegasusError(f"the Pegasus has no command {command!r}")

    def _leds(self, pattern: LedPattern) -> bytes:
        fields = [field_of(square, self.rotated) for square in sorted(pattern.squares)]
        header = bytes([LED_ON, pattern.speed, int(pattern.once), pattern.intensity])
        return long_command(LED_COMMAND, header + bytes(fields))


def leds_from_command(data: bytes, rotated: bool = False) -> LedPattern | None:
    """Read an LED command back (for the firmware model): the pattern, or None for 'all off'."""
    if len(data) < 4 or data[0] != LED_COMMAND or data[1] != len(data) - 2 or data[-1] != 0:
        raise PegasusError(f"not a Pegasus LED command: {data.hex(' ')}")
    if data[2] != LED_ON:
        return None
    if len(data) < 8:
        raise PegasusError(f"a Pegasus LED command is too short: {data.hex(' ')}")
    speed, once, intensity = data[3], data[4], data[5]
    squares = _squares(data[6:-1], rotated)
    return LedPattern(squares=squares, speed=speed, once=bool(once), intensity=intensity)


def _squares(fields: Iterable[int], rotated: bool) -> frozenset[chess.Square]:
    if any(field > 63 for field in fields):
        raise PegasusError("a Pegasus LED field number is 0..63")
    return frozenset(square_of(field, rotated) for field in fields)
