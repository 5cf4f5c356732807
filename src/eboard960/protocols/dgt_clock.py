"""The DGT XL / DGT 3000 clock as seen through a DGT board.

The host talks to the clock by wrapping sub-commands in the board's
`CLOCK_MESSAGE` (0x2B); the clock answers inside the board's BWTIME message
(0x8D), either with its times or with an "ack" whose four bytes have their top
bits moved aside so that every wire byte stays below 0x80. Pure values and
bytes only: the board codec (`eboard960.protocols.dgt`) frames them, and the
emulator (`eboard960.emulators.dgt`) uses the same functions the other way
round.
"""

from __future__ import annotations

from dataclasses import dataclass

from eboard960.errors import ProtocolError

CLOCK_MESSAGE = 0x2B
START = 0x03
END_MARK = 0x00

SUB_DISPLAY = 0x01
SUB_ICONS = 0x02
SUB_END = 0x03
SUB_BUTTON = 0x08
SUB_VERSION = 0x09
SUB_SETNRUN = 0x0A
SUB_BEEP = 0x0B
SUB_ASCII = 0x0C
SUB_REV2_ASCII = 0x0D

ACK_OK = 0x10
ACK_ERROR = 0x40
ACK_READY = 0x81
ACK_BUTTON = 0x88

# DGT 3000 button codes (a3 of a button ack) -> (our button name, a2 bit mask).
BUTTON_CODES: dict[int, tuple[str, int]] = {
    0x31: ("back", 0x04),
    0x34: ("minus", 0x20),
    0x33: ("pause", 0x10),
    0x32: ("plus", 0x08),
    0x35: ("confirm", 0x40),
}
BUTTON_BY_NAME: dict[str, int] = {name: code for code, (name, _) in BUTTON_CODES.items()}
_BUTTON_BITS = 0x7C

# Seven-segment patterns of the DGT XL: bit 0 top, 1 upper right, 2 lower right,
# 3 bottom, 4 lower left, 5 upper left, 6 middle. Letters that have no
# readable lower- or upper-case shape are left out on purpose.
SEGMENTS: dict[str, int] = {
    "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66, "5": 0x6D, "6": 0x7D,
    "7": 0x07, "8": 0x7F, "9": 0x6F, "-": 0x40, " ": 0x00, "_": 0x08,
    "a": 0x77, "b": 0x7C, "c": 0x58, "d": 0x5E, "e": 0x7B, "f": 0x71, "g": 0x3D,
    "h": 0x74, "i": 0x04, "j": 0x1E, "l": 0x38, "n": 0x54, "o": 0x5C, "p": 0x73,
    "q": 0x67, "r": 0x50, "s": 0x6D, "t": 0x78, "u": 0x1C, "y": 0x6E,
}
# Reading back: where two characters share a pattern ("5" and "s"), the first listed wins.
_CHAR_OF_SEGMENTS: dict[int, str] = {bits: char for char, bits in reversed(SEGMENTS.items())}


class DgtError(ProtocolError):
    """Bytes that break the DGT protocol, or a command the DGT protocol cannot express."""


