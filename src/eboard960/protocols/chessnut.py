"""Chessnut Air / Air+ / Pro / Go over BLE: position frames with piece nibbles.

The board notifies on two characteristics (positions on `…8262`, replies on
`…8273`); both carry `<type> <length> <payload>` frames whose type bytes
never collide, so the codec reads them as one stream. A notification may be
cut in two (small MTU), so a cut frame waits for the rest, unless its first
payload bytes already cannot belong to it. A cut frame still waiting after
`stale_after` seconds when new bytes arrive was noise: the codec drops its
first byte and resyncs inside the bytes it held. A frame whose tail was lost
is completed falsely by the next frame's head; the codec tells that from a
true continuation by what follows the join (`_cut_head`) and drops the head.

The board reports only whole positions; `SnapshotDiffer` turns them into
lift/place events. The first frame after `RequestBoard` (sent at connect and
after every reconnect) is passed on whole as a `BoardSnapshot`.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import Any, Literal

import chess

from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.errors import ProtocolError
from eboard960.events import BoardSnapshot
from eboard960.protocols.stale import StaleBuffer
from eboard960.snapshots import SnapshotDiffer


class ChessnutError(ProtocolError):
    """A command the Chessnut protocol cannot express."""


# Piece nibbles 1..12; 0 is an empty square, 13..15 never appear.
NIBBLE_PIECES: dict[int, chess.Piece] = {
    nibble: chess.Piece.from_symbol(symbol) for nibble, symbol in enumerate("qkbpnRPrBNQK", start=1)
}
PIECE_NIBBLES: dict[chess.Piece, int] = {piece: n for n, piece in NIBBLE_PIECES.items()}

# Frame order of the 64 squares: h8, g8, ..., a8, h7, ..., a1.
FRAME_SQUARES: tuple[chess.Square, ...] = tuple(
    chess.square(7 - index % 8, 7 - index // 8) for index in range(64)
)

POSITION_TYPE = 0x01
POSITION_LENGTH = 0x24
POSITION_FRAME_SIZE = 2 + POSITION_LENGTH
MAX_FRAME_SIZE = 2 + 64
ENABLE_REPORTING = bytes([0x21, 0x01, 0x00])
UPLOAD_MODE = bytes([0x21, 0x01, 0x01])

BatteryLayout = Literal["official", "picochess"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ack:
    """`23 01 00` (command taken, also a heartbeat) or `23 01 01` (board not read)."""

    ok: bool
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Battery:
    """The battery reply `2A 02 b2 b3`, read according to the codec's `battery` setting."""

    percent: int
    charging: bool
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class ChessnutButton:
    """`0F 01 id`: a board button; the ids are not documented, so the raw id is kept."""

    button_id: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class FirmwareVersion:
    """Reply to `RequestFirmware`: `chip` is "ble" or "mcu"."""

    chip: str
    text: str
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredGames:
    """`32 01 n`: how many games the board holds in memory."""

    count: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class GameTransfer:
    """`37 01 BE` (a stored game starts) or `37 01 ED` (it ended)."""

    started: bool
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceName:
    """`2C n <ascii>`: the board's name."""

    name: str
    t: float = 0.0


