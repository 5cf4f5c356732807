"""Millennium ChessLink: a sans-IO codec for the boards' odd-parity ASCII frames.

A frame is a letter, its data as ASCII and the XOR of those characters as two
hex digits, every byte carrying an odd-parity bit in bit 7 (7O1 on the wire).
The host sends upper-case commands; the board answers with the lower-case
letter, and may push status frames (`s` + 64 piece letters) at any time, even
between a command and its reply. Status frames are full snapshots: they go
through `SnapshotDiffer`, so the recognizer sees lifts and places; the first
one after a `RequestBoard` is passed on whole as a resync.

The framing helpers (`encode_frame`, `FrameReader`) are shared with the
firmware model in `eboard960.emulators.chesslink`, which reads the host's
side of the same format.
"""

from __future__ import annotations

import enum
import functools
import reprlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import chess

from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.errors import ProtocolError
from eboard960.events import BoardSnapshot
from eboard960.snapshots import SnapshotDiffer

HEX_DIGITS = frozenset("0123456789ABCDEFabcdef")
PIECE_LETTERS = frozenset(".KQRBNPkqrbnp")
LED_COUNT = 81
STATUS_SQUARES = 64
SquareOrder = Literal["h1-first", "a8-first"]
SQUARE_ORDERS: tuple[SquareOrder, ...] = ("h1-first", "a8-first")


class ChessLinkError(ProtocolError):
    """A ChessLink command that cannot be encoded, or a codec setting that does not exist."""


# --- Registers (EEPROM addresses written with W, read with R) -------------------------------

REG_CHECK_OFF = 0x00
REG_SCAN_TIME = 0x01
REG_AUTO_REPORT = 0x02
REG_REPORT_INTERVAL = 0x03
REG_BRIGHTNESS = 0x04
SCAN_UNIT_S = 0.002048
INTERVAL_UNIT_S = 0.004096
LED_SLOT_UNIT_S = 0.004096


class AutoReport(enum.IntEnum):
    """Register 02, bits 2..0: when the board sends status frames on its own."""

    EVERY_SCAN = 0b000
    OFF = 0b001
    TIMED = 0b010
    ON_CHANGE = 0b011
    STABLE_2 = 0b100
    STABLE_3 = 0b101
    STABLE_4 = 0b110
    STABLE_5 = 0b111


# --- Bytes: parity, check value, frames ------------------------------------------------------


def with_parity(char: int) -> int:
    """The 7-bit `char` with bit 7 set so that the byte has an odd number of ones."""
    return char | (0x80 if (char & 0x7F).bit_count() % 2 == 0 else 0)


def has_odd_parity(byte: int) -> bool:
    return byte.bit_count() % 2 == 1


def check_value(text: str) -> int:
    """XOR of the 7-bit characters from the letter to the last data character."""
    value = 0
    for char in text:
        value ^= ord(char) & 0x7F
    return value


def encode_frame(letter: str, data: str = "") -> bytes:
    """Letter + data + check as two upper-case hex digits, every byte with odd parity."""
    text = letter + data
    text += f"{check_value(text):02X}"
    return bytes(with_parity(ord(char)) for char in text)


def _hex_byte(value: int, what: str) -> str:
    if not 0 <= value <= 0xFF:
        raise ChessLinkError(f"ChessLink {what} must be 0..255, not {value}")
    return f"{value:02X}"


_LENIENT = bytes(b & 0x7F for b in range(256))
# A byte with even parity becomes NUL, which no frame can contain, so the frame breaks there.
_STRICT = bytes((b & 0x7F) if has_odd_parity(b) else 0 for b in range(256))


@dataclass(frozen=True, slots=True)
class FrameShape:
    """How many data characters follow a frame's letter, and which characters they may be."""

    length: int
    alphabet: frozenset[str] = HEX_DIGITS


