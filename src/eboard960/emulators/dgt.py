"""A deterministic model of DGT e-board firmware, with a DGT 3000 or DGT XL clock behind it.

The model holds the physical board (64 piece codes, LEDs, the move log) and
plays the board's side of the wire, in the interface of
`eboard960.emulators.pty`:

* `feed(host_bytes) -> bytes` answers every command at once, as the
  firmware does: board dump, identity, battery, move log, update modes,
  LEDs, and clock sub-commands passed on to the clock (whose acks go out only
  in the two update modes that include the clock, like on the real board).
* Scenario calls (`lift`, `place`, `press`, `play_move`, `play_game`) change
  the pieces or press the clock and return what the board says about it:
  one field update per square change, but only once the host has enabled
  updates; a lever press sends fresh times, a DGT 3000 button an ack.
* `tick(now)` lets model time pass: the clock counts down, and the board
  sends times every second (update mode) or when they change (update-nice).

The board says nothing until the host has spoken (pyserial flushes its
input when it opens a port), never sends a DGT trade-mark string (the
trademark request gets a neutral text saying this is an emulator), and
ignores the boot-loader command. Seeded `Faults` spoil the output the way a
poor link does; replies to requests are never dropped or cut.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess

from eboard960.commands import RequestBoard
from eboard960.emulators.hand import HandMoves, ScenarioError, start_board
from eboard960.events import BUTTONS
from eboard960.protocols.dgt import (
    Battery,
    BusAddress,
    DgtCommandDecoder,
    EeMoves,
    HardwareVersion,
    LedRange,
    LongSerialNumber,
    RequestBattery,
    RequestBusAddress,
    RequestClockTimes,
    RequestEeMoves,
    RequestHardwareVersion,
    RequestLongSerialNumber,
    RequestSerialNumber,
    RequestTrademark,
    RequestVersion,
    Reset,
    SerialNumber,
    SetUpdateMode,
    Trademark,
    UpdateMode,
    Version,
    encode_dump,
    encode_field_update,
    encode_message,
    field_of,
    piece_code,
)
from eboard960.protocols.dgt_clock import (
    ACK_BUTTON,
    ACK_OK,
    BUTTON_BY_NAME,
    BUTTON_CODES,
    ClockAck,
    ClockBeep,
    ClockButtonRequest,
    ClockEnd,
    ClockIcons,
    ClockSegments,
    ClockSetAndRun,
    ClockText,
    ClockTimes,
    ClockVersionRequest,
)

TRADEMARK_TEXT = "eboard960 firmware emulator; not a product of any board maker"
LOG_SIZE = 0x1F00
_CLOCK_MODES = (UpdateMode.CLOCK, UpdateMode.NICE)


@dataclass(frozen=True, slots=True, kw_only=True)
class Faults:
    """Probabilities, per message the board sends on its own, of a bad link's habits.

    `garbage`: junk bytes (never a well-formed header) before the message;
    `split`: the message's tail is held back until the board's next output;
    `drop`: the message is lost; `cut`: it loses its tail (the next message
    then starts mid-air); `bounce`: a square's sensor flickers once.
    """

    garbage: float = 0.0
    split: float = 0.0
    drop: float = 0.0
    cut: float = 0.0
    bounce: float = 0.0
    seed: int = 0


class ClockModel:
    """A DGT 3000 (`kind="3000"`) or DGT XL (`kind="xl"`) seen from its front: left and right."""

    def __init__(self, kind: str = "3000", *, white_side: str = "left") -> None:
        if kind not in ("3000", "xl"):
            raise ScenarioError(f"the emulated clock is a '3000' or an 'xl', not {kind!r}")
        if white_side not in ("left", "right"):
            raise ScenarioError(f"white sits at the 'left' or 'right', not {white_side!r}")
        self.kind = kind
        self.white_side = white_side
        self.left = self.right = 300.0
        self.left_running = self.right_running = False
        self.paused = True
        self.right_lever_up = white_side == "right"  # set up for a game: up on White's side, White to press
        self.display: str | None = None
        self.beeps: list[int] = []

    @property
    def version(self) -> tuple[int, int]:
        return (2, 0) if self.kind == "3000" else (1, 0)

    def times(self) -> ClockTimes:
        counting = not self.paused
        return ClockTimes(
            left=int(self.left), right=int(self.right),
            running=counting and (self.left_running or self.right_running),
            right_lever_up=self.right_lever_up,
            left_to_move=self.left_running, right_to_move=self.right_running,
            left_flag=self.left <= 0, right_flag=self.right <= 0,
        )

    def advance(self, seconds: float) -> None:
        if self.paused:
            return
        if self.left_running:
            self.left = max(0.0, self.left - seconds)
        if self.right_running:
            self.right = max(0.0, self.right - seconds)

    def lever(self, player: str) -> None:
        """`player` presses his side down: the lever rises on the other side; the other runs."""
        side = self.white_side if player == "white" else _other(self.white_side)
        self.right_lever_up = side == "left"
        if self.left_running or self.right_running:
            self.left_running, self.right_running = side == "right", side == "left"

    def command(self, command: object) -> ClockAck | None:
        """Carry out a clock sub-command; the ack the clock sends back (None for none)."""
        match command:
            case ClockText():
                if self.kind != "3000":
                    return None
                self.display = command.text
                sub = 0x01
            case ClockSegments():
                self.display = command.text()
                sub = 0x01
            case ClockIcons():
                sub = 0x02
            case ClockEnd():
                self.display = None
                sub = 0x03
            case ClockButtonRequest():
                sub = 0x08
            case ClockVersionRequest():
                major, minor = self.version
                return ClockAck(a0=ACK_OK, a1=0x09, a2=major << 4 | minor)
            case ClockSetAndRun():
                self.left, self.right = float(command.left), float(command.right)
                self.left_running, self.right_running = command.left_running, command.right_running
                self.paused = command.paused
                sub = 0x0A
            case ClockBeep(units=units):
                self.beeps.append(units)
                sub = 0x0B
            case _:
                return None
        return ClockAck(a0=ACK_OK, a1=sub)


def _other(side: str) -> str:
    return "right" if side == "left" else "left"


def _start_codes(start: chess.BaseBoard | int) -> list[int]:
    codes = [0] * 64
    for square, piece in start_board(start).piece_map().items():
        codes[field_of(square)] = piece_code(piece)
    return codes


class DgtFirmware(HandMoves):
    """One emulated DGT board: pieces, LEDs, move log, an optional clock, the firmware's answers."""

    def __init__(
        self,
        start: chess.BaseBoard | int = 518,
        *,
        clock: ClockModel | None = None,
        serial_number: str = "00960",
        version: tuple[int, int] = (1, 7),
        faults: Faults | None = None,
        wait_for_host: bool = True,
    ) -> None:
        self.codes = _start_codes(start)
        self.clock = clock
        self.serial_number = serial_number
        self.version = version
        self.faults = faults or Faults()
        self.mode: UpdateMode | None = None
        self.leds: set[int] = set()
        self.now = 0.0
        self.commands_seen: list[object] = []
        self._spoken_to = not wait_for_host
        self._decoder = DgtCommandDecoder()
        self._rng = random.Random(self.faults.seed)
        self._hand: list[tuple[chess.Square, int]] = []
        self._held = b""
        self._last_times: ClockTimes | None = None
        self._last_tick_second = 0
        self._log = bytearray(b"\x7f\x7f\x7f\x6a")
        for field, code in enumerate(self.codes):
            if code:
                self._log_change(field, code)

    # --- the physical board ------------------------------------------------------------------

    def piece_at(self, square: chess.Square) -> chess.Piece | None:
        code = self.codes[field_of(square)]
        return chess.Piece.from_symbol("PRNBKQprnbkq"[code - 1]) if 1 <= code <= 12 else None

    def board(self) -> chess.BaseBoard:
        """The pieces standing on the board now."""
        board = chess.BaseBoard(None)
        for square in chess.SQUARES:
            piece = self.piece_at(square)
            if piece:
                board.set_piece_at(square, piece)
        return board

    def lit_squares(self) -> frozenset[chess.Square]:
        return frozenset(sq for sq in chess.SQUARES if field_of(sq) in self.leds)

    # --- host side ---------------------------------------------------------------------------

    def feed(self, data: bytes) -> bytes:
        """Take the host's bytes; return the board's immediate answers."""
        out = b""
        for command in self._decoder.receive_data(data):
            self._spoken_to = True
            self.commands_seen.append(command)
            out += self._answer(command)
        return out

    def _answer(self, command: object) -> bytes:
        match command:
            case Reset():
                self.mode = None
            case SetUpdateMode(mode=mode):
                self.mode = mode
            case RequestBoard():
                return encode_dump(self.codes)
            case RequestClockTimes():
                times = self.clock.times() if self.clock else ClockTimes(
                    left=0, right=0, connected=False)
                return encode_message(times)
            case RequestSerialNumber():
                return encode_message(SerialNumber(text=self.serial_number))
            case RequestLongSerialNumber():
                return encode_message(LongSerialNumber(text=self.serial_number.rjust(10, "0")))
            case RequestBusAddress():
                return encode_message(BusAddress(address=int(self.serial_number) & 0x3FFF))
            case RequestTrademark():
                return encode_message(Trademark(text=TRADEMARK_TEXT))
            case RequestVersion():
                return encode_message(Version(major=self.version[0], minor=self.version[1]))
            case RequestHardwareVersion():
                return encode_message(HardwareVersion(major=1, minor=0))
            case RequestBattery():
                return encode_message(Battery(percent=100, time_left=None))
            case RequestEeMoves():
                return encode_message(EeMoves(data=bytes(self._log) + b"\x6b"))
            case LedRange(pattern=pattern, start=start, end=end):
                self._leds(pattern, start, end)
            case _ if self.clock is not None:
                ack = self.clock.command(command)
                if ack is not None and self.mode in _CLOCK_MODES:
                    return encode_message(ack)
        return b""

    def _leds(self, pattern: int, start: int, end: int) -> None:
        if pattern > 1:
            return  # settings of the Revelation II's LED behaviour: nothing to model
        fields = set(range(64)) if start >= 64 else {start, end} & set(range(64))
        if pattern:
            self.leds |= fields
        else:
            self.leds -= fields

    # --- time ---------------------------------------------------------------------------------

    def advance(self, seconds: float) -> bytes:
        return self.tick(self.now + seconds)

    def tick(self, now: float) -> bytes:
        """Let model time reach `now`: the clock runs; times go out as the mode asks."""
        if now <= self.now:
            return b""
        if self.clock:
            self.clock.advance(now - self.now)
        self.now = now
        if not self.clock or self.mode not in _CLOCK_MODES:
            return b""
        second = int(now)
        if self.mode == UpdateMode.CLOCK and second != self._last_tick_second:
            self._last_tick_second = second
            return self._times(self.clock, force=True)
        return self._times(self.clock, force=False)

    def _times(self, clock: ClockModel, *, force: bool) -> bytes:
        times = clock.times()
        if not force and times == self._last_times:
            return b""
        self._last_times = times
        return self._emit(encode_message(times))

    # --- scenario ----------------------------------------------------------------------------

    def lift(self, square: chess.Square) -> bytes:
        """A hand takes the piece on `square`."""
        field = field_of(square)
        if not self.codes[field]:
            raise ScenarioError(f"nothing to lift on {chess.square_name(square)}")
        self._hand.append((square, self.codes[field]))
        if self._rng.random() < self.faults.bounce:
            return self._sense(field, [0, self.codes[field], 0])
        return self._sense(field, [0])

    def place(self, square: chess.Square, piece: chess.Piece | None = None) -> bytes:
        """A hand puts `piece` (default: the piece lifted from there, else the last lifted) down."""
        field = field_of(square)
        if self.codes[field]:
            raise ScenarioError(f"{chess.square_name(square)} is already occupied")
        code = self._take_from_hand(square, piece)
        if self._rng.random() < self.faults.bounce:
            return self._sense(field, [code, 0, code])
        return self._sense(field, [code])

    def _take_from_hand(self, square: chess.Square, piece: chess.Piece | None) -> int:
        if piece is not None:
            code = piece_code(piece)
            for held in self._hand:
                if held[1] == code:
                    self._hand.remove(held)
                    break
            return code
        if not self._hand:
            raise ScenarioError("no piece in hand to place")
        for held in self._hand:
            if held[0] == square:
                self._hand.remove(held)
                return held[1]
        return self._hand.pop()[1]

    def press(self, button: str) -> bytes:
        """Press the clock: "white"/"black" move the lever; back/minus/pause/plus/confirm."""
        if button not in BUTTONS:
            raise ScenarioError(f"no button called {button!r}")
        if self.clock is None:
            raise ScenarioError("this emulated board has no clock to press")
        if button in ("white", "black"):
            self.clock.lever(button)
            self._log_clock(self.clock, pressed_left=self.clock.right_lever_up)
            if self.mode not in _CLOCK_MODES:
                return b""
            return self._times(self.clock, force=True)
        if button not in BUTTON_BY_NAME:
            raise ScenarioError(f"a DGT clock has no {button!r} button")
        if self.clock.kind != "3000" or self.mode not in _CLOCK_MODES:
            return b""
        code = BUTTON_BY_NAME[button]
        mask = 0x01 | BUTTON_CODES[code][1]
        return self._emit(encode_message(ClockAck(a0=ACK_OK, a1=ACK_BUTTON, a2=mask, a3=code)))

    def flush(self) -> bytes:
        """Whatever a split message still holds back."""
        out, self._held = self._held, b""
        return out

    # --- output -------------------------------------------------------------------------------

    def _sense(self, field: int, codes: list[int]) -> bytes:
        out = b""
        for code in codes:
            self.codes[field] = code
            self._log_change(field, code)
            if self.mode is not None and self._spoken_to:
                out += self._emit(encode_field_update(field, code))
        return out

    def _log_change(self, field: int, code: int) -> None:
        self._append_log(bytes((0x40 | code, field)))

    def _log_clock(self, clock: ClockModel, *, pressed_left: bool) -> None:
        """The pressing side's time, as the log keeps it: hours, then BCD minutes and seconds."""
        seconds = int(clock.left if pressed_left else clock.right)
        minutes, secs = seconds // 60 % 60, seconds % 60
        self._append_log(bytes((0x60 | pressed_left << 4 | min(seconds // 3600, 9),
                                (minutes // 10) << 4 | minutes % 10, (secs // 10) << 4 | secs % 10)))

    def _append_log(self, record: bytes) -> None:
        self._log += record
        del self._log[: max(0, len(self._log) + 1 - LOG_SIZE)]

    def _emit(self, message: bytes) -> bytes:
        faults, rng = self.faults, self._rng
        out, self._held = self._held, b""
        if rng.random() < faults.drop:
            return out
        if rng.random() < faults.cut:
            message = message[: rng.randrange(1, len(message))]
        elif rng.random() < faults.garbage:
            out += _garbage(rng)
        if rng.random() < faults.split and len(message) > 1:
            cut = rng.randrange(1, len(message))
            message, self._held = message[:cut], message[cut:]
        return out + message


def _garbage(rng: random.Random) -> bytes:
    """Junk that can never pass for a message header: every high byte is followed by another."""
    junk = bytearray(rng.randrange(0x80) for _ in range(rng.randrange(1, 8)))
    if rng.random() < 0.5:
        junk += bytes(0x80 | rng.randrange(0x80) for _ in range(rng.randrange(1, 3)))
    return bytes(junk)
