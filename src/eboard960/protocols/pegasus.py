"""DGT Pegasus: a sans-IO codec for the presence-only board on the Nordic UART service.

The board speaks the DGT message format (section 1.2 of the facts sheet): an
ID byte with bit 7 set, two 7-bit length bytes counting the whole message,
then data bytes with bit 7 clear. It reports occupancy only (0 or 1 per
square), so a dump becomes a `BoardSnapshot` without pieces (the recognizer's
resync) and a field update becomes `PieceLifted` or `PiecePlaced(piece=None)`.
The app sends one-byte DGT commands, or long commands `<cmd> <n> <payload>
00` where n counts the bytes after itself (LEDs, developer key, board name).

Squares use the DGT field numbering (a8 = 0 .. h1 = 63); `turned=True` maps a
board standing the other way round. Where the sources disagree (battery
scale, see the notes in `firmware_protocols/pegasus/README.md`) the setting
is explicit with the Pegasus-specific reading as default.

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

MAX_MESSAGE = 512
"""Longest message accepted; the longest the Pegasus sends (its trademark text) is ~160."""

BOARD_DUMP = 0x86
EE_MOVES = 0x8F
FIELD_UPDATE = 0x8E
BUS_ADDRESS = 0x90
SERIAL_NUMBER = 0x91
TRADEMARK = 0x92
VERSION = 0x93
HARDWARE_VERSION = 0x96
BATTERY = 0xA0
LONG_SERIAL_NUMBER = 0xA2
LOCK_STATE = 0xA4
KEY_STATE = 0xA5

FIXED_SIZES = {
    BOARD_DUMP: 67,
    FIELD_UPDATE: 5,
    BUS_ADDRESS: 5,
    SERIAL_NUMBER: 8,
    VERSION: 5,
    HARDWARE_VERSION: 5,
    BATTERY: 12,
    LONG_SERIAL_NUMBER: 13,
    LOCK_STATE: 4,
    KEY_STATE: 4,
}
"""Total sizes (header included) of the messages whose size never varies."""

LOCKED_DUMP = 0x7F
"""Every dump byte reads 0x7F until a developer key has been registered."""


class PegasusError(ProtocolError):
    """A Pegasus command that cannot be encoded (a bad square, speed or name)."""


def field_of(square: chess.Square, turned: bool = False) -> int:
    """The DGT field number of `square` (a8 = 0 .. h1 = 63)."""
    field = (7 - chess.square_rank(square)) * 8 + chess.square_file(square)
    return 63 - field if turned else field


def square_of(field: int, turned: bool = False) -> chess.Square:
    """The square at DGT field number `field`."""
    if turned:
        field = 63 - field
    return chess.square(field % 8, 7 - field // 8)


def frame(message_id: int, data: bytes = b"") -> bytes:
    """One board-to-app message: ID, the 14-bit total length in two 7-bit bytes, data."""
    size = len(data) + 3
    return bytes([message_id, (size >> 7) & 0x7F, size & 0x7F]) + data


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
class SerialNumber:
    text: str
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class LongSerialNumber:
    text: str
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
class Version:
    major: int
    minor: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class HardwareVersion:
    major: int
    minor: int
    t: float = 0.0


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


class MessageReader:
    """Cuts the board's byte stream into (id, data) messages, skipping garbage."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self.discarded = 0

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        self._buffer += data
        messages: list[tuple[int, bytes]] = []
        buffer = self._buffer
        start = 0
        while start < len(buffer):
            if buffer[start] < 0x80:
                start += 1
                self.discarded += 1
                continue
            size = self._size(buffer, start)
            if size is None:
                break
            if size < 0:
                start += 1
                self.discarded += 1
                continue
            messages.append((buffer[start], bytes(buffer[start + 3 : start + size])))
            start += size
        del buffer[:start]
        return messages

    @staticmethod
    def _size(buffer: bytearray, start: int) -> int | None:
        """The whole message's size; None if more bytes are needed; -1 if it is garbage."""
        header = buffer[start : start + 3]
        if any(byte >= 0x80 for byte in header[1:]):
            return -1
        if len(header) < 3:
            return None
        size = (header[1] << 7) | header[2]
        expected = FIXED_SIZES.get(header[0])
        if size < 3 or size > MAX_MESSAGE or (expected is not None and size != expected):
            return -1
        body = buffer[start + 3 : start + size]
        if any(byte >= 0x80 for byte in body):
            return -1
        if len(body) < size - 3:
            return None
        return size


