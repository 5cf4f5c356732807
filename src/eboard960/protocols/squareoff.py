"""Square Off Pro / Neo over BLE (Nordic UART): ASCII `code#body*` messages.

The board sends `0#e2u*` / `0#e4d*` as pieces leave and arrive, and a
64-character `0`/`1` occupancy string (`30#…*`, file by file: a1, a2, …, a8,
b1, …, h8) when asked. Messages may be followed by CR LF, which is skipped.
Anything that cannot begin a message is dropped byte by byte; a cut message
still waiting after `stale_after` seconds when new bytes arrive was noise,
and the codec resyncs inside the bytes it held.

Lift/place messages pass straight through as events. The board sends its
occupancy only when asked (`RequestBoard`, at connect and after every
reconnect), so every occupancy reply is passed on whole as a resync
`BoardSnapshot`: the recognizer compares it with the game, which also
catches a message lost on the way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

import chess

from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.errors import ProtocolError
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols.stale import StaleBuffer


class SquareOffError(ProtocolError):
    """A command the Square Off protocol cannot express."""


# Index i of an occupancy string is file i // 8, rank i % 8.
OCCUPANCY_SQUARES: tuple[chess.Square, ...] = tuple(
    chess.square(index // 8, index % 8) for index in range(64)
)
MAX_BODY = 64
MAX_MESSAGE_SIZE = 3 + MAX_BODY + 1
# Only the codes FACTS lists are read as messages, so a stray digit before a
# message cannot turn `0#e2u*` into an unknown code `50`.
_CODES = rb"(?:0|1|4|14|22|25|26|27|30|!)"
_BODY = rb"[\x20-\x22\x24-\x29\x2b-\x7e]{0,64}"  # printable ASCII but '#' and '*'
_MESSAGE = re.compile(rb"(" + _CODES + rb")#(" + _BODY + rb")\*")
_PREFIX = re.compile(rb"(?:" + _CODES + rb"#" + _BODY + rb"|[0-9]{1,2}|!)?")
_SQUARE_EVENT = re.compile(r"([a-h][1-8])([ud])")
_MAC = re.compile(r"[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}")
_VOLTS = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_LINE_END = b"\r\n"
STRICT_CODES = frozenset({"0", "30", "22", "1"})
"""Codes whose body has one known shape: any other body there is noise, not a message."""

LineEnding = Literal["", "\r\n"]


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted:
    """`14#GO*`: the Pro's answer to a new game."""

    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class BatteryVoltage:
    """`22#3.52*`: most likely the cell voltage."""

    volts: float
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class BatteryReport:
    """`4#<value>*` (Neo): the format is not documented, so the text is kept."""

    value: str
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class MacAddress:
    """`1#XX:XX:XX:XX:XX:XX*`."""

    address: str
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class OtherMessage:
    """A well-formed message whose code or body this codec does not know."""

    code: str
    body: str
    t: float = 0.0


# Protocol-specific commands (the common ones are in eboard960.commands).


@dataclass(frozen=True, slots=True, kw_only=True)
class NewGame:
    """`14#1*`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ExpectOccupancy:
    """`30#<64 × 0/1>*`: tell the board which squares should be occupied."""

    occupied: chess.Bitboard


@dataclass(frozen=True, slots=True, kw_only=True)
class StatusLed:
    """`26#ISR*` / `ISG` / `ISB` (Pro): the status LED's colour."""

    colour: str = "green"


@dataclass(frozen=True, slots=True, kw_only=True)
class Announce:
    """`27#ck*`, `27#wt*`, `27#bl*`, `27#dw*`: check (a beep) or a game result."""

    what: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestBattery:
    """`4#*`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestMac:
    """`1#*`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStartNotice:
    """`!#*`, which the official app sends when a game starts (meaning unknown)."""


STATUS_COLOURS = {"red": "ISR", "green": "ISG", "blue": "ISB"}
ANNOUNCEMENTS = {"check": "ck", "white_wins": "wt", "black_wins": "bl", "draw": "dw"}


def occupancy_text(occupied: chess.Bitboard) -> str:
    """The 64-character string, file by file from a1."""
    return "".join("1" if occupied & chess.BB_SQUARES[sq] else "0" for sq in OCCUPANCY_SQUARES)


def parse_occupancy(text: str) -> chess.Bitboard | None:
    if len(text) != 64 or set(text) - {"0", "1"}:
        return None
    occupied = 0
    for square, char in zip(OCCUPANCY_SQUARES, text, strict=True):
        if char == "1":
            occupied |= chess.BB_SQUARES[square]
    return occupied


