"""Sans-IO codec of the DGT e-board serial protocol (single-board mode).

The host sends one command byte, sometimes with data; the board answers with
messages framed as `0x80|id, len>>7, len&0x7F, data...` where the length
counts the header and every byte but the first has its top bit clear, so a
byte with the top bit set always starts a message. `DgtFramer` cuts a byte
stream into frames on that rule and discards whatever does not fit (it is
also what the Pegasus codec reuses); `DgtCodec` turns frames into square
events and DGT messages for the host; `DgtCommandDecoder` and
`encode_message` are the board's side, for the firmware emulator.

Field numbers count from a8 (0) along the ranks to h1 (63), fixed to the
hardware; a board turned round is the codec's `rotated` setting.
"""

from __future__ import annotations

import enum
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass

import chess

from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.events import BoardSnapshot, ButtonPressed, PieceLifted, PiecePlaced
from eboard960.protocols.dgt_clock import (
    CLOCK_MESSAGE,
    ClockAck,
    ClockCommand,
    ClockTimes,
    DgtError,
    decode_bwtime,
    decode_clock_command,
    encode_ack,
    encode_clock_command,
    encode_times,
)

MAX_FRAME = (1 << 14) - 1


class Cmd(enum.IntEnum):
    """Host-to-board command bytes."""

    RESET = 0x40
    CLOCK = 0x41
    BOARD = 0x42
    UPDATE = 0x43
    UPDATE_BOARD = 0x44
    SERIAL_NUMBER = 0x45
    BUS_ADDRESS = 0x46
    TRADEMARK = 0x47
    HARDWARE_VERSION = 0x48
    EE_MOVES = 0x49
    BUS_MODE = 0x4A
    UPDATE_NICE = 0x4B
    BATTERY = 0x4C
    VERSION = 0x4D
    BOOTLOADER = 0x4E
    LONG_SERIAL_NUMBER = 0x55
    SET_LEDS = 0x60


class Msg(enum.IntEnum):
    """Board-to-host message ids (the byte on the wire is `0x80 | id`)."""

    BOARD_DUMP = 0x06
    BWTIME = 0x0D
    FIELD_UPDATE = 0x0E
    EE_MOVES = 0x0F
    BUS_ADDRESS = 0x10
    SERIAL_NUMBER = 0x11
    TRADEMARK = 0x12
    VERSION = 0x13
    BOARD_DUMP_50B = 0x14
    BOARD_DUMP_50W = 0x15
    HARDWARE_VERSION = 0x16
    BATTERY = 0x20
    LONG_SERIAL_NUMBER = 0x22


# Allowed total lengths (header included) of the messages we know.
SIZES: dict[int, tuple[int, int]] = {
    Msg.BOARD_DUMP: (67, 67), Msg.BWTIME: (10, 10), Msg.FIELD_UPDATE: (5, 5),
    Msg.EE_MOVES: (3, MAX_FRAME), Msg.BUS_ADDRESS: (5, 5), Msg.SERIAL_NUMBER: (8, 8),
    Msg.TRADEMARK: (3, 3 + 256), Msg.VERSION: (5, 5), Msg.BOARD_DUMP_50B: (53, 53),
    Msg.BOARD_DUMP_50W: (53, 53), Msg.HARDWARE_VERSION: (5, 5), Msg.BATTERY: (12, 12),
    Msg.LONG_SERIAL_NUMBER: (13, 13),
}

# Piece codes 1..12; 13..15 are the result markers.
PIECE_OF_CODE: dict[int, chess.Piece] = {
    code: chess.Piece.from_symbol(symbol) for code, symbol in enumerate("PRNBKQprnbkq", start=1)
}
_CODE_OF_PIECE: dict[chess.Piece, int] = {piece: code for code, piece in PIECE_OF_CODE.items()}
MARKERS: dict[int, str] = {13: "draw", 14: "white_wins", 15: "black_wins"}
_WHITE = frozenset(range(1, 7))
_BLACK = frozenset(range(7, 13))


def piece_code(piece: chess.Piece | None) -> int:
    """The DGT code of a piece (0 for an empty square)."""
    return 0 if piece is None else _CODE_OF_PIECE[piece]