# ---------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockText:
    """Show up to 8 characters on a DGT 3000 (11 with `long=True`, Revelation II)."""

    text: str
    beep: int = 0
    long: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockSegments:
    """Show six seven-segment digits on a DGT XL, positions A..F left to right."""

    segments: tuple[int, ...]
    icons: int = 0
    beep: bool = False

    @classmethod
    def from_text(cls, text: str, icons: int = 0, beep: bool = False) -> ClockSegments:
        """Six characters from `SEGMENTS` (case-insensitive), padded with spaces."""
        if len(text) > 6:
            raise DgtError(f"a DGT XL shows 6 characters, {text!r} has {len(text)}")
        try:
            bits = tuple(SEGMENTS[char] for char in text.lower().ljust(6))
        except KeyError as error:
            raise DgtError(f"a DGT XL cannot show the character {error.args[0]!r}") from None
        return cls(segments=bits, icons=icons, beep=beep)

    def text(self) -> str:
        """Best reading of the segments ('?' for a pattern that is no known character)."""
        return "".join(_CHAR_OF_SEGMENTS.get(bits, "?") for bits in self.segments)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockIcons:
    """The DGT XL's icons: per side a symbol byte and a period byte, plus the special byte."""

    left: int = 0
    right: int = 0
    left_period: int = 0
    right_period: int = 0
    special: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockEnd:
    """Stop showing text and go back to the times."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockButtonRequest:
    """Ask which buttons are down."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockVersionRequest:
    """Ask the clock's version (major 2 means a DGT 3000)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockSetAndRun:
    """Set both times (seconds, under 10 hours) and which side counts down."""

    left: int
    right: int
    left_running: bool = False
    right_running: bool = False
    paused: bool = False
    switch_on_lever: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockBeep:
    """Beep for `units` x 64 ms."""

    units: int


ClockCommand = (
    ClockText | ClockSegments | ClockIcons | ClockEnd | ClockButtonRequest
    | ClockVersionRequest | ClockSetAndRun | ClockBeep
)


def _byte(value: int, what: str, top: int = 0x7F) -> int:
    if not 0 <= value <= top:
        raise DgtError(f"{what} must be 0..{top}, not {value}")
    return value


def _ascii(text: str, width: int) -> bytes:
    if len(text) > width:
        raise DgtError(f"the clock shows {width} characters, {text!r} has {len(text)}")
    if not all(" " <= char <= "~" for char in text):
        raise DgtError(f"the clock shows printable ASCII only, not {text!r}")
    return text.ljust(width).encode("ascii")


def _hms(seconds: int, side: str) -> bytes:
    if not 0 <= seconds < 10 * 3600:
        raise DgtError(f"the {side} time must be 0 s .. 9:59:59, not {seconds} s")
    return bytes((seconds // 3600, seconds // 60 % 60, seconds % 60))


def _content(command: ClockCommand) -> tuple[int, bytes]:
    match command:
        case ClockText(text=text, beep=beep, long=long):
            sub = SUB_REV2_ASCII if long else SUB_ASCII
            return sub, _ascii(text, 11 if long else 8) + bytes((_byte(beep, "beep", 15),))
        case ClockSegments(segments=segments, icons=icons, beep=beep):
            if len(segments) != 6:
                raise DgtError(f"a DGT XL display takes 6 segment bytes, not {len(segments)}")
            a, b, c, d, e, f = (_byte(bits, "a segment pattern") for bits in segments)
            return SUB_DISPLAY, bytes((c, b, a, f, e, d, _byte(icons, "icons"), 3 if beep else 1))
        case ClockIcons():
            values = (command.left, command.right, command.left_period, command.right_period,
                      command.special)
            return SUB_ICONS, bytes(_byte(v, "an icon byte") for v in values) + bytes(3)
        case ClockEnd():
            return SUB_END, b""
        case ClockButtonRequest():
            return SUB_BUTTON, b""
        case ClockVersionRequest():
            return SUB_VERSION, b""
        case ClockSetAndRun():
            flags = (command.left_running | command.right_running << 1 | command.paused << 2
                     | command.switch_on_lever << 3)
            body = _hms(command.left, "left") + _hms(command.right, "right")
            return SUB_SETNRUN, body + bytes((flags,))
        case ClockBeep(units=units):
            return SUB_BEEP, bytes((_byte(units, "beep units"),))
    raise DgtError(f"not a DGT clock command: {command!r}")


def encode_clock_command(command: ClockCommand) -> bytes:
    """The whole `2B <size> 03 <sub> <content> 00` message."""
    sub, content = _content(command)
    return bytes((CLOCK_MESSAGE, len(content) + 3, START, sub)) + content + bytes((END_MARK,))


def decode_clock_command(body: bytes) -> ClockCommand:
    """Parse what follows the size byte (`03 <sub> <content> 00`); the emulator's side."""
    if len(body) < 3 or body[0] != START or body[-1] != END_MARK:
        raise DgtError(f"a clock message must be 03 <sub> ... 00, got {body.hex(' ')}")
    sub, content = body[1], body[2:-1]
    expected = {SUB_DISPLAY: 8, SUB_ICONS: 8, SUB_END: 0, SUB_BUTTON: 0, SUB_VERSION: 0,
                SUB_SETNRUN: 7, SUB_BEEP: 1, SUB_ASCII: 9, SUB_REV2_ASCII: 12}
    if sub not in expected:
        raise DgtError(f"unknown clock sub-command 0x{sub:02x}")
    if len(content) != expected[sub]:
        raise DgtError(f"clock sub-command 0x{sub:02x} carries {expected[sub]} bytes, "
                       f"not {len(content)}")
    match sub:
        case 0x01:
            c, b, a, f, e, d, icons, beep = content
            return ClockSegments(segments=(a, b, c, d, e, f), icons=icons, beep=beep == 3)
        case 0x02:
            return ClockIcons(left=content[0], right=content[1], left_period=content[2],
                              right_period=content[3], special=content[4])
        case 0x03:
            return ClockEnd()
        case 0x08:
            return ClockButtonRequest()
        case 0x09:
            return ClockVersionRequest()
        case 0x0A:
            lh, lm, ls, rh, rm, rs, flags = content
            return ClockSetAndRun(
                left=(lh & 0x0F) * 3600 + lm * 60 + ls, right=(rh & 0x0F) * 3600 + rm * 60 + rs,
                left_running=bool(flags & 1), right_running=bool(flags & 2),
                paused=bool(flags & 4), switch_on_lever=bool(flags & 8),
            )
        case 0x0B:
            return ClockBeep(units=content[0])
    text = content[:-1].decode("ascii", errors="replace").rstrip(" ")
    return ClockText(text=text, beep=content[-1], long=sub == SUB_REV2_ASCII)