def message(code: str, body: str = "") -> bytes:
    return f"{code}#{body}*".encode("ascii")


class SquareOffCodec(StaleBuffer):
    """Sans-IO codec for Square Off Pro and Neo.

    Settings: `line_ending` appended to every command ("" as the squareoffdriver
    sends them, or "\\r\\n" as CircleOn does); `stale_after`, how long (seconds)
    a partial message may wait for its continuation.
    """

    def __init__(self, *, line_ending: LineEnding = "", stale_after: float = 0.5) -> None:
        if line_ending not in ("", "\r\n"):
            raise SquareOffError(f"line ending must be '' or CR LF, not {line_ending!r}")
        super().__init__(stale_after=stale_after)
        self.line_ending = line_ending.encode()

    def _parse(self, t: float, events: list[Any], *, stale: bool) -> None:
        """Decode whole messages from the buffer; a cut one waits, unless it is `stale`."""
        while self._buffer:
            if self._buffer[0] in _LINE_END:
                del self._buffer[0]
                continue
            found = _MESSAGE.match(self._buffer)
            # mypy cannot count the two groups passed as *generator
            decoded = self._decode(*(p.decode("ascii") for p in found.groups()), t) if found else None  # type: ignore[call-arg, arg-type]
            if found and decoded is not None:
                events.extend(decoded)
                del self._buffer[: found.end()]
            elif not stale and _PREFIX.fullmatch(self._buffer):
                break
            else:
                del self._buffer[0]
                self.discarded += 1
            self._since = t

    def _decode(self, code: str, body: str, t: float) -> list[Any] | None:
        """The events of one message; None when a code with a known body has another body.

        Refusing those (rather than passing them on as `OtherMessage`) lets a
        stray `3` before `0#c3u*` be dropped instead of hiding the message.
        """
        if code == "0" and (event := _SQUARE_EVENT.fullmatch(body)):
            square = chess.parse_square(event[1])
            return [PiecePlaced(square=square, t=t) if event[2] == "d" else PieceLifted(square=square, t=t)]
        if code == "30" and (occupied := parse_occupancy(body)) is not None:
            return [BoardSnapshot(occupied=occupied, t=t)]
        if code == "14" and body == "GO":
            return [GameStarted(t=t)]
        if code == "22" and _VOLTS.fullmatch(body):
            return [BatteryVoltage(volts=float(body), t=t)]
        if code == "4" and body:
            return [BatteryReport(value=body, t=t)]
        if code == "1" and _MAC.fullmatch(body):
            return [MacAddress(address=body.upper(), t=t)]
        if code in STRICT_CODES:
            return None
        return [OtherMessage(code=code, body=body, t=t)]

    def send(self, command: Any) -> bytes:
        return self._encode(command) + self.line_ending

    def _encode(self, command: Any) -> bytes:
        if isinstance(command, RequestBoard):
            return message("30", "R")
        if isinstance(command, EnableUpdates | NewGame):
            # The board reports lifts and drops once a game is started.
            return message("14", "1")
        if isinstance(command, SetLeds):
            if any(not 0 <= square < 64 for square in command.squares):
                raise SquareOffError(f"LED squares must be 0..63, got {sorted(command.squares)}")
            return message("25", "".join(chess.square_name(sq) for sq in sorted(command.squares)))
        if isinstance(command, ExpectOccupancy):
            if not 0 <= command.occupied <= chess.BB_ALL:
                raise SquareOffError("an occupancy is a 64-bit bitboard")
            return message("30", occupancy_text(command.occupied))
        if isinstance(command, StatusLed):
            if command.colour not in STATUS_COLOURS:
                raise SquareOffError(f"status LED colour must be red, green or blue, not {command.colour!r}")
            return message("26", STATUS_COLOURS[command.colour])
        if isinstance(command, Announce):
            if command.what not in ANNOUNCEMENTS:
                known = ", ".join(ANNOUNCEMENTS)
                raise SquareOffError(f"cannot announce {command.what!r} (known: {known})")
            return message("27", ANNOUNCEMENTS[command.what])
        if isinstance(command, RequestBattery):
            return message("4")
        if isinstance(command, RequestMac):
            return message("1")
        if isinstance(command, GameStartNotice):
            return message("!")
        raise SquareOffError(f"the Square Off protocol has no command {type(command).__name__}")