class FrameReader:
    """Cuts a byte stream into valid frames, skipping garbage one byte at a time.

    A candidate frame is dropped as soon as one of its characters cannot belong
    to it, and a complete one is dropped when its check value is wrong; in both
    cases the search restarts one byte later, so a real frame hidden behind a
    garbage letter is still found. Unparsed bytes never exceed one frame.
    """

    def __init__(
        self,
        shapes: Mapping[str, FrameShape],
        *,
        strict_parity: bool = False,
        verify_check: bool = True,
    ) -> None:
        self._shapes = dict(shapes)
        self._table = _STRICT if strict_parity else _LENIENT
        self.verify_check = verify_check
        self._buffer = ""
        self.discarded = 0
        self.max_frame = max(shape.length for shape in self._shapes.values()) + 3

    @property
    def buffered(self) -> int:
        """Characters held back waiting for the rest of a frame."""
        return len(self._buffer)

    def clear(self) -> None:
        self.discarded += len(self._buffer)
        self._buffer = ""

    def feed(self, data: bytes) -> list[tuple[str, str]]:
        """The (letter, data) of every valid frame completed by `data`, in order."""
        text = self._buffer + bytes(data).translate(self._table).decode("latin-1")
        frames: list[tuple[str, str]] = []
        start = 0
        while start < len(text):
            shape = self._shapes.get(text[start])
            if shape is None or not self._plausible(text, start, shape):
                start += 1
                self.discarded += 1
                continue
            end = start + shape.length + 3
            if end > len(text):
                break
            frame = text[start:end]
            if self.verify_check and int(frame[-2:], 16) != check_value(frame[:-2]):
                start += 1
                self.discarded += 1
                continue
            frames.append((frame[0], frame[1:-2]))
            start = end
        self._buffer = text[start:]
        return frames

    @staticmethod
    def _plausible(text: str, start: int, shape: FrameShape) -> bool:
        data_end = start + 1 + shape.length
        data = text[start + 1 : data_end]
        check = text[data_end : data_end + 2]
        return all(c in shape.alphabet for c in data) and all(c in HEX_DIGITS for c in check)


# --- Square order and LED geometry ----------------------------------------------------------


def _check_order(order: str) -> None:
    if order not in SQUARE_ORDERS:
        known = ", ".join(SQUARE_ORDERS)
        raise ChessLinkError(f"unknown ChessLink square order {reprlib.repr(order)} (known: {known})")


def _turned(square: chess.Square) -> chess.Square:
    """The same square seen from the other side of the board (a 180° turn)."""
    return 63 - square