# ---------------------------------------------------------------- messages


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockTimes:
    """The clock's two times in seconds and its status, as the clock's front shows them."""

    left: int
    right: int
    running: bool = False
    right_lever_up: bool = False
    left_to_move: bool = False
    right_to_move: bool = False
    left_flag: bool = False
    right_flag: bool = False
    left_per_move: bool = False
    right_per_move: bool = False
    battery_low: bool = False
    connected: bool = True
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockAck:
    """The clock's answer to a sub-command, or a message it sent on its own (a1 >= 0x80)."""

    a0: int
    a1: int
    a2: int = 0
    a3: int = 0
    t: float = 0.0

    @property
    def error(self) -> bool:
        return self.a0 == ACK_ERROR

    @property
    def command(self) -> int | None:
        """The acknowledged sub-command, or None for a spontaneous ack."""
        return None if self.a1 & 0x80 else self.a1

    @property
    def version(self) -> tuple[int, int] | None:
        return (self.a2 >> 4, self.a2 & 0x0F) if self.a1 == SUB_VERSION else None

    @property
    def button(self) -> str | None:
        """Our name of the single DGT 3000 button reported pressed, if that is what this is."""
        if self.a1 != ACK_BUTTON or self.a3 not in BUTTON_CODES:
            return None
        name, bit = BUTTON_CODES[self.a3]
        others = self.a2 & _BUTTON_BITS & ~bit
        return None if others else name


def _bcd(value: int) -> int | None:
    tens, units = value >> 4, value & 0x0F
    return None if tens > 9 or units > 9 else tens * 10 + units


def _to_bcd(value: int) -> int:
    return (value // 10) << 4 | value % 10


def decode_bwtime(data: bytes, t: float = 0.0) -> ClockTimes | ClockAck | None:
    """Read BWTIME's 7 data bytes: an ack, times, or None for the all-zero filler."""
    if len(data) != 7:
        raise DgtError(f"a clock message carries 7 bytes, not {len(data)}")
    d0, d1, d2, d3, d4, d5, d6 = data
    if d0 & 0x0F == 0x0A or d3 & 0x0F == 0x0A:
        return ClockAck(
            a0=(d1 & 0x7F) | ((d3 << 3) & 0x80), a1=(d2 & 0x7F) | ((d3 << 2) & 0x80),
            a2=(d4 & 0x7F) | ((d0 << 3) & 0x80), a3=(d5 & 0x7F) | ((d0 << 2) & 0x80), t=t,
        )
    if not any(data):
        return None
    rm, rs, lm, ls = (_bcd(b) for b in (d1, d2, d4, d5))
    if rm is None or rs is None or lm is None or ls is None or max(d0 & 0x0F, d3 & 0x0F) > 9:
        raise DgtError(f"clock times that are not decimal: {data.hex(' ')}")
    return ClockTimes(
        right=(d0 & 0x0F) * 3600 + rm * 60 + rs, left=(d3 & 0x0F) * 3600 + lm * 60 + ls,
        right_flag=bool(d0 & 0x10), right_per_move=bool(d0 & 0x20),
        left_flag=bool(d3 & 0x10), left_per_move=bool(d3 & 0x20),
        running=bool(d6 & 0x01), right_lever_up=bool(d6 & 0x02), battery_low=bool(d6 & 0x04),
        right_to_move=bool(d6 & 0x08), left_to_move=bool(d6 & 0x10),
        connected=not d6 & 0x20, t=t,
    )


def _side_byte(seconds: int, flag: bool, per_move: bool) -> bytes:
    hours = min(seconds // 3600, 9)
    minutes, secs = (seconds // 60) % 60, seconds % 60
    return bytes((hours | flag << 4 | per_move << 5, _to_bcd(minutes), _to_bcd(secs)))


def encode_times(times: ClockTimes) -> bytes:
    """BWTIME's 7 data bytes for `times` (the emulator's side)."""
    status = (times.running | times.right_lever_up << 1 | times.battery_low << 2
              | times.right_to_move << 3 | times.left_to_move << 4 | (not times.connected) << 5)
    return (_side_byte(times.right, times.right_flag, times.right_per_move)
            + _side_byte(times.left, times.left_flag, times.left_per_move) + bytes((status,)))


def encode_ack(ack: ClockAck) -> bytes:
    """BWTIME's 7 data bytes for an ack, top bits folded into d0 and d3."""
    a0, a1, a2, a3 = (_byte(v, "an ack byte", 0xFF) for v in (ack.a0, ack.a1, ack.a2, ack.a3))
    d0 = 0x0A | (a2 & 0x80) >> 3 | (a3 & 0x80) >> 2
    d3 = (a0 & 0x80) >> 3 | (a1 & 0x80) >> 2
    return bytes((d0, a0 & 0x7F, a1 & 0x7F, d3, a2 & 0x7F, a3 & 0x7F, 0))