# Protocol-specific commands (the common ones are in eboard960.commands).


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestBattery:
    """`29 01 00`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestFirmware:
    """`27 01 00` for the BLE chip, `27 01 01` for the main MCU."""

    chip: str = "ble"


@dataclass(frozen=True, slots=True, kw_only=True)
class Beep:
    """`0B 04 fHi fLo dHi dLo`: a tone, frequency in Hz and duration in ms."""

    frequency_hz: int = 1000
    duration_ms: int = 200


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestStoredGames:
    """`31 01 00`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestName:
    """`2B 01 00`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UploadMode:
    """`21 01 01`: stop live reporting and serve stored games."""


FIRMWARE_CHIPS = ("ble", "mcu")


def encode_position(pieces: dict[chess.Square, chess.Piece]) -> bytes:
    """The 32 position bytes: two squares per byte, the first in the low nibble."""
    nibbles = [PIECE_NIBBLES[pieces[sq]] if sq in pieces else 0 for sq in FRAME_SQUARES]
    return bytes(nibbles[i] | nibbles[i + 1] << 4 for i in range(0, 64, 2))


def decode_position(data: bytes) -> dict[chess.Square, chess.Piece] | None:
    """Pieces from 32 position bytes, or None when a nibble is not a piece code."""
    pieces: dict[chess.Square, chess.Piece] = {}
    for index, byte in enumerate(data):
        for half, nibble in enumerate((byte & 0x0F, byte >> 4)):
            if nibble > 12:
                return None
            if nibble:
                pieces[FRAME_SQUARES[2 * index + half]] = NIBBLE_PIECES[nibble]
    return pieces


def position_frame(pieces: dict[chess.Square, chess.Piece], uptime_s: int = 0) -> bytes:
    """A whole 38-byte frame; the tail is read as a 16-bit uptime then `00 00` (S8)."""
    tail = (uptime_s & 0xFFFF).to_bytes(2, "little") + b"\x00\x00"
    return bytes([POSITION_TYPE, POSITION_LENGTH]) + encode_position(pieces) + tail


def led_bytes(squares: frozenset[chess.Square]) -> bytes:
    """Eight bytes, rank 8 first; bit 7 is file a."""
    ranks = [0] * 8
    for square in squares:
        ranks[7 - chess.square_rank(square)] |= 0x80 >> chess.square_file(square)
    return bytes(ranks)


def leds_from_bytes(data: bytes) -> frozenset[chess.Square]:
    return frozenset(
        chess.square(file, 7 - index)
        for index, byte in enumerate(data)
        for file in range(8)
        if byte & (0x80 >> file)
    )


def battery_bytes(percent: int, charging: bool, layout: BatteryLayout = "official") -> bytes:
    """The battery reply as a board with the given reading of b2/b3 would send it."""
    if layout == "official":
        return bytes([0x2A, 0x02, (0x80 if charging else 0) | percent, 0x00])
    return bytes([0x2A, 0x02, percent, 1 if charging else 0])


# Payload length of each frame type the board sends; None for text replies (1..64).
FRAME_LENGTHS: dict[int, int | None] = {
    POSITION_TYPE: POSITION_LENGTH,
    0x23: 1,
    0x2A: 2,
    0x0F: 1,
    0x32: 1,
    0x37: 1,
    0x27: None,
    0x2C: None,
}


# The shortest text reply: the firmware version has a chip byte before its text, a name is only text.
TEXT_MIN_LENGTHS = {0x27: 2, 0x2C: 1}


def _expected_length(frame_type: int, length: int) -> bool:
    """Whether `length` is plausible for a frame of `frame_type` (guards resync)."""
    if frame_type not in FRAME_LENGTHS:
        return False
    fixed = FRAME_LENGTHS[frame_type]
    if fixed is not None:
        return length == fixed
    return TEXT_MIN_LENGTHS[frame_type] <= length <= MAX_FRAME_SIZE - 2


def _plausible_start(frame_type: int, payload: bytes) -> bool:
    """Whether the first bytes of a cut frame's payload can belong to a frame of that type."""
    if frame_type == POSITION_TYPE:
        return all(b & 0x0F <= 12 and b >> 4 <= 12 for b in payload[:32])
    if frame_type == 0x27:
        return payload[:1] in (b"", b"\x00", b"\x01") and _printable(payload[1:])
    if frame_type == 0x2C:
        return _printable(payload)
    return True


def _printable(data: bytes) -> bool:
    return all(0x20 <= byte < 0x7F for byte in data)