@functools.cache
def status_squares(order: SquareOrder = "h1-first") -> tuple[chess.Square, ...]:
    """The square each of the 64 status characters describes.

    "h1-first" (character 0 = h1, then g1 .. a1, h2 ..) is what three
    independent implementations read; "a8-first" is the spec's wording taken
    literally, i.e. the same board turned round.
    """
    _check_order(order)
    squares = [chess.square(7 - index % 8, index // 8) for index in range(STATUS_SQUARES)]
    if order == "a8-first":
        squares = [_turned(square) for square in squares]
    return tuple(squares)


def square_leds(square: chess.Square, order: SquareOrder = "h1-first") -> tuple[int, ...]:
    """0-based indices of the four LEDs at the corners of `square`."""
    _check_order(order)
    if order == "a8-first":
        square = _turned(square)
    column, rank = 7 - chess.square_file(square), chess.square_rank(square)
    return (
        column * 9 + rank,
        column * 9 + rank + 1,
        (column + 1) * 9 + rank,
        (column + 1) * 9 + rank + 1,
    )


# --- Commands (host -> board) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestVersion:
    """Ask for the firmware version (`V`); answered by `VersionReported`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestStatus:
    """Poll one status frame (`S`) without starting a resync: changes arrive as lifts/places."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LedPattern:
    """Every LED's 8-step blink pattern (bit 7 first), each step `slot_time` × 4.096 ms.

    `patterns` holds 81 bytes in the board's LED numbering (column by column,
    see `square_leds`); `for_squares` builds one from chess squares.
    """

    patterns: tuple[int, ...]
    slot_time: int = 0x32

    def __post_init__(self) -> None:
        if len(self.patterns) != LED_COUNT:
            raise ChessLinkError(f"a ChessLink LED pattern has 81 LEDs, not {len(self.patterns)}")
        for value in (*self.patterns, self.slot_time):
            _hex_byte(value, "LED pattern byte or slot time")

    @classmethod
    def for_squares(
        cls,
        squares: Mapping[chess.Square, int] | Iterable[chess.Square],
        *,
        pattern: int = 0xFF,
        slot_time: int = 0x32,
        order: SquareOrder = "h1-first",
    ) -> LedPattern:
        """Light the corners of each square; a mapping gives each square its own pattern.

        Neighbouring squares share corners; their patterns are OR-ed there.
        """
        wanted = squares if isinstance(squares, Mapping) else dict.fromkeys(squares, pattern)
        leds = [0] * LED_COUNT
        for square, blink in wanted.items():
            if square not in chess.SQUARES:
                raise ChessLinkError(f"{square!r} is not a square number 0..63")
            for led in square_leds(square, order):
                leds[led] |= blink
        return cls(patterns=tuple(leds), slot_time=slot_time)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClearLeds:
    """Turn every LED off (`X`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ResetBoard:
    """Restart the board (`T`): no reply; it comes back about 3 s later with LEDs off."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WriteRegister:
    """Write one EEPROM byte (`W`); the board echoes it as `RegisterWritten`."""

    address: int
    value: int

    def __post_init__(self) -> None:
        _hex_byte(self.address, "register address")
        _hex_byte(self.value, "register value")

    @classmethod
    def auto_report(cls, mode: AutoReport) -> WriteRegister:
        return cls(address=REG_AUTO_REPORT, value=int(mode))

    @classmethod
    def scan_time(cls, units: int) -> WriteRegister:
        """Scan period in 2.048 ms units (15..255; the board turns lower values into 20)."""
        return cls(address=REG_SCAN_TIME, value=units)

    @classmethod
    def report_interval(cls, units: int) -> WriteRegister:
        """Period of `AutoReport.TIMED` in 4.096 ms units."""
        return cls(address=REG_REPORT_INTERVAL, value=units)

    @classmethod
    def brightness(cls, level: int) -> WriteRegister:
        """LED brightness: 0 dim .. 15 and above full."""
        return cls(address=REG_BRIGHTNESS, value=level)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadRegister:
    """Read one EEPROM byte (`R`); answered by `RegisterRead`."""

    address: int

    def __post_init__(self) -> None:
        _hex_byte(self.address, "register address")


ChessLinkCommand = (
    RequestVersion | RequestStatus | LedPattern | ClearLeds | ResetBoard | WriteRegister | ReadRegister
)


# --- Replies (board -> host) that are not square events -------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class VersionReported:
    """The `v` reply: firmware version high and low byte."""

    major: int
    minor: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class LedsSet:
    """The `l` reply: an LED pattern was taken."""

    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class LedsCleared:
    """The `x` reply: every LED is off."""

    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterWritten:
    """The `w` reply: the board's echo of a register write."""

    address: int
    value: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterRead:
    """The `r` reply: a register's value."""

    address: int
    value: int
    t: float = 0.0


ChessLinkReply = VersionReported | LedsSet | LedsCleared | RegisterWritten | RegisterRead

HOST_FRAMES: dict[str, FrameShape] = {
    "V": FrameShape(0),
    "S": FrameShape(0),
    "L": FrameShape(2 + 2 * LED_COUNT),
    "X": FrameShape(0),
    "T": FrameShape(0),
    "W": FrameShape(4),
    "R": FrameShape(2),
}
BOARD_FRAMES: dict[str, FrameShape] = {
    "v": FrameShape(4),
    "s": FrameShape(STATUS_SQUARES, PIECE_LETTERS),
    "l": FrameShape(0),
    "x": FrameShape(0),
    "w": FrameShape(4),
    "r": FrameShape(4),
}


def status_text(pieces: Mapping[chess.Square, chess.Piece], order: SquareOrder = "h1-first") -> str:
    """The 64 status characters for a board holding `pieces`."""
    return "".join(pieces[square].symbol() if square in pieces else "." for square in status_squares(order))


def parse_status(text: str, order: SquareOrder = "h1-first", t: float = 0.0) -> BoardSnapshot:
    """The snapshot described by 64 status characters."""
    if len(text) != STATUS_SQUARES or not set(text) <= PIECE_LETTERS:
        raise ChessLinkError(f"a ChessLink status is 64 piece letters or '.', not {text!r}")
    pieces = {
        square: chess.Piece.from_symbol(char)
        for square, char in zip(status_squares(order), text, strict=True)
        if char != "."
    }
    return BoardSnapshot.from_pieces(pieces, t)


# --- The codec ------------------------------------------------------------------------------


class ChessLinkCodec:
    """Bytes from a ChessLink board in, events out; commands in, bytes out.

    Settings: `order` is the status square order ("h1-first" is the
    best-supported reading, see the protocol notes); `strict_parity` drops
    bytes whose parity bit is wrong instead of masking bit 7 away (some
    emulators send no parity bits at all, so the default is lenient);
    `updates` is the auto-report mode `EnableUpdates` selects.
    """

    def __init__(
        self,
        *,
        order: SquareOrder = "h1-first",
        strict_parity: bool = False,
        updates: AutoReport = AutoReport.ON_CHANGE,
    ) -> None:
        _check_order(order)
        self.order = order
        self.updates = AutoReport(updates)
        self._reader = FrameReader(BOARD_FRAMES, strict_parity=strict_parity)
        self._differ = SnapshotDiffer()

    @property
    def buffered(self) -> int:
        """Bytes held back waiting for the rest of a frame (at most one frame's worth)."""
        return self._reader.buffered

    @property
    def discarded(self) -> int:
        """Bytes skipped as garbage so far."""
        return self._reader.discarded

    @property
    def last_snapshot(self) -> BoardSnapshot | None:
        return self._differ.last

    def receive_data(self, data: bytes, t: float = 0.0) -> list[Any]:
        """Events carried by the bytes the board sent at time `t`, in the board's order."""
        events: list[Any] = []
        for letter, text in self._reader.feed(data):
            events.extend(self._decode(letter, text, t))
        return events

    def _decode(self, letter: str, text: str, t: float) -> list[Any]:
        if letter == "s":
            snapshot = parse_status(text, self.order, t)
            return list(self._differ.diff(snapshot))
        if letter == "v":
            return [VersionReported(major=int(text[:2], 16), minor=int(text[2:], 16), t=t)]
        if letter == "l":
            return [LedsSet(t=t)]
        if letter == "x":
            return [LedsCleared(t=t)]
        address, value = int(text[:2], 16), int(text[2:], 16)
        if letter == "w":
            return [RegisterWritten(address=address, value=value, t=t)]
        return [RegisterRead(address=address, value=value, t=t)]

    def send(self, command: Any) -> bytes:
        """The bytes for one command (board-neutral or ChessLink-specific)."""
        match command:
            case RequestBoard():
                self._differ.reset()
                return encode_frame("S")
            case RequestStatus():
                return encode_frame("S")
            case EnableUpdates():
                return self.send(WriteRegister.auto_report(self.updates))
            case SetLeds(squares=squares) if not squares:
                return encode_frame("X")
            case SetLeds(squares=squares):
                return self.send(LedPattern.for_squares(squares, order=self.order))
            case RequestVersion():
                return encode_frame("V")
            case LedPattern(patterns=patterns, slot_time=slot_time):
                return encode_frame("L", f"{slot_time:02X}" + "".join(f"{p:02X}" for p in patterns))
            case ClearLeds():
                return encode_frame("X")
            case ResetBoard():
                self._differ.reset()
                return encode_frame("T")
            case WriteRegister(address=address, value=value):
                return encode_frame("W", f"{address:02X}{value:02X}")
            case ReadRegister(address=address):
                return encode_frame("R", f"{address:02X}")
        raise ChessLinkError(f"the ChessLink codec cannot send {command!r}")