def field_of(square: chess.Square, rotated: bool = False) -> int:
    """The DGT field number of a python-chess square."""
    index = (7 - chess.square_rank(square)) * 8 + chess.square_file(square)
    return 63 - index if rotated else index


def square_of(field: int, rotated: bool = False) -> chess.Square:
    """The python-chess square of a DGT field number."""
    if rotated:
        field = 63 - field
    return chess.square(field % 8, 7 - field // 8)


def frame(message_id: int, payload: bytes = b"") -> bytes:
    """One board-to-host message with its 3-byte header."""
    size = len(payload) + 3
    if size > MAX_FRAME or any(byte & 0x80 for byte in payload):
        raise DgtError("a DGT message holds at most 16380 data bytes, each below 0x80")
    return bytes((0x80 | message_id, size >> 7, size & 0x7F)) + payload


# ---------------------------------------------------------------- host commands


class UpdateMode(enum.IntEnum):
    """What the board reports on its own."""

    BOARD = Cmd.UPDATE_BOARD  # field updates only
    CLOCK = Cmd.UPDATE  # field updates plus the clock at least every second
    NICE = Cmd.UPDATE_NICE  # field updates plus the clock when it changes


_MODE_BYTES = frozenset(mode.value for mode in UpdateMode)


@dataclass(frozen=True, slots=True, kw_only=True)
class Reset:
    """Back to idle: no more unsolicited messages."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SetUpdateMode:
    mode: UpdateMode = UpdateMode.NICE


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestClockTimes:
    """One BWTIME message with the clock's times."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestSerialNumber:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestLongSerialNumber:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestBusAddress:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestTrademark:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestVersion:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestHardwareVersion:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestBattery:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestEeMoves:
    """The board's move log (about 8 KB; the board needs seconds to send it)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LedRange:
    """Revelation II LEDs: `pattern` (0 off, 1 on, 2 settings) from field `start` to `end`.

    Field 0x40 as start and end means every square.
    """

    pattern: int
    start: int = 0x40
    end: int = 0x40


@dataclass(frozen=True, slots=True, kw_only=True)
class UnknownCommand:
    """A host byte the firmware does not act on (the emulator ignores it)."""

    byte: int


_SIMPLE: dict[type, int] = {
    Reset: Cmd.RESET, RequestClockTimes: Cmd.CLOCK, RequestBoard: Cmd.BOARD,
    RequestSerialNumber: Cmd.SERIAL_NUMBER, RequestBusAddress: Cmd.BUS_ADDRESS,
    RequestTrademark: Cmd.TRADEMARK, RequestHardwareVersion: Cmd.HARDWARE_VERSION,
    RequestEeMoves: Cmd.EE_MOVES, RequestBattery: Cmd.BATTERY, RequestVersion: Cmd.VERSION,
    RequestLongSerialNumber: Cmd.LONG_SERIAL_NUMBER,
}
_SIMPLE_OF_BYTE: dict[int, type] = {byte: kind for kind, byte in _SIMPLE.items()}

HostCommand = (
    Reset | SetUpdateMode | RequestClockTimes | RequestBoard | RequestSerialNumber
    | RequestLongSerialNumber | RequestBusAddress | RequestTrademark | RequestVersion
    | RequestHardwareVersion | RequestBattery | RequestEeMoves | LedRange | UnknownCommand
    | ClockCommand
)


def _led_frame(pattern: int, start: int, end: int) -> bytes:
    return bytes((Cmd.SET_LEDS, 4, pattern, start, end, 0))


class DgtCommandDecoder:
    """The board's side: host bytes in, commands out (clock and LED messages span bytes)."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def receive_data(self, data: bytes) -> list[HostCommand]:
        self._buffer += data
        commands: list[HostCommand] = []
        buffer = self._buffer
        while buffer:
            byte = buffer[0]
            if byte in (CLOCK_MESSAGE, Cmd.SET_LEDS):
                if len(buffer) < 2 or len(buffer) < 2 + buffer[1]:
                    break
                body = bytes(buffer[2:2 + buffer[1]])
                del buffer[:2 + len(body)]
                commands.append(self._wrapped(byte, body))
                continue
            del buffer[0]
            if byte in _SIMPLE_OF_BYTE:
                commands.append(_SIMPLE_OF_BYTE[byte]())
            elif byte in _MODE_BYTES:
                commands.append(SetUpdateMode(mode=UpdateMode(byte)))
            else:
                commands.append(UnknownCommand(byte=byte))
        return commands

    @staticmethod
    def _wrapped(byte: int, body: bytes) -> HostCommand:
        if byte == CLOCK_MESSAGE:
            try:
                return decode_clock_command(body)
            except DgtError:
                return UnknownCommand(byte=byte)
        if len(body) == 4 and body[-1] == 0:
            return LedRange(pattern=body[0], start=body[1], end=body[2])
        if len(body) == 2 and body[-1] == 0:
            return LedRange(pattern=body[0])
        return UnknownCommand(byte=byte)


# ---------------------------------------------------------------- board messages


@dataclass(frozen=True, slots=True, kw_only=True)
class SerialNumber:
    text: str
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class LongSerialNumber:
    text: str
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class BusAddress:
    address: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Trademark:
    text: str
    t: float = 0.0


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
    """Charge in percent and the board's time counters (None where it does not know)."""

    percent: int
    time_left: int | None = None  # minutes of running (or charging) left
    on_time: int = 0  # minutes
    standby: int = 0  # minutes
    charging: bool = False
    discharging: bool = False
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class EeMoves:
    """The raw move log, oldest record first, ending with 0x6B; `records()` reads it."""

    data: bytes
    t: float = 0.0

    def records(self, rotated: bool = False) -> list[LogRecord]:
        return parse_log(self.data, rotated)


@dataclass(frozen=True, slots=True, kw_only=True)
class LogPiece:
    """A square's content changed (`code` 0 = emptied); `quick` if < ~250 ms after the last."""

    square: chess.Square
    code: int
    quick: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class LogClock:
    """A clock reading written when the lever moved."""

    left: bool
    seconds: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LogTag:
    """A one-byte event: power_up, eof, begin_pos, begin_pos_rotated, nop, ..."""

    name: str


LogRecord = LogPiece | LogClock | LogTag

LOG_TAGS: dict[int, str] = {
    0x6A: "power_up", 0x6B: "eof", 0x6C: "four_rows", 0x6D: "empty_board", 0x6E: "downloaded",
    0x6F: "begin_pos", 0x7A: "begin_pos_rotated", 0x7B: "start_tag", 0x7C: "watchdog",
    0x7D: "reserved", 0x7E: "reserved", 0x7F: "nop", 0x00: "nop",
}


def parse_log(data: bytes, rotated: bool = False) -> list[LogRecord]:
    """The records of a move log; a record cut off at the end is left out."""
    records: list[LogRecord] = []
    i = 0
    while i < len(data):
        first = data[i]
        if 0x40 <= first <= 0x5F:
            if i + 1 >= len(data) or data[i + 1] > 63:
                break
            records.append(LogPiece(square=square_of(data[i + 1], rotated), code=first & 0x0F,
                                    quick=bool(first & 0x10)))
            i += 2
        elif first & 0x60 == 0x60 and first & 0x0F <= 9 and first < 0x80:
            if i + 2 >= len(data):
                break
            minutes, secs = data[i + 1], data[i + 2]
            seconds = ((first & 0x0F) * 3600 + ((minutes >> 4) * 10 + (minutes & 0x0F)) * 60
                       + (secs >> 4) * 10 + (secs & 0x0F))
            records.append(LogClock(left=bool(first & 0x10), seconds=seconds))
            i += 3
        else:
            records.append(LogTag(name=LOG_TAGS.get(first, f"0x{first:02x}")))
            i += 1
    return records


@dataclass(frozen=True, slots=True, kw_only=True)
class Marker:
    """A result marker (DGT's special pieces) appeared on or left `square`."""

    square: chess.Square
    result: str  # "draw", "white_wins" or "black_wins"
    present: bool
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class UnknownMessage:
    """A well-framed message this codec does not interpret."""

    message_id: int
    data: bytes
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Discarded:
    """Bytes thrown away to find the next message: line noise, a cut or malformed frame."""

    data: bytes
    reason: str
    t: float = 0.0


BoardMessage = (
    SerialNumber | LongSerialNumber | BusAddress | Trademark | Version | HardwareVersion
    | Battery | EeMoves | Marker | UnknownMessage | Discarded | ClockTimes | ClockAck
)


def encode_message(message: object) -> bytes:
    """Frame one board-to-host message (the emulator's side)."""
    match message:
        case SerialNumber(text=text):
            return frame(Msg.SERIAL_NUMBER, _text(text, 5))
        case LongSerialNumber(text=text):
            return frame(Msg.LONG_SERIAL_NUMBER, _text(text, 10))
        case BusAddress(address=address):
            return frame(Msg.BUS_ADDRESS, bytes(((address >> 7) & 0x7F, address & 0x7F)))
        case Trademark(text=text):
            return frame(Msg.TRADEMARK, text.encode("ascii"))
        case Version(major=major, minor=minor):
            return frame(Msg.VERSION, bytes((major, minor)))
        case HardwareVersion(major=major, minor=minor):
            return frame(Msg.HARDWARE_VERSION, bytes((major, minor)))
        case Battery():
            left = (0x7F, 0x7F) if message.time_left is None else divmod(message.time_left, 60)
            standby = message.standby
            payload = (
                message.percent, *left, *divmod(message.on_time, 60),
                standby // 1440, standby // 60 % 24, standby % 60,
                message.charging | message.discharging << 1,
            )
            return frame(Msg.BATTERY, bytes(payload))
        case EeMoves(data=data):
            return frame(Msg.EE_MOVES, data)
        case ClockTimes():
            return frame(Msg.BWTIME, encode_times(message))
        case ClockAck():
            return frame(Msg.BWTIME, encode_ack(message))
    raise DgtError(f"not a DGT board message: {message!r}")


def encode_dump(codes: list[int]) -> bytes:
    """A board dump of 64 piece codes in field order."""
    return frame(Msg.BOARD_DUMP, bytes(codes))


def encode_field_update(field: int, code: int) -> bytes:
    return frame(Msg.FIELD_UPDATE, bytes((field, code)))


def _text(text: str, width: int) -> bytes:
    if len(text) != width or not text.isascii():
        raise DgtError(f"expected {width} ASCII characters, got {text!r}")
    return text.encode("ascii")


# ---------------------------------------------------------------- framing


@dataclass(frozen=True, slots=True)
class Frame:
    message_id: int
    payload: bytes


class DgtFramer:
    """Cuts board bytes into frames; holds at most one unfinished frame.

    `sizes` maps message ids to the (shortest, longest) total length they may
    have; a header announcing anything else is line noise. Ids not in `sizes`
    are framed when `accept_unknown` is true.
    """

    def __init__(
        self, sizes: Mapping[int, tuple[int, int]] = SIZES, *, accept_unknown: bool = True
    ) -> None:
        self._sizes = sizes
        self._accept_unknown = accept_unknown
        self._buffer = bytearray()

    @property
    def buffered(self) -> int:
        """Bytes held for an unfinished frame (never more than one frame)."""
        return len(self._buffer)

    def _length_ok(self, message_id: int, length: int) -> bool:
        if message_id in self._sizes:
            low, high = self._sizes[message_id]
            return low <= length <= high
        return self._accept_unknown and length >= 3

    def receive_data(self, data: bytes) -> list[Frame | tuple[bytes, str]]:
        """Frames, and (bytes, reason) for every run of bytes thrown away."""
        buffer = self._buffer
        buffer += data
        out: list[Frame | tuple[bytes, str]] = []
        junk_from, reason = -1, ""
        i, n = 0, len(buffer)

        def junk(start: int, why: str) -> None:
            nonlocal junk_from, reason
            if junk_from < 0:
                junk_from, reason = start, why

        def flush(upto: int) -> None:
            nonlocal junk_from
            if junk_from >= 0:
                out.append((bytes(buffer[junk_from:upto]), reason))
                junk_from = -1

        while i < n:
            first = buffer[i]
            if not first & 0x80:
                junk(i, "data byte outside a message")
                i += 1
                continue
            if n - i < 3:
                if not any(b & 0x80 for b in buffer[i + 1:n]):
                    break
                junk(i, "message header cut short")
                i += 1
                continue
            hi, lo = buffer[i + 1], buffer[i + 2]
            length = hi << 7 | lo
            if hi & 0x80 or lo & 0x80 or not self._length_ok(first & 0x7F, length):
                junk(i, f"no message 0x{first:02x} of that length")
                i += 1
                continue
            end = i + length
            cut = next((k for k in range(i + 3, min(end, n)) if buffer[k] & 0x80), -1)
            if cut >= 0:
                junk(i, f"message 0x{first:02x} cut short")
                i = cut
                continue
            if end > n:
                break
            flush(i)
            out.append(Frame(first & 0x7F, bytes(buffer[i + 3:end])))
            i = end
        flush(i)
        del buffer[:i]
        return out


# ---------------------------------------------------------------- host codec


class DgtCodec:
    """Host side of a DGT board: bytes in -> events and messages, commands in -> bytes.

    Settings: `rotated` for a board turned round (field 0 nearest white's
    right hand), or `detect_rotation` to decide that from the first dump
    that shows both armies on their home ranks, the way hosts usually do;
    `white_side`, the side of the clock ("left" or "right") that white
    presses, which turns lever moves into `ButtonPressed("white"/"black")`;
    `update_mode`, what `EnableUpdates` asks for.
    """

    def __init__(
        self,
        *,
        rotated: bool = False,
        detect_rotation: bool = False,
        white_side: str = "left",
        update_mode: UpdateMode = UpdateMode.NICE,
    ) -> None:
        if white_side not in ("left", "right"):
            raise DgtError(f"white_side must be 'left' or 'right', not {reprlib.repr(white_side)}")
        self.rotated = rotated
        self._detect_rotation = detect_rotation
        self.white_side = white_side
        self.update_mode = update_mode
        self._framer = DgtFramer()
        self._codes: list[int | None] = [None] * 64
        self._lever: bool | None = None

    @property
    def buffered(self) -> int:
        return self._framer.buffered

    # -- host -> board

    def send(self, command: object) -> bytes:
        """The bytes for one command (generic `eboard960.commands` or this module's)."""
        if type(command) in _SIMPLE:
            return bytes((_SIMPLE[type(command)],))
        match command:
            case EnableUpdates():
                return bytes((self.update_mode,))
            case SetUpdateMode(mode=mode):
                return bytes((mode,))
            case SetLeds(squares=squares):
                fields = sorted(field_of(square, self.rotated) for square in squares)
                return _led_frame(0, 0x40, 0x40) + b"".join(_led_frame(1, f, f) for f in fields)
            case LedRange(pattern=pattern, start=start, end=end):
                return _led_frame(pattern, start, end)
        if isinstance(command, ClockCommand):
            return encode_clock_command(command)
        raise DgtError(f"the DGT codec cannot send {command!r}")

    # -- board -> host

    def receive_data(self, data: bytes, t: float = 0.0) -> list[object]:
        """Events in the board's order; bytes that fit no message come out as `Discarded`."""
        events: list[object] = []
        for item in self._framer.receive_data(data):
            if isinstance(item, tuple):
                events.append(Discarded(data=item[0], reason=item[1], t=t))
                continue
            try:
                events += self._decode(item, t)
            except DgtError as error:
                events.append(Discarded(data=_reframe(item), reason=str(error), t=t))
        return events

    def _decode(self, item: Frame, t: float) -> list[object]:
        payload = item.payload
        match item.message_id:
            case Msg.BOARD_DUMP:
                return self._dump(payload, t)
            case Msg.FIELD_UPDATE:
                return self._field_update(payload[0], payload[1], t)
            case Msg.BWTIME:
                return self._clock(decode_bwtime(payload, t))
            case Msg.SERIAL_NUMBER:
                return [SerialNumber(text=payload.decode("ascii"), t=t)]
            case Msg.LONG_SERIAL_NUMBER:
                return [LongSerialNumber(text=payload.decode("ascii"), t=t)]
            case Msg.TRADEMARK:
                return [Trademark(text=payload.decode("ascii"), t=t)]
            case Msg.BUS_ADDRESS:
                return [BusAddress(address=payload[0] << 7 | payload[1], t=t)]
            case Msg.VERSION:
                return [Version(major=payload[0], minor=payload[1], t=t)]
            case Msg.HARDWARE_VERSION:
                return [HardwareVersion(major=payload[0], minor=payload[1], t=t)]
            case Msg.BATTERY:
                return [_battery(payload, t)]
            case Msg.EE_MOVES:
                return [EeMoves(data=payload, t=t)]
        return [UnknownMessage(message_id=item.message_id, data=payload, t=t)]

    def _check_code(self, code: int) -> None:
        if code > 15:
            raise DgtError(f"piece code {code} is not 0..15")

    def _dump(self, payload: bytes, t: float) -> list[object]:
        for code in payload:
            self._check_code(code)
        if self._detect_rotation:
            self._orient(payload)
        self._codes = list(payload)
        pieces, markers = {}, []
        for field, code in enumerate(payload):
            square = square_of(field, self.rotated)
            if code in PIECE_OF_CODE:
                pieces[square] = PIECE_OF_CODE[code]
            elif code in MARKERS:
                markers.append(Marker(square=square, result=MARKERS[code], present=True, t=t))
        return [BoardSnapshot.from_pieces(pieces, t), *markers]

    def _orient(self, payload: bytes) -> None:
        """Both armies on their two home ranks settle the orientation, once."""
        near, far = payload[48:], payload[:16]  # the connector's far side holds field 0
        if all(code in _WHITE for code in near) and all(code in _BLACK for code in far):
            self.rotated, self._detect_rotation = False, False
        elif all(code in _BLACK for code in near) and all(code in _WHITE for code in far):
            self.rotated, self._detect_rotation = True, False

    def _field_update(self, field: int, code: int, t: float) -> list[object]:
        if field > 63:
            raise DgtError(f"field {field} is not 0..63")
        self._check_code(code)
        old, self._codes[field] = self._codes[field], code
        if old == code:
            return []
        square = square_of(field, self.rotated)
        events: list[object] = []
        if old in MARKERS:
            events.append(Marker(square=square, result=MARKERS[old], present=False, t=t))
        elif (old is None and code == 0) or old in PIECE_OF_CODE:
            events.append(PieceLifted(square=square, t=t))
        if code in PIECE_OF_CODE:
            events.append(PiecePlaced(square=square, piece=PIECE_OF_CODE[code], t=t))
        elif code in MARKERS:
            events.append(Marker(square=square, result=MARKERS[code], present=True, t=t))
        return events

    def _clock(self, message: ClockTimes | ClockAck | None) -> list[object]:
        if message is None:
            return []
        events: list[object] = [message]
        if isinstance(message, ClockAck):
            if message.button is not None:
                events.append(ButtonPressed(button=message.button, t=message.t))
            return events
        if not message.connected:
            return events
        lever, self._lever = self._lever, message.right_lever_up
        if lever is not None and lever != message.right_lever_up:
            pressed_side = "left" if message.right_lever_up else "right"
            player = "white" if pressed_side == self.white_side else "black"
            events.append(ButtonPressed(button=player, t=message.t))
        return events


def _reframe(item: Frame) -> bytes:
    size = len(item.payload) + 3
    return bytes((0x80 | item.message_id, size >> 7, size & 0x7F)) + item.payload


def _battery(payload: bytes, t: float) -> Battery:
    percent, left_h, left_m, on_h, on_m, sb_d, sb_h, sb_m, status = payload
    time_left = None if 0x7F in (left_h, left_m) else left_h * 60 + left_m
    return Battery(
        percent=percent, time_left=time_left, on_time=on_h * 60 + on_m,
        standby=(sb_d * 24 + sb_h) * 60 + sb_m,
        charging=bool(status & 1), discharging=bool(status & 2), t=t,
    )

