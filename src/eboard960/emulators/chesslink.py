"""A deterministic model of Millennium ChessLink firmware, for tests and demos.

The model holds the physical board (pieces on sensors, 81 LEDs, EEPROM
registers) and plays the board's side of the wire:

* `feed(host_bytes) -> bytes` answers every complete, valid command at once,
  as the firmware does: `V` version, `S` status, `L`/`X` LEDs, `W`/`R`
  registers, `T` reset (no reply; deaf for 3 s, LEDs cleared). Frames with a
  bad parity bit or check value are ignored, like on the real board.
* Scenario calls (`lift`, `place`, `apply`, `play_move`) change the pieces and
  return what the board says about it: they run sensor scans, and each scan
  sends a status or not according to the auto-report register (every scan,
  off, timed, on change, or on change after 2..5 stable scans).
* `advance(seconds)` lets time pass (scans at the scan-time register's pace),
  which matters for the every-scan and timed modes and for the reset.

The board keeps quiet until the host has sent its first valid command (and
again after a reset): pyserial flushes its input when it opens a port, so
anything said earlier would be lost anyway.

Every call returns plain bytes and nothing here does I/O, so the same model
runs in memory, behind a pseudo-terminal and behind a Bumble GATT server.
Seeded `Faults` spoil the board's output the way a poor link does.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

import chess

from eboard960.emulators.hand import HandMoves, ScenarioError, start_board
from eboard960.protocols.chesslink import (
    HOST_FRAMES,
    INTERVAL_UNIT_S,
    LED_COUNT,
    REG_AUTO_REPORT,
    REG_BRIGHTNESS,
    REG_CHECK_OFF,
    REG_REPORT_INTERVAL,
    REG_SCAN_TIME,
    SCAN_UNIT_S,
    AutoReport,
    FrameReader,
    SquareOrder,
    encode_frame,
    square_leds,
    status_text,
)

RESET_S = 3.0
DEFAULT_SCAN_TIME = 20
MIN_SCAN_TIME = 15
STABLE_SCANS = {
    AutoReport.STABLE_2: 2,
    AutoReport.STABLE_3: 3,
    AutoReport.STABLE_4: 4,
    AutoReport.STABLE_5: 5,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Faults:
    """Probabilities, per frame the board sends, of a bad link's habits.

    `garbage`: junk bytes before the frame; `split`: the frame's tail is held
    back and goes out with the board's next output; `drop`: an auto-reported
    status is lost whole; `cut`: an auto-reported status loses its tail;
    `bounce`: a placed piece's sensor flickers off for one scan. Replies to
    commands are never dropped or cut, so a host can always identify the board.
    """

    garbage: float = 0.0
    split: float = 0.0
    drop: float = 0.0
    cut: float = 0.0
    bounce: float = 0.0
    seed: int = 0


class ChessLinkFirmware(HandMoves):
    """One emulated ChessLink board: pieces, LEDs, registers, and the firmware's answers."""

    def __init__(
        self,
        start: chess.BaseBoard | int = 518,
        *,
        version: tuple[int, int] = (1, 0),
        order: SquareOrder = "h1-first",
        faults: Faults | None = None,
        wait_for_host: bool = True,
    ) -> None:
        self.pieces = start_board(start).piece_map()
        if len(version) != 2 or not all(0 <= part <= 0xFF for part in version):
            raise ScenarioError(f"a ChessLink version is two bytes 0..255, not {version!r}")
        self.version = version
        self.order = order
        self.faults = faults or Faults()
        self.leds: tuple[int, ...] = (0,) * LED_COUNT
        self.led_slot_time = 0
        self.registers = bytearray(256)
        self.registers[REG_SCAN_TIME] = DEFAULT_SCAN_TIME
        self.registers[REG_AUTO_REPORT] = AutoReport.EVERY_SCAN
        self.registers[REG_REPORT_INTERVAL] = 244  # about one second
        self.registers[REG_BRIGHTNESS] = 15
        self.now = 0.0
        self.commands_seen: list[str] = []
        self._wait_for_host = wait_for_host
        self._spoken_to = not wait_for_host
        self._deaf_until = 0.0
        self._reader = FrameReader(HOST_FRAMES, strict_parity=True)
        self._rng = random.Random(self.faults.seed)
        self._hand: list[chess.Piece] = []
        self._held = b""
        self._reported: str | None = None
        self._previous_scan: str | None = None
        self._stable = 0
        self._last_report_at = 0.0
        self._next_scan = self.scan_period

    # --- registers ---------------------------------------------------------------------------

    @property
    def auto_report(self) -> AutoReport:
        return AutoReport(self.registers[REG_AUTO_REPORT] & 0b111)

    @property
    def scan_period(self) -> float:
        return self.registers[REG_SCAN_TIME] * SCAN_UNIT_S

    def board(self) -> chess.BaseBoard:
        """The pieces standing on the board now."""
        board = chess.BaseBoard(None)
        board.set_piece_map(self.pieces)
        return board

    def lit_squares(self) -> frozenset[chess.Square]:
        """Squares whose four corner LEDs are all doing something (lit neighbours can light one)."""
        return frozenset(
            square
            for square in chess.SQUARES
            if all(self.leds[led] for led in square_leds(square, self.order))
        )

    # --- host side ---------------------------------------------------------------------------

    def feed(self, data: bytes) -> bytes:
        """Take the host's bytes; return the board's immediate answers."""
        if self.now < self._deaf_until:
            return b""
        self._reader.verify_check = not self.registers[REG_CHECK_OFF] & 1
        out = b""
        for letter, text in self._reader.feed(data):
            self._spoken_to = True
            self.commands_seen.append(letter)
            out += self._answer(letter, text)
            if self.now < self._deaf_until:
                self._reader.clear()
                break
        return out

    def _answer(self, letter: str, text: str) -> bytes:
        if letter == "V":
            major, minor = self.version
            return self._emit(encode_frame("v", f"{major:02X}{minor:02X}"))
        if letter == "S":
            return self._emit(encode_frame("s", self.status()))
        if letter == "L":
            self.led_slot_time = int(text[:2], 16)
            self.leds = tuple(int(text[i : i + 2], 16) for i in range(2, len(text), 2))
            return self._emit(encode_frame("l"))
        if letter == "X":
            self.leds = (0,) * LED_COUNT
            return self._emit(encode_frame("x"))
        if letter == "T":
            self._restart()
            return b""
        address = int(text[:2], 16)
        if letter == "W":
            self._write_register(address, int(text[2:], 16))
        value = self.registers[address]
        return self._emit(encode_frame(letter.lower(), f"{address:02X}{value:02X}"))

    def _write_register(self, address: int, value: int) -> None:
        if address == REG_SCAN_TIME and value < MIN_SCAN_TIME:
            value = DEFAULT_SCAN_TIME
        self.registers[address] = value
        if address in (REG_AUTO_REPORT, REG_REPORT_INTERVAL):
            self._reported = None
            self._last_report_at = self.now

    def _restart(self) -> None:
        """Hardware reset: the EEPROM survives, the rest starts over about 3 s later."""
        self._deaf_until = self.now + RESET_S
        self.leds = (0,) * LED_COUNT
        self._held = b""
        self._reported = None
        self._previous_scan = None
        self._stable = 0
        self._spoken_to = not self._wait_for_host

    # --- scanning and auto-reports -----------------------------------------------------------

    def status(self) -> str:
        """The 64 status characters the sensors give right now."""
        return status_text(self.pieces, self.order)

    def advance(self, seconds: float) -> bytes:
        """Let `seconds` pass: scans at the register's pace, with their auto-reports."""
        return self.tick(self.now + seconds)

    def tick(self, now: float) -> bytes:
        """Run every scan (and timed report) due up to `now` (model time in seconds)."""
        out = b""
        self._next_scan = max(self._next_scan, self.now)
        while True:
            next_report = self._next_timed_report()
            due = min(self._next_scan, next_report)
            if due > now:
                break
            self.now = due
            if due == self._next_scan:
                out += self._scan()
                self._next_scan = due + self.scan_period
            else:
                self._last_report_at = due
                out += self._report(self.status())
        self.now = max(self.now, now)
        return out

    def _next_timed_report(self) -> float:
        if self.auto_report != AutoReport.TIMED:
            return float("inf")
        interval = max(self.registers[REG_REPORT_INTERVAL], 1) * INTERVAL_UNIT_S
        return self._last_report_at + interval

    def _scan(self) -> bytes:
        reading = self.status()
        self._stable = self._stable + 1 if reading == self._previous_scan else 1
        self._previous_scan = reading
        return self._report(reading) if self._due(reading) else b""

    def _report(self, reading: str) -> bytes:
        if self.now < self._deaf_until or not self._spoken_to:
            return b""
        self._reported = reading
        return self._emit(encode_frame("s", reading), spontaneous=True)

    def _due(self, reading: str) -> bool:
        """Whether this scan's reading is sent (the timed mode has a timer of its own)."""
        mode = self.auto_report
        if mode == AutoReport.EVERY_SCAN:
            return True
        if mode in (AutoReport.OFF, AutoReport.TIMED) or reading == self._reported:
            return False
        return mode == AutoReport.ON_CHANGE or self._stable >= STABLE_SCANS[mode]

    def _scans_to_settle(self) -> int:
        return STABLE_SCANS.get(self.auto_report, 1)

    def _sense(self, states: Iterable[dict[chess.Square, chess.Piece]]) -> bytes:
        """Show the sensors each state for one scan, then hold the last until it is reported."""
        out = b""
        for state in states:
            self.pieces = state
            out += self.advance(self.scan_period)
        for _ in range(self._scans_to_settle() - 1):
            out += self.advance(self.scan_period)
        return out

    # --- scenario ----------------------------------------------------------------------------

    def lift(self, square: chess.Square) -> bytes:
        """A hand takes the piece on `square`."""
        if square not in self.pieces:
            raise ScenarioError(f"nothing to lift on {chess.square_name(square)}")
        after = dict(self.pieces)
        self._hand.append(after.pop(square))
        return self._sense([after])

    def place(self, square: chess.Square, piece: chess.Piece | None = None) -> bytes:
        """A hand puts `piece` (default: one it holds, see `_from_hand`) on `square`."""
        if square in self.pieces:
            raise ScenarioError(f"{chess.square_name(square)} is already occupied")
        if piece is None:
            piece = self._from_hand(square)
        elif piece in self._hand:
            self._hand.remove(piece)
        after = {**self.pieces, square: piece}
        if self._rng.random() < self.faults.bounce:
            return self._sense([after, self.pieces, after])
        return self._sense([after])

    def _from_hand(self, square: chess.Square) -> chess.Piece:
        """The piece lifted last, except while castling with king and rook both in hand.

        Then the target file tells them apart: a castling king always lands on
        the c or g file and its rook on the d or f file, in every Chess960
        position, so any castling order of the choreography puts the right
        piece down.
        """
        if not self._hand:
            raise ScenarioError("no piece in hand to place")
        pair = self._hand[-2:]
        if {p.piece_type for p in pair} == {chess.KING, chess.ROOK} and pair[0].color == pair[1].color:
            file = chess.square_file(square)
            wanted = chess.KING if file in (2, 6) else chess.ROOK if file in (3, 5) else None
            for index in range(len(self._hand) - 1, len(self._hand) - 3, -1):
                if self._hand[index].piece_type == wanted:
                    return self._hand.pop(index)
        return self._hand.pop()

    def flush(self) -> bytes:
        """Whatever a split frame still holds back."""
        out, self._held = self._held, b""
        return out

    # --- faults ------------------------------------------------------------------------------

    def _emit(self, frame: bytes, *, spontaneous: bool = False) -> bytes:
        faults, rng = self.faults, self._rng
        out, self._held = self._held, b""
        if spontaneous and rng.random() < faults.drop:
            return out
        if spontaneous and rng.random() < faults.cut:
            frame = frame[: rng.randrange(1, len(frame))]
        if rng.random() < faults.garbage:
            out += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
        if rng.random() < faults.split and len(frame) > 1:
            cut = rng.randrange(1, len(frame))
            frame, self._held = frame[:cut], frame[cut:]
        return out + frame
