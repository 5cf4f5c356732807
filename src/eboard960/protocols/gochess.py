"""GoChess XR / Mini / Lite over BLE (Nordic UART): presence-only Hall sensors.

The board mixes short unframed notifications (`81d`: row 8, column 1, piece
down; `03` + 8-byte bitboard; `0C` + border bitmaps; `Ver` + version byte)
with framed replies `2A LEN TYPE data SUM 0D 0A`. Every message is at most 9
bytes, so it always fits in one notification (even at the smallest MTU's 20
bytes), and `receive_data` takes one notification. Its first byte says
what it is: a binary message must fill the notification exactly; anything
else is read as a run of ASCII events, dropping bytes that start none. So a
corrupted notification cannot reach into the next one, and `03` followed by
any 8 bytes inside noise is not taken for the board.

Piece events pass straight through as lift/place events. The board sends its
occupancy only when asked (`RequestBoard`, at connect and after every
reconnect), so every board-state reply is passed on whole as a resync
`BoardSnapshot`: the recognizer compares it with the game, which also
catches a notification lost on the way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import chess

from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.errors import ProtocolError
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced


class GoChessError(ProtocolError):
    """A command the GoChess protocol cannot express."""


BOARD_STATE = 0x03
BORDER_STATE = 0x0C
FRAME_START = 0x2A
FRAME_END = b"\r\n"
VERSION_PREFIX = b"Ver"
BORDER_SIDES = {ord("t"): "top", ord("b"): "bottom", ord("l"): "left", ord("r"): "right"}
SIDE_LETTERS = {side: chr(letter) for letter, side in BORDER_SIDES.items()}
DIGITS = frozenset(b"12345678")
BINARY_STARTS = frozenset({0x03, 0x0C, 0x2A, ord("V")})
UP_DOWN = frozenset(b"ud")
MAX_MESSAGE_SIZE = 16
# Framed reply types: what each one measures and how many data bytes it has.
FRAMED_TYPES = {0x01: 1, 0x02: 2, 0x04: 2, 0x07: 1, 0x0B: 1}


@dataclass(frozen=True, slots=True, kw_only=True)
class BorderEvent:
    """A piece put on (`down`) or taken from a border slot of the XR (1..10 along `side`)."""

    side: str
    slot: int
    down: bool
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class BorderState:
    """Occupied border slots as bitmasks (bit 0 = slot 1); top/bottom 8 slots, sides 10."""

    top: int
    bottom: int
    left: int
    right: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class FirmwareVersion:
    """`Ver` + one byte: 0x04 on the XR, 0x03 on the Mini and Lite."""

    version: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class BatteryPercent:
    percent: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class BatteryMillivolts:
    millivolts: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class CurrentMicroamps:
    microamps: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Charging:
    charging: bool
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Chamber:
    """Framed type `0B`, a 0/1 flag the SDK calls "chamber"."""

    closed: bool
    t: float = 0.0


# Protocol-specific commands (single bytes unless they carry data).


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestBattery:
    """`39` -> BatteryPercent."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestBatteryMillivolts:
    """`3A` -> BatteryMillivolts."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestCharging:
    """`3D` -> Charging."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestCurrent:
    """`3C` -> CurrentMicroamps."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestVersion:
    """`76` ("v") -> FirmwareVersion."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestBorder:
    """`22` -> BorderState (XR only)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LedsColour:
    """`32`: light `squares` in one colour; `overwrite` turns every other square off."""

    squares: frozenset[chess.Square] = frozenset()
    rgb: tuple[int, int, int] = (0, 255, 0)
    overwrite: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class LedGroups:
    """`34`: several groups of squares, each with its colour; clears all LEDs first."""

    groups: tuple[tuple[frozenset[chess.Square], tuple[int, int, int]], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class LedFollowsSensor:
    """`33 0|1`: the board lights a square while a piece is lifted from it."""

    on: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class LedMode:
    """`36 0|1|2`."""

    mode: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LedPattern:
    """`37` or `38`: one of the two built-in LED patterns (the SDK gives them no names)."""

    code: int = 0x37


@dataclass(frozen=True, slots=True, kw_only=True)
class InterruptMask:
    """`3B` + 8 bytes: the squares that report lift/place events (a bitboard)."""

    squares: chess.Bitboard = chess.BB_ALL


SIMPLE_COMMANDS: dict[type, int] = {
    RequestBattery: 0x39,
    RequestBatteryMillivolts: 0x3A,
    RequestCharging: 0x3D,
    RequestCurrent: 0x3C,
    RequestVersion: 0x76,
    RequestBorder: 0x22,
}


def square_mask(squares: frozenset[chess.Square]) -> bytes:
    """Bytes 1-8 of the `32` command: rows 1-4 then rows 5-8, each a 32-bit LE mask."""
    bits = 0
    for square in squares:
        bits |= 1 << square  # bit (row-1)*8 + (col-1) is python-chess's square index
    return bits.to_bytes(8, "little")


def board_state_bytes(occupied: chess.Bitboard) -> bytes:
    """The `03` reply: byte k is rank k+1, bit c is file c."""
    return bytes([BOARD_STATE]) + occupied.to_bytes(8, "little")


def piece_event_bytes(square: chess.Square, down: bool) -> bytes:
    """`<row><col><d|u>` in ASCII digits."""
    row, col = chess.square_rank(square) + 1, chess.square_file(square) + 1
    return f"{row}{col}{'d' if down else 'u'}".encode()


def framed(frame_type: int, data: bytes) -> bytes:
    """`2A LEN TYPE data SUM 0D 0A`; LEN counts from 2A through SUM."""
    body = bytes([FRAME_START, 4 + len(data), frame_type]) + data
    return body + bytes([sum(body) & 0xFF]) + FRAME_END


def border_event_bytes(side: str, slot: int, down: bool) -> bytes:
    return f"{SIDE_LETTERS[side]}{slot}{'d' if down else 'u'}".encode()


def border_state_bytes(top: int, bottom: int, left: int, right: int) -> bytes:
    """`0C` + top, bottom, left slots 1-8, left 9-10, right 1-8, right 9-10."""
    return bytes([BORDER_STATE, top, bottom, left & 0xFF, left >> 8, right & 0xFF, right >> 8])


def _colour(rgb: tuple[int, int, int]) -> bytes:
    if len(rgb) != 3 or any(not 0 <= c <= 255 for c in rgb):
        raise GoChessError(f"an LED colour is three values 0..255, not {rgb!r}")
    return bytes(rgb)


def _check_squares(squares: frozenset[chess.Square]) -> None:
    if any(not 0 <= square < 64 for square in squares):
        raise GoChessError(f"LED squares must be 0..63, got {sorted(squares)}")


class GoChessCodec:
    """Sans-IO codec for GoChess boards.

    Settings: `led_rgb`, the colour `SetLeds` lights squares in.
    """

    def __init__(self, *, led_rgb: tuple[int, int, int] = (0, 255, 0)) -> None:
        self.led_rgb = cast(tuple[int, int, int], tuple(_colour(led_rgb)))  # three values, as _colour checked
        self.discarded = 0

    @property
    def buffered(self) -> int:
        """Always 0: nothing is carried from one notification to the next."""
        return 0

    def receive_data(self, data: bytes, t: float = 0.0) -> list[Any]:
        """Decode one notification: a whole binary message, or a run of ASCII events."""
        data = bytes(data)
        if not data:
            return []
        if data[0] in BINARY_STARTS:
            event = _binary_message(data, t)
            if event is None:
                self.discarded += len(data)
                return []
            return [event]
        events: list[Any] = []
        at = 0
        while at < len(data):
            size = _ascii_event(data, at, t, events)
            if size == 0:
                self.discarded += 1
                size = 1
            at += size
        return events

    def send(self, command: Any) -> bytes:
        if isinstance(command, RequestBoard):
            return bytes([0x35])
        if isinstance(command, EnableUpdates):
            return self.send(InterruptMask())
        if isinstance(command, SetLeds):
            return self.send(LedsColour(squares=command.squares, rgb=self.led_rgb))
        if type(command) in SIMPLE_COMMANDS:
            return bytes([SIMPLE_COMMANDS[type(command)]])
        if isinstance(command, LedsColour):
            _check_squares(command.squares)
            return (
                bytes([0x32])
                + square_mask(command.squares)
                + _colour(command.rgb)
                + bytes([int(command.overwrite)])
            )
        if isinstance(command, LedGroups):
            return bytes([0x34]) + b"".join(_group_bytes(sq, rgb) for sq, rgb in command.groups)
        if isinstance(command, LedFollowsSensor):
            return bytes([0x33, int(command.on)])
        if isinstance(command, LedMode):
            if command.mode not in (0, 1, 2):
                raise GoChessError(f"LED mode must be 0, 1 or 2, not {command.mode!r}")
            return bytes([0x36, command.mode])
        if isinstance(command, LedPattern):
            if command.code not in (0x37, 0x38):
                raise GoChessError(f"the LED patterns are 0x37 and 0x38, not {command.code!r}")
            return bytes([command.code])
        if isinstance(command, InterruptMask):
            if not 0 <= command.squares <= chess.BB_ALL:
                raise GoChessError("an interrupt mask is a 64-bit bitboard")
            return bytes([0x3B]) + command.squares.to_bytes(8, "little")
        raise GoChessError(f"the GoChess protocol has no command {type(command).__name__}")


def _binary_message(data: bytes, t: float) -> Any:
    """The event of a notification that starts like a binary message, or None if it is not one.

    The first byte says what the whole notification is; its length must then
    be that message's exact length.
    """
    first = data[0]
    if first == BOARD_STATE and len(data) == 9:
        occupied = int.from_bytes(data[1:9], "little")
        # A chess set has 32 men: more occupied squares than that is noise.
        return BoardSnapshot(occupied=occupied, t=t) if chess.popcount(occupied) <= 32 else None
    if first == BORDER_STATE and len(data) == 7:
        b = data
        return BorderState(top=b[1], bottom=b[2], left=b[3] | b[4] << 8, right=b[5] | b[6] << 8, t=t)
    if data[:3] == VERSION_PREFIX and len(data) == 4:
        return FirmwareVersion(version=data[3], t=t)
    if first == FRAME_START and len(data) >= 3:
        length, frame_type = data[1], data[2]
        if (
            FRAMED_TYPES.get(frame_type, -1) + 4 == length
            and len(data) == length + len(FRAME_END)
            and sum(data[: length - 1]) & 0xFF == data[length - 1]
            and data[length:] == FRAME_END
        ):
            return _framed_event(frame_type, int.from_bytes(data[3 : length - 1], "big"), t)
    return None


def _ascii_event(data: bytes, at: int, t: float, events: list[Any]) -> int:
    """Decode the piece or border event at `at`: its size, or 0 if none starts there."""
    first, rest = data[at], data[at + 1 : at + 4]
    if first in DIGITS and len(rest) >= 2 and rest[0] in DIGITS and rest[1] in UP_DOWN:
        square = chess.square(rest[0] - ord("1"), first - ord("1"))
        down = rest[1] == ord("d")
        events.append(PiecePlaced(square=square, t=t) if down else PieceLifted(square=square, t=t))
        return 3
    if first in BORDER_SIDES:
        # <side><1-9><d|u> or <side>10<d|u>
        if rest[:2] == b"10" and rest[2:3] and rest[2] in UP_DOWN:
            slot, end, size = 10, rest[2], 4
        elif len(rest) >= 2 and rest[0] in DIGITS | {ord("9")} and rest[1] in UP_DOWN:
            slot, end, size = rest[0] - ord("0"), rest[1], 3
        else:
            return 0
        events.append(BorderEvent(side=BORDER_SIDES[first], slot=slot, down=end == ord("d"), t=t))
        return size
    return 0


def _group_bytes(squares: frozenset[chess.Square], rgb: tuple[int, int, int]) -> bytes:
    _check_squares(squares)
    if not 0 < len(squares) < 65:
        raise GoChessError("an LED group needs 1..64 squares")
    cells = bytes((chess.square_rank(sq) + 1) << 4 | (chess.square_file(sq) + 1) for sq in sorted(squares))
    return bytes([len(squares)]) + cells + _colour(rgb)


def _framed_event(frame_type: int, value: int, t: float) -> Any:
    if frame_type == 0x01:
        return BatteryPercent(percent=value, t=t)
    if frame_type == 0x02:
        return BatteryMillivolts(millivolts=value, t=t)
    if frame_type == 0x04:
        return CurrentMicroamps(microamps=value, t=t)
    if frame_type == 0x07:
        return Charging(charging=bool(value), t=t)
    return Chamber(closed=bool(value), t=t)