class ChessnutCodec(StaleBuffer):
    """Sans-IO codec for the Chessnut BLE protocol.

    Settings: `battery` chooses how the battery reply is read ("official": bit 7
    of b2 is the charging flag; "picochess": b2 is the percentage and b3 is 1
    while charging; the sources disagree); `stale_after` is how long, in
    seconds, a partial frame may wait for its continuation.
    """

    def __init__(self, *, battery: BatteryLayout = "official", stale_after: float = 0.5) -> None:
        if battery not in ("official", "picochess"):
            raise ChessnutError(f"unknown battery layout {reprlib.repr(battery)} (official or picochess)")
        super().__init__(stale_after=stale_after)
        self.battery = battery
        self._differ = SnapshotDiffer()
        self._cut_at: int | None = None  # where the bytes that came after a waiting cut frame begin

    def resync(self) -> None:
        """Pass the next position on whole (call after a reconnect)."""
        self._differ.reset()

    def _parse(self, t: float, events: list[Any], *, stale: bool) -> None:
        """Decode whole frames from the buffer; a cut frame waits, unless it is `stale`."""
        while self._buffer:
            size, reading = self._frame_at(0, t)
            if size is None and not stale:
                break
            head = self._cut_head(size, t) if size else 0
            if head:  # dropped whole: resyncing inside it would find false frames in its payload
                size = head
                self.discarded += head
            elif not size:
                size = 1
                self.discarded += 1
            elif isinstance(reading, BoardSnapshot):
                events.extend(self._differ.diff(reading))
            else:
                events.append(reading)
            del self._buffer[:size]
            self._since = t
            if self._cut_at is not None:
                self._cut_at = self._cut_at - size if self._cut_at > size else None
        if self._buffer and self._cut_at is None:
            self._cut_at = len(self._buffer)  # the next bytes to arrive go here

    def _frame_at(self, at: int, t: float) -> tuple[int | None, Any]:
        """The frame at `at` in the buffer and what it says; its size is 0 if it is garbage, None if cut."""
        buf = self._buffer
        if len(buf) - at < 2:
            return (None if buf[at] in FRAME_LENGTHS else 0), None
        frame_type, length = buf[at], buf[at + 1]
        if not _expected_length(frame_type, length):
            return 0, None
        payload = bytes(buf[at + 2 : at + 2 + length])
        if len(payload) < length:
            return (None if _plausible_start(frame_type, payload) else 0), None
        reading = self._read(frame_type, payload, t)
        return (0 if reading is None else 2 + length), reading

    def _cut_head(self, size: int, t: float) -> int:
        """The length of a cut frame's head that the whole frame at the buffer's start joins falsely, or 0.

        The board repeats its position every 200 ms, sooner than `stale_after`, so
        a frame that lost its tail would be completed by the next frame's head. A
        true continuation is followed by whole frames (the last perhaps still
        cut); a false join leaves the rest of the next frame behind it, which reads
        as garbage (or, by chance, as the head of a frame) while the bytes that
        came after the cut read as frames (whole ones, in the second case).
        """
        cut_at = self._cut_at
        if cut_at is None or cut_at >= size:
            return 0
        after_join, after_cut = self._leftover(size, t), self._leftover(cut_at, t)
        if after_cut is None:
            return 0
        joined_falsely = after_join is None or (after_join > 0 and after_cut == 0)
        return cut_at if joined_falsely else 0

    def _leftover(self, at: int, t: float) -> int | None:
        """The buffer from `at` on read as frames: the bytes of a cut last one left over, None at garbage."""
        while at < len(self._buffer):
            size = self._frame_at(at, t)[0]
            if size is None:
                return len(self._buffer) - at
            if not size:
                return None
            at += size
        return 0

    def _read(self, frame_type: int, payload: bytes, t: float) -> Any:
        """What a complete frame says (a position as a whole snapshot); None when it is not valid."""
        if frame_type == POSITION_TYPE:
            pieces = decode_position(payload[:32])
            return None if pieces is None else BoardSnapshot.from_pieces(pieces, t)
        return self._reply(frame_type, payload, t)

    def _reply(self, frame_type: int, payload: bytes, t: float) -> Any:
        """The event of a reply frame (not a position), or None when it is not valid."""
        value = payload[0]
        if frame_type == 0x23:
            return Ack(ok=value == 0, t=t) if value in (0, 1) else None
        if frame_type == 0x2A:
            return self._battery(payload, t)
        if frame_type == 0x0F:
            return ChessnutButton(button_id=value, t=t)
        if frame_type == 0x32:
            return StoredGames(count=value, t=t)
        if frame_type == 0x37:
            return GameTransfer(started=value == 0xBE, t=t) if value in (0xBE, 0xED) else None
        if frame_type == 0x2C:
            return DeviceName(name=payload.decode("ascii"), t=t) if _printable(payload) else None
        # 0x27: firmware text after a chip byte.
        chip, text = payload[0], payload[1:]
        if chip > 1 or not _printable(text):
            return None
        return FirmwareVersion(chip=FIRMWARE_CHIPS[chip], text=text.decode("ascii"), t=t)

    def _battery(self, payload: bytes, t: float) -> Battery | None:
        b2, b3 = payload
        if self.battery == "official":
            percent, charging = b2 & 0x7F, bool(b2 & 0x80)
        else:
            percent, charging = b2, b3 == 1
        if percent > 100:
            return None
        return Battery(percent=percent, charging=charging, t=t)

    def send(self, command: Any) -> bytes:
        if isinstance(command, RequestBoard):
            # The board has no "dump" command: enabling reporting makes it send the position.
            self._differ.reset()
            return ENABLE_REPORTING
        if isinstance(command, EnableUpdates):
            return ENABLE_REPORTING
        if isinstance(command, SetLeds):
            if any(not 0 <= square < 64 for square in command.squares):
                raise ChessnutError(f"LED squares must be 0..63, got {sorted(command.squares)}")
            return bytes([0x0A, 0x08]) + led_bytes(command.squares)
        if isinstance(command, RequestBattery):
            return bytes([0x29, 0x01, 0x00])
        if isinstance(command, RequestFirmware):
            if command.chip not in FIRMWARE_CHIPS:
                raise ChessnutError(f"firmware chip must be 'ble' or 'mcu', not {command.chip!r}")
            return bytes([0x27, 0x01, FIRMWARE_CHIPS.index(command.chip)])
        if isinstance(command, Beep):
            if not (0 < command.frequency_hz <= 0xFFFF and 0 < command.duration_ms <= 0xFFFF):
                raise ChessnutError("beep frequency and duration must be 1..65535")
            return (
                bytes([0x0B, 0x04])
                + command.frequency_hz.to_bytes(2, "big")
                + command.duration_ms.to_bytes(2, "big")
            )
        if isinstance(command, RequestStoredGames):
            return bytes([0x31, 0x01, 0x00])
        if isinstance(command, RequestName):
            return bytes([0x2B, 0x01, 0x00])
        if isinstance(command, UploadMode):
            return UPLOAD_MODE
        raise ChessnutError(f"the Chessnut protocol has no command {type(command).__name__}")