class PegasusCodec:
    """Bytes from a Pegasus in, events out; commands in, bytes out.

    Settings: `turned` for a board standing the other way round;
    `battery_full` is the raw charge byte that means 100 % (88 per the Pegasus
    reverse-engineering notes; 100 if the byte is already a percentage, as the
    DGT e-board spec has it); LED animation defaults for `SetLeds`.
    """

    def __init__(
        self,
        *,
        turned: bool = False,
        battery_full: int = 88,
        led_speed: int = 7,
        led_intensity: int = 1,
    ) -> None:
        if not 1 <= battery_full <= 127:
            raise PegasusError(f"battery_full is a raw charge byte 1..127, not {battery_full}")
        self.turned = turned
        self.battery_full = battery_full
        self._led_defaults = LedPattern(
            squares=frozenset(), speed=led_speed, intensity=led_intensity
        )
        self._reader = MessageReader()

    @property
    def buffered(self) -> int:
        """Bytes held back waiting for the rest of a message (at most one message's worth)."""
        return self._reader.buffered

    @property
    def discarded(self) -> int:
        """Bytes skipped as garbage so far."""
        return self._reader.discarded

    def receive_data(self, data: bytes, t: float = 0.0) -> list[Any]:
        """Events carried by the bytes the board sent at time `t`, in the board's order."""
        events: list[Any] = []
        for message_id, body in self._reader.feed(data):
            event = self._decode(message_id, body, t)
            if event is None:
                self._reader.discarded += len(body) + 3
            else:
                events.append(event)
        return events

    def _decode(self, message_id: int, body: bytes, t: float) -> Any:
        """The event for one message, or None if its contents are impossible."""
        decoder = self._DECODERS.get(message_id)
        if decoder is None:
            return OtherMessage(message_id=message_id, data=body, t=t)
        return decoder(self, body, t)

    def _field_update(self, body: bytes, t: float) -> PieceLifted | PiecePlaced | None:
        field, state = body
        if field > 63 or state > 1:
            return None
        square = square_of(field, self.turned)
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
                occupied |= chess.BB_SQUARES[square_of(field, self.turned)]
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
        fields = [field_of(square, self.turned) for square in sorted(pattern.squares)]
        header = bytes([LED_ON, pattern.speed, int(pattern.once), pattern.intensity])
        return long_command(LED_COMMAND, header + bytes(fields))


def leds_from_command(data: bytes, turned: bool = False) -> LedPattern | None:
    """Read an LED command back (for the firmware model): the pattern, or None for 'all off'."""
    if len(data) < 4 or data[0] != LED_COMMAND or data[1] != len(data) - 2 or data[-1] != 0:
        raise PegasusError(f"not a Pegasus LED command: {data.hex(' ')}")
    if data[2] != LED_ON:
        return None
    if len(data) < 8:
        raise PegasusError(f"a Pegasus LED command is too short: {data.hex(' ')}")
    speed, once, intensity = data[3], data[4], data[5]
    squares = _squares(data[6:-1], turned)
    return LedPattern(squares=squares, speed=speed, once=bool(once), intensity=intensity)


def _squares(fields: Iterable[int], turned: bool) -> frozenset[chess.Square]:
    if any(field > 63 for field in fields):
        raise PegasusError("a Pegasus LED field number is 0..63")
    return frozenset(square_of(field, turned) for field in fields)
